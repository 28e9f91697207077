import { deadlineClosingText } from '../../../shared/deadline-zone.ts';
import type { MailTemplate } from './index.ts';
import { layout } from './layout.ts';

export interface NonVoterReminderParams {
  eventId: string;
}

/** "Recordar a quienes no votaron": sent by an administrator to exhibitors with no nomination. */
export const nonVoterReminder: MailTemplate<NonVoterReminderParams> = {
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
};
