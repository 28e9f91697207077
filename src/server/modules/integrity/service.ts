import { CATEGORIES, type Category } from '../../../shared/constants.ts';
import type { IntegrityExhibitor, IntegrityResponse } from '../../../shared/schemas/integrity.ts';
import type { Db } from '../../db/connection.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { memberField } from '../../lib/member-rows.ts';
import {
  identicalLists,
  reorderedLists,
  sameDevice,
  selfNominations,
  type ExhibitorList,
  type ListEntry,
} from './rules.ts';

/**
 * The "Integridad" tab: per category, identical lists (same order, and the same set of at least
 * four in another order) and nominations to the exhibitor's own company; for the event, exhibitors
 * who signed in from one browser within 24 hours. Annulled lists count for nothing, here too. Three
 * reads (the lists that count, the members, the sign-ins), then the rules in memory (rules.ts).
 */
export async function integrityAlerts(
  db: Db,
  { eventId }: { eventId: string },
): Promise<IntegrityResponse> {
  await getEventOr404(db, eventId);
  const [rows, members, signIns] = await Promise.all([
    db
      .selectFrom('nominations')
      .select(['exhibitor_id', 'category', 'fiscal_id', 'name', 'email'])
      .where('event_id', '=', eventId)
      .where('annulled', '=', 0)
      .orderBy('exhibitor_id')
      .orderBy('category')
      .orderBy('list_order')
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

  const entries: ListEntry[] = rows.map((row) => ({
    exhibitorId: row.exhibitor_id,
    category: row.category,
    fiscalId: row.fiscal_id,
    name: row.name,
    email: row.email,
  }));
  const categories = CATEGORIES.map((category: Category) => {
    const ofCategory = entries.filter((entry) => entry.category === category);
    const lists = listsOf(ofCategory);
    return {
      category,
      identicalLists: identicalLists(lists).map((group) => ({
        entries: group.entries,
        exhibitors: exhibitors(group.exhibitorIds),
      })),
      reorderedLists: reorderedLists(lists).map((group) => ({
        entries: group.entries,
        exhibitors: exhibitors(group.exhibitorIds),
      })),
      selfNominations: selfNominations(ofCategory, (id) => byId.get(id)?.email).map(
        ({ entry, domain }) => ({
          exhibitor: {
            ...exhibitor(entry.exhibitorId),
            email: byId.get(entry.exhibitorId)?.email ?? '',
          },
          nominee: { fiscalId: entry.fiscalId, name: entry.name, email: entry.email },
          domain,
        }),
      ),
    };
  });
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

/** Each exhibitor's list, from entries read in (exhibitor, list order) order. */
function listsOf(entries: readonly ListEntry[]): ExhibitorList[] {
  const lists: ExhibitorList[] = [];
  let current: ExhibitorList | undefined;
  for (const entry of entries) {
    if (current?.exhibitorId !== entry.exhibitorId) {
      current = { exhibitorId: entry.exhibitorId, entries: [] };
      lists.push(current);
    }
    current.entries.push({ fiscalId: entry.fiscalId, name: entry.name });
  }
  return lists;
}
