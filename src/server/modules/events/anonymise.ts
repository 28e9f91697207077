import { sql } from 'kysely';
import type { EventView } from '../../../shared/schemas/events.ts';
import type { NomineeTotals } from '../../db/schema.ts';
import type { Tx } from '../../db/transact.ts';
import type { AppDeps } from '../../deps.ts';
import { lockEventForArchive } from '../../lib/archived.ts';
import { recordAudit } from '../../lib/audit.ts';
import {
  PLACEHOLDER,
  personalValuesOf,
  scrubPersonalDetails,
  wholeWordRedactor,
} from '../../lib/audit-personal.ts';
import { chunks } from '../../lib/chunks.ts';
import { newId } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';
import { clockOf, toEventView, type EventChange } from './service.ts';
import { readEventCategories } from '../../lib/event-categories.ts';

/**
 * "Anonimizar datos personales" of an archived event, in one transaction and never undone. The
 * people are every exhibitor the event's history names (members now, and those removed, edited
 * or merged before) and every nominee's contact:
 * - an exhibitor who is in no event any more has their account's name and email replaced, and
 *   their sessions, sign-in codes, sign-in counters (auth_throttle) and mail removed;
 * - the browsers, addresses and devices the exhibitors signed in to it from are deleted;
 * - an exhibitor who is also in another event keeps their account there: a new placeholder
 *   account with a fresh random id and no company takes their place in this event (membership,
 *   lists, votes, history), so nothing here leads back to them;
 * - nominees' contact name, position, phone and email become placeholders; fiscal ids, reseller
 *   names, razón social, orders, places and the ranking's earliest-nomination keys stay, so the
 *   ranking and the exports are unchanged;
 * - the event's mail (pending and sent) is deleted; in the event's history the personal fields
 *   are replaced by key (audit-personal.ts); in other events' history, the anonymised accounts'
 *   names and addresses where they stand as whole values;
 * - the history records who anonymised and when, not what was removed.
 * On SQLite `secure_delete` (connection.ts) overwrites what the transaction frees, and the log is
 * cut after the commit, so the old values are not left in the file's free pages.
 */
export async function anonymiseEvent(
  deps: AppDeps,
  { admin, eventId }: EventChange,
): Promise<EventView> {
  const now = deps.clock.now();
  const at = iso(now);
  const done = await deps.transact(async (tx) => {
    await lockEventForArchive(tx, deps.engine, eventId);
    const event = await getEventOr404(tx, eventId);
    if (event.archived_at === null) throw new AppError('event_not_archived');
    if (event.anonymised_at !== null) throw new AppError('already_anonymised');

    const history = await tx
      .selectFrom('audit_log')
      .select(['id', 'details', 'actor_role', 'actor_id', 'actor_email', 'entity_id'])
      .where('event_id', '=', eventId)
      .execute();
    const members = await tx
      .selectFrom('event_exhibitors')
      .select(['exhibitor_id', 'archived_email', 'archived_full_name'])
      .where('event_id', '=', eventId)
      .execute();
    const people = await accountsOf(tx, eventId, [
      ...members.map((member) => member.exhibitor_id),
      ...exhibitorIdsNamedIn(history),
    ]);
    const contacts = await tx
      .selectFrom('nominations')
      .select(['contact_name', 'phone', 'email'])
      .where('event_id', '=', eventId)
      .execute();
    // Every personal value the event knows, to cut out of free text (a correction's "Detalle").
    const known = new Set<string>();
    for (const person of people) known.add(person.email).add(person.full_name);
    // As the event showed its members since it was archived (an edit through another event may
    // have changed the record since).
    for (const member of members) {
      if (member.archived_email !== null) known.add(member.archived_email);
      if (member.archived_full_name !== null) known.add(member.archived_full_name);
    }
    for (const contact of contacts) {
      known.add(contact.contact_name).add(contact.phone).add(contact.email);
    }
    for (const entry of history) personalValuesOf(JSON.parse(entry.details), known);
    const redact = wholeWordRedactor(known);

    // The event's mail: invitations, reminders, whatever was sent or is waiting. The members' copy
    // taken at archive time goes too: the event shows the placeholders from now on.
    await tx
      .updateTable('event_exhibitors')
      .set({
        invitation_message_id: null,
        archived_full_name: null,
        archived_email: null,
        archived_company: null,
        last_signed_in_at: null,
      })
      .where('event_id', '=', eventId)
      .execute();
    await tx.deleteFrom('mail_outbox').where('event_id', '=', eventId).execute();
    // What the exhibitors were told of administrators' changes (reasons are free text).
    await tx.deleteFrom('list_changes').where('event_id', '=', eventId).execute();
    // Why the results were opened early is free text too: the history keeps it, scrubbed.
    await tx
      .updateTable('events')
      .set({ results_viewed_reason: null })
      .where('id', '=', eventId)
      .execute();
    // Where each exhibitor signed in from ("Mismo dispositivo"): addresses and browsers.
    await tx.deleteFrom('device_sign_ins').where('event_id', '=', eventId).execute();

    await tx
      .updateTable('nominations')
      .set({
        contact_name: PLACEHOLDER.contactName,
        contact_position: PLACEHOLDER.contactPosition,
        phone: PLACEHOLDER.phone,
        email: PLACEHOLDER.contactEmail,
      })
      .where('event_id', '=', eventId)
      .execute();

    const own = people.filter((person) => !person.elsewhere);
    await anonymiseAccounts(tx, own, at);

    // Accounts that live on in other events: a fresh id takes their place in this event.
    const renamed = new Map<string, string>();
    const earliest = await earliestKeys(tx, eventId);
    const memberIds = new Set(members.map((member) => member.exhibitor_id));
    for (const person of people.filter((p) => p.elsewhere)) {
      const placeholderId = newId();
      renamed.set(person.id, placeholderId);
      // An account, so that the history names "Expositor anonimizado" as who did what.
      await insertPlaceholder(tx, placeholderId, at);
      if (memberIds.has(person.id)) {
        await moveMembership(tx, eventId, person.id, placeholderId);
      }
    }
    await keepEarliestKeys(tx, eventId, earliest, renamed);

    await scrubEventHistory(tx, history, redact, renamed);
    await scrubOtherHistory(tx, eventId, own);

    await tx
      .updateTable('events')
      .set({ anonymised_at: at, updated_at: at })
      .where('id', '=', eventId)
      .execute();
    await recordAudit(tx, admin, now, {
      action: 'event.anonymised',
      entityType: 'event',
      entityId: eventId,
      eventId,
    });
    return { ...event, anonymised_at: at, updated_at: at };
  });
  if (deps.engine === 'sqlite') {
    // The log still holds the pages as they were before: cut it once they are copied back. A
    // reader in the way leaves it for the checkpointer's next truncation.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(deps.db).catch(() => undefined);
  }
  return toEventView(done, clockOf(deps), await readEventCategories(deps.db, done.id));
}

interface HistoryRow {
  id: number;
  details: string;
  actor_role: string;
  actor_id: string | null;
  actor_email: string | null;
  entity_id: string | null;
}

/** Ids are UUIDs: 36 characters of hex digits and dashes. */
const EXHIBITOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * The exhibitors an event's history names: the actor of their own saves, the subject of the
 * exhibitor entries ("{exhibitorId}" or "{exhibitorId}/{category}…"), and the owner of each list
 * a correction or merge touched (`exhibitorId` in the details).
 */
function exhibitorIdsNamedIn(history: readonly HistoryRow[]): string[] {
  const ids = new Set<string>();
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key === 'exhibitorId' && typeof item === 'string') ids.add(item);
        else collect(item);
      }
    }
  };
  for (const entry of history) {
    if (entry.actor_role === 'exh' && entry.actor_id) ids.add(entry.actor_id);
    const subject = EXHIBITOR_ID.exec(entry.entity_id ?? '')?.[0];
    if (subject) ids.add(subject);
    collect(JSON.parse(entry.details));
  }
  return [...ids];
}

interface Person {
  id: string;
  email: string;
  full_name: string;
  /** A member of another event now: the account stays theirs. */
  elsewhere: boolean;
}

/** The exhibitor accounts among `ids` (ids that name no account are skipped). */
async function accountsOf(tx: Tx, eventId: string, ids: readonly string[]): Promise<Person[]> {
  const people: Person[] = [];
  for (const part of chunks([...new Set(ids)])) {
    const rows = await tx
      .selectFrom('exhibitors as x')
      .select((eb) => [
        'x.id',
        'x.email',
        'x.full_name',
        eb
          .exists(
            eb
              .selectFrom('event_exhibitors as other')
              .select('other.event_id')
              .whereRef('other.exhibitor_id', '=', 'x.id')
              .where('other.event_id', '!=', eventId),
          )
          .as('elsewhere'),
      ])
      .where('x.id', 'in', part)
      .execute();
    people.push(...rows.map((row) => ({ ...row, elsewhere: Boolean(row.elsewhere) })));
  }
  return people;
}

/**
 * The accounts of people in no other event: name and address replaced; sessions, sign-in codes,
 * sign-in counters (keyed "{exhibitorId}" and "{exhibitorId}|{client address}") and any mail to
 * them removed.
 */
async function anonymiseAccounts(tx: Tx, people: readonly Person[], at: string): Promise<void> {
  for (const part of chunks(people)) {
    const ids = part.map((person) => person.id);
    for (const id of ids) {
      await tx
        .updateTable('exhibitors')
        .set({
          email: PLACEHOLDER.exhibitorEmail(id),
          full_name: PLACEHOLDER.exhibitorName,
          last_signed_in_at: null,
          updated_at: at,
        })
        .where('id', '=', id)
        .execute();
    }
    await tx.deleteFrom('sessions').where('exhibitor_id', 'in', ids).execute();
    await tx.deleteFrom('sign_in_codes').where('exhibitor_id', 'in', ids).execute();
    await tx
      .deleteFrom('auth_throttle')
      .where(sql<string>`substr(key, 1, 36)`, 'in', ids)
      .where((eb) =>
        eb.or([
          eb(sql<number>`length(key)`, '=', 36),
          eb(sql<string>`substr(key, 37, 1)`, '=', '|'),
        ]),
      )
      .execute();
    await tx.deleteFrom('mail_outbox').where('exhibitor_id', 'in', ids).execute();
    await tx
      .deleteFrom('mail_outbox')
      .where(
        'to_address',
        'in',
        part.map((person) => person.email),
      )
      .execute();
  }
}

type EarliestKeys = Pick<NomineeTotals, 'category' | 'fiscal_id' | 'first_key'>[];

/**
 * Each nominee's earliest-nomination key: the instant of its first nomination with the exhibitor
 * id appended. The instant orders the ranking; the id says whose nomination the ranking shows
 * when two came in the same millisecond.
 */
function earliestKeys(tx: Tx, eventId: string): Promise<EarliestKeys> {
  return tx
    .selectFrom('nominee_totals')
    .select(['category', 'fiscal_id', 'first_key'])
    .where('event_id', '=', eventId)
    .execute();
}

/**
 * The moved nominations take a random id, which may sort elsewhere among nominations of the same
 * millisecond: the keys are set back to the nominations they named before, under the new id, so
 * the ranking shows the same row for every nominee. (The triggers recompute a key only when the
 * nomination it names goes, so these stay.)
 */
async function keepEarliestKeys(
  tx: Tx,
  eventId: string,
  before: EarliestKeys,
  renamed: ReadonlyMap<string, string>,
): Promise<void> {
  if (renamed.size === 0) return;
  const now = new Map(
    (await earliestKeys(tx, eventId)).map((row) => [`${row.category}/${row.fiscal_id}`, row]),
  );
  for (const row of before) {
    const id = row.first_key.slice(-36);
    const key = row.first_key.slice(0, -36) + (renamed.get(id) ?? id);
    if (now.get(`${row.category}/${row.fiscal_id}`)?.first_key === key) continue;
    await tx
      .updateTable('nominee_totals')
      .set({ first_key: key })
      .where('event_id', '=', eventId)
      .where('category', '=', row.category)
      .where('fiscal_id', '=', row.fiscal_id)
      .execute();
  }
}

/**
 * The event's history: personal fields replaced by key, free text redacted, and the ids of
 * accounts that live on elsewhere replaced by their fresh ids (in the details, the subject and
 * the actor; an id is never part of a longer word, so it is replaced as text).
 */
async function scrubEventHistory(
  tx: Tx,
  history: readonly HistoryRow[],
  redact: (text: string) => string,
  renamed: ReadonlyMap<string, string>,
): Promise<void> {
  const rename = (text: string | null) => {
    if (text === null) return null;
    let renamedText = text;
    for (const [from, to] of renamed) renamedText = renamedText.replaceAll(from, to);
    return renamedText;
  };
  for (const entry of history) {
    const details =
      rename(JSON.stringify(scrubPersonalDetails(JSON.parse(entry.details), redact))) ?? '{}';
    const entityId = rename(entry.entity_id);
    const actorId = rename(entry.actor_id);
    const actorEmail = entry.actor_role === 'exh' ? null : entry.actor_email;
    if (
      details === entry.details &&
      entityId === entry.entity_id &&
      actorId === entry.actor_id &&
      actorEmail === entry.actor_email
    ) {
      continue;
    }
    await tx
      .updateTable('audit_log')
      .set({ details, entity_id: entityId, actor_id: actorId, actor_email: actorEmail })
      .where('id', '=', entry.id)
      .execute();
  }
}

/**
 * Other events' (and no event's) history about the accounts anonymised: their name and address
 * wherever they stand as a whole value. Each event's own personal data goes when that event is
 * anonymised.
 */
async function scrubOtherHistory(tx: Tx, eventId: string, people: readonly Person[]) {
  for (const part of chunks(people)) {
    const ids = part.map((person) => person.id);
    const values = new Set(
      part.flatMap((person) => [person.email, person.full_name]).map((v) => v.toLowerCase()),
    );
    const entries = await tx
      .selectFrom('audit_log')
      .select(['id', 'details', 'actor_email'])
      .where((eb) =>
        eb.and([
          eb.or([eb('event_id', 'is', null), eb('event_id', '!=', eventId)]),
          eb.or([eb('actor_id', 'in', ids), eb('entity_id', 'in', ids)]),
        ]),
      )
      .execute();
    const replaceValues = (value: unknown): unknown =>
      typeof value === 'string'
        ? values.has(value.toLowerCase())
          ? PLACEHOLDER.text
          : value
        : Array.isArray(value)
          ? value.map(replaceValues)
          : value !== null && typeof value === 'object'
            ? Object.fromEntries(
                Object.entries(value).map(([key, item]) => [key, replaceValues(item)]),
              )
            : value;
    for (const entry of entries) {
      const details = JSON.stringify(replaceValues(JSON.parse(entry.details)));
      const actorEmail = replaceValues(entry.actor_email) as string | null;
      if (details === entry.details && actorEmail === entry.actor_email) continue;
      await tx
        .updateTable('audit_log')
        .set({ details, actor_email: actorEmail })
        .where('id', '=', entry.id)
        .execute();
    }
  }
}

/**
 * A placeholder account that stands for a person in this event only: neutral name, an address
 * that cannot receive mail, and no company (with another event's participation it would name
 * them).
 */
async function insertPlaceholder(tx: Tx, placeholderId: string, at: string): Promise<void> {
  await tx
    .insertInto('exhibitors')
    .values({
      id: placeholderId,
      email: PLACEHOLDER.exhibitorEmail(placeholderId),
      full_name: PLACEHOLDER.exhibitorName,
      company: '',
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/**
 * Moves one exhibitor's membership of the event, with its lists and nominations (places and
 * nomination instants kept), to the placeholder account `placeholderId`; the person keeps their
 * account for their other events.
 */
async function moveMembership(
  tx: Tx,
  eventId: string,
  exhibitorId: string,
  placeholderId: string,
): Promise<void> {
  const membership = await tx
    .selectFrom('event_exhibitors')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('event_exhibitors')
    .values({ ...membership, exhibitor_id: placeholderId, invitation_message_id: null })
    .execute();
  const lists = await tx
    .selectFrom('nomination_lists')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .execute();
  if (lists.length > 0) {
    await tx
      .insertInto('nomination_lists')
      .values(lists.map((list) => ({ ...list, exhibitor_id: placeholderId })))
      .execute();
  }
  const nominations = await tx
    .selectFrom('nominations')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .execute();
  if (nominations.length > 0) {
    await tx
      .insertInto('nominations')
      .values(nominations.map((row) => ({ ...row, exhibitor_id: placeholderId })))
      .execute();
  }
  // The old membership's lists and nominations go with it (foreign-key cascades).
  await tx
    .deleteFrom('event_exhibitors')
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .execute();
}
