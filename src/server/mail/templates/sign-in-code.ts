import { ACCESS_CODE_TTL_MINUTES } from '../../../shared/constants.ts';
import type { MailTemplate } from './index.ts';
import { layout } from './layout.ts';

export interface SignInCodeParams {
  code: string;
  /** Path and query of the one-time sign-in link (`/signin/link?token=…`); absent in old rows. */
  linkPath?: string;
}

export const signInCode: MailTemplate<SignInCodeParams> = {
  render: ({ code, linkPath }, { config }) =>
    layout({
      subject: `Su código de acceso: ${code}`,
      paragraphs: [
        'Use este código para ingresar a Premios:',
        ...(linkPath ? ['O ingrese directamente con el enlace de este correo.'] : []),
      ],
      highlight: code,
      ...(linkPath
        ? { action: { label: 'Ingresar a Premios', url: `${config.appUrl}${linkPath}` } }
        : {}),
      footer: `El código y el enlace son válidos por ${ACCESS_CODE_TTL_MINUTES} minutos y pueden usarse una sola vez. Si no los pidió, ignore este mensaje.`,
    }),
};
