import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import { seedAdmin, seedExhibitor } from '../test/helpers/seed.ts';
import { DESKTOP, expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import type { RunningServer } from '../test/helpers/server.ts';
import { CODE_HEADING } from '../test/helpers/code-sign-in.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const shotsDir = process.env.E2E_SHOTS_DIR;

/** Screenshots for looking at the screens (only when E2E_SHOTS_DIR is set). */
async function shot(page: Page, name: string): Promise<void> {
  if (!shotsDir) return;
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), fullPage: true });
}

const visible = (page: Page, text: string) => () => page.getByText(text).first().isVisible();
const pathOf = (page: Page) => new URL(page.url()).pathname;
const atPath = (page: Page, pathname: string) =>
  page.waitForURL((url) => url.pathname === pathname);

/** The link of the latest email to `to` whose text contains `marker`. */
async function linkFromMail(
  server: RunningServer,
  to: string,
  marker: string,
  count = 1,
): Promise<string> {
  const mail = await server.smtp.waitFor(to, { count });
  const link = new RegExp(`(http\\S+${marker.replace(/[?]/g, '\\?')}[\\w-]+)`).exec(mail.text)?.[1];
  if (!link) throw new Error(`no ${marker} link in the mail to ${to}`);
  return link;
}

/** Holds state-changing calls to `url` until `release()`, so that a busy state can be seen. */
async function holdRequest(page: Page, url: string): Promise<{ release(): void }> {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    if (route.request().method() !== 'GET') await gate;
    await route.continue();
  });
  return { release: () => release() };
}

describe('sign-in, sessions and administrator accounts', () => {
  const app = useBrowserApp({ admin: false });

  async function signInAsAdmin(page: Page, email: string, password: string) {
    await page.goto('/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/admin');
    await page.getByLabel('Contraseña', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'acceder' }).click();
  }

  it('first administrator: CLI invitation → registration → /admin, "Salir", password, reset', async () => {
    const email = 'primera@premios.test';
    const { stdout } = await run(process.execPath, ['src/server/cli.ts', 'invite-admin', email], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: app.server.dataDir,
        DATABASE_URL: `sqlite:${path.join(app.server.dataDir, 'premios.db')}`,
        SMTP_URL: app.smtp.url,
        APP_URL: app.server.url,
        LOG_LEVEL: 'silent',
      },
    });
    expect(stdout).toContain('Email enviado.');
    const registration = await linkFromMail(app.server, email, '/signin/newadmin?token=');

    const { context, page } = await app.page();
    await page.goto(registration);
    await page.getByLabel('Nombre completo').waitFor();
    await expectAccessible(page);
    await shot(page, 'newadmin-desktop');

    // All three fields are required.
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(() => page.getByText(MSG.requiredField).count()).toBe(3);

    await page.getByLabel('Nombre completo').fill('Ana Primera');
    await page.getByLabel('Contraseña', { exact: true }).fill('Clave-segura-2026');
    await page.getByLabel('Confirmar contraseña').fill('Clave-segura-2027');
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(visible(page, MSG.adminPasswordMismatch)).toBe(true);
    await expectAccessible(page);

    await page.getByLabel('Contraseña', { exact: true }).fill('password123');
    await page.getByLabel('Confirmar contraseña').fill('password123');
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(visible(page, MSG.weakPassword)).toBe(true);

    await page.getByLabel('Contraseña', { exact: true }).fill('Clave-segura-2026');
    await page.getByLabel('Confirmar contraseña').fill('Clave-segura-2026');
    const held = await holdRequest(page, '**/api/admins/invitation');
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await page.getByRole('button', { name: 'Cargando' }).waitFor();
    held.release();
    await atPath(page, '/admin');
    await page.getByRole('button', { name: 'Salir' }).waitFor();

    // The link is spent.
    await page.goto(registration);
    await expect.poll(visible(page, MSG.invalidToken)).toBe(true);
    expect(await page.getByLabel('Nombre completo').count()).toBe(0);

    await page.goto('/admin');
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Ingresar' }).click();
    await page.waitForURL('**/signin');

    // Wrong password, then the show/hide toggle, then the right one.
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/admin');
    await expectAccessible(page);
    await shot(page, 'signin-admin-desktop');
    const password = page.getByLabel('Contraseña', { exact: true });
    await password.fill('no-es-esta-2026');
    await page.getByRole('button', { name: 'acceder' }).click();
    await expect.poll(visible(page, MSG.wrongPassword)).toBe(true);
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Mostrar contraseña' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Ocultar contraseña' }).click();
    expect(await password.getAttribute('type')).toBe('password');
    await password.fill('Clave-segura-2026');
    await page.getByRole('button', { name: 'acceder' }).click();
    await atPath(page, '/admin');
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // Reset: "Olvidé mi contraseña" → email → link → new password; the old one stops working.
    await page.goto('/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/admin');
    await page.getByRole('button', { name: 'Olvidé mi contraseña' }).click();
    const dialog = page.getByRole('dialog', { name: 'Recuperar contraseña' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Email').inputValue()).toBe(email);
    await expectAccessible(page);
    await shot(page, 'forgot-dialog-desktop');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await expect.poll(visible(page, MSG.resetMailSent)).toBe(true);
    const reset = await linkFromMail(app.server, email, '/signin/resetpassword?oobCode=', 2);

    await page.goto(reset);
    await page.getByLabel('Nueva contraseña').waitFor();
    await expectAccessible(page);
    await shot(page, 'resetpassword-desktop');
    await page.getByLabel('Nueva contraseña').fill('Otra-clave-2026');
    await page.getByLabel('Confirmar contraseña').fill('Otra-clave-2027');
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(visible(page, MSG.resetPasswordMismatch)).toBe(true);
    // The message clears on typing.
    await page.getByLabel('Confirmar contraseña').fill('corta');
    await expect.poll(visible(page, MSG.resetPasswordMismatch)).toBe(false);
    await page.getByLabel('Nueva contraseña').fill('corta');
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(visible(page, MSG.resetWeakPassword)).toBe(true);
    await page.getByLabel('Nueva contraseña').fill('Otra-clave-2026');
    await page.getByLabel('Confirmar contraseña').fill('Otra-clave-2026');
    const busy = await holdRequest(page, '**/api/auth/password-reset/confirm');
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await page.getByRole('button', { name: 'cargando' }).waitFor();
    busy.release();
    await page.waitForURL((url) => url.pathname === '/signin');

    await signInAsAdmin(page, email, 'Clave-segura-2026');
    await expect.poll(visible(page, MSG.wrongPassword)).toBe(true);
    await page.getByLabel('Contraseña', { exact: true }).fill('Otra-clave-2026');
    await page.getByRole('button', { name: 'acceder' }).click();
    await atPath(page, '/admin');

    // A spent reset link.
    await page.goto(reset);
    await page.getByLabel('Nueva contraseña').fill('Tercera-clave-2026');
    await page.getByLabel('Confirmar contraseña').fill('Tercera-clave-2026');
    await page.getByRole('button', { name: 'Aceptar' }).click();
    await expect.poll(visible(page, MSG.resetFailed)).toBe(true);
    await context.close();
  }, 120_000);

  it('"Registrar nuevo administrador": address in use, failure, then an invitation only the link completes', async () => {
    const inviter = await seedAdmin(app.db, { fullName: 'Beto Admin' });
    const exhibitor = await seedExhibitor(app.db);
    const { context, page } = await app.adminPage(DESKTOP, inviter);
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Registrar nuevo administrador' }).click();
    const dialog = page.getByRole('dialog', { name: 'Registrar nuevo administrador' });
    await dialog.waitFor();
    await expectAccessible(page);
    await shot(page, 'register-admin-dialog');

    await dialog.getByLabel('Email').fill(exhibitor.email);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(visible(page, MSG.adminEmailInUse)).toBe(true);

    await page.route('**/api/admins', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    await dialog.getByLabel('Email').fill('nuevo@premios.test');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(visible(page, MSG.genericErrorDot)).toBe(true);
    await page.unroute('**/api/admins');

    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(visible(page, MSG.adminInvitationSent)).toBe(true);
    await expect.poll(() => dialog.isVisible()).toBe(false);
    const link = await linkFromMail(app.server, 'nuevo@premios.test', '/signin/newadmin?token=');
    expect(await app.smtp.latestTo('nuevo@premios.test')?.text).toContain('Beto Admin');
    await context.close();

    // The invitee cannot register by typing an address: the email step re-sends the link.
    const invitee = await app.context(PHONE);
    const tab = await invitee.newPage();
    await tab.goto('/signin');
    await tab.getByLabel('Email').fill('nuevo@premios.test');
    await tab.getByRole('button', { name: 'siguiente' }).click();
    await expect.poll(visible(tab, MSG.pendingAdminLinkSent)).toBe(true);
    expect(pathOf(tab)).toBe('/signin');
    await tab.goto('/signin/newadmin');
    await expect.poll(visible(tab, MSG.invalidToken)).toBe(true);
    await tab.goto('/signin/newadmin?token=inventado');
    await expect.poll(visible(tab, MSG.invalidToken)).toBe(true);
    expect(await tab.getByLabel('Nombre completo').count()).toBe(0);
    await expectAccessible(tab);

    await tab.goto(link);
    await tab.getByLabel('Nombre completo').fill('Nora Nueva');
    await tab.getByLabel('Contraseña', { exact: true }).fill('Clave-de-Nora-1');
    await tab.getByLabel('Confirmar contraseña').fill('Clave-de-Nora-1');
    expect(await hasHorizontalScroll(tab)).toBe(false);
    await shot(tab, 'newadmin-phone');
    await tab.getByRole('button', { name: 'Aceptar' }).click();
    await atPath(tab, '/admin');
    await invitee.close();
  });

  it('exhibitor: email step, six digit boxes, wrong code, pasted code → /exh; roles guard the areas', async () => {
    const exhibitor = await seedExhibitor(app.db, { email: 'expo@empresa.test' });
    const { context, page } = await app.page(PHONE);

    // Without a carried address the code step goes back to the email step.
    await page.goto('/signin/code');
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.getByLabel('Email').waitFor();
    await expectAccessible(page);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await shot(page, 'signin-email-phone');

    await page.getByLabel('Email').fill('nadie@empresa.test');
    await page.getByRole('button', { name: 'siguiente' }).click();
    await expect.poll(visible(page, MSG.accountNotFound)).toBe(true);
    await expectAccessible(page);

    await page.route('**/api/auth/start', (route) => route.abort());
    await page.getByRole('button', { name: 'siguiente' }).click();
    await expect.poll(visible(page, MSG.genericError)).toBe(true);
    await page.unroute('**/api/auth/start');

    await page.getByLabel('Email').fill(exhibitor.email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/code');
    await page.getByRole('heading', { name: CODE_HEADING }).waitFor();
    await expectAccessible(page);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await shot(page, 'signin-code-phone');
    const mail = await app.smtp.waitFor(exhibitor.email);
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;

    // Typing moves to the next box, Backspace to the previous one.
    const box = (n: number) => page.getByLabel(`Dígito ${n}`);
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    await box(1).click();
    await page.keyboard.type('12');
    await expect.poll(focused).toBe('Dígito 3');
    expect(await box(1).inputValue()).toBe('1');
    expect(await box(2).inputValue()).toBe('2');
    await page.keyboard.press('Backspace');
    await expect.poll(focused).toBe('Dígito 2');
    expect(await box(2).inputValue()).toBe('');

    const wrong = code === '000000' ? '111111' : '000000';
    await box(1).click();
    await page.keyboard.type(wrong);
    await page.getByRole('button', { name: 'acceder' }).click();
    await expect.poll(visible(page, MSG.invalidCode)).toBe(true);
    // A refused code marks its boxes invalid.
    expect(await box(1).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);

    // Pasting six digits into the first box fills all of them.
    await box(1).evaluate((input, text) => {
      const data = new DataTransfer();
      data.setData('text', text);
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    }, code);
    for (let n = 1; n <= 6; n += 1) expect(await box(n).inputValue()).toBe(code[n - 1]);
    await page.getByRole('button', { name: 'acceder' }).click();
    await atPath(page, '/exh');

    // An exhibitor is sent away from /admin and from the landing to /exh.
    await page.goto('/admin');
    await atPath(page, '/exh');
    await page.goto('/');
    await atPath(page, '/exh');
    await page.getByRole('button', { name: 'Salir' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Ingresar' }).waitFor();
    await page.goto('/exh');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Ingresar' }).waitFor();
    await context.close();
  });

  it('an administrator is kept out of /exh; a failed password sign-in says "No se pudo iniciar sesión."', async () => {
    const admin = await seedAdmin(app.db);
    const { context, page } = await app.page(DESKTOP);
    await page.goto('/signin/admin');
    await page.waitForURL((url) => url.pathname === '/signin');

    await page.getByLabel('Email').fill(admin.email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/admin');
    await page.route('**/api/auth/password', (route) => route.abort());
    await page.getByLabel('Contraseña', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'acceder' }).click();
    await expect.poll(visible(page, MSG.signInFailed)).toBe(true);
    await expectAccessible(page);
    await page.unroute('**/api/auth/password');
    await page.getByRole('button', { name: 'acceder' }).click();
    await atPath(page, '/admin');

    await page.goto('/exh');
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/admin');
    await context.close();
  });

  it('every sign-in screen fits a 390 px phone and passes the axe scan', async () => {
    const admin = await seedAdmin(app.db);
    const { context, page } = await app.page(PHONE);
    await page.goto('/signin');
    await page.getByLabel('Email').fill(admin.email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.waitForURL('**/signin/admin');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'signin-admin-phone');
    await page.getByRole('button', { name: 'Olvidé mi contraseña' }).click();
    await page.getByRole('dialog', { name: 'Recuperar contraseña' }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);

    await page.goto('/signin/resetpassword?oobCode=inventado');
    await page.getByLabel('Nueva contraseña').waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'resetpassword-phone');

    await page.goto('/signin/newadmin?token=inventado');
    await expect.poll(visible(page, MSG.invalidToken)).toBe(true);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'newadmin-invalid-phone');
    await context.close();
  });
});
