import { formatMailDate } from '../../../shared/dates.ts';
import type { MailTemplate } from './index.ts';
import { layout } from './layout.ts';

export interface ExhibitorInvitationParams {
  adminName: string;
  eventName: string;
  /** The vote deadline, `YYYY-MM-DD`. */
  voteDeadline: string;
}

export const exhibitorInvitation: MailTemplate<ExhibitorInvitationParams> = {
  render: ({ adminName, eventName, voteDeadline }, { config }) =>
    layout({
      subject: `Invitación a votar en ${eventName}`,
      paragraphs: [
        `${adminName} lo invitó a nominar resellers en el evento ${eventName}.`,
        `Puede nominar y ordenar hasta 5 resellers en cada categoría (CONSUMO y VALOR AGREGADO) hasta el ${formatMailDate(voteDeadline)}.`,
        'Para ingresar, use su email: le enviaremos un código de acceso.',
      ],
      action: { label: 'Ingresar', url: `${config.appUrl}/signin` },
    }),
};
