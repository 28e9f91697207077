/**
 * The JavaScript a browser downloads to show a page, counted the way the design's budgets count it
 * (section 9): every script Chromium fetches from the navigation until the page is idle (the HTML's
 * scripts and modulepreloads, the chunks the router imports, the dynamic imports a screen starts
 * after it draws), gzip as transferred. A phone-sized Chromium asks for gzip only, so the server
 * sends the `.gz` files it would send a browser without Brotli; Playwright's network events give
 * each response's body bytes as they came over the wire.
 *
 * Used by the build (scripts/build.ts fails on a miss), e2e/web-budget.e2e.ts, `npm run bench`
 * and `npm run lighthouse`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  EXH_EVENT_JS_BUDGET_BYTES,
  NEVER_FOR_EXHIBITORS as NEVER_IMPORTED_FOR_EXHIBITORS,
  SIGNIN_JS_BUDGET_BYTES,
} from '../../scripts/web-budget.ts';
import { launchBrowser, PHONE } from './browser.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from './seed.ts';
import { startServer, type RunningServer } from './server.ts';
import { signInContext } from './session.ts';

export const SIGNIN_DOWNLOAD_BUDGET_BYTES = SIGNIN_JS_BUDGET_BYTES;
export const EXH_EVENT_DOWNLOAD_BUDGET_BYTES = EXH_EVENT_JS_BUDGET_BYTES;

/**
 * Code an exhibitor's pages must never download (module paths as in the build's module map): what
 * the build's manifest check looks for, and MUI with its styling engine and TanStack Query, which
 * the exhibitor's plain screens do without (decision 0009).
 */
export const NEVER_FOR_EXHIBITORS: Record<string, RegExp> = {
  ...NEVER_IMPORTED_FOR_EXHIBITORS,
  'MUI, emotion or TanStack Query': /node_modules\/(@mui|@emotion|@tanstack)\//,
};

export interface ScriptDownload {
  /** Path of the script on the server (`/assets/…`). */
  url: string;
  /** Body bytes as transferred. */
  bytes: number;
  /** The response's Content-Encoding ('' when the server sent the file as it is). */
  encoding: string;
}

export interface PageDownloads {
  label: string;
  /** The design's figure for this page, in bytes. */
  budget: number;
  /** Gzip bytes of every script the page fetched until idle. */
  bytes: number;
  scripts: ScriptDownload[];
  /** Source modules in those scripts (from the build's `.vite/modules.json`). */
  modules: string[];
}

export interface DownloadsReport {
  pages: PageDownloads[];
  /** Code of NEVER_FOR_EXHIBITORS that an exhibitor's page downloaded, by kind. */
  exhibitorLeaks: Record<string, string[]>;
}

/** How long the network must stay quiet (nothing started, nothing in flight) to call a page idle. */
const QUIET_MS = 1500;

/** Resolves once no request has started or been in flight for QUIET_MS. */
async function networkQuiet(page: Page): Promise<void> {
  let inFlight = 0;
  let last = Date.now();
  const started = () => {
    inFlight += 1;
    last = Date.now();
  };
  const ended = () => {
    inFlight -= 1;
    last = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    while (inFlight > 0 || Date.now() - last < QUIET_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

interface PageToMeasure {
  label: string;
  url: string;
  budget: number;
  /** The element the screen draws once it shows (the prerendered form is not it). */
  shown: string;
  exhibitor: boolean;
}

/**
 * Opens each page once in a fresh phone-sized context (nothing cached) and counts the scripts it
 * downloads until idle.
 */
export async function measureDownloads(
  options: { server?: RunningServer; browser?: Browser; webDir?: string } = {},
): Promise<DownloadsReport> {
  const webDir =
    options.webDir ??
    process.env.E2E_WEB_DIR ??
    path.resolve(import.meta.dirname, '../../dist/web');
  const modulesOf = JSON.parse(
    fs.readFileSync(path.join(webDir, '.vite/modules.json'), 'utf8'),
  ) as Record<string, string[]>;
  const server = options.server ?? (await startServer());
  const browser = options.browser ?? (await launchBrowser());
  try {
    const db = server.database.db;
    const event = await seedEvent(db, {
      name: 'Premios Partners 2027',
      eventDate: '2099-03-10',
      voteDeadline: '2099-02-28',
    });
    const exhibitor = await seedExhibitor(db);
    await seedMembership(db, event.id, exhibitor.id);
    await seedNominations(db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30711111' }, { fiscalId: '30722222' }],
    });
    const toMeasure: PageToMeasure[] = [
      {
        label: '/signin',
        url: '/signin',
        budget: SIGNIN_DOWNLOAD_BUDGET_BYTES,
        shown: 'main.signin-page:not([data-prerendered])',
        exhibitor: false,
      },
      {
        label: '/exh/event/{id}',
        url: `/exh/event/${event.id}`,
        budget: EXH_EVENT_DOWNLOAD_BUDGET_BYTES,
        shown: 'h1:text("Premios Partners 2027")',
        exhibitor: true,
      },
      // /exh draws less than /exh/event/{id} (no list, no tabs): the same figure holds it.
      {
        label: '/exh',
        url: '/exh',
        budget: EXH_EVENT_DOWNLOAD_BUDGET_BYTES,
        shown: 'h1:text("Mis eventos")',
        exhibitor: true,
      },
    ];
    const pages: PageDownloads[] = [];
    for (const target of toMeasure) {
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: PHONE,
        locale: 'es-AR',
        // What a browser without Brotli is sent: the budgets are stated in gzip.
        extraHTTPHeaders: { 'Accept-Encoding': 'gzip' },
      });
      if (target.exhibitor) {
        await signInContext(
          context,
          server,
          { role: 'exh', exhibitorId: exhibitor.id },
          { email: exhibitor.email, fullName: exhibitor.fullName },
        );
      }
      const page = await context.newPage();
      const scripts: Promise<ScriptDownload | null>[] = [];
      page.on('requestfinished', (request) => {
        scripts.push(
          (async () => {
            const response = await request.response();
            if (!/javascript/.test(response?.headers()['content-type'] ?? '')) return null;
            const sizes = await request.sizes();
            return {
              url: new URL(request.url()).pathname,
              bytes: sizes.responseBodySize,
              encoding: response?.headers()['content-encoding'] ?? '',
            };
          })(),
        );
      });
      await page.goto(target.url);
      await page.waitForSelector(target.shown, { timeout: 30_000 });
      await networkQuiet(page);
      await context.close();
      const downloaded = (await Promise.all(scripts)).filter(
        (script): script is ScriptDownload => script !== null,
      );
      pages.push({
        label: target.label,
        budget: target.budget,
        bytes: downloaded.reduce((total, script) => total + script.bytes, 0),
        scripts: downloaded,
        modules: downloaded.flatMap((script) => modulesOf[script.url.replace(/^\//, '')] ?? []),
      });
    }
    const exhibitorModules = new Set(
      pages.filter((page) => page.label.startsWith('/exh')).flatMap((page) => page.modules),
    );
    return {
      pages,
      exhibitorLeaks: Object.fromEntries(
        Object.entries(NEVER_FOR_EXHIBITORS).map(([kind, pattern]) => [
          kind,
          [...exhibitorModules].filter((module) => pattern.test(module)),
        ]),
      ),
    };
  } finally {
    if (!options.browser) await browser.close();
    if (!options.server) await server.stop();
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The budgets missed, in Spanish words, as the build prints them (empty when all are met). */
export function downloadMisses(report: DownloadsReport): string[] {
  const misses = report.pages
    .filter((page) => page.bytes > page.budget)
    .map(
      (page) =>
        `${page.label} descarga ${kib(page.bytes)} de JavaScript en Chromium (máximo ${kib(page.budget)})`,
    );
  for (const [kind, modules] of Object.entries(report.exhibitorLeaks)) {
    if (modules.length)
      misses.push(
        `las pantallas del expositor descargan ${kind}: ${modules.slice(0, 3).join(', ')}`,
      );
  }
  return misses;
}

export function describeDownloads(report: DownloadsReport): string {
  return report.pages
    .map(
      (page) =>
        `JavaScript descargado por Chromium (gzip, hasta quedar inactiva) para mostrar ${page.label}: ${kib(page.bytes)} en ${page.scripts.length} archivos (presupuesto ${kib(page.budget)})${page.bytes > page.budget ? ' ✗' : ''}`,
    )
    .join('\n');
}
