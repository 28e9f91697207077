import type { Db } from '../db/connection.ts';
import { iso } from './time.ts';

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId?: string | null;
  eventId?: string | null;
  /** Before/after or other facts; stored as JSON. */
  details?: unknown;
}

/** Who made a change: a signed-in user (a session's user fits) or the system itself. */
export type Actor =
  | { role: 'admin'; adminId: string; email?: string | null }
  | { role: 'exh'; exhibitorId: string; email?: string | null }
  | { role: 'system'; email?: string | null };

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
  const { id } = await trx
    .insertInto('audit_log')
    .values({
      at: iso(at),
      actor_role: actor.role,
      actor_id: actorId,
      actor_email: actor.email ?? null,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId ?? null,
      event_id: entry.eventId ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}
