import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { closingInstant, DEFAULT_CLOSE_TIME } from '../lib/event-calendar.ts';
import { REMINDER_KINDS, type ReminderKind } from '../../shared/schemas/events.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * When each reminder goes out, in the programme's zone: the earlier ones at 09:00, so they arrive
 * at the start of a working day; the deadline-day one at 00:00, as the product always sent it.
 */
const REMINDER_TIMES: Record<ReminderKind, { daysBefore: number; localTime: string }> = {
  sevenDaysBefore: { daysBefore: 7, localTime: '09:00' },
  threeDaysBefore: { daysBefore: 3, localTime: '09:00' },
  oneDayBefore: { daysBefore: 1, localTime: '09:00' },
  deadlineDay: { daysBefore: 0, localTime: '00:00' },
};

/**
 * The instant a reminder is due for a deadline (`YYYY-MM-DD`) in an IANA zone. Days are counted on
 * the calendar, not as 24-hour spans, so a daylight-saving change in between moves nothing; a local
 * time that a change skips (00:00 where clocks jump from 00:00 to 01:00) becomes the first instant
 * after the jump, still on the same calendar day.
 */
export function reminderInstant(kind: ReminderKind, voteDeadline: string, timeZone: string): Date {
  const { daysBefore, localTime } = REMINDER_TIMES[kind];
  const day = dayjs.utc(voteDeadline).subtract(daysBefore, 'day').format('YYYY-MM-DD');
  return dayjs.tz(`${day} ${localTime}`, timeZone).toDate();
}

export interface ScheduledReminder {
  kind: ReminderKind;
  sendAt: Date;
}

export interface ReminderScheduleInput {
  voteDeadline: string;
  /** The reminders chosen for the event, in any order. */
  reminders: readonly ReminderKind[];
  timeZone: string;
  /** "Hora de cierre" of the deadline day (23:59 when left out). */
  closeTime?: string;
  /** "Apertura de la votación" (ISO instant): nothing goes out before it. */
  opensAt?: string | null;
  now: Date;
}

/**
 * The reminders to queue, earliest first. An earlier reminder whose instant has passed, or falls
 * before the opening, is dropped: it would arrive late and say what a later one says, or reach an
 * exhibitor before the event is open. The deadline-day reminder keeps its rule of old: it is queued
 * while voting has not closed, and when its 00:00 has already passed (an exhibitor added on the
 * deadline day) it is due at once; before an opening later than its 00:00, at the opening.
 */
export function reminderSchedule(input: ReminderScheduleInput): ScheduledReminder[] {
  const { voteDeadline, reminders, timeZone, now } = input;
  const closing = closingInstant({
    voteDeadline,
    closeTime: input.closeTime ?? DEFAULT_CLOSE_TIME,
    timeZone,
  });
  const opening = input.opensAt ? Date.parse(input.opensAt) : Number.NEGATIVE_INFINITY;
  const chosen = new Set(reminders);
  const schedule: ScheduledReminder[] = [];
  for (const kind of REMINDER_KINDS) {
    if (!chosen.has(kind)) continue;
    const instant = reminderInstant(kind, voteDeadline, timeZone);
    if (kind === 'deadlineDay') {
      if (now.getTime() < closing) {
        schedule.push({ kind, sendAt: new Date(Math.max(instant.getTime(), opening)) });
      }
    } else if (instant.getTime() >= now.getTime() && instant.getTime() >= opening) {
      schedule.push({ kind, sendAt: instant });
    }
  }
  return schedule;
}
