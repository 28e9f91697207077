import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSecretKey, secretBox } from '../src/server/lib/secret-box.ts';
import { seedAdmin } from '../test/helpers/seed.ts';
import {
  DESKTOP,
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  screenshotsIn,
} from '../test/helpers/browser.ts';
import type { RunningServer } from '../test/helpers/server.ts';
import { settled, useBrowserApp, visible } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-admins';
const shot = screenshotsIn(SHOTS);

/** The code mailed to `to` to enrol a second factor (the `count`-th such mail). */
async function enrolCode(server: RunningServer, to: string, count = 1): Promise<string> {
  const mail = await server.smtp.waitFor(to, { count });
  expect(mail.subject).toBe('Código para activar la verificación en dos pasos');
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in the mail to ${to}`);
  return code;
}

/**
 * "Activar verificación en dos pasos": the code mailed to the account comes first (a stolen
 * password alone cannot enrol); a wrong one is refused on its field, the mailed one opens the QR.
 */
async function passEmailCodeStep(
  page: Page,
  server: RunningServer,
  email: string,
  { checkRefusal = false } = {},
) {
  await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
  await visible(
    page,
    'Le enviamos un código a su correo. Ingréselo para continuar con la activación.',
  );
  const field = page.getByRole('textbox', { name: 'Código enviado por correo' });
  if (checkRefusal) {
    await field.fill('000000');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await visible(page, 'El código enviado por correo es incorrecto o expiró.');
    await expectAccessible(page);
  }
  await field.fill(await enrolCode(server, email));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await page.getByRole('img', { name: 'Código QR' }).waitFor();
}

describe('administrators page', () => {
  const app = useBrowserApp({ admin: false });
  let ana: Awaited<ReturnType<typeof seedAdmin>>;
  let bruno: Awaited<ReturnType<typeof seedAdmin>>;

  beforeAll(async () => {
    ana = await seedAdmin(app.db, {
      email: 'ana@premios.test',
      fullName: 'Ana Administradora',
    });
    bruno = await seedAdmin(app.db, {
      email: 'bruno@premios.test',
      fullName: 'Bruno Bianchi',
    });
    await seedAdmin(app.db, { email: 'pendiente@premios.test', fullName: null });
  });

  it('lists administrators, re-sends an invitation and revokes access', async () => {
    const asBruno = await app.adminPage(DESKTOP, bruno);
    await asBruno.page.goto('/admin');
    await asBruno.page.getByRole('heading', { name: 'Eventos' }).waitFor();

    const { context, page } = await app.adminPage(DESKTOP, ana);
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Administradores' }).click();
    await page.getByRole('heading', { name: 'Administradores' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/admins');
    // The top bar button keeps focus and its tooltip: move on, as a user reading the page would.
    await page.mouse.move(600, 700);
    await page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    });
    await page.getByRole('tooltip').waitFor({ state: 'hidden' });
    const table = page.getByRole('table', { name: 'Administradores' });
    await table.getByRole('cell', { name: 'bruno@premios.test' }).waitFor();
    const headers = (await table.getByRole('columnheader').allInnerTexts()).map((h) => h.trim());
    expect(headers).toEqual([
      'Nombre',
      'Email',
      'Estado',
      'Último ingreso',
      'Verificación en dos pasos',
      'Acciones',
    ]);
    const row = (email: string) => table.getByRole('row').filter({ hasText: email });
    await visible(row('ana@premios.test'), 'Activo');
    await visible(row('pendiente@premios.test'), 'Invitación pendiente');
    await visible(row('bruno@premios.test'), 'No');
    // Nobody revokes themselves: no button on one's own row.
    expect(await row('ana@premios.test').getByRole('button').count()).toBe(0);
    await expectAccessible(page);
    await shot(page, 'admins-desktop');

    await row('pendiente@premios.test')
      .getByRole('button', { name: 'Reenviar invitación' })
      .click();
    await visible(page, 'Se envió la invitación por correo.');
    await expect
      .poll(async () => (await app.smtp.latestTo('pendiente@premios.test'))?.subject, {
        timeout: 10_000,
      })
      .toBe('Invitación para administrar Premios');

    await row('bruno@premios.test').getByRole('button', { name: 'Revocar acceso' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Revocar acceso?' });
    await settled(dialog);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(row('bruno@premios.test'), 'Activo');

    await row('bruno@premios.test').getByRole('button', { name: 'Revocar acceso' }).click();
    await settled(dialog);
    await dialog.getByRole('button', { name: 'Revocar' }).click();
    await visible(page, 'Se revocó el acceso.');
    await visible(row('bruno@premios.test'), 'Revocado');
    expect(await row('bruno@premios.test').getByRole('button').count()).toBe(0);

    // Bruno's next request answers 401: the app sends him out.
    const answer = await asBruno.page.request.get('/api/events');
    expect(answer.status()).toBe(401);
    await asBruno.context.close();
    await context.close();
  });

  it('fits a phone', async () => {
    const { context, page } = await app.adminPage(PHONE, ana);
    await page.goto('/admin/admins');
    await page.getByRole('heading', { name: 'Administradores' }).waitFor();
    await visible(page, 'pendiente@premios.test');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'admins-phone');
    await context.close();
  });
});

/** The code an authenticator app shows for `secret`, `stepsAhead` 30-second steps from now. */
const codeFor = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

describe('second factor: enabling, signing in with it, disabling', () => {
  const app = useBrowserApp({ admin: false });

  async function passwordStep(page: Page, email: string, password: string) {
    await page.goto('/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/admin');
    await page.getByLabel('Contraseña', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'acceder' }).click();
  }

  // Enrolling now has a step more (the mailed code) before three sign-ins: on a busy two-core
  // machine that takes longer than the default minute.
  it('enables it (codes computed from the secret shown), then signs in with a code and with a recovery code', async () => {
    const carla = await seedAdmin(app.db, {
      email: 'carla@premios.test',
      fullName: 'Carla Castro',
    });
    const context = await app.context(DESKTOP);
    const page = await context.newPage();
    await passwordStep(page, carla.email, carla.password);
    await page.waitForURL('**/admin');

    await page.getByRole('button', { name: 'Seguridad' }).click();
    await page.getByRole('heading', { name: 'Seguridad', level: 1 }).waitFor();
    await page.mouse.move(600, 700);
    await page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    });
    await page.getByRole('tooltip').waitFor({ state: 'hidden' });
    await expectAccessible(page);
    await passEmailCodeStep(page, app.server, carla.email);
    const secret = (await page.getByText(/^[A-Z2-7]{32}$/).innerText()).trim();
    await expectAccessible(page);
    await shot(page, 'security-setup-desktop');

    await page.getByLabel('Código de verificación').fill('000000');
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await visible(page, 'El código de verificación es incorrecto.');
    const enrolmentCode = codeFor(secret);
    await page.getByLabel('Código de verificación').fill(enrolmentCode);
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await visible(page, 'Se activó la verificación en dos pasos.');
    const list = page.getByRole('list', { name: 'Códigos de recuperación' });
    const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar códigos' }).click();
    const file = await (await download).path();
    const saved = fs.readFileSync(file, 'utf8');
    for (const code of recoveryCodes) expect(saved).toContain(code);
    await expectAccessible(page);
    await shot(page, 'security-codes-desktop');
    await page.getByRole('button', { name: 'Listo' }).click();
    await page.getByRole('button', { name: 'Desactivar verificación en dos pasos' }).waitFor();

    // Sign in again: after the password, the code of the next step (later than the one spent).
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/admin'));
    await passwordStep(page, carla.email, carla.password);
    await page.waitForURL('**/signin/mfa');
    await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
    const noSession = await page.request.get('/api/events');
    expect(noSession.status()).toBe(401);
    await expectAccessible(page);
    await shot(page, 'signin-mfa-desktop');
    // The code that enabled it is spent: refused.
    await page.getByLabel('Código de verificación').fill(enrolmentCode);
    await page.getByRole('button', { name: 'acceder' }).click();
    await visible(page, 'El código de verificación es incorrecto.');
    await page.getByLabel('Código de verificación').fill(codeFor(secret, 1));
    await page.getByRole('button', { name: 'acceder' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Eventos' }).waitFor();

    // And with a recovery code, once.
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/admin'));
    await passwordStep(page, carla.email, carla.password);
    await page.waitForURL('**/signin/mfa');
    await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
    await page.getByLabel('Código de recuperación').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'acceder' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Eventos' }).waitFor();
    await context.close();
  }, 120_000);

  it('disables it with a current code, and fits a phone', async () => {
    // Dora's second factor is set up directly, sealed with the key the server generated.
    const dora = await seedAdmin(app.db, {
      email: 'dora@premios.test',
      fullName: 'Dora Díaz',
    });
    const secret = new Secret({ size: 20 }).base32;
    const key = resolveSecretKey({ secretKey: undefined, dataDir: app.server.dataDir }, 'sqlite');
    expect(fs.existsSync(path.join(app.server.dataDir, 'secret-key'))).toBe(true);
    await app.db
      .updateTable('admins')
      .set({ mfa_secret: secretBox(key!).seal(secret), mfa_enabled_at: new Date().toISOString() })
      .where('id', '=', dora.id)
      .execute();
    const { context, page } = await app.adminPage(PHONE, dora);
    await page.goto('/admin/security');
    await page.getByRole('heading', { name: 'Seguridad', level: 1 }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'security-phone');

    await page.getByRole('button', { name: 'Desactivar verificación en dos pasos' }).click();
    const dialog = page.getByRole('dialog', { name: 'Desactivar verificación en dos pasos' });
    await settled(dialog);
    await expectAccessible(page);
    await dialog.getByLabel('Código de verificación').fill('000000');
    await dialog.getByRole('button', { name: 'Desactivar' }).click();
    await visible(dialog, 'El código de verificación es incorrecto.');
    await dialog.getByLabel('Código de verificación').fill(codeFor(secret));
    await dialog.getByRole('button', { name: 'Desactivar' }).click();
    await visible(page, 'Se desactivó la verificación en dos pasos.');
    await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).waitFor();

    // The sign-in second step fits a phone too.
    const visitor = await app.context(PHONE);
    const signIn = await visitor.newPage();
    await signIn.goto('/signin/mfa');
    await signIn.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
    await signIn.getByLabel('Código de verificación').fill('123456');
    await signIn.getByRole('button', { name: 'acceder' }).click();
    await visible(signIn, 'La verificación expiró. Ingrese nuevamente su contraseña.');
    expect(await hasHorizontalScroll(signIn)).toBe(false);
    await expectAccessible(signIn);
    await shot(signIn, 'signin-mfa-phone');
    await visitor.close();
    await context.close();
  });

  it('enrolling starts with the code mailed to the account, on a phone too', async () => {
    const gala = await seedAdmin(app.db, {
      email: 'gala@premios.test',
      fullName: 'Gala Gómez',
    });
    const { context, page } = await app.adminPage(PHONE, gala);
    await page.goto('/admin/security');
    await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
    const emailCode = page.getByRole('textbox', { name: 'Código enviado por correo' });
    await emailCode.waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'security-email-code-phone');
    // Only the newest code works: the first mail's code is refused once another is sent.
    const first = await enrolCode(app.server, gala.email, 1);
    await page.getByRole('button', { name: 'Enviar otro código' }).click();
    const second = await enrolCode(app.server, gala.email, 2);
    if (first !== second) {
      await emailCode.fill(first);
      await page.getByRole('button', { name: 'Continuar' }).click();
      await visible(page, 'El código enviado por correo es incorrecto o expiró.');
    }
    await emailCode.fill(second);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByRole('img', { name: 'Código QR' }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await context.close();
  });
});

describe('REQUIRE_ADMIN_MFA=true', () => {
  const app = useBrowserApp({ admin: false, env: { REQUIRE_ADMIN_MFA: 'true' } });

  it('sends an administrator without it to "Seguridad", and only there', async () => {
    const eva = await seedAdmin(app.db, { email: 'eva@premios.test', fullName: 'Eva' });
    const context = await app.context(DESKTOP);
    const page = await context.newPage();
    await page.goto('/signin');
    await page.getByLabel('Email').fill(eva.email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/admin');
    await page.getByLabel('Contraseña', { exact: true }).fill(eva.password);
    await page.getByRole('button', { name: 'acceder' }).click();
    await page.waitForURL('**/admin/security');
    await visible(page, 'Debe activar la verificación en dos pasos para continuar.');
    await page.goto('/admin');
    await page.waitForURL('**/admin/security');
    expect((await page.request.get('/api/events')).status()).toBe(403);
    await expectAccessible(page);
    await shot(page, 'security-required-desktop');

    await passEmailCodeStep(page, app.server, eva.email, { checkRefusal: true });
    const secret = (await page.getByText(/^[A-Z2-7]{32}$/).innerText()).trim();
    await page.getByLabel('Código de verificación').fill(codeFor(secret));
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await visible(page, 'Se activó la verificación en dos pasos.');
    expect((await page.request.get('/api/events')).status()).toBe(200);
    await context.close();
  });

  it('a password reset by email can also remove the second factor, on a phone', async () => {
    const fede = await seedAdmin(app.db, {
      email: 'fede@premios.test',
      fullName: 'Fede',
    });
    // Someone with Fede's password enrolled a factor Fede does not have.
    const secret = new Secret({ size: 20 }).base32;
    const key = resolveSecretKey({ secretKey: undefined, dataDir: app.server.dataDir }, 'sqlite');
    await app.db
      .updateTable('admins')
      .set({ mfa_secret: secretBox(key!).seal(secret), mfa_enabled_at: new Date().toISOString() })
      .where('id', '=', fede.id)
      .execute();
    const context = await app.context(PHONE);
    const page = await context.newPage();
    await page.goto('/signin');
    await page.getByLabel('Email').fill(fede.email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/admin');
    await page.getByRole('button', { name: 'Olvidé mi contraseña' }).click();
    const dialog = page.getByRole('dialog', { name: 'Recuperar contraseña' });
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    const mail = await app.smtp.waitFor(fede.email, { count: 1 });
    const link = /(http\S+\/signin\/resetpassword\?oobCode=[\w-]+)/.exec(mail.text)?.[1];
    expect(link).toBeDefined();

    await page.goto(link!);
    const removeFactor = page.getByRole('checkbox', {
      name: 'Desactivar también la verificación en dos pasos',
    });
    await removeFactor.waitFor();
    expect(await removeFactor.isChecked()).toBe(false);
    await removeFactor.check();
    await page.getByLabel('Nueva contraseña').fill('otra-clave-segura-2026');
    await page.getByLabel('Confirmar contraseña').fill('otra-clave-segura-2026');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'resetpassword-mfa-phone');
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await visible(
      page,
      'Su contraseña fue cambiada y se desactivó la verificación en dos pasos. Ingrese con la nueva contraseña.',
    );
    // Back in with the new password alone, sent to enrol again (with a code to this mailbox).
    await page.waitForURL('**/signin');
    await page.getByLabel('Email').fill(fede.email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/admin');
    await page.getByLabel('Contraseña', { exact: true }).fill('otra-clave-segura-2026');
    await page.getByRole('button', { name: 'acceder' }).click();
    await page.waitForURL('**/admin/security');
    await page.getByRole('button', { name: 'Activar verificación en dos pasos' }).waitFor();
    await context.close();
  });
});
