import { MSG } from '../../shared/messages.ts';
import type { Db } from '../db/connection.ts';
import type { EventRow } from '../db/schema.ts';
import { notFound } from './errors.ts';

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

export interface EventMember {
  id: string;
  email: string;
  full_name: string;
  /** The newest invitation queued for this event (mail_outbox), if any. */
  invitation_message_id: string | null;
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
    .select(['x.id', 'x.email', 'x.full_name', 'm.invitation_message_id'])
    .where('m.event_id', '=', eventId)
    .where('m.exhibitor_id', '=', exhibitorId)
    .executeTakeFirst();
  if (!member) throw notFound(MSG.exhibitorNotFound);
  return { event, member };
}
