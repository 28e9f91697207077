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
      .select(['name', 'vote_deadline'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    return layout({
      subject: `Recordatorio: todavía no votó en ${event.name}`,
      paragraphs: [
        `Todavía no registró nominaciones en ${event.name}.`,
        `${deadlineClosingText(event.vote_deadline, config.timeZone)}.`,
        'Ingrese con su email y el código que le enviaremos para nominar a sus resellers.',
      ],
      action: { label: 'Ingresar y nominar', url: `${config.appUrl}/signin` },
    });
  },
});
