import {
  DEFAULT_REMINDERS,
  REMINDER_KINDS,
  type ReminderKind,
} from '../../shared/schemas/events.ts';
import type { EventRow } from '../db/schema.ts';
import type { Tx } from '../db/transact.ts';
import {
  cancelPendingMessage,
  enqueueMails,
  pendingMailOfEvent,
  rescheduleMessage,
} from './outbox.ts';
import { reminderSchedule } from './reminder-schedule.ts';
import { readMailParams } from './templates/define.ts';
import { votingReminderParams } from './templates/voting-reminder.ts';

type ReminderEvent = Pick<
  EventRow,
  'id' | 'vote_deadline' | 'reminders' | 'close_time' | 'time_zone' | 'voting_opens_at'
>;

/** The reminders an event sends, from its stored JSON (anything unknown is ignored). */
export function eventReminders(event: Pick<EventRow, 'reminders'>): ReminderKind[] {
  let stored: unknown;
  try {
    stored = JSON.parse(event.reminders);
  } catch {
    return [...DEFAULT_REMINDERS];
  }
  return Array.isArray(stored) ? REMINDER_KINDS.filter((kind) => stored.includes(kind)) : [];
}

export const remindersColumn = (kinds: readonly ReminderKind[]) => JSON.stringify(kinds);

/** A queued reminder's kind: messages queued before reminders had kinds were deadline-day ones. */
function kindOf(params: string): ReminderKind {
  return readMailParams(votingReminderParams, params)?.kind ?? 'deadlineDay';
}

/** The event's reminders still ahead, in its zone (`appTimeZone` when it has none of its own). */
function schedule(appTimeZone: string, now: Date, event: ReminderEvent) {
  return reminderSchedule({
    voteDeadline: event.vote_deadline,
    reminders: eventReminders(event),
    timeZone: event.time_zone ?? appTimeZone,
    closeTime: event.close_time,
    opensAt: event.voting_opens_at,
    now,
  });
}

type Recipient = { id: string; email: string };

const reminderMail = (
  event: ReminderEvent,
  exhibitor: Recipient,
  kind: ReminderKind,
  sendAt: Date,
) => ({
  template: 'voting-reminder' as const,
  to: exhibitor.email,
  params: { eventId: event.id, exhibitorId: exhibitor.id, kind },
  sendAt,
  eventId: event.id,
  exhibitorId: exhibitor.id,
});

/**
 * Queues the event's reminders for exhibitors who join it: those still ahead (the deadline-day one
 * while voting is open, at once on the deadline day itself).
 */
export async function scheduleReminders(
  tx: Tx,
  appTimeZone: string,
  now: Date,
  event: ReminderEvent,
  exhibitors: readonly Recipient[],
): Promise<void> {
  const due = schedule(appTimeZone, now, event);
  await enqueueMails(
    tx,
    now,
    exhibitors.flatMap((exhibitor) =>
      due.map(({ kind, sendAt }) => reminderMail(event, exhibitor, kind, sendAt)),
    ),
  );
}

/**
 * After the deadline or the chosen reminders changed: each unsent reminder moves to its instant for
 * the event as it is now, or is withdrawn when its kind is no longer chosen or its time has passed;
 * a kind without an unsent message is queued for every exhibitor when it is newly chosen, or when
 * the deadline moved (the one that went out was for the old deadline).
 */
export async function rescheduleReminders(
  tx: Tx,
  appTimeZone: string,
  now: Date,
  event: ReminderEvent,
  change: { deadlineMoved: boolean; addedKinds: readonly ReminderKind[] },
): Promise<void> {
  const due = new Map(schedule(appTimeZone, now, event).map((item) => [item.kind, item.sendAt]));
  const pending = await pendingMailOfEvent(tx, { template: 'voting-reminder', eventId: event.id });
  const waiting = new Set<string>();
  for (const message of pending) {
    const kind = kindOf(message.params);
    const sendAt = due.get(kind);
    if (!sendAt) {
      await cancelPendingMessage(tx, message.id);
      continue;
    }
    waiting.add(`${message.exhibitor_id}:${kind}`);
    await rescheduleMessage(tx, message.id, sendAt);
  }
  const toQueue = [...due].filter(
    ([kind]) => change.deadlineMoved || change.addedKinds.includes(kind),
  );
  if (toQueue.length === 0) return;
  const members = await tx
    .selectFrom('event_exhibitors as m')
    .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
    .select(['x.id', 'x.email'])
    .where('m.event_id', '=', event.id)
    // Exhibitors added without an invitation get their reminders once invited.
    .where('m.invited_at', 'is not', null)
    .execute();
  await enqueueMails(
    tx,
    now,
    members.flatMap((exhibitor) =>
      toQueue
        .filter(([kind]) => !waiting.has(`${exhibitor.id}:${kind}`))
        .map(([kind, sendAt]) => reminderMail(event, exhibitor, kind, sendAt)),
    ),
  );
}
