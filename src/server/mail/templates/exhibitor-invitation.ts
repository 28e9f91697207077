import { z } from 'zod';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  MAX_NOMINEES_PER_CATEGORY,
} from '../../../shared/constants.ts';
import { formatMailDate } from '../../../shared/dates.ts';
import { mailDeadlineClosingText } from '../../../shared/deadline-zone.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const exhibitorInvitationParams = z.object({
  adminName: z.string(),
  eventName: z.string(),
  /** The vote deadline, `YYYY-MM-DD`. */
  voteDeadline: z.string(),
  /**
   * The event, read when the message is sent (a draft's invitation waits for the opening, and its
   * deadline, hour or zone may change meanwhile); absent in invitations queued before.
   */
  eventId: z.string().optional(),
});
export type ExhibitorInvitationParams = z.output<typeof exhibitorInvitationParams>;

/** "CONSUMO y VALOR AGREGADO". */
const categoryNames = new Intl.ListFormat('es', { type: 'conjunction' }).format(
  CATEGORIES.map((category) => CATEGORY_LABELS[category]),
);

export const exhibitorInvitation = mailTemplate({
  params: exhibitorInvitationParams,
  async render({ adminName, eventName, voteDeadline, eventId }, { db, config }) {
    const event = eventId
      ? await db
          .selectFrom('events')
          .select(['name', 'vote_deadline', 'close_time', 'time_zone'])
          .where('id', '=', eventId)
          .executeTakeFirst()
      : undefined;
    const name = event?.name ?? eventName;
    const deadline = event?.vote_deadline ?? voteDeadline;
    return layout({
      subject: `Invitación a votar en ${name}`,
      paragraphs: [
        `${adminName} te invitó a nominar resellers en el evento ${name}.`,
        `Puedes nominar y ordenar hasta ${MAX_NOMINEES_PER_CATEGORY} resellers en cada categoría (${categoryNames}) hasta el ${formatMailDate(deadline)}.`,
        `${mailDeadlineClosingText(deadline, event?.time_zone ?? config.timeZone, event?.close_time)}.`,
        'Para ingresar, usa tu email: te enviaremos un código de acceso.',
      ],
      action: { label: 'Ingresar', url: `${config.appUrl}/signin` },
    });
  },
});
