import { sql } from 'kysely';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  MAX_NOMINEES_PER_CATEGORY,
} from '../../../shared/constants.ts';
import { formatMailDate } from '../../../shared/dates.ts';
import { deadlineClosingText } from '../../../shared/deadline-zone.ts';
import type { ReminderKind } from '../../../shared/schemas/events.ts';
import type { MailTemplate } from './index.ts';
import { layout } from './layout.ts';

export interface VotingReminderParams {
  eventId: string;
  exhibitorId: string;
  /** Absent in reminders queued before events chose theirs: those were deadline-day ones. */
  kind?: ReminderKind;
}

/** The subject of each reminder, by how far the deadline is. */
const SUBJECTS: Record<ReminderKind, (eventName: string) => string> = {
  sevenDaysBefore: (name) => `Faltan 7 días para el cierre de la votación de ${name}`,
  threeDaysBefore: (name) => `Faltan 3 días para el cierre de la votación de ${name}`,
  oneDayBefore: (name) => `Mañana cierra la votación de ${name}`,
  deadlineDay: (name) => `Hoy cierra la votación de ${name}`,
};

/**
 * Rendered at send time so the counts are the exhibitor's current ones. The deadline-day reminder
 * goes to every exhibitor; an earlier one only to those who have not completed both lists, so it is
 * skipped (null) for the others.
 */
export const votingReminder: MailTemplate<VotingReminderParams> = {
  async render({ eventId, exhibitorId, kind = 'deadlineDay' }, { db, config }) {
    const event = await db
      .selectFrom('events')
      .select(['name', 'vote_deadline', 'archived_at'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    // An archived event sends nothing more.
    if (event.archived_at !== null) return null;
    const counts = await db
      .selectFrom('nominations')
      .select(['category', sql<number>`cast(count(*) as integer)`.as('total')])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .groupBy('category')
      .execute();
    const countOf = (category: string) =>
      Number(counts.find((c) => c.category === category)?.total ?? 0);
    const complete = CATEGORIES.every(
      (category) => countOf(category) === MAX_NOMINEES_PER_CATEGORY,
    );
    if (kind !== 'deadlineDay' && complete) return null;
    return layout({
      subject: SUBJECTS[kind](event.name),
      paragraphs: [
        kind === 'deadlineDay'
          ? `Hoy, ${formatMailDate(event.vote_deadline)}, es el último día para realizar cambios en tus nominaciones de ${event.name}. ${deadlineClosingText(event.vote_deadline, config.timeZone)}.`
          : `${deadlineClosingText(event.vote_deadline, config.timeZone)}. Todavía puedes completar tus nominaciones de ${event.name}.`,
        ...CATEGORIES.map(
          (category) =>
            `Nominaciones en ${CATEGORY_LABELS[category]}: ${countOf(category)} de ${MAX_NOMINEES_PER_CATEGORY}.`,
        ),
      ],
      action: { label: 'Revisar mis nominaciones', url: `${config.appUrl}/exh/event/${eventId}` },
    });
  },
};
