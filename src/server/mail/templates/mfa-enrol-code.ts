import { MFA_ENROL_CODE_TTL_MINUTES } from '../../../shared/constants.ts';
import type { MailTemplate } from './index.ts';
import { layout } from './layout.ts';

export interface MfaEnrolCodeParams {
  code: string;
}

/** The code that lets an administrator enrol a second factor: proof they read this mailbox. */
export const mfaEnrolCode: MailTemplate<MfaEnrolCodeParams> = {
  render: ({ code }) =>
    layout({
      subject: 'Código para activar la verificación en dos pasos',
      paragraphs: [
        'Para activar la verificación en dos pasos en su cuenta de administrador de Premios, ingrese este código:',
      ],
      highlight: code,
      footer: `El código es válido por ${MFA_ENROL_CODE_TTL_MINUTES} minutos y puede usarse una sola vez. Si no lo pidió usted, alguien conoce su contraseña: cámbiela con «Olvidé mi contraseña» y marque la opción de desactivar la verificación en dos pasos.`,
    }),
};
