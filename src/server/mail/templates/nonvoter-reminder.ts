import { z } from 'zod';
import { deadlineClosingText } from '../../../shared/deadline-zone.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const nonVoterReminderParams = z.object({ eventId: z.string() });
export type NonVoterReminderParams = z.output<typeof nonVoterReminderParams>;

/** "Recordar a quienes no votaron": sent by an administrator to exhibitors with no nomination. */
export const nonVoterReminder = mailTemplate({
  params: nonVoterReminderParams,
  async render({ eventId }, { db, config }) {
    const event = await db
      .selectFrom('events')
      .select(['name', 'vote_deadline', 'close_time', 'time_zone'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    return layout({
      subject: `Recordatorio: todavía no votaste en ${event.name}`,
      paragraphs: [
        `Todavía no registraste nominaciones en ${event.name}.`,
        `${deadlineClosingText(event.vote_deadline, event.time_zone ?? config.timeZone, event.close_time)}.`,
        'Ingresa con tu email y el código que te enviaremos para nominar a tus resellers.',
      ],
      action: { label: 'Ingresar y nominar', url: `${config.appUrl}/signin` },
    });
  },
});
