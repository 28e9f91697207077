import { z } from 'zod';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  MAX_NOMINEES_PER_CATEGORY,
} from '../../../shared/constants.ts';
import { formatMailDate } from '../../../shared/dates.ts';
import { deadlineClosingText } from '../../../shared/deadline-zone.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const exhibitorInvitationParams = z.object({
  adminName: z.string(),
  eventName: z.string(),
  /** The vote deadline, `YYYY-MM-DD`. */
  voteDeadline: z.string(),
});
export type ExhibitorInvitationParams = z.output<typeof exhibitorInvitationParams>;

/** "CONSUMO y VALOR AGREGADO". */
const categoryNames = new Intl.ListFormat('es', { type: 'conjunction' }).format(
  CATEGORIES.map((category) => CATEGORY_LABELS[category]),
);

export const exhibitorInvitation = mailTemplate({
  params: exhibitorInvitationParams,
  render: ({ adminName, eventName, voteDeadline }, { config }) =>
    layout({
      subject: `Invitación a votar en ${eventName}`,
      paragraphs: [
        `${adminName} te invitó a nominar resellers en el evento ${eventName}.`,
        `Puedes nominar y ordenar hasta ${MAX_NOMINEES_PER_CATEGORY} resellers en cada categoría (${categoryNames}) hasta el ${formatMailDate(voteDeadline)}.`,
        `${deadlineClosingText(voteDeadline, config.timeZone)}.`,
        'Para ingresar, usa tu email: te enviaremos un código de acceso.',
      ],
      action: { label: 'Ingresar', url: `${config.appUrl}/signin` },
    }),
});
