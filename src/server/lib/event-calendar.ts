import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { calendarDateIn } from '../../shared/dates.ts';
import type { EventRow } from '../db/schema.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The closing hour of an event that does not choose one: the last minute of the deadline day. */
export const DEFAULT_CLOSE_TIME = '23:59';

/**
 * When an event's voting runs, in its own zone: open from `opensAt` (null: from its creation)
 * through the minute `closeTime` of the `voteDeadline` day, unless an administrator closed it at
 * `closedAt` ("Cerrar votación ahora").
 */
export interface EventCalendar {
  voteDeadline: string;
  closeTime: string;
  timeZone: string;
  opensAt: string | null;
  closedAt: string | null;
}

type CalendarColumns = Pick<
  EventRow,
  'vote_deadline' | 'close_time' | 'time_zone' | 'voting_opens_at' | 'voting_closed_at'
>;

/** An event row's calendar; an event without a zone of its own follows APP_TIMEZONE. */
export function calendarOf(row: CalendarColumns, appTimeZone: string): EventCalendar {
  return {
    voteDeadline: row.vote_deadline,
    closeTime: row.close_time,
    timeZone: row.time_zone ?? appTimeZone,
    opensAt: row.voting_opens_at,
    closedAt: row.voting_closed_at,
  };
}

/** A wall-clock date and time (`YYYY-MM-DD`, `HH:MM`) of a zone as an instant. */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  return dayjs.tz(`${date} ${time}`, timeZone).toDate();
}

/** An instant as the wall clock of a zone shows it, `YYYY-MM-DDTHH:MM` ("Apertura de la votación"). */
export function zonedLocalDateTime(instant: string, timeZone: string): string {
  return dayjs(instant).tz(timeZone).format('YYYY-MM-DDTHH:mm');
}

/**
 * Every save asks when voting ends, and zone arithmetic costs more than the rest of a save: each
 * deadline, hour and zone keeps its answer (a handful of events, so the map stays small).
 */
const closings = new Map<string, number>();

/**
 * The first instant voting is closed: the minute after the closing hour of the deadline day, so
 * that "cierra a las 23:59" keeps 23:59 itself open, as the product always did.
 */
export function closingInstant(
  calendar: Pick<EventCalendar, 'voteDeadline' | 'closeTime' | 'timeZone'>,
): number {
  const key = `${calendar.voteDeadline} ${calendar.closeTime} ${calendar.timeZone}`;
  let closing = closings.get(key);
  if (closing === undefined) {
    closing =
      zonedInstant(calendar.voteDeadline, calendar.closeTime, calendar.timeZone).getTime() + 60_000;
    if (closings.size > 10_000) closings.clear();
    closings.set(key, closing);
  }
  return closing;
}

/** Before its opening the event is a draft: invisible to exhibitors, no invitation nor reminder. */
export const isDraft = (calendar: EventCalendar, now: Date): boolean =>
  calendar.opensAt !== null && now.getTime() < Date.parse(calendar.opensAt);

/** Voting has ended: its closing hour passed, or an administrator closed it. */
export function hasVotingEnded(calendar: EventCalendar, now: Date): boolean {
  if (calendar.closedAt !== null && now.getTime() >= Date.parse(calendar.closedAt)) return true;
  return now.getTime() >= closingInstant(calendar);
}

/** Exhibitors may save: after the opening and before the close. */
export const isVotingOpenNow = (calendar: EventCalendar, now: Date): boolean =>
  !isDraft(calendar, now) && !hasVotingEnded(calendar, now);

/** Today's date in the event's zone. */
export const eventToday = (calendar: Pick<EventCalendar, 'timeZone'>, now: Date): string =>
  calendarDateIn(now, calendar.timeZone);
