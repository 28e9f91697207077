import { ACCESS_CODE_TTL_MINUTES } from '../../../shared/constants.ts';
import type { MailTemplate } from './index.ts';
import { layout } from './layout.ts';

export interface SignInCodeParams {
  code: string;
}

export const signInCode: MailTemplate<SignInCodeParams> = {
  render: ({ code }) =>
    layout({
      subject: `Su código de acceso: ${code}`,
      paragraphs: ['Use este código para ingresar a Premios:'],
      highlight: code,
      footer: `El código es válido por ${ACCESS_CODE_TTL_MINUTES} minutos y puede usarse una sola vez. Si no lo pidió, ignore este mensaje.`,
    }),
};
