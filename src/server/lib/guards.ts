import { MSG } from '../../shared/messages.ts';
import type { Db } from '../db/connection.ts';
import type { EventRow } from '../db/schema.ts';
import type { Tx } from '../db/transact.ts';
import type { AppDeps } from '../deps.ts';
import { notFound } from './errors.ts';
import { memberField } from './member-rows.ts';

/** The event, or 404 "No se econtró el evento". */
export async function getEventOr404(db: Db, eventId: string): Promise<EventRow> {
  const event = await db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (!event) throw notFound(MSG.eventNotFound);
  return event;
}

/**
 * Runs an administrator's change to one event in a transaction that first reads the event (404
 * "No se econtró el evento" when it does not exist); `now` is the instant of the request.
 */
export function inEventTransaction<T>(
  deps: Pick<AppDeps, 'transact' | 'clock'>,
  eventId: string,
  work: (tx: Tx, event: EventRow, now: Date) => Promise<T>,
): Promise<T> {
  const now = deps.clock.now();
  return deps.transact(async (tx) => work(tx, await getEventOr404(tx, eventId), now));
}

export interface EventMember {
  id: string;
  email: string;
  full_name: string;
  /** The newest invitation queued for this event (mail_outbox), if any. */
  invitation_message_id: string | null;
  /** When first invited; null for an exhibitor added without an invitation. */
  invited_at: string | null;
}

/**
 * An exhibitor of the event, for the administrator's screens: 404 "No se econtró el evento" when
 * the event does not exist, and the exhibitor-not-found 404 when it does but they are not in it.
 */
export async function getMemberOr404(
  db: Db,
  eventId: string,
  exhibitorId: string,
): Promise<{ event: EventRow; member: EventMember }> {
  const event = await getEventOr404(db, eventId);
  const member = await db
    .selectFrom('event_exhibitors as m')
    .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
    .select([
      'x.id',
      memberField('email').as('email'),
      memberField('full_name').as('full_name'),
      'm.invitation_message_id',
      'm.invited_at',
    ])
    .where('m.event_id', '=', eventId)
    .where('m.exhibitor_id', '=', exhibitorId)
    .executeTakeFirst();
  if (!member) throw notFound(MSG.exhibitorNotFound);
  return { event, member };
}
