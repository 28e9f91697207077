import { describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import { seedExhibitor } from '../test/helpers/seed.ts';
import { DESKTOP, expectAccessible, PHONE } from '../test/helpers/browser.ts';
import { askForCode, codeMail } from '../test/helpers/code-sign-in.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

describe('the sign-in link of the code email', () => {
  // Behind a trusted proxy, so that one test process can pose as many clients.
  const app = useBrowserApp({ admin: false, env: { TRUST_PROXY: 'true' } });

  it('mail → link → "acceder" → /exh; opening the page alone signs nobody in', async () => {
    const exhibitor = await seedExhibitor(app.db, { email: 'enlace@empresa.test' });
    const { context, page } = await app.page(PHONE);
    await askForCode(page, exhibitor.email);
    const { link } = await codeMail(app.server, exhibitor.email);

    const other = await app.context(DESKTOP);
    const linkPage = await other.newPage();
    await linkPage.goto(link);
    await linkPage.getByRole('button', { name: 'acceder' }).waitFor();
    await expectAccessible(linkPage);
    const before = await app.db
      .selectFrom('sign_in_codes')
      .select('used_at')
      .where('exhibitor_id', '=', exhibitor.id)
      .executeTakeFirstOrThrow();
    expect(before.used_at).toBeNull();

    await linkPage.getByRole('button', { name: 'acceder' }).click();
    await linkPage.waitForURL((url) => url.pathname === '/exh');
    await linkPage.getByRole('heading', { name: 'Mis eventos' }).waitFor();

    // Spent: the same link now says so, in Spanish, and offers the way back.
    const again = await (await app.browser.newContext({ baseURL: app.server.url })).newPage();
    await again.goto(link);
    await again.getByRole('button', { name: 'acceder' }).click();
    await expect.poll(() => again.getByText(MSG.invalidSignInLink).isVisible()).toBe(true);
    await again.getByRole('link', { name: 'Volver a ingresar el email' }).waitFor();
    await context.close();
    await other.close();
  });

  it('under a guessing attack the voter is told to use the link, and gets in with it', async () => {
    const exhibitor = await seedExhibitor(app.db, { email: 'atacado@empresa.test' });
    const { context, page } = await app.page(PHONE);
    await askForCode(page, exhibitor.email);
    const { code, link } = await codeMail(app.server, exhibitor.email);

    // Strangers spread 100 wrong codes over 20 addresses: the address's daily cap is reached.
    const wrong = code === '000000' ? '111111' : '000000';
    for (let n = 0; n < 100; n += 1) {
      const response = await fetch(`${app.server.url}/api/auth/code`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-requested-with': 'premios',
          'x-forwarded-for': `198.51.100.${n % 20}`,
        },
        body: JSON.stringify({ email: exhibitor.email, code: wrong }),
      });
      expect([400, 429]).toContain(response.status);
    }

    const box = (n: number) => page.getByLabel(`Dígito ${n}`);
    await box(1).click();
    await page.keyboard.type(code);
    await page.getByRole('button', { name: 'acceder' }).click();
    await expect.poll(() => page.getByText(MSG.codeTriesExhausted).isVisible()).toBe(true);
    await expectAccessible(page);

    await page.goto(link);
    await page.getByRole('button', { name: 'acceder' }).click();
    await page.waitForURL((url) => url.pathname === '/exh');
    await context.close();
  });
});
