import type { Insertable } from 'kysely';
import type { Db } from '../db/connection.ts';
import type { Tx } from '../db/transact.ts';
import { prepared } from '../db/prepared.ts';
import type { AuditLogTable } from '../db/schema.ts';
import {
  AUDIT_ACTIONS,
  readAuditDetails,
  type AuditAction,
  type AuditDetails,
} from '../../shared/audit-entries.ts';
import { iso } from './time.ts';

/** One entry of one action, with the details its definition in `AUDIT_ACTIONS` describes. */
type EntryOf<Action extends AuditAction> = {
  action: Action;
  entityType: string;
  entityId?: string | null;
  eventId?: string | null;
} & (Record<never, never> extends AuditDetails<Action>
  ? { details?: AuditDetails<Action> }
  : { /** Before/after or other facts; stored as JSON. */ details: AuditDetails<Action> });

export type AuditEntry = { [Action in AuditAction]: EntryOf<Action> }[AuditAction];

/**
 * A merge of nominees and its undo (modules/merge). A merge is the one entry "Historial" offers to
 * undo ("Deshacer", modules/history), so both modules name it from here.
 */
export const MERGE_ACTION = 'nominee.merge' satisfies AuditAction;
export const UNDO_MERGE_ACTION = 'nominee.merge.undo' satisfies AuditAction;

/** Who made a change: a signed-in user (a session's user fits) or the system itself. */
export type Actor =
  | { role: 'admin'; adminId: string; email?: string | null }
  | { role: 'exh'; exhibitorId: string; email?: string | null }
  | { role: 'system'; email?: string | null };

type NewEntry = Omit<Insertable<AuditLogTable>, 'id'>;

/** Every save writes one entry: compiled once (prepared.ts) instead of built per call. */
const insertEntry = prepared<Required<NewEntry>, { id: number | bigint | string }>((db, arg) =>
  db
    .insertInto('audit_log')
    .values({
      at: arg('at'),
      actor_role: arg('actor_role'),
      actor_id: arg('actor_id'),
      actor_email: arg('actor_email'),
      action: arg('action'),
      entity_type: arg('entity_type'),
      entity_id: arg('entity_id'),
      event_id: arg('event_id'),
      details: arg('details'),
    })
    .returning('id'),
);

/**
 * Records an administrative change. Pass the transaction (`Tx`) that makes the change, so that
 * the change and its record commit together; a standalone fact (a failed sign-in) may be
 * recorded on its own. Answers the entry's id (an undo names the entry it undoes).
 */
export async function recordAudit(
  trx: Db,
  actor: Actor,
  at: Date,
  entry: AuditEntry,
): Promise<number> {
  const actorId =
    actor.role === 'admin' ? actor.adminId : actor.role === 'exh' ? actor.exhibitorId : null;
  const { rows } = await insertEntry(trx, {
    at: iso(at),
    actor_role: actor.role,
    actor_id: actorId,
    actor_email: actor.email ?? null,
    action: entry.action,
    entity_type: entry.entityType,
    entity_id: entry.entityId ?? null,
    event_id: entry.eventId ?? null,
    details: JSON.stringify(entry.details ?? {}),
  });
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('the audit entry was not stored');
  return Number(id);
}

/** Which of the merges `auditIds` of the event an undo entry names (`undoOf`): undone already. */
export async function undoneMerges(
  db: Db | Tx,
  eventId: string,
  auditIds: readonly number[],
): Promise<Set<number>> {
  if (auditIds.length === 0) return new Set();
  const undos = await db
    .selectFrom('audit_log')
    .select('details')
    .where('event_id', '=', eventId)
    .where('action', '=', UNDO_MERGE_ACTION)
    .execute();
  const wanted = new Set(auditIds);
  const undone = new Set<number>();
  for (const undo of undos) {
    const undoOf = readAuditDetails(AUDIT_ACTIONS[UNDO_MERGE_ACTION].details, undo.details)?.undoOf;
    if (undoOf !== undefined && wanted.has(undoOf)) undone.add(undoOf);
  }
  return undone;
}
