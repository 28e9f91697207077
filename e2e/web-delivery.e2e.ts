import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const webDir = process.env.E2E_WEB_DIR ?? path.resolve(import.meta.dirname, '../dist/web');

describe('how the web app is delivered', () => {
  const app = useBrowserApp({ admin: false });

  it('sends /signin already drawn: the form shows with no script at all', async () => {
    const context = await app.browser.newContext({
      baseURL: app.server.url,
      viewport: PHONE,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto('/signin');
    expect(await page.getByRole('heading', { name: 'Ingresar' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Email').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'siguiente' }).isVisible()).toBe(true);
    expect(await page.getByRole('img', { name: 'Logo' }).isVisible()).toBe(true);
    await context.close();
  });

  it('keeps what was typed before the script ran, then works as the app', async () => {
    const { context, page } = await app.page(PHONE);
    // The entry script arrives late (a slow phone network): the visitor types meanwhile.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // (A module script holds DOMContentLoaded back: wait for the response only.)
    await page.goto('/signin', { waitUntil: 'commit' });
    await page.getByLabel('Email').fill('nadie@empresa.test');
    expect(await page.locator('main[data-prerendered]').count()).toBe(1);
    release();
    await page.waitForSelector('main[data-prerendered]', { state: 'detached' });
    expect(await page.getByLabel('Email').inputValue()).toBe('nadie@empresa.test');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await context.close();
  });

  it("/signin fetches the email step's sending code (Zod, the contract) once the visitor types, not to show", async () => {
    const { context, page } = await app.page(PHONE);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/signin', { waitUntil: 'networkidle' });
    await page.waitForSelector('main[data-prerendered]', { state: 'detached' });
    await page.waitForLoadState('networkidle');
    const sendingCode = /^\/assets\/(common|http|messages)-[^/]+\.js$/;
    expect(scripts.filter((script) => sendingCode.test(script))).toEqual([]);
    const common = page.waitForRequest((request) =>
      /\/assets\/common-[^/]+\.js$/.test(request.url()),
    );
    await page.getByLabel('Email').pressSequentially('n');
    await common;
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((script) => sendingCode.test(script))).toHaveLength(3);
    await context.close();
  });

  it('sends hashed assets precompressed with immutable caching, pages with no-cache', async () => {
    const entry = /src="\/assets\/(index-[^"]+\.js)"/.exec(
      fs.readFileSync(path.join(webDir, 'index.html'), 'utf8'),
    )?.[1];
    expect(entry).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      const response = await fetch(`${app.server.url}/assets/${entry}`, {
        headers: { 'accept-encoding': encoding },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    for (const page of ['/signin', '/exh']) {
      const response = await fetch(`${app.server.url}${page}`, {
        headers: { 'accept-encoding': 'br' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });
});
