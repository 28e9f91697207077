import type { EventRow } from '../db/schema.ts';

/**
 * The event's invitation to one exhibitor, from the administrator who adds them (by hand, from a
 * file, or by duplicating an earlier event). A draft's invitation waits for the opening.
 */
export const invitationMail = (
  admin: { fullName: string },
  event: Pick<EventRow, 'id' | 'name' | 'vote_deadline' | 'voting_opens_at'>,
  exhibitor: { id: string; email: string },
  now: Date,
) => ({
  template: 'exhibitor-invitation' as const,
  to: exhibitor.email,
  params: {
    adminName: admin.fullName,
    eventName: event.name,
    voteDeadline: event.vote_deadline,
    eventId: event.id,
  },
  ...(event.voting_opens_at !== null && Date.parse(event.voting_opens_at) > now.getTime()
    ? { sendAt: new Date(event.voting_opens_at) }
    : {}),
  eventId: event.id,
  exhibitorId: exhibitor.id,
});
