import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  budgetMisses,
  EXH_EVENT_JS_BUDGET_BYTES,
  measureWebSize,
  SIGNIN_JS_BUDGET_BYTES,
} from '../test/helpers/web-size.ts';
import {
  downloadMisses,
  measureDownloads,
  type DownloadsReport,
  type PageDownloads,
} from '../test/helpers/web-downloads.ts';

const webDir = process.env.E2E_WEB_DIR ?? path.resolve(import.meta.dirname, '../dist/web');

describe('web budgets, as Chromium downloads them', () => {
  let report: DownloadsReport;
  beforeAll(async () => {
    report = await measureDownloads({ webDir });
  }, 120_000);

  const page = (label: string): PageDownloads => {
    const found = report.pages.find((measured) => measured.label === label);
    if (!found) throw new Error(`${label} was not measured`);
    return found;
  };
  const assets = (measured: PageDownloads) => measured.scripts.map((script) => script.url);

  it('downloads at most 100 KB of gzip JavaScript to show /signin, counting every script until idle', () => {
    const signin = page('/signin');
    expect(SIGNIN_JS_BUDGET_BYTES).toBe(100 * 1024);
    expect(signin.budget).toBe(SIGNIN_JS_BUDGET_BYTES);
    // Every script came gzip-compressed (or too small to be worth it), and its bytes were counted.
    for (const script of signin.scripts) {
      expect(script.encoding === 'gzip' || script.bytes < 256, script.url).toBe(true);
      expect(script.bytes, script.url).toBeGreaterThan(0);
    }
    // The entry, its preloaded shell (React, the router) and the screen's chunk are all counted.
    expect(assets(signin)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/assets\/index-[^/]+\.js$/),
        expect.stringMatching(/^\/assets\/shell-[^/]+\.js$/),
        expect.stringMatching(/^\/assets\/SignInEmail-[^/]+\.js$/),
      ]),
    );
    expect(signin.bytes).toBe(signin.scripts.reduce((total, script) => total + script.bytes, 0));
    expect(signin.bytes).toBeLessThanOrEqual(SIGNIN_JS_BUDGET_BYTES);
    expect(
      signin.modules.filter((module) =>
        /node_modules\/(@mui|@emotion|@tanstack|zod|react-hook-form)\//.test(module),
      ),
    ).toEqual([]);
  });

  it('counts the chunks a screen imports after it draws: /exh/event/{id} downloads the nominee form, within 160 KB', () => {
    const exhEvent = page('/exh/event/{id}');
    expect(EXH_EVENT_JS_BUDGET_BYTES).toBe(160 * 1024);
    // Loaded by a dynamic import once the list shows: the manifest's static count misses it.
    expect(assets(exhEvent)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/assets\/PlainNomineeDialog-[^/]+\.js$/)]),
    );
    for (const measured of [exhEvent, page('/exh')]) {
      expect(measured.bytes, measured.label).toBeLessThanOrEqual(EXH_EVENT_JS_BUDGET_BYTES);
    }
  });

  it('never downloads date pickers, xlsx code, administrator screens or MUI for an exhibitor', () => {
    expect(report.exhibitorLeaks).toEqual({
      'date pickers': [],
      'xlsx code': [],
      'administrator screens': [],
      'MUI, emotion or TanStack Query': [],
    });
  });

  it('the build fails on what these check', () => {
    expect(downloadMisses(report)).toEqual([]);
  });

  it('a page above its figure is a miss, in words', () => {
    const over = { ...page('/signin'), bytes: SIGNIN_JS_BUDGET_BYTES + 1 };
    expect(downloadMisses({ ...report, pages: [over] })).toEqual([
      '/signin descarga 100.0 KB de JavaScript en Chromium (máximo 100.0 KB)',
    ]);
  });
});

describe('web budgets, from the build manifest', () => {
  it('imports nothing of MUI, TanStack Query or Zod before /signin shows', () => {
    const report = measureWebSize(webDir);
    expect(report.signin.bytes).toBeLessThanOrEqual(SIGNIN_JS_BUDGET_BYTES);
    expect(
      report.signin.modules.filter((module) =>
        /node_modules\/(@mui|@emotion|@tanstack|zod|react-hook-form)\//.test(module),
      ),
    ).toEqual([]);
  });

  it('never imports date pickers, xlsx code or administrator screens for an exhibitor', () => {
    const report = measureWebSize(webDir);
    expect(report.exhibitorLeaks).toEqual({
      'date pickers': [],
      'xlsx code': [],
      'administrator screens': [],
    });
    // The check sees what it looks for: the administrator's pages do load them.
    const modules = Object.values(report.allModules).flat();
    expect(modules.some((module) => module.includes('@mui/x-date-pickers/'))).toBe(true);
    expect(modules.some((module) => module.includes('src/web/routes/admin/'))).toBe(true);
  });

  it('loads every other screen on demand', () => {
    const report = measureWebSize(webDir);
    expect(report.eagerScreens).toEqual([]);
    expect(report.lazyScreens.length).toBeGreaterThanOrEqual(13);
  });

  it('the build fails on what this file checks', () => {
    expect(budgetMisses(measureWebSize(webDir))).toEqual([]);
  });
});
