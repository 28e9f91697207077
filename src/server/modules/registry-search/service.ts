import { sql, type Expression, type SqlBool } from 'kysely';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  REGISTRY_SEARCH_LIMIT,
  REGISTRY_SEARCH_MIN_LENGTH,
  type RegistrySearchEntry,
  type RegistrySearchResponse,
} from '../../../shared/schemas/registry-search.ts';
import { engineOf, type Db } from '../../db/connection.ts';
import type { AppDeps } from '../../deps.ts';
import { notFound } from '../../lib/errors.ts';
import { calendarOf, isDraft } from '../../lib/event-calendar.ts';
import { registrySearchText } from '../../lib/registry-search-text.ts';

/**
 * "Buscar en el padrón" (issue 27): what was typed, read as the registry's `search_text` is
 * written. `words` are the typed words folded (a name matches when each is the start of one of
 * its words); `digits` is the typed text as a fiscal id when it is one (digits and the dashes,
 * dots and spaces people paste), matched as the id's prefix.
 */
export interface RegistryTerms {
  words: string[];
  digits: string;
}

export function registryTerms(typed: string): RegistryTerms | null {
  const query = typed.trim();
  if (query.length < REGISTRY_SEARCH_MIN_LENGTH) return null;
  const words = registrySearchText(query, '')
    .split(' ')
    .filter((word) => word !== '');
  const digits = /^[\d\s\-./]+$/.test(query) ? query.replace(/\D/g, '') : '';
  return words.length === 0 && digits === '' ? null : { words, digits };
}

/** Whether a name and company name (and fiscal id) match the terms, as the SQL below does. */
export function matchesTerms(
  terms: RegistryTerms,
  entry: { name: string; registeredName: string; fiscalId: string },
): boolean {
  if (terms.digits !== '' && entry.fiscalId.startsWith(terms.digits)) return true;
  const text = registrySearchText(entry.name, entry.registeredName);
  return terms.words.length > 0 && terms.words.every((word) => text.includes(` ${word}`));
}

const entryColumns = [
  'fiscal_id',
  'name',
  'registered_name',
  'location',
  'city',
  'contact_name',
  'contact_position',
  'phone',
  'email',
] as const;

type EntryRow = Record<(typeof entryColumns)[number], string>;

const toEntry = (row: EntryRow): RegistrySearchEntry => ({
  fiscalId: row.fiscal_id,
  name: row.name,
  registeredName: row.registered_name,
  location: row.location,
  city: row.city,
  contactName: row.contact_name,
  contactPosition: row.contact_position,
  phone: row.phone,
  email: row.email,
});

/**
 * Up to `limit` registry entries matching the terms, best first: the exact fiscal id, then names
 * that begin with what was typed, then names with it at the start of a later word, then the
 * other matches (each typed word somewhere, or the id's prefix); ties by folded name, then id.
 * A word's start is found as the position of ` word` in `search_text` (`instr` on SQLite,
 * `strpos` on PostgreSQL): a plain substring search, several times cheaper than LIKE's pattern
 * matching, and nothing the user types is read as a pattern. A 20,000-entry registry is scanned
 * in a few milliseconds (`npm run bench`), so no index of words is kept (decision 0030).
 */
export async function searchRegistry(
  db: Db,
  terms: RegistryTerms,
  excluded: readonly string[] = [],
  limit = REGISTRY_SEARCH_LIMIT,
): Promise<RegistrySearchEntry[]> {
  const find = engineOf(db) === 'postgres' ? sql.raw('strpos') : sql.raw('instr');
  const at = (column: 'search_text' | 'fiscal_id', text: string) =>
    sql<number>`${find}(${sql.ref(column)}, ${text})`;
  const phrase = terms.words.length > 0 ? ` ${terms.words.join(' ')}` : '';
  const rows = await db
    .selectFrom('resellers')
    .select(entryColumns)
    .where((eb) => {
      const either: Expression<SqlBool>[] = [];
      if (terms.words.length > 0) {
        either.push(eb.and(terms.words.map((word) => eb(at('search_text', ` ${word}`), '>', 0))));
      }
      if (terms.digits !== '') either.push(eb(at('fiscal_id', terms.digits), '=', 1));
      return eb.or(either);
    })
    .$if(excluded.length > 0, (query) => query.where('fiscal_id', 'not in', excluded))
    .orderBy(
      phrase === ''
        ? sql`case when ${sql.ref('fiscal_id')} = ${terms.digits} then 0 else 3 end`
        : sql`case
            when ${sql.ref('fiscal_id')} = ${terms.digits} then 0
            when ${at('search_text', phrase)} = 1 then 1
            when ${at('search_text', phrase)} > 0 then 2
            else 3 end`,
    )
    .orderBy('search_text')
    .orderBy('fiscal_id')
    .limit(limit)
    .execute();
  return rows.map(toEntry);
}

/** The exhibitor's event (404 as for any other while it is missing, not theirs, archived or a draft). */
async function memberEventOr404(deps: AppDeps, exhibitorId: string, eventId: string) {
  const event = await deps.db
    .selectFrom('events')
    .innerJoin('event_exhibitors as m', 'm.event_id', 'events.id')
    .select([
      'events.id',
      'events.event_date',
      'events.vote_deadline',
      'events.close_time',
      'events.time_zone',
      'events.voting_opens_at',
      'events.voting_closed_at',
      'events.nominable_resellers',
    ])
    .where('events.id', '=', eventId)
    .where('m.exhibitor_id', '=', exhibitorId)
    .where('m.invited_at', 'is not', null)
    .where('events.archived_at', 'is', null)
    .executeTakeFirst();
  if (!event || isDraft(calendarOf(event, deps.config.timeZone), deps.clock.now())) {
    throw notFound(MSG.eventNotFound);
  }
  return event;
}

/** How many of the exhibitor's newest nominations "Mis nominaciones anteriores" looks through. */
const EARLIER_NOMINATIONS_READ = 300;

/**
 * "Mis nominaciones anteriores": the resellers this exhibitor nominated in the other category of
 * this event and in its events up to this one's date, newest first (last saved, then the latest
 * event, then the list's order), each once (the contact of its
 * newest nomination), without those already in the list being filled. Only the exhibitor's own
 * rows are read; an anonymised event's placeholders are left out. With `registryOnly` (an event
 * of "Solo los del padrón") only fiscal ids of the registry are offered, with the registry's
 * reseller fields and the contact typed then: what the form fills is never what was typed by hand
 * in an event that took anyone.
 */
async function earlierNominees(
  db: Db,
  list: { exhibitorId: string; eventId: string; eventDate: string; category: CategoryAddress },
  terms: RegistryTerms | null,
  registryOnly: boolean,
): Promise<RegistrySearchEntry[]> {
  const rows = await db
    // From the exhibitor's memberships (indexed by exhibitor) to their lists (the key's prefix):
    // never a scan of every event's nominations.
    .selectFrom('event_exhibitors as m')
    .innerJoin('events as e', 'e.id', 'm.event_id')
    .innerJoin('nominations as n', (join) =>
      join.onRef('n.event_id', '=', 'm.event_id').onRef('n.exhibitor_id', '=', 'm.exhibitor_id'),
    )
    .select(entryColumns.map((column) => `n.${column}` as const))
    .select(['n.event_id', 'n.category'])
    .where('m.exhibitor_id', '=', list.exhibitorId)
    .where('e.anonymised_at', 'is', null)
    .where('e.event_date', '<=', list.eventDate)
    .orderBy('n.updated_at', 'desc')
    .orderBy('e.event_date', 'desc')
    .orderBy('n.list_order')
    .limit(EARLIER_NOMINATIONS_READ)
    .execute();
  const inThisList = new Set(
    rows
      .filter((row) => row.event_id === list.eventId && row.category === list.category)
      .map((row) => row.fiscal_id),
  );
  const registered = registryOnly ? await registryEntries(db, rows) : null;
  const seen = new Set<string>();
  const entries: RegistrySearchEntry[] = [];
  for (const row of rows) {
    if (inThisList.has(row.fiscal_id) || seen.has(row.fiscal_id)) continue;
    seen.add(row.fiscal_id);
    let entry = toEntry(row);
    if (registered) {
      const inRegistry = registered.get(row.fiscal_id);
      if (!inRegistry) continue;
      // The reseller as the registry has it; the contact as the exhibitor typed it then.
      const { fiscalId, name, registeredName, location, city } = inRegistry;
      entry = { ...entry, fiscalId, name, registeredName, location, city };
    }
    if (terms && !matchesTerms(terms, entry)) continue;
    entries.push(entry);
    if (entries.length === REGISTRY_SEARCH_LIMIT) break;
  }
  return entries;
}

/** The registry's entries of these rows' fiscal ids, by fiscal id. */
async function registryEntries(
  db: Db,
  rows: readonly { fiscal_id: string }[],
): Promise<Map<string, RegistrySearchEntry>> {
  const ids = [...new Set(rows.map((row) => row.fiscal_id))];
  if (ids.length === 0) return new Map();
  const found = await db
    .selectFrom('resellers')
    .select(entryColumns)
    .where('fiscal_id', 'in', ids)
    .execute();
  return new Map(found.map((row) => [row.fiscal_id, toEntry(row)]));
}

/** What the exhibitor typed (`q`) in the nominee form of one of their lists. */
export interface ExhibitorSearch {
  exhibitorId: string;
  eventId: string;
  category: CategoryAddress;
  q: string;
}

/**
 * The exhibitor's search: registry entries (from two characters) and their own earlier nominees.
 * A reseller listed under "Mis nominaciones anteriores" is not listed again from the registry.
 */
export async function searchAsExhibitor(
  deps: AppDeps,
  { q: typed, ...list }: ExhibitorSearch,
): Promise<RegistrySearchResponse> {
  const event = await memberEventOr404(deps, list.exhibitorId, list.eventId);
  const terms = registryTerms(typed);
  const earlier = await earlierNominees(
    deps.db,
    { ...list, eventDate: event.event_date },
    terms,
    event.nominable_resellers === 'registry',
  );
  const registry = terms
    ? await searchRegistry(
        deps.db,
        terms,
        earlier.map((entry) => entry.fiscalId),
      )
    : [];
  return { registry, earlier };
}

/** The administrator's search: registry entries only (from two characters). */
export async function searchAsAdmin(
  deps: AppDeps,
  { q: typed }: { q: string },
): Promise<RegistrySearchResponse> {
  const terms = registryTerms(typed);
  return { registry: terms ? await searchRegistry(deps.db, terms) : [], earlier: [] };
}
