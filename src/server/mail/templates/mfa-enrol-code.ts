import { z } from 'zod';
import { MFA_ENROL_CODE_TTL_MINUTES } from '../../../shared/constants.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const mfaEnrolCodeParams = z.object({ code: z.string() });
export type MfaEnrolCodeParams = z.output<typeof mfaEnrolCodeParams>;

/** The code that lets an administrator enrol a second factor: proof they read this mailbox. */
export const mfaEnrolCode = mailTemplate({
  params: mfaEnrolCodeParams,
  render: ({ code }) =>
    layout({
      subject: 'Código para activar la verificación en dos pasos',
      paragraphs: [
        'Para activar la verificación en dos pasos en su cuenta de administrador de Premios, ingrese este código:',
      ],
      highlight: code,
      footer: `El código es válido por ${MFA_ENROL_CODE_TTL_MINUTES} minutos y puede usarse una sola vez. Si no lo pidió usted, alguien conoce su contraseña: cámbiela con «Olvidé mi contraseña» y marque la opción de desactivar la verificación en dos pasos.`,
    }),
});
