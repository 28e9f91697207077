import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureWebSize, SIGNIN_JS_BUDGET_BYTES } from '../test/helpers/web-size.ts';

const webDir = process.env.E2E_WEB_DIR ?? path.resolve(import.meta.dirname, '../dist/web');

describe('web budgets', () => {
  it('loads under 200 KB of gzip JavaScript to show /signin', () => {
    const report = measureWebSize(webDir);
    expect(report.signinJsGzip).toBeLessThan(SIGNIN_JS_BUDGET_BYTES);
  });

  it('loads every other screen on demand', () => {
    const report = measureWebSize(webDir);
    expect(report.eagerScreens).toEqual([]);
    expect(report.lazyScreens.length).toBeGreaterThanOrEqual(13);
  });
});
