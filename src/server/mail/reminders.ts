import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { isVotingOpen } from '../../shared/dates.ts';
import type { EventRow } from '../db/schema.ts';
import type { Tx } from '../db/transact.ts';
import { cancelPendingMail, enqueueMail, reschedulePendingMail } from './outbox.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** When the deadline-day reminder goes out: 00:00 of the deadline's calendar day in `timeZone`. */
export function reminderSendAt(voteDeadline: string, timeZone: string): Date {
  return dayjs.tz(voteDeadline, timeZone).startOf('day').toDate();
}

/**
 * Queues the deadline-day reminder of one exhibitor. Nothing is queued once voting has closed; on
 * the deadline day itself it goes out at once.
 */
export async function scheduleReminder(
  tx: Tx,
  timeZone: string,
  now: Date,
  event: Pick<EventRow, 'id' | 'vote_deadline'>,
  exhibitor: { id: string; email: string },
): Promise<void> {
  if (!isVotingOpen(event.vote_deadline, now, timeZone)) return;
  await enqueueMail(tx, now, {
    template: 'voting-reminder',
    to: exhibitor.email,
    params: { eventId: event.id, exhibitorId: exhibitor.id },
    sendAt: reminderSendAt(event.vote_deadline, timeZone),
    eventId: event.id,
    exhibitorId: exhibitor.id,
  });
}

/**
 * After the deadline moved: pending reminders move to the new deadline day, and exhibitors whose
 * reminder already went out (for the earlier deadline) get one for the new day. A deadline already
 * past withdraws the pending ones.
 */
export async function rescheduleReminders(
  tx: Tx,
  timeZone: string,
  now: Date,
  event: Pick<EventRow, 'id' | 'vote_deadline'>,
): Promise<void> {
  const reminders = { template: 'voting-reminder', eventId: event.id } as const;
  if (!isVotingOpen(event.vote_deadline, now, timeZone)) {
    await cancelPendingMail(tx, reminders);
    return;
  }
  await reschedulePendingMail(tx, reminders, reminderSendAt(event.vote_deadline, timeZone));
  const withoutReminder = await tx
    .selectFrom('event_exhibitors as m')
    .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
    .select(['x.id', 'x.email'])
    .where('m.event_id', '=', event.id)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('mail_outbox as o')
            .select('o.id')
            .whereRef('o.exhibitor_id', '=', 'm.exhibitor_id')
            .where('o.event_id', '=', event.id)
            .where('o.template', '=', 'voting-reminder')
            .where('o.status', '=', 'pending'),
        ),
      ),
    )
    .execute();
  for (const exhibitor of withoutReminder) {
    await scheduleReminder(tx, timeZone, now, event, exhibitor);
  }
}
