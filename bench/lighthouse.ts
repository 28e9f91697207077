/**
 * `npm run lighthouse`: Lighthouse with Debian's Chromium, mobile emulation (its default), on
 * /signin, /admin and /exh/event/{id} of the built app; prints performance, accessibility and
 * best-practices scores. Needs a build (`npm run build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
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
const pages: [string, string, string | undefined][] = [
  ['/signin', '/signin', undefined],
  ['/admin', '/admin', adminCookie],
  ['/exh/event/{id}', `/exh/event/${event.id}`, exhCookie],
];
const rows: string[] = [];
try {
  for (const [label, url, cookie] of pages) {
    const result = await lighthouse(`${server.url}${url}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    const categories = result?.lhr.categories ?? {};
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const lcp = result?.lhr.audits['largest-contentful-paint']?.displayValue ?? '?';
    const failing = Object.values(result?.lhr.categories['best-practices']?.auditRefs ?? [])
      .map((ref) => result?.lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => audit?.id);
    if (failing.length) {
      process.stdout.write(`${label}: best-practices audits below 1: ${failing.join(', ')}\n`);
      if (process.env.LIGHTHOUSE_DETAILS) {
        for (const id of failing) {
          process.stdout.write(
            `${JSON.stringify(result?.lhr.audits[id ?? '']?.details).slice(0, 1500)}\n`,
          );
        }
      }
    }
    rows.push(
      `| ${label} | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${lcp} |`,
    );
  }
} finally {
  chrome.kill();
  await server.stop();
}
process.stdout.write(
  [
    'Lighthouse (mobile emulation, Debian Chromium)',
    '| page | performance | accessibility | best practices | LCP |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
