import fs from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin } from '../test/helpers/seed.ts';
import {
  DESKTOP,
  expectAccessible,
  hasHorizontalScroll,
  launchBrowser,
  newContext,
  PHONE,
} from '../test/helpers/browser.ts';
import { startServer, type RunningServer } from '../test/helpers/server.ts';
import { signInContext } from '../test/helpers/session.ts';

const SHOTS = '/tmp/shots-admins';

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Waits for a dialog's fade-in to end, so the accessibility scan sees its real colours. */
async function settled(dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await expect
    .poll(() => dialog.evaluate((el) => getComputedStyle(el.parentElement ?? el).opacity))
    .toBe('1');
}

const visible = (scope: Page | Locator, text: string) =>
  expect
    .poll(
      () => scope.getByText(text, { exact: true }).filter({ visible: true }).first().isVisible(),
      { timeout: 10_000 },
    )
    .toBe(true);

describe('administrators page', () => {
  let server: RunningServer;
  let browser: Browser;
  let ana: Awaited<ReturnType<typeof seedAdmin>>;
  let bruno: Awaited<ReturnType<typeof seedAdmin>>;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    ana = await seedAdmin(server.database.db, {
      email: 'ana@premios.test',
      fullName: 'Ana Administradora',
    });
    bruno = await seedAdmin(server.database.db, {
      email: 'bruno@premios.test',
      fullName: 'Bruno Bianchi',
    });
    await seedAdmin(server.database.db, { email: 'pendiente@premios.test', fullName: null });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signedIn(
    admin: { id: string; email: string; fullName: string | null },
    viewport = DESKTOP,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await newContext(browser, server.url, viewport);
    await signInContext(
      context,
      server,
      { role: 'admin', adminId: admin.id },
      { email: admin.email, fullName: admin.fullName ?? '' },
    );
    return { context, page: await context.newPage() };
  }

  it('lists administrators, re-sends an invitation and revokes access', async () => {
    const asBruno = await signedIn(bruno);
    await asBruno.page.goto('/admin');
    await asBruno.page.getByRole('heading', { name: 'Eventos' }).waitFor();

    const { context, page } = await signedIn(ana);
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
      .poll(async () => (await server.smtp.latestTo('pendiente@premios.test'))?.subject, {
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
    const { context, page } = await signedIn(ana, PHONE);
    await page.goto('/admin/admins');
    await page.getByRole('heading', { name: 'Administradores' }).waitFor();
    await visible(page, 'pendiente@premios.test');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'admins-phone');
    await context.close();
  });
});
