import { z } from 'zod';
import { sql } from 'kysely';
import { formatMailDate } from '../../../shared/dates.ts';
import { calendarOf, hasVotingEnded, isDraft } from '../../lib/event-calendar.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import { mailDeadlineClosingText } from '../../../shared/deadline-zone.ts';
import { REMINDER_KINDS, type ReminderKind } from '../../../shared/schemas/events.ts';
import { reminderInstant } from '../reminder-schedule.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const votingReminderParams = z.object({
  eventId: z.string(),
  exhibitorId: z.string(),
  /** Absent in reminders queued before events chose theirs: those were deadline-day ones. */
  kind: z.enum(REMINDER_KINDS).optional(),
});
export type VotingReminderParams = z.output<typeof votingReminderParams>;

/** The subject of each reminder, by how far the deadline is. */
const SUBJECTS: Record<ReminderKind, (eventName: string) => string> = {
  sevenDaysBefore: (name) => `Faltan 7 días para el cierre de la votación de ${name}`,
  threeDaysBefore: (name) => `Faltan 3 días para el cierre de la votación de ${name}`,
  oneDayBefore: (name) => `Mañana cierra la votación de ${name}`,
  deadlineDay: (name) => `Hoy cierra la votación de ${name}`,
};

/**
 * A reminder whose moment passed longer ago than this (the server was down, the mail server
 * unreachable) is withdrawn instead of sent: it would arrive late, about a day that has gone by.
 */
export const REMINDER_LATE_LIMIT_MS = 12 * 60 * 60 * 1000;

/**
 * Rendered at send time so the counts are the exhibitor's current ones, and checked then, not only
 * when queued: nothing goes out once the event is archived or its voting has ended (the deadline
 * passed or "Cerrar votación ahora"), to an exhibitor no longer in the event or not yet invited, nor
 * more than 12 hours after its moment (the later of its instant for the event's current deadline
 * and when it was queued). Each such message is withdrawn with its reason. The deadline-day reminder
 * goes to every exhibitor; an earlier one only to those who have not completed every list (each category's limit).
 */
export const votingReminder = mailTemplate({
  params: votingReminderParams,
  async render({ eventId, exhibitorId, kind = 'deadlineDay' }, { db, config, clock }, message) {
    const now = clock.now();
    const event = await db
      .selectFrom('events')
      .leftJoin('event_exhibitors as m', (join) =>
        join.onRef('m.event_id', '=', 'events.id').on('m.exhibitor_id', '=', exhibitorId),
      )
      .select([
        'events.name',
        'events.vote_deadline',
        'events.archived_at',
        'events.voting_closed_at',
        'events.close_time',
        'events.time_zone',
        'events.voting_opens_at',
        'm.exhibitor_id as member',
        'm.invited_at',
      ])
      .where('events.id', '=', eventId)
      .executeTakeFirst();
    if (!event || event.member === null) return { skipped: 'not_member' };
    if (event.archived_at !== null) return { skipped: 'archived' };
    const calendar = calendarOf(event, config.timeZone);
    if (hasVotingEnded(calendar, now)) return { skipped: 'voting_closed' };
    if (isDraft(calendar, now)) return { skipped: 'draft' };
    if (event.invited_at === null) return { skipped: 'not_invited' };
    const moment = Math.max(
      reminderInstant(kind, event.vote_deadline, calendar.timeZone).getTime(),
      calendar.opensAt ? Date.parse(calendar.opensAt) : 0,
      message.createdAt.getTime(),
    );
    if (now.getTime() - moment > REMINDER_LATE_LIMIT_MS) return { skipped: 'too_late' };
    const counts = await db
      .selectFrom('nominations')
      .select(['category', sql<number>`cast(count(*) as integer)`.as('total')])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .groupBy('category')
      .execute();
    const countOf = (category: string) =>
      Number(counts.find((c) => c.category === category)?.total ?? 0);
    // Every category of the event, in its order, each with its own limit.
    const categories = await readEventCategories(db, eventId);
    const complete = categories.every(
      (category) => countOf(category.address) >= Number(category.nominee_limit),
    );
    if (kind !== 'deadlineDay' && complete) return { skipped: 'complete' };
    return layout({
      subject: SUBJECTS[kind](event.name),
      paragraphs: [
        kind === 'deadlineDay'
          ? `Hoy, ${formatMailDate(event.vote_deadline)}, es el último día para realizar cambios en tus nominaciones de ${event.name}. ${mailDeadlineClosingText(event.vote_deadline, calendar.timeZone, calendar.closeTime)}.`
          : `${mailDeadlineClosingText(event.vote_deadline, calendar.timeZone, calendar.closeTime)}. Todavía puedes completar tus nominaciones de ${event.name}.`,
        ...categories.map(
          (category) =>
            `Nominaciones en ${category.name}: ${countOf(category.address)} de ${category.nominee_limit}.`,
        ),
      ],
      action: { label: 'Revisar mis nominaciones', url: `${config.appUrl}/exh/event/${eventId}` },
    });
  },
});
