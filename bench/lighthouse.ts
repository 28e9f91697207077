/**
 * `npm run lighthouse`: Lighthouse with Debian's Chromium against the built app and the same
 * seeded data every run. The mobile preset (Lighthouse's default: a mid-range phone, slow 4G, 4×
 * CPU throttling) on the sign-in and exhibitor screens; the desktop preset on the administrator
 * screens. Each page is measured 3 times (LIGHTHOUSE_RUNS) and the median of each figure is
 * compared with the budgets of the design's section 9; the command exits 1 when one is missed.
 * LIGHTHOUSE_PAGES=signin,exh… measures only the pages whose label contains one of the words;
 * LIGHTHOUSE_JSON_DIR=folder keeps each run's whole report there (long tasks, bootup time).
 * Then the JavaScript Chromium downloads to show the budgeted pages (gzip, every script until the
 * page is idle: test/helpers/web-downloads.ts) against their figures.
 * Needs a build (`npm run build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { createSession, type SessionSubject } from '../src/server/http/session.ts';
import type { AppDeps } from '../src/server/deps.ts';
import { CURRENT_USER_COOKIE, SESSION_COOKIE } from '../src/shared/constants.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../test/helpers/seed.ts';
import { startServer } from '../test/helpers/server.ts';
import { measureDownloads } from '../test/helpers/web-downloads.ts';

const root = path.resolve(import.meta.dirname, '..');
if (!process.env.E2E_WEB_DIR && !fs.existsSync(path.join(root, 'dist/web/index.html'))) {
  process.stderr.write('Run `npm run build` first.\n');
  process.exit(2);
}

const server = await startServer();
const db = server.database.db;
const deps = { db, clock: { now: () => new Date() } } as AppDeps;
const admin = await seedAdmin(db);
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
  nominees: [{ fiscalId: '30711111' }, { fiscalId: '30722222' }, { fiscalId: '30733333' }],
});
// Both cookies a signed-in browser holds: the session and the display-only currentUser.
const signedInCookie = async (
  subject: SessionSubject,
  display: { email: string; fullName: string },
) => {
  const currentUser = encodeURIComponent(JSON.stringify({ role: subject.role, ...display }));
  return `${SESSION_COOKIE}=${await createSession(deps, subject)}; ${CURRENT_USER_COOKIE}=${currentUser}`;
};
const adminCookie = await signedInCookie(
  { role: 'admin', adminId: admin.id },
  { email: admin.email, fullName: admin.fullName ?? '' },
);
const exhCookie = await signedInCookie(
  { role: 'exh', exhibitorId: exhibitor.id },
  { email: exhibitor.email, fullName: exhibitor.fullName },
);

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface Budget {
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Milliseconds; undefined: not budgeted for this preset. */
  lcpMs?: number;
  tbtMs?: number;
  cls: number;
}
const MOBILE: Budget = {
  performance: 95,
  accessibility: 100,
  bestPractices: 100,
  lcpMs: 2000,
  tbtMs: 150,
  cls: 0.02,
};
const DESKTOP: Budget = { performance: 95, accessibility: 100, bestPractices: 100, cls: 0.02 };

interface Page {
  label: string;
  url: string;
  cookie?: string | undefined;
  preset: 'mobile' | 'desktop';
}
const eventPath = `/admin/event/${event.id}`;
const allPages: Page[] = [
  { label: '/signin', url: '/signin', preset: 'mobile' },
  // Opened directly (no email carried from /signin), the code screen sends the visitor to /signin:
  // this measures that visit, the one a bookmark or a reload gives.
  { label: '/signin/code', url: '/signin/code', preset: 'mobile' },
  { label: '/exh', url: '/exh', cookie: exhCookie, preset: 'mobile' },
  { label: '/exh/event/{id}', url: `/exh/event/${event.id}`, cookie: exhCookie, preset: 'mobile' },
  { label: '/admin', url: '/admin', cookie: adminCookie, preset: 'desktop' },
  {
    label: '/admin/event/{id}/exhibitors',
    url: `${eventPath}/exhibitors`,
    cookie: adminCookie,
    preset: 'desktop',
  },
  {
    label: '/admin/event/{id}/consumption',
    url: `${eventPath}/consumption`,
    cookie: adminCookie,
    preset: 'desktop',
  },
];
const only = process.env.LIGHTHOUSE_PAGES?.split(',').filter(Boolean);
const pages = only
  ? allPages.filter((page) => only.some((word) => page.label.includes(word)))
  : allPages;
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}
/** The median of the runs that measured the figure (NaN when none did). */
const median = (values: number[]) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** One Lighthouse run of the page; undefined when Chromium's trace failed (Lighthouse asks to run again). */
async function measure(page: Page): Promise<Figures | undefined> {
  const result = await lighthouse(
    `${server.url}${page.url}`,
    {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      ...(page.cookie ? { extraHeaders: { Cookie: page.cookie } } : {}),
    },
    page.preset === 'desktop' ? (desktopConfig as Config) : undefined,
  );
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${page.label}`);
  if (process.env.LIGHTHOUSE_JSON_DIR) {
    // The whole report, to read the long tasks, bootup time and main-thread breakdown behind a figure.
    const name = `${page.label.replace(/[^a-z0-9]+/gi, '_')}-${new Date().toISOString()}.json`;
    fs.mkdirSync(process.env.LIGHTHOUSE_JSON_DIR, { recursive: true });
    fs.writeFileSync(path.join(process.env.LIGHTHOUSE_JSON_DIR, name), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) {
    process.stdout.write(
      `${page.label}: ${lhr.runtimeError.code} ${lhr.runtimeError.message} (run repeated)\n`,
    );
    return undefined;
  }
  for (const id of ['largest-contentful-paint', 'total-blocking-time']) {
    const error = lhr.audits[id]?.errorMessage;
    if (error) process.stdout.write(`${page.label}: ${id}: ${error}\n`);
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  // The audits that count towards a category's score and did not pass.
  const failing = [
    ...(lhr.categories['best-practices']?.auditRefs ?? []),
    ...(lhr.categories.accessibility?.auditRefs ?? []),
  ]
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 1);
  if (failing.length) {
    process.stdout.write(
      `${page.label}: audits below 1: ${failing.map((audit) => audit?.id).join(', ')}\n`,
    );
    if (process.env.LIGHTHOUSE_DETAILS) {
      for (const audit of failing) {
        process.stdout.write(`${JSON.stringify(audit?.details).slice(0, 1500)}\n`);
      }
    }
  }
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
  };
}

const rows: string[] = [];
const misses: string[] = [];
const downloadRows: string[] = [];
try {
  for (const page of pages) {
    const measured: Figures[] = [];
    // A run whose trace failed would count as a score of 0; it is repeated instead, a few times at most.
    for (let attempt = 0; measured.length < runs && attempt < runs + 3; attempt += 1) {
      const figures = await measure(page);
      if (figures) measured.push(figures);
    }
    if (measured.length < runs) throw new Error(`Lighthouse could not measure ${page.label}`);
    const pick = (key: keyof Figures) => median(measured.map((figures) => figures[key]));
    const figures: Figures = {
      performance: pick('performance'),
      accessibility: pick('accessibility'),
      bestPractices: pick('bestPractices'),
      lcpMs: pick('lcpMs'),
      tbtMs: pick('tbtMs'),
      cls: pick('cls'),
    };
    const budget = page.preset === 'desktop' ? DESKTOP : MOBILE;
    const check = (ok: boolean, what: string) => {
      if (!ok) misses.push(`${page.label}: ${what}`);
      return ok ? '' : ' ✗';
    };
    const cells = [
      `${figures.performance}${check(figures.performance >= budget.performance, `performance ${figures.performance} < ${budget.performance}`)}`,
      `${figures.accessibility}${check(figures.accessibility >= budget.accessibility, `accessibility ${figures.accessibility} < ${budget.accessibility}`)}`,
      `${figures.bestPractices}${check(figures.bestPractices >= budget.bestPractices, `best practices ${figures.bestPractices} < ${budget.bestPractices}`)}`,
      `${(figures.lcpMs / 1000).toFixed(1)} s${budget.lcpMs === undefined ? '' : check(figures.lcpMs <= budget.lcpMs, `LCP ${Math.round(figures.lcpMs)} ms > ${budget.lcpMs} ms`)}`,
      `${Math.round(figures.tbtMs)} ms${budget.tbtMs === undefined ? '' : check(figures.tbtMs <= budget.tbtMs, `TBT ${Math.round(figures.tbtMs)} ms > ${budget.tbtMs} ms`)}`,
      `${figures.cls.toFixed(3)}${check(figures.cls <= budget.cls, `CLS ${figures.cls.toFixed(3)} > ${budget.cls}`)}`,
    ];
    const row = `| ${page.label} | ${page.preset} | ${cells.join(' | ')} |`;
    process.stdout.write(`${row}\n`);
    rows.push(row);
  }
  const downloads = await measureDownloads({ server });
  for (const page of downloads.pages) {
    const ok = page.bytes <= page.budget;
    if (!ok) misses.push(`${page.label}: JavaScript ${kib(page.bytes)} > ${kib(page.budget)}`);
    downloadRows.push(
      `| ${page.label} | ${kib(page.bytes)}${ok ? '' : ' ✗'} | ${page.scripts.length} | ${kib(page.budget)} |`,
    );
  }
  for (const [kind, modules] of Object.entries(downloads.exhibitorLeaks)) {
    if (modules.length) misses.push(`exhibitor pages download ${kind}: ${modules[0]}`);
  }
} finally {
  chrome.kill();
  await server.stop();
}
process.stdout.write(
  [
    '',
    `Lighthouse (Debian Chromium, median of ${runs} run${runs === 1 ? '' : 's'} per page; ✗ misses its budget)`,
    'Budgets: mobile performance ≥ 95, accessibility and best practices 100, LCP ≤ 2.0 s, TBT ≤ 150 ms;',
    'desktop performance ≥ 95, accessibility and best practices 100; CLS ≤ 0.02 everywhere.',
    '| page | preset | performance | accessibility | best practices | LCP | TBT | CLS |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'JavaScript Chromium downloads to show the page (gzip, every script until the page is idle, dynamic imports included)',
    '| page | JavaScript | scripts | budget |',
    '|---|---|---|---|',
    ...downloadRows,
    '',
    misses.length
      ? `Budgets missed:\n${misses.map((miss) => `- ${miss}`).join('\n')}\n`
      : 'Every budget met.\n',
  ].join('\n'),
);
if (misses.length) process.exitCode = 1;
