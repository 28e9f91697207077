import { sql } from 'kysely';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  MAX_NOMINEES_PER_CATEGORY,
} from '../../../shared/constants.ts';
import { formatMailDate } from '../../../shared/dates.ts';
import type { MailTemplate } from './index.ts';
import { layout } from './layout.ts';

export interface VotingReminderParams {
  eventId: string;
  exhibitorId: string;
}

/** Rendered at send time (deadline day, 00:00) so the counts are the exhibitor's current ones. */
export const votingReminder: MailTemplate<VotingReminderParams> = {
  async render({ eventId, exhibitorId }, { db, config }) {
    const event = await db
      .selectFrom('events')
      .select(['name', 'vote_deadline'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    const counts = await db
      .selectFrom('nominations')
      .select(['category', sql<number>`cast(count(*) as integer)`.as('total')])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .groupBy('category')
      .execute();
    const countOf = (category: string) =>
      Number(counts.find((c) => c.category === category)?.total ?? 0);
    return layout({
      subject: `Hoy cierra la votación de ${event.name}`,
      paragraphs: [
        `Hoy, ${formatMailDate(event.vote_deadline)}, es el último día para realizar cambios en sus nominaciones de ${event.name}.`,
        ...CATEGORIES.map(
          (category) =>
            `Nominaciones en ${CATEGORY_LABELS[category]}: ${countOf(category)} de ${MAX_NOMINEES_PER_CATEGORY}.`,
        ),
      ],
      action: { label: 'Revisar mis nominaciones', url: `${config.appUrl}/exh/event/${eventId}` },
    });
  },
};
