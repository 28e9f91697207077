import { z } from 'zod';
import { PASSWORD_RESET_TTL_MINUTES } from '../../../shared/constants.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const passwordResetParams = z.object({
  /** Path and query of the reset link (`/signin/resetpassword?oobCode=…`). */
  linkPath: z.string(),
});
export type PasswordResetParams = z.output<typeof passwordResetParams>;

export const passwordReset = mailTemplate({
  params: passwordResetParams,
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
});
