import { z } from 'zod';
import { sql } from 'kysely';
import { mailDeadlineClosingText } from '../../../shared/deadline-zone.ts';
import type { Db } from '../../db/connection.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const nonVoterReminderParams = z.object({
  eventId: z.string(),
  /** "Recordar a los incompletos"; absent for "Recordar a quienes no votaron". */
  audience: z.literal('incomplete').optional(),
  /**
   * The exhibitor reminded to complete their lists, whose counts per category the mail gives;
   * absent in reminders queued before it named them (those say only that the lists are not full).
   */
  exhibitorId: z.string().optional(),
});
export type NonVoterReminderParams = z.output<typeof nonVoterReminderParams>;

/** "Nominaciones en {NOMBRE}: {k} de {n}." for every category of the event, in its order. */
async function countsPerCategory(db: Db, eventId: string, exhibitorId: string): Promise<string[]> {
  const counts = await db
    .selectFrom('nominations')
    .select(['category', sql<number>`cast(count(*) as integer)`.as('total')])
    .where('event_id', '=', eventId)
    .where('exhibitor_id', '=', exhibitorId)
    .groupBy('category')
    .execute();
  return (await readEventCategories(db, eventId)).map((category) => {
    const count = Number(counts.find((c) => c.category === category.address)?.total ?? 0);
    return `Nominaciones en ${category.name}: ${count} de ${category.nominee_limit}.`;
  });
}

/**
 * "Recordar a quienes no votaron" (exhibitors with no nomination) and "Recordar a los incompletos"
 * (some list not full), sent by an administrator.
 */
export const nonVoterReminder = mailTemplate({
  params: nonVoterReminderParams,
  async render({ eventId, audience, exhibitorId }, { db, config }) {
    const event = await db
      .selectFrom('events')
      .select(['name', 'vote_deadline', 'close_time', 'time_zone'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    const closing = `${mailDeadlineClosingText(event.vote_deadline, event.time_zone ?? config.timeZone, event.close_time)}.`;
    if (audience === 'incomplete') {
      return layout({
        subject: `Recordatorio: completa tus nominaciones en ${event.name}`,
        paragraphs: [
          `Tus nominaciones en ${event.name} todavía no están completas.`,
          ...(exhibitorId ? await countsPerCategory(db, eventId, exhibitorId) : []),
          closing,
          'Ingresa con tu email y el código que te enviaremos para completar tus listas.',
        ],
        action: { label: 'Ingresar y completar', url: `${config.appUrl}/exh/event/${eventId}` },
      });
    }
    return layout({
      subject: `Recordatorio: todavía no votaste en ${event.name}`,
      paragraphs: [
        `Todavía no registraste nominaciones en ${event.name}.`,
        closing,
        'Ingresa con tu email y el código que te enviaremos para nominar a tus resellers.',
      ],
      action: { label: 'Ingresar y nominar', url: `${config.appUrl}/signin` },
    });
  },
});
