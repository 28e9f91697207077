import { z } from 'zod';
import { mailDeadlineClosingText } from '../../../shared/deadline-zone.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const votingExtendedParams = z.object({ eventId: z.string() });
export type VotingExtendedParams = z.output<typeof votingExtendedParams>;

/**
 * "Avisar a los expositores" when an administrator moves the deadline later: the new deadline as the
 * event has it when the message is sent (a second extension meanwhile is the one announced).
 */
export const votingExtended = mailTemplate({
  params: votingExtendedParams,
  async render({ eventId }, { db, config }) {
    const event = await db
      .selectFrom('events')
      .select(['name', 'vote_deadline', 'close_time', 'time_zone', 'archived_at'])
      .where('id', '=', eventId)
      .executeTakeFirst();
    if (!event) return { skipped: 'not_member' };
    if (event.archived_at !== null) return { skipped: 'archived' };
    return layout({
      subject: `Se extendió la votación de ${event.name}`,
      paragraphs: [
        `Tienes más tiempo para nominar resellers en ${event.name}.`,
        `${mailDeadlineClosingText(event.vote_deadline, event.time_zone ?? config.timeZone, event.close_time)}.`,
        'Ingresa con tu email y el código que te enviaremos para revisar tus nominaciones.',
      ],
      action: { label: 'Revisar mis nominaciones', url: `${config.appUrl}/exh/event/${eventId}` },
    });
  },
});
