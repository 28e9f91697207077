import { z } from 'zod';
import { ADMIN_INVITATION_TTL_DAYS } from '../../../shared/constants.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const adminInvitationParams = z.object({
  /** Who invited; null when created from the command line. */
  invitedBy: z.string().nullable(),
  /** Path and query of the registration link, joined to APP_URL when rendered. */
  linkPath: z.string(),
});
export type AdminInvitationParams = z.output<typeof adminInvitationParams>;

export const adminInvitation = mailTemplate({
  params: adminInvitationParams,
  render: ({ invitedBy, linkPath }, { config }) =>
    layout({
      subject: 'Invitación para administrar Premios',
      paragraphs: [
        invitedBy
          ? `${invitedBy} le envió una invitación para administrar el programa de premios.`
          : 'Recibió una invitación para administrar el programa de premios.',
        'Para completar su registro, ingrese su nombre y elija una contraseña en el siguiente enlace.',
      ],
      action: { label: 'Completar registro', url: `${config.appUrl}${linkPath}` },
      footer: `El enlace es válido por ${ADMIN_INVITATION_TTL_DAYS} días y puede usarse una sola vez.`,
    }),
});
