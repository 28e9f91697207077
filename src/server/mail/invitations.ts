import type { EventRow } from '../db/schema.ts';

/**
 * The event's invitation to one exhibitor, from the administrator who adds them (by hand, from a
 * file, or by duplicating an earlier event).
 */
export const invitationMail = (
  admin: { fullName: string },
  event: Pick<EventRow, 'id' | 'name' | 'vote_deadline'>,
  exhibitor: { id: string; email: string },
) => ({
  template: 'exhibitor-invitation' as const,
  to: exhibitor.email,
  params: {
    adminName: admin.fullName,
    eventName: event.name,
    voteDeadline: event.vote_deadline,
  },
  eventId: event.id,
  exhibitorId: exhibitor.id,
});
