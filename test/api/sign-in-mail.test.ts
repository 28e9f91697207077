import { describe, expect, it } from 'vitest';
import { startSignIn } from '../../src/shared/api/auth.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedExhibitor } from '../helpers/seed.ts';

describe('the sign-in code mail', () => {
  const app = useTestApp();

  it('reads in order: the code right after its introduction, then the link that offers the alternative', async () => {
    const exhibitor = await seedExhibitor(app.db, { email: 'orden.del.correo@empresa.test' });
    await app.signedOut.call(startSignIn, { body: { email: exhibitor.email } });
    await app.t.deliverMail();
    const [mail] = app.t.smtp.allTo(exhibitor.email);
    const code = /Su código de acceso: (\d{6})/.exec(mail?.subject ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const link = /(http:\/\/premios\.test\/signin\/link\?token=\S+)/.exec(mail?.text ?? '')?.[1];
    expect(link).toBeDefined();
    expect(mail?.text.trim()).toBe(
      [
        'Use este código para ingresar a Premios:',
        code,
        'O ingrese directamente con este enlace:',
        `Ingresar a Premios: ${link}`,
        'El código y el enlace son válidos por 15 minutos y pueden usarse una sola vez. Si no los pidió, ignore este mensaje.',
      ].join('\n\n'),
    );
    const html = mail?.html ?? '';
    const codeAt = html.indexOf(`>${code}<`);
    expect(codeAt).toBeGreaterThan(html.indexOf('Use este código para ingresar a Premios:'));
    expect(html.indexOf('O ingrese directamente con este enlace:')).toBeGreaterThan(codeAt);
    expect(html.indexOf('Ingresar a Premios</a>')).toBeGreaterThan(
      html.indexOf('O ingrese directamente con este enlace:'),
    );
  });
});
