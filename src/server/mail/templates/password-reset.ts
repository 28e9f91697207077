import { PASSWORD_RESET_TTL_MINUTES } from '../../../shared/constants.ts';
import type { MailTemplate } from './index.ts';
import { layout } from './layout.ts';

export interface PasswordResetParams {
  /** Path and query of the reset link (`/signin/resetpassword?oobCode=…`). */
  linkPath: string;
}

export const passwordReset: MailTemplate<PasswordResetParams> = {
  render: ({ linkPath }, { config }) =>
    layout({
      subject: 'Recuperar contraseña',
      paragraphs: [
        'Recibimos un pedido para cambiar la contraseña de su cuenta de administrador.',
        'Para elegir una nueva contraseña, abra el siguiente enlace.',
      ],
      action: { label: 'Cambiar contraseña', url: `${config.appUrl}${linkPath}` },
      footer: `El enlace es válido por ${PASSWORD_RESET_TTL_MINUTES / 60} hora y puede usarse una sola vez. Si no lo pidió, ignore este mensaje: su contraseña no cambia.`,
    }),
};
