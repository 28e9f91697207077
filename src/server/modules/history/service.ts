import { sql } from 'kysely';
import { auditActionLabel, auditDetailText, categoryNamer } from '../../../shared/audit-entries.ts';
import { HISTORY_PAGE_SIZE } from '../../../shared/history.ts';
import type { HistoryEntry, HistoryResponse } from '../../../shared/schemas/results.ts';
import type { Db } from '../../db/connection.ts';
import { MERGE_ACTION, undoneMerges } from '../../lib/audit.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { memberField } from '../../lib/member-rows.ts';

export interface HistoryQuery {
  eventId: string;
  /** Entries older than this id (the previous page's last). */
  before?: number | undefined;
  action?: string | undefined;
  /** Matched case-insensitively against who, the action and the recorded details. */
  q?: string | undefined;
}

/** `%`, `_` and the escape character itself match literally in a search. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of an event's history, newest first. The id is the cursor: a page reads the
 * (event_id, id) or (event_id, action, id) index backwards from it and stops after its rows, so
 * the first page of a long history costs what the last one does.
 */
export async function eventHistory(
  db: Db,
  { eventId, ...filter }: HistoryQuery,
): Promise<HistoryResponse> {
  await getEventOr404(db, eventId);
  let query = db
    .selectFrom('audit_log as l')
    .leftJoin('admins as a', (join) =>
      join.onRef('a.id', '=', 'l.actor_id').on('l.actor_role', '=', 'admin'),
    )
    .leftJoin('exhibitors as x', (join) =>
      join.onRef('x.id', '=', 'l.actor_id').on('l.actor_role', '=', 'exh'),
    )
    .leftJoin('event_exhibitors as m', (join) =>
      join.onRef('m.exhibitor_id', '=', 'x.id').onRef('m.event_id', '=', 'l.event_id'),
    )
    .select([
      'l.id',
      'l.at',
      'l.action',
      'l.details',
      'l.actor_role',
      'l.actor_email',
      'a.email as admin_email',
      'a.full_name as admin_name',
      memberField('full_name').as('exhibitor_name'),
      memberField('email').as('exhibitor_email'),
    ])
    .where('l.event_id', '=', eventId)
    .orderBy('l.id', 'desc')
    .limit(HISTORY_PAGE_SIZE + 1);
  if (filter.before !== undefined) query = query.where('l.id', '<', filter.before);
  if (filter.action) query = query.where('l.action', '=', filter.action);
  if (filter.q) {
    const pattern = likePattern(filter.q);
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(l.details)`, 'like', sql`${pattern} escape '\\'`),
        eb(
          sql`lower(coalesce(a.email, ${memberField('full_name')}, l.actor_email, ''))`,
          'like',
          sql`${pattern} escape '\\'`,
        ),
        eb(sql`lower(a.full_name)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(${memberField('email')})`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(l.action)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  const rows = await query.execute();
  const page = rows.slice(0, HISTORY_PAGE_SIZE);
  // A merge undone already offers no "Deshacer" (a second undo would only be refused).
  const undone = await undoneMerges(
    db,
    eventId,
    page.filter((row) => row.action === MERGE_ACTION).map((row) => Number(row.id)),
  );
  // Categories by the names the event has for them now (a renamed default included).
  const categoryText = categoryNamer(
    new Map(
      (await readEventCategories(db, eventId)).map((category) => [category.address, category.name]),
    ),
  );
  const entries: HistoryEntry[] = page.map((row) => ({
    id: Number(row.id),
    at: row.at,
    // An administrator by name; one invited but never registered has only an address.
    who:
      row.admin_name ??
      row.admin_email ??
      (row.exhibitor_name ? `${row.exhibitor_name} (${row.exhibitor_email ?? ''})` : null) ??
      row.actor_email ??
      (row.actor_role === 'system' ? 'Sistema' : ''),
    action: row.action,
    actionLabel: auditActionLabel(row.action),
    detail: auditDetailText(row.action, row.details, categoryText),
    undoable: row.action === MERGE_ACTION && !undone.has(Number(row.id)),
  }));
  const last = page.at(-1);
  return {
    entries,
    nextBefore: rows.length > HISTORY_PAGE_SIZE && last ? Number(last.id) : null,
  };
}
