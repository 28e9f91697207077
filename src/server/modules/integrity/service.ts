import { sql } from 'kysely';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import type {
  IntegrityExhibitor,
  IntegrityResponse,
  ListGroup,
} from '../../../shared/schemas/integrity.ts';
import { engineOf, type Db } from '../../db/connection.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { memberField } from '../../lib/member-rows.ts';
import {
  identicalLists,
  reorderedLists,
  sameDevice,
  selfNominations,
  type ExhibitorList,
  type ListGroupFound,
} from './rules.ts';

/**
 * The "Integridad" tab: per category, identical lists (same order, and the same set of at least
 * four in another order) and nominations to the exhibitor's own company; for the event, exhibitors
 * who signed in from one browser within 24 hours. Annulled lists count for nothing, here too.
 * The database hands over each list as one row (its fiscal ids joined in order) and only the
 * nominees whose contact shares the exhibitor's domain; the rules run in memory (rules.ts), and
 * the reseller names are read for the flagged lists alone. An event of 2,000 exhibitors answers
 * in well under 500 ms (bench/integrity.ts).
 */
export async function integrityAlerts(
  db: Db,
  { eventId }: { eventId: string },
): Promise<IntegrityResponse> {
  await getEventOr404(db, eventId);
  const postgres = engineOf(db) === 'postgres';
  // Fiscal ids are digits: a space cannot occur in one.
  const idsInOrder = postgres
    ? sql<string>`string_agg(fiscal_id, ' ' order by list_order)`
    : sql<string>`group_concat(fiscal_id, ' ' order by list_order)`;
  const domainOf = (column: ReturnType<typeof memberField> | ReturnType<typeof sql.ref>) =>
    postgres
      ? sql<string>`lower(substr(${column}, strpos(${column}, '@') + 1))`
      : sql<string>`lower(substr(${column}, instr(${column}, '@') + 1))`;
  const [lists, members, contacts, signIns] = await Promise.all([
    db
      .selectFrom('nominations')
      .select(['exhibitor_id', 'category', idsInOrder.as('fiscal_ids')])
      .where('event_id', '=', eventId)
      .where('annulled', '=', 0)
      .groupBy(['exhibitor_id', 'category'])
      .execute(),
    db
      .selectFrom('event_exhibitors as m')
      .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
      .select([
        'x.id',
        memberField('full_name').as('full_name'),
        memberField('email').as('email'),
        memberField('company').as('company'),
      ])
      .where('m.event_id', '=', eventId)
      .execute(),
    // The candidates of "Nominaciones a la propia empresa": the rule itself is selfNominations.
    db
      .selectFrom('nominations as n')
      .innerJoin('event_exhibitors as m', (join) =>
        join.onRef('m.event_id', '=', 'n.event_id').onRef('m.exhibitor_id', '=', 'n.exhibitor_id'),
      )
      .innerJoin('exhibitors as x', 'x.id', 'n.exhibitor_id')
      .select(['n.exhibitor_id', 'n.category', 'n.fiscal_id', 'n.name', 'n.email'])
      .where('n.event_id', '=', eventId)
      .where('n.annulled', '=', 0)
      .where(domainOf(sql.ref('n.email')), '=', domainOf(memberField('email')))
      .orderBy('n.exhibitor_id')
      .orderBy('n.category')
      .orderBy('n.list_order')
      .execute(),
    db
      .selectFrom('device_sign_ins')
      .select(['exhibitor_id', 'device_id', 'ip', 'user_agent', 'signed_in_at'])
      .where('event_id', '=', eventId)
      .execute(),
  ]);

  const byId = new Map(members.map((member) => [member.id, member]));
  const exhibitor = (id: string): IntegrityExhibitor => {
    const member = byId.get(id);
    return { id, fullName: member?.full_name ?? '', company: member?.company ?? '' };
  };
  // Alphabetical within a group, so a group reads the same however its lists were found.
  const exhibitors = (ids: readonly string[]) =>
    ids.map(exhibitor).sort((a, b) => a.fullName.localeCompare(b.fullName, 'es'));

  const eventCategories = await readEventCategories(db, eventId);
  const listsByCategory = new Map<CategoryAddress, ExhibitorList[]>(
    eventCategories.map(({ address }) => [address, []]),
  );
  for (const list of lists) {
    listsByCategory.get(list.category)?.push({
      exhibitorId: list.exhibitor_id,
      fiscalIds: list.fiscal_ids.split(' '),
    });
  }
  const found = eventCategories.map(({ address: category, name }) => {
    const ofCategory = listsByCategory.get(category) ?? [];
    return {
      category,
      name,
      identical: identicalLists(ofCategory),
      reordered: reorderedLists(ofCategory),
    };
  });
  const nameOf = await resellerNames(
    db,
    eventId,
    found.flatMap(({ category, identical, reordered }) =>
      [...identical, ...reordered].map((group) => ({
        category,
        exhibitorId: group.exhibitorIds[0] ?? '',
      })),
    ),
  );
  const withNames = (category: CategoryAddress, group: ListGroupFound): ListGroup => ({
    entries: group.fiscalIds.map((fiscalId) => ({
      fiscalId,
      name: nameOf(category, group.exhibitorIds[0] ?? '', fiscalId),
    })),
    exhibitors: exhibitors(group.exhibitorIds),
  });

  const ownDomain = selfNominations(
    contacts.map((row) => ({
      exhibitorId: row.exhibitor_id,
      category: row.category,
      fiscalId: row.fiscal_id,
      name: row.name,
      email: row.email,
    })),
    new Map(members.map((member) => [member.id, member.email])),
  );
  const categories = found.map(({ category, name, identical, reordered }) => ({
    category,
    name,
    identicalLists: identical.map((group) => withNames(category, group)),
    reorderedLists: reordered.map((group) => withNames(category, group)),
    selfNominations: ownDomain
      .filter(({ entry }) => entry.category === category)
      .map(({ entry, domain }) => ({
        exhibitor: {
          ...exhibitor(entry.exhibitorId),
          email: byId.get(entry.exhibitorId)?.email ?? '',
        },
        nominee: { fiscalId: entry.fiscalId, name: entry.name, email: entry.email },
        domain,
      })),
  }));

  const devices = sameDevice(
    signIns.map((row) => ({
      exhibitorId: row.exhibitor_id,
      deviceId: row.device_id,
      ip: row.ip,
      userAgent: row.user_agent,
      at: row.signed_in_at,
    })),
  );
  return {
    categories,
    sameDevice: devices.map((group) => ({
      matchedBy: group.matchedBy,
      exhibitors: exhibitors(group.exhibitorIds),
      from: group.from,
      to: group.to,
    })),
  };
}

/** The reseller names of the listed exhibitors' lists, as each list holds them. */
async function resellerNames(
  db: Db,
  eventId: string,
  lists: { category: CategoryAddress; exhibitorId: string }[],
): Promise<(category: CategoryAddress, exhibitorId: string, fiscalId: string) => string> {
  const names = new Map<string, string>();
  const key = (category: string, exhibitorId: string, fiscalId: string) =>
    `${category} ${exhibitorId} ${fiscalId}`;
  const exhibitorIds = [...new Set(lists.map((list) => list.exhibitorId))];
  for (let start = 0; start < exhibitorIds.length; start += 500) {
    const rows = await db
      .selectFrom('nominations')
      .select(['category', 'exhibitor_id', 'fiscal_id', 'name'])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', 'in', exhibitorIds.slice(start, start + 500))
      .execute();
    for (const row of rows) names.set(key(row.category, row.exhibitor_id, row.fiscal_id), row.name);
  }
  return (category, exhibitorId, fiscalId) => names.get(key(category, exhibitorId, fiscalId)) ?? '';
}
