import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  budgetMisses,
  EXH_EVENT_JS_BUDGET_BYTES,
  measureWebSize,
  SIGNIN_JS_BUDGET_BYTES,
} from '../test/helpers/web-size.ts';

const webDir = process.env.E2E_WEB_DIR ?? path.resolve(import.meta.dirname, '../dist/web');

describe('web budgets', () => {
  it('loads at most 100 KB of gzip JavaScript to show /signin, without MUI or TanStack Query', () => {
    const report = measureWebSize(webDir);
    expect(SIGNIN_JS_BUDGET_BYTES).toBe(100 * 1024);
    expect(report.signin.bytes).toBeLessThanOrEqual(SIGNIN_JS_BUDGET_BYTES);
    expect(
      report.signin.modules.filter((module) =>
        /node_modules\/(@mui|@emotion|@tanstack|zod|react-hook-form)\//.test(module),
      ),
    ).toEqual([]);
  });

  it('loads at most 160 KB of gzip JavaScript to show /exh and /exh/event/{id}, without MUI or TanStack Query', () => {
    const report = measureWebSize(webDir);
    expect(EXH_EVENT_JS_BUDGET_BYTES).toBe(160 * 1024);
    for (const page of [report.exhHome, report.exhEvent]) {
      expect(page.bytes).toBeLessThanOrEqual(EXH_EVENT_JS_BUDGET_BYTES);
      expect(
        page.modules.filter((module) => /node_modules\/(@mui|@emotion|@tanstack)\//.test(module)),
      ).toEqual([]);
    }
  });

  it('never loads date pickers, xlsx code or administrator screens for an exhibitor', () => {
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
