import { z } from 'zod';
import { mailDeadlineClosingText } from '../../../shared/deadline-zone.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const nonVoterReminderParams = z.object({
  eventId: z.string(),
  /** "Recordar a los incompletos"; absent for "Recordar a quienes no votaron". */
  audience: z.literal('incomplete').optional(),
});
export type NonVoterReminderParams = z.output<typeof nonVoterReminderParams>;

/**
 * "Recordar a quienes no votaron" (exhibitors with no nomination) and "Recordar a los incompletos"
 * (some list not full), sent by an administrator.
 */
export const nonVoterReminder = mailTemplate({
  params: nonVoterReminderParams,
  async render({ eventId, audience }, { db, config }) {
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
