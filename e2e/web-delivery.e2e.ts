import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  hasHorizontalScroll,
  launchBrowser,
  newContext,
  PHONE,
} from '../test/helpers/browser.ts';
import { startServer, type RunningServer } from '../test/helpers/server.ts';

const webDir = process.env.E2E_WEB_DIR ?? path.resolve(import.meta.dirname, '../dist/web');

describe('how the web app is delivered', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends /signin already drawn: the form shows with no script at all', async () => {
    const context = await browser.newContext({
      baseURL: server.url,
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
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
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

  it('requests and runs no app script before the first contentful paint, then all of them at once', async () => {
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
    await page.goto('/');
    // The landing screen: the app ran.
    await page.getByRole('link', { name: 'Ingresar' }).waitFor();
    const { fcp, scripts } = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime })),
    }));
    expect(fcp).not.toBeNull();
    const early = scripts.filter((script) => script.startTime < fcp!).map((script) => script.path);
    // Only the small classic script that starts the app once the page has painted.
    expect(early).toEqual([expect.stringMatching(/^\/assets\/boot-[^/]+\.js$/)]);
    // The entry and the shell it imports (React, the router) were asked for together.
    const later = scripts.filter((script) => script.startTime >= fcp!).map((script) => script.path);
    expect(later).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/assets\/index-[^/]+\.js$/),
        expect.stringMatching(/^\/assets\/shell-[^/]+\.js$/),
      ]),
    );
    const startOf = (pattern: RegExp) =>
      scripts.find((script) => pattern.test(script.path))?.startTime ?? Number.NaN;
    expect(startOf(/\/shell-/)).toBeLessThanOrEqual(startOf(/\/index-[^/]+\.js$/) + 50);
    await context.close();
  });

  it('starts the scripts anyway when nothing contentful paints (the logo fails to load)', async () => {
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
    await page.route('**/api/logo', (route) => route.abort());
    await page.goto('/');
    // The landing screen: the app ran, though index.html painted nothing contentful.
    await page.getByRole('link', { name: 'Ingresar' }).waitFor();
    await context.close();
  });

  it("/signin fetches the email step's sending code (Zod, the contract) once the visitor types, not to show", async () => {
    const context = await newContext(browser, server.url, PHONE);
    const page = await context.newPage();
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
    // The script the HTML names: the one that starts the app after the first paint.
    const entry = /src="\/assets\/(boot-[^"]+\.js)"/.exec(
      fs.readFileSync(path.join(webDir, 'index.html'), 'utf8'),
    )?.[1];
    expect(entry).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      const response = await fetch(`${server.url}/assets/${entry}`, {
        headers: { 'accept-encoding': encoding },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    for (const page of ['/signin', '/exh']) {
      const response = await fetch(`${server.url}${page}`, {
        headers: { 'accept-encoding': 'br' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });
});
