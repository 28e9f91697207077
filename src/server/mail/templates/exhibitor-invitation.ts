import { z } from 'zod';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  MAX_NOMINEES_PER_CATEGORY,
} from '../../../shared/constants.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
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

const listFormat = new Intl.ListFormat('es', { type: 'conjunction' });

/**
 * What may be nominated: "hasta 5 resellers en cada categoría (CONSUMO y VALOR AGREGADO)" when the
 * categories share their limit, else each with its own: "resellers en cada categoría (hasta 5 en
 * CONSUMO y 3 en SEGURIDAD)".
 */
function nominationAllowanceText(categories: readonly { name: string; limit: number }[]): string {
  const [first] = categories;
  if (!first || categories.every((category) => category.limit === first.limit)) {
    const limit = first?.limit ?? MAX_NOMINEES_PER_CATEGORY;
    return `hasta ${limit} resellers en cada categoría (${listFormat.format(categories.map((c) => c.name))})`;
  }
  return `resellers en cada categoría (hasta ${listFormat.format(categories.map((c) => `${c.limit} en ${c.name}`))})`;
}

/** The specification's categories, for an invitation queued before invitations named the event. */
const DEFAULT_CATEGORIES = CATEGORIES.map((category) => ({
  name: CATEGORY_LABELS[category],
  limit: MAX_NOMINEES_PER_CATEGORY,
}));

export const exhibitorInvitation = mailTemplate({
  params: exhibitorInvitationParams,
  async render({ adminName, eventName, voteDeadline, eventId }, { db, config }) {
    // The event and its categories at once: one round trip's wait, not two.
    const [event, rows] = eventId
      ? await Promise.all([
          db
            .selectFrom('events')
            .select(['name', 'vote_deadline', 'close_time', 'time_zone'])
            .where('id', '=', eventId)
            .executeTakeFirst(),
          readEventCategories(db, eventId),
        ])
      : [undefined, []];
    const name = event?.name ?? eventName;
    const categories = rows.map((category) => ({
      name: category.name,
      limit: Number(category.nominee_limit),
    }));
    const deadline = event?.vote_deadline ?? voteDeadline;
    return layout({
      subject: `Invitación a votar en ${name}`,
      paragraphs: [
        `${adminName} te invitó a nominar resellers en el evento ${name}.`,
        `Puedes nominar y ordenar ${nominationAllowanceText(categories.length > 0 ? categories : DEFAULT_CATEGORIES)} hasta el ${formatMailDate(deadline)}.`,
        `${mailDeadlineClosingText(deadline, event?.time_zone ?? config.timeZone, event?.close_time)}.`,
        'Para ingresar, usa tu email: te enviaremos un código de acceso.',
      ],
      action: { label: 'Ingresar', url: `${config.appUrl}/signin` },
    });
  },
});
