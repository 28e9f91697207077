import { describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import { expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

describe('landing and not-found', () => {
  const app = useBrowserApp({ admin: false });

  it('shows the logo and "Ingresar", which leads to /signin', async () => {
    const { context, page } = await app.page();
    await page.goto('/');
    await expect.poll(() => page.getByRole('img', { name: 'Logo' }).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Ingresar' }).click();
    await page.waitForURL('**/signin');
    expect(new URL(page.url()).pathname).toBe('/signin');
    await context.close();
  });

  it('shows "La página no existe." for an unknown path, also on a phone', async () => {
    const { context, page } = await app.page(PHONE);
    await page.goto('/esto/no/existe');
    await expect.poll(() => page.getByText(MSG.pageNotFound).isVisible()).toBe(true);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await context.close();
  });

  it('shows the API reference at /api/docs, generated from the contract', async () => {
    const { context, page } = await app.page();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    await page.goto('/api/docs');
    // Swagger UI lists each operation as a link named by its path.
    await page
      .getByRole('link', { name: '/api/events/{eventId}/exhibitors', exact: true })
      .first()
      .waitFor({ timeout: 15_000 });
    expect(await page.getByText('Premios API').first().isVisible()).toBe(true);
    // Nothing refused by the Content-Security-Policy, nothing failed to load.
    expect(refused).toEqual([]);
    await context.close();
  });
});
