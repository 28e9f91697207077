import { describe, expect, it } from 'vitest';
import { calendarDateIn } from '../../shared/dates.ts';
import { REMINDER_KINDS, type ReminderKind } from '../../shared/schemas/events.ts';
import { reminderInstant, reminderSchedule } from './reminder-schedule.ts';

const ALL = REMINDER_KINDS;

function instants(voteDeadline: string, timeZone: string): Record<ReminderKind, string> {
  return Object.fromEntries(
    ALL.map((kind) => [kind, reminderInstant(kind, voteDeadline, timeZone).toISOString()]),
  ) as Record<ReminderKind, string>;
}

/** Local wall-clock time of an instant in a zone, as "YYYY-MM-DD HH:mm". */
function localTime(instant: Date, timeZone: string): string {
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
  return `${calendarDateIn(instant, timeZone)} ${time}`;
}

describe('reminderInstant', () => {
  it('Europe/Madrid across the October change: 09:00 in summer time before it, in winter time after', () => {
    // Clocks go back from 03:00 CEST to 02:00 CET on Sunday 25 October 2026.
    expect(instants('2026-10-28', 'Europe/Madrid')).toEqual({
      sevenDaysBefore: '2026-10-21T07:00:00.000Z',
      threeDaysBefore: '2026-10-25T08:00:00.000Z',
      oneDayBefore: '2026-10-27T08:00:00.000Z',
      deadlineDay: '2026-10-27T23:00:00.000Z',
    });
  });

  it('Europe/Madrid across the March change', () => {
    // Clocks go forward from 02:00 CET to 03:00 CEST on Sunday 29 March 2026.
    expect(instants('2026-03-30', 'Europe/Madrid')).toEqual({
      sevenDaysBefore: '2026-03-23T08:00:00.000Z',
      threeDaysBefore: '2026-03-27T08:00:00.000Z',
      oneDayBefore: '2026-03-29T07:00:00.000Z',
      deadlineDay: '2026-03-29T22:00:00.000Z',
    });
  });

  it('America/Santiago when the deadline day begins the summer time: its midnight does not exist', () => {
    // On Sunday 6 September 2026 clocks jump from 00:00 (-04) to 01:00 (-03).
    const reminders = instants('2026-09-06', 'America/Santiago');
    expect(reminders).toEqual({
      sevenDaysBefore: '2026-08-30T13:00:00.000Z',
      threeDaysBefore: '2026-09-03T13:00:00.000Z',
      oneDayBefore: '2026-09-05T13:00:00.000Z',
      deadlineDay: '2026-09-06T04:00:00.000Z',
    });
    expect(localTime(new Date(reminders.deadlineDay), 'America/Santiago')).toBe('2026-09-06 01:00');
  });

  it('America/Santiago when the deadline day ends the summer time: midnight of that day, not the repeated hour before it', () => {
    // At 00:00 (-03) of Sunday 5 April 2026 clocks go back to 23:00 (-04) of Saturday.
    const reminders = instants('2026-04-05', 'America/Santiago');
    expect(reminders).toEqual({
      sevenDaysBefore: '2026-03-29T12:00:00.000Z',
      threeDaysBefore: '2026-04-02T12:00:00.000Z',
      oneDayBefore: '2026-04-04T12:00:00.000Z',
      deadlineDay: '2026-04-05T04:00:00.000Z',
    });
    expect(localTime(new Date(reminders.deadlineDay), 'America/Santiago')).toBe('2026-04-05 00:00');
  });

  it('counts calendar days across month and year ends, in a zone without daylight saving', () => {
    const zone = 'America/Argentina/Buenos_Aires';
    const reminders = instants('2027-01-02', zone);
    expect(reminders).toEqual({
      sevenDaysBefore: '2026-12-26T12:00:00.000Z',
      threeDaysBefore: '2026-12-30T12:00:00.000Z',
      oneDayBefore: '2027-01-01T12:00:00.000Z',
      deadlineDay: '2027-01-02T03:00:00.000Z',
    });
    expect(localTime(new Date(reminders.oneDayBefore), zone)).toBe('2027-01-01 09:00');
  });
});

describe('reminderSchedule', () => {
  const base = { voteDeadline: '2026-10-28', timeZone: 'Europe/Madrid' };

  it('gives every chosen reminder, earliest first, whatever the order chosen', () => {
    const schedule = reminderSchedule({
      ...base,
      reminders: ['deadlineDay', 'oneDayBefore', 'sevenDaysBefore', 'oneDayBefore'],
      now: new Date('2026-10-01T10:00:00Z'),
    });
    expect(schedule.map(({ kind, sendAt }) => [kind, sendAt.toISOString()])).toEqual([
      ['sevenDaysBefore', '2026-10-21T07:00:00.000Z'],
      ['oneDayBefore', '2026-10-27T08:00:00.000Z'],
      ['deadlineDay', '2026-10-27T23:00:00.000Z'],
    ]);
  });

  it('schedules nothing when none is chosen', () => {
    expect(
      reminderSchedule({ ...base, reminders: [], now: new Date('2026-10-01T10:00:00Z') }),
    ).toEqual([]);
  });

  it('drops an earlier reminder whose instant has passed, keeps one due this very instant', () => {
    const kinds = (now: string) =>
      reminderSchedule({ ...base, reminders: ALL, now: new Date(now) }).map((r) => r.kind);
    expect(kinds('2026-10-21T07:00:00.000Z')).toEqual(ALL);
    expect(kinds('2026-10-21T07:00:00.001Z')).toEqual([
      'threeDaysBefore',
      'oneDayBefore',
      'deadlineDay',
    ]);
    expect(kinds('2026-10-27T08:00:00.001Z')).toEqual(['deadlineDay']);
  });

  it('keeps the deadline-day reminder through the deadline day, due at once, and none after it', () => {
    const onDeadlineDay = reminderSchedule({
      ...base,
      reminders: ALL,
      now: new Date('2026-10-28T21:00:00Z'), // 22:00 in Madrid
    });
    expect(onDeadlineDay).toEqual([
      { kind: 'deadlineDay', sendAt: new Date('2026-10-27T23:00:00.000Z') },
    ]);
    const closed = reminderSchedule({
      ...base,
      reminders: ALL,
      now: new Date('2026-10-28T23:00:00Z'), // 00:00 of the next day in Madrid
    });
    expect(closed).toEqual([]);
  });
});
