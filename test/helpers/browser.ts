import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { AxeBuilder } from '@axe-core/playwright';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import { expect } from 'vitest';

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('Chromium not found: install Debian chromium or set CHROMIUM_PATH');
  }
}

/** Whether a Chromium to measure with is installed (the build's budget check needs one). */
export function chromiumAvailable(): boolean {
  try {
    return fs.existsSync(chromiumPath());
  } catch {
    return false;
  }
}

/** Debian's Chromium, headless, with the flags this closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Without a UTF-8 locale Chromium cannot write "Año" in a file name and saves it as "download".
    env: { ...process.env, LANG: process.env.LANG || 'C.UTF-8' },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export function newContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<BrowserContext> {
  return browser.newContext({ baseURL, viewport, locale: 'es-AR', acceptDownloads: true });
}

/** Fails the test on any axe-core violation of the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  // A dialog fading in or a ripple mid-way has colours it never rests at: scan the settled page.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        // Spinners run forever; only wait for the ones that end.
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(violations).toEqual([]);
}

/** True when the page is wider than its viewport (sideways scrolling on a phone). */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

/** The text of each body row of the table named `name` (in `scope`), cell by cell. */
export async function tableRows(
  scope: Page | Locator,
  name: string,
  options: { exact?: boolean } = {},
): Promise<string[][]> {
  const rows = scope.getByRole('table', { name, ...options }).locator('tbody tr');
  const texts: string[][] = [];
  for (const row of await rows.all()) {
    texts.push((await row.getByRole('cell').allInnerTexts()).map((t) => t.trim()));
  }
  return texts;
}

/** A function that saves a full-page screenshot of a page as `dir/name.png`. */
export function screenshotsIn(dir: string): (page: Page, name: string) => Promise<void> {
  return async (page, name) => {
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
  };
}
