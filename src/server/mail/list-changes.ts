import { sql } from 'kysely';
import type { CategoryAddress } from '../../shared/constants.ts';
import type { Db, Engine } from '../db/connection.ts';
import type { Tx } from '../db/transact.ts';
import { chunks } from '../lib/chunks.ts';
import { newId } from '../lib/crypto.ts';
import { iso } from '../lib/time.ts';
import { enqueueMails } from './outbox.ts';
import { readMailParams } from './templates/define.ts';
import { listChangeParams, LIST_CHANGE_TEMPLATE } from './templates/list-change.ts';

/*
 * The exhibitor is told of every change an administrator makes to their lists (issue 28): each
 * admin path that rewrites a list (a correction, a merge or its undo, an annulment or its reversal)
 * calls `recordListChange` or `recordListChanges` inside its own transaction with the list before
 * and after. The change is stored (list_changes) and the exhibitor's "Se modificaron tus
 * nominaciones" message is debounced like the receipt: changes within LIST_CHANGE_QUIET_MINUTES of
 * each other join one message, which reports them all. There is no setting to turn it off.
 */

/** A quiet spell this long after an administrator's last change to an exhibitor's lists sends the message. */
export const LIST_CHANGE_QUIET_MINUTES = 10;

/** An entry of a list as the exhibitor is told of it: a stored row or a `{ fiscalId, name }`. */
export type ListEntryLike =
  { fiscalId: string; name: string } | { fiscal_id: string; name: string };

/** An entry of a list as list_changes keeps it. */
export interface ReportedEntry {
  fiscalId: string;
  name: string;
}

/** One exhibitor's list of one category, before and after an administrator changed it. */
export interface ListChange {
  eventId: string;
  exhibitorId: string;
  category: CategoryAddress;
  /** The entries in list order (order 1 first). */
  before: readonly ListEntryLike[];
  after: readonly ListEntryLike[];
  /** The administrator who made the change (their name is in the message). */
  adminId: string;
  /** Why, in the words the exhibitor reads ("Error de tipeo (CUIT mal copiado)"). */
  reason: string;
}

/** What the caller's transaction knows: the engine (for the lock) and the change's instant. */
export interface ListChangeContext {
  engine: Engine;
  now: Date;
}

/** The key class of the per-exhibitor lock of this feature on PostgreSQL ("LCM"). */
const LIST_CHANGE_LOCK_CLASS = 0x4c434d;

const reported = (entries: readonly ListEntryLike[]): ReportedEntry[] =>
  entries.map((entry) => ({
    fiscalId: 'fiscalId' in entry ? entry.fiscalId : entry.fiscal_id,
    name: entry.name,
  }));

const memberKey = (eventId: string, exhibitorId: string) => `${eventId}/${exhibitorId}`;

/**
 * Serialises this feature's writes for these exhibitors of the event until the transaction ends,
 * so two administrators changing one exhibitor's two categories at once queue one message, not two.
 * Taken after the caller's own locks (the lists), in key order and never by anything that waits on
 * a list afterwards, so it cannot close a circle. SQLite runs one write at a time.
 */
async function lockExhibitors(tx: Tx, engine: Engine, keys: readonly string[]): Promise<void> {
  if (engine !== 'postgres' || keys.length === 0) return;
  const sorted = [...keys].sort();
  await sql`select count(pg_advisory_xact_lock(${LIST_CHANGE_LOCK_CLASS}, hashtext(k))) from (select k from unnest(${sorted}::text[]) as k order by k) as keys`.execute(
    tx,
  );
}

/**
 * Records administrators' changes to exhibitors' lists, in the caller's transaction, and debounces
 * one message per exhibitor: the exhibitor's unsent, unclaimed message of this event moves to
 * LIST_CHANGE_QUIET_MINUTES from now and the changes join its batch; an exhibitor without one gets
 * a new message. A merge touching 300 lists queues 300 messages, in a few statements. An exhibitor who is not in the event
 * is skipped.
 */
export async function recordListChanges(
  tx: Tx,
  { engine, now }: ListChangeContext,
  changes: readonly ListChange[],
): Promise<void> {
  // Every change is told, even one that keeps ids and names (a corrected phone): the reason says what.
  const real = changes.map((change) => ({
    ...change,
    before: reported(change.before),
    after: reported(change.after),
  }));
  if (real.length === 0) return;
  const sendAt = iso(new Date(now.getTime() + LIST_CHANGE_QUIET_MINUTES * 60_000));
  const byEvent = new Map<string, Set<string>>();
  for (const change of real) {
    const exhibitors = byEvent.get(change.eventId) ?? new Set<string>();
    exhibitors.add(change.exhibitorId);
    byEvent.set(change.eventId, exhibitors);
  }
  await lockExhibitors(
    tx,
    engine,
    real.map((change) => memberKey(change.eventId, change.exhibitorId)),
  );
  const batches = new Map<string, string>();
  for (const [eventId, exhibitorSet] of byEvent) {
    for (const exhibitorIds of chunks([...exhibitorSet], 500)) {
      // A message the worker has claimed (it may be reading the batch right now) is left alone:
      // the change starts a new one, so it is always reported.
      const postponed = await tx
        .updateTable('mail_outbox')
        .set({ next_attempt_at: sendAt })
        .where('status', '=', 'pending')
        .where('template', '=', LIST_CHANGE_TEMPLATE)
        .where('event_id', '=', eventId)
        .where('exhibitor_id', 'in', exhibitorIds)
        .where('locked_until', 'is', null)
        .returning(['exhibitor_id', 'params'])
        .execute();
      for (const row of postponed) {
        const params = readMailParams(listChangeParams, row.params);
        if (params && row.exhibitor_id !== null) {
          batches.set(memberKey(eventId, row.exhibitor_id), params.batchId);
        }
      }
      const missing = exhibitorIds.filter((id) => !batches.has(memberKey(eventId, id)));
      if (missing.length === 0) continue;
      const members = await tx
        .selectFrom('event_exhibitors as m')
        .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
        .select(['x.id', 'x.email'])
        .where('m.event_id', '=', eventId)
        .where('m.exhibitor_id', 'in', missing)
        .execute();
      const queued = members.map((member) => ({ member, batchId: newId() }));
      await enqueueMails(
        tx,
        now,
        queued.map(({ member, batchId }) => ({
          template: LIST_CHANGE_TEMPLATE,
          params: { eventId, exhibitorId: member.id, batchId },
          to: member.email,
          sendAt: new Date(sendAt),
          eventId,
          exhibitorId: member.id,
        })),
      );
      for (const { member, batchId } of queued) batches.set(memberKey(eventId, member.id), batchId);
    }
  }
  const rows = real.flatMap((change) => {
    const batchId = batches.get(memberKey(change.eventId, change.exhibitorId));
    if (batchId === undefined) return [];
    return [
      {
        event_id: change.eventId,
        exhibitor_id: change.exhibitorId,
        category: change.category,
        batch_id: batchId,
        before: JSON.stringify(change.before),
        after: JSON.stringify(change.after),
        admin_id: change.adminId,
        reason: change.reason,
        changed_at: iso(now),
      },
    ];
  });
  for (const chunk of chunks(rows, 500)) {
    await tx.insertInto('list_changes').values(chunk).execute();
  }
}

/**
 * One list's change: what every admin path that rewrites a single exhibitor's list calls inside
 * its transaction (see recordListChanges).
 */
export function recordListChange(
  tx: Tx,
  context: ListChangeContext,
  change: ListChange,
): Promise<void> {
  return recordListChanges(tx, context, [change]);
}

/** The latest change an administrator made to the exhibitor's lists in this event, if any. */
export async function latestListChange(
  db: Db,
  eventId: string,
  exhibitorId: string,
): Promise<{ at: string; reason: string } | null> {
  const row = await db
    .selectFrom('list_changes')
    .select(['changed_at', 'reason'])
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { at: row.changed_at, reason: row.reason } : null;
}
