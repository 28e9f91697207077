import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../test/helpers/seed.ts';
import {
  DESKTOP,
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  screenshotsIn,
} from '../test/helpers/browser.ts';
import { askForCode, CODE_HEADING, codeMail } from '../test/helpers/code-sign-in.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-connection';
const shot = screenshotsIn(SHOTS);

/** The six digit boxes' values, joined. */
async function typedCode(page: Page): Promise<string> {
  let code = '';
  for (let digit = 1; digit <= 6; digit++) {
    code += await page.getByLabel(`Dígito ${digit}`).inputValue();
  }
  return code;
}

async function typeCode(page: Page, code: string): Promise<void> {
  for (const [index, digit] of [...code].entries()) {
    await page.getByLabel(`Dígito ${index + 1}`).fill(digit);
  }
}

/*
 * An exhibitor on a phone whose connection drops while signing in: the app's code for the next
 * step, the code's check, or the next screen's code cannot be fetched. Each says so in Spanish and
 * works once the network is back; nothing is sent twice and the code is not lost.
 */
describe('signing in while the connection comes and goes', () => {
  const app = useBrowserApp({ admin: false });

  it('email step: its code cannot be fetched → "Ha ocurrido un error", nothing sent; then it sends', async () => {
    const exhibitor = await seedExhibitor(app.db, { email: 'sinred@empresa.test' });
    const { context, page } = await app.page(PHONE);
    // The catalogue of messages is part of what the step loads after it paints.
    await page.route('**/assets/messages-*.js', (route) => route.abort('internetdisconnected'));
    await page.goto('/signin');
    await page.getByLabel('Email').fill(exhibitor.email);
    await page.getByRole('button', { name: 'siguiente' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(MSG.genericError);
    expect(new URL(page.url()).pathname).toBe('/signin');
    expect(await page.getByRole('button', { name: 'siguiente' }).isEnabled()).toBe(true);
    const codes = await app.db
      .selectFrom('sign_in_codes')
      .select('id')
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    expect(codes).toEqual([]);
    await expectAccessible(page);

    await page.unroute('**/assets/messages-*.js');
    await page.getByRole('button', { name: 'siguiente' }).click();
    await page.getByRole('heading', { name: CODE_HEADING }).waitFor();
    expect((await app.smtp.waitFor(exhibitor.email)).subject).toMatch(/\d{6}/);
    await context.close();
  });

  it('code step and next screen: no answer keeps the code; a screen that cannot load says so and "Volver a intentar" shows it', async () => {
    const exhibitor = await seedExhibitor(app.db, { email: 'cobertura@empresa.test' });
    const event = await seedEvent(app.db, { name: 'Premios Conexión' });
    await seedMembership(app.db, event.id, exhibitor.id);
    const { context, page } = await app.page(PHONE);
    await askForCode(page, exhibitor.email);
    const { code } = await codeMail(app.server, exhibitor.email);

    // The check of the code gets no answer: the code stays typed, not called invalid.
    await page.route('**/api/auth/code', (route) => route.abort('internetdisconnected'));
    await typeCode(page, code);
    await page.getByRole('button', { name: 'acceder' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(MSG.genericError);
    expect(await typedCode(page)).toBe(code);
    // Nothing was said about the code: its boxes are not marked invalid.
    expect(await page.getByLabel('Dígito 1').getAttribute('aria-invalid')).toBeNull();
    expect(new URL(page.url()).pathname).toBe('/signin/code');
    await page.unroute('**/api/auth/code');

    // Signed in, but the exhibitor's screen's code cannot be fetched.
    await page.route('**/assets/ExhLayout-*.js', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'acceder' }).click();
    await page.getByRole('heading', { level: 1, name: MSG.genericErrorDot }).waitFor();
    await page.getByText(MSG.connectionLost, { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/exh');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'screen-unreachable-phone');

    await page.unroute('**/assets/ExhLayout-*.js');
    await page.getByRole('button', { name: 'Volver a intentar' }).click();
    // The screen loads again, and right after signing in the only event opens.
    await page.waitForURL(`**/exh/event/${event.id}`);
    await page.getByRole('heading', { level: 1, name: event.name }).waitFor();
    await context.close();
  });

  it('a screen of an open tab whose code the server no longer has (a new version): the same page, at desktop width', async () => {
    const { context, page } = await app.page(DESKTOP);
    await page.goto('/signin');
    await page.getByLabel('Email').waitFor();
    // A new version has been put in place: the old files' names answer 404.
    await page.route('**/assets/Landing-*.js', (route) =>
      route.fulfill({ status: 404, body: 'Not Found' }),
    );
    await page.evaluate(() => {
      window.history.pushState({}, '', '/');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.getByRole('heading', { level: 1, name: MSG.genericErrorDot }).waitFor();
    await page.getByText(MSG.connectionLost, { exact: true }).waitFor();
    await expectAccessible(page);
    await shot(page, 'screen-unreachable-desktop');
    await page.unroute('**/assets/Landing-*.js');
    await page.getByRole('button', { name: 'Volver a intentar' }).click();
    await page.getByRole('link', { name: 'Ingresar' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });
});
