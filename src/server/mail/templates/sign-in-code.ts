import { z } from 'zod';
import { ACCESS_CODE_TTL_MINUTES } from '../../../shared/constants.ts';
import { mailTemplate } from './define.ts';
import { layout } from './layout.ts';

export const signInCodeParams = z.object({
  code: z.string(),
  /** Path and query of the one-time sign-in link (`/signin/link?token=…`); absent in old rows. */
  linkPath: z.string().optional(),
});
export type SignInCodeParams = z.output<typeof signInCodeParams>;

export const signInCode = mailTemplate({
  params: signInCodeParams,
  render: ({ code, linkPath }, { config }) =>
    layout({
      subject: `Su código de acceso: ${code}`,
      paragraphs: ['Use este código para ingresar a Premios:'],
      highlight: code,
      ...(linkPath ? { afterHighlight: ['O ingrese directamente con este enlace:'] } : {}),
      ...(linkPath
        ? { action: { label: 'Ingresar a Premios', url: `${config.appUrl}${linkPath}` } }
        : {}),
      footer: `El código y el enlace son válidos por ${ACCESS_CODE_TTL_MINUTES} minutos y pueden usarse una sola vez. Si no los pidió, ignore este mensaje.`,
    }),
});
