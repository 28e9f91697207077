/**
 * `npm run bench`: our performance budgets, measured in one run on this
 * machine, each printed with its budget. Exit code 1 when a budget is missed.
 *   --rush N        exhibitors in the deadline rush (default 2000)
 *   --connections C concurrent connections for /healthz and the rush (default 50)
 *   --seconds S     duration of each throughput measure (default 5)
 *   --only rush     only the deadline rush (SQLite, then PostgreSQL with BENCH_DATABASE_URL): for
 *                   measuring a change to the save or the sign-in before and after
 *   --only registry only the registry import of 20,000 rows (SQLite, then PostgreSQL)
 *   --only integrity only the "Integridad" tab of a 2,000-exhibitor event (SQLite, then PostgreSQL)
 *   --only categories only the event of 10 categories: each category's ranking and a rush saving
 *                   into all ten (SQLite, then PostgreSQL)
 *   --only start    only the server's start to ready and its idle memory (SQLite)
 * With BENCH_DATABASE_URL (a PostgreSQL database), the ranking and the rush run again there, with
 * two servers sharing it.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchCategoryEvent } from './categories.ts';
import { benchEventExport } from './event-export.ts';
import { benchHistory } from './history.ts';
import { benchIntegrity } from './integrity.ts';
import { benchRegistryImport } from './registry-import.ts';
import { benchExport, benchRanking } from './ranking.ts';
import { benchRegistrySearch } from './registry-search.ts';
import { benchRush, type RushFigures } from './rush.ts';
import type { CpuShares } from './cpu.ts';
import { startBenchServer } from './server.ts';
import { benchTurnout } from './turnout.ts';
import { freshTestDatabase, type TestDatabase } from '../test/helpers/database.ts';
import { chromiumAvailable } from '../test/helpers/browser.ts';
import { measureDownloads } from '../test/helpers/web-downloads.ts';

const { values } = parseArgs({
  options: {
    rush: { type: 'string', default: '2000' },
    // The design's save budget is stated at 64 clients.
    connections: { type: 'string', default: '64' },
    seconds: { type: 'string', default: '5' },
    only: { type: 'string' },
  },
});
const onlyRush = values.only === 'rush';
const onlyRegistry = values.only === 'registry';
const onlyIntegrity = values.only === 'integrity';
const onlyCategories = values.only === 'categories';
const onlyStart = values.only === 'start';
const onlyParts = [onlyRush, onlyRegistry, onlyIntegrity, onlyCategories, onlyStart];
if (values.only !== undefined && !onlyParts.some(Boolean)) {
  process.stderr.write(
    `--only takes "rush", "registry", "integrity", "categories" or "start", not "${values.only}"\n`,
  );
  process.exit(2);
}
const connections = Number(values.connections);
/** Servers sharing the PostgreSQL database in its rows, as a programme running two instances would. */
const POSTGRES_INSTANCES = 2;
const seconds = Number(values.seconds);

interface Figure {
  name: string;
  value: string;
  budget: string;
  ok: boolean;
}
const figures: Figure[] = [];
const record = (name: string, value: string, budget: string, ok: boolean) => {
  figures.push({ name, value, budget, ok });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${value} (budget: ${budget})\n`);
};

/** Prints the count of lines within and over budget, and exits non-zero when one is over. */
function finish(): never {
  const failed = figures.filter((f) => !f.ok);
  process.stdout.write(
    `\n${figures.length - failed.length} within budget, ${failed.length} over budget\n`,
  );
  process.exit(failed.length ? 1 : 0);
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const stats = (s: { perSecond: number; p50: number; p99: number; errors: number }) =>
  `${s.perSecond.toFixed(0)}/s, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, errors ${s.errors}`;

/** CPU time per operation of the servers, PostgreSQL (when it runs) and the load generator. */
function cpuShares(cpu: CpuShares, operations: number, onPostgres: boolean): string {
  const per = (cpuSeconds: number) => `${((cpuSeconds * 1000) / operations).toFixed(2)} ms`;
  const busy = (cpu.servers + cpu.postgres + cpu.load) / cpu.seconds;
  return `${per(cpu.servers)} / ${onPostgres ? per(cpu.postgres) : '-'} / ${per(cpu.load)} (${busy.toFixed(2)} of ${os.availableParallelism()})`;
}

/** The save budget's lines of a rush; PostgreSQL's saves are also measured against SQLite's. */
function recordSaves(label: string, rush: RushFigures, where: string, sqlite?: RushFigures) {
  // Design section 9: p99 under 50 ms on SQLite; on PostgreSQL (two instances, measured against
  // SQLite's of the same run) under 100 ms.
  const p99Budget = sqlite ? 100 : 50;
  record(
    `${label}${where}: the first ${rush.warmUp.requests} saves on servers just started (a warm-up, not counted below)`,
    stats(rush.warmUp),
    'reference: a cold start, which no deadline meets (docs/decisions/0042)',
    rush.warmUp.errors === 0,
  );
  record(
    `${label}${where}: ${rush.exhibitors * 5} nomination saves (${rush.concurrency} concurrent)`,
    stats(rush.saves),
    `no errors, p99 < ${p99Budget} ms`,
    rush.saves.errors === 0 && rush.saves.p99 < p99Budget,
  );
  record(
    `${label}${where}: p99 of each round of saves (every exhibitor's 1st nominee, 2nd…)`,
    rush.saveRounds.map((round) => `${round.p99.toFixed(1)} ms`).join(' / '),
    'reference',
    true,
  );
  record(
    `${label}${where}: CPU per save, servers / PostgreSQL / load generator (cores busy)`,
    cpuShares(rush.saveCpu, rush.exhibitors * 5, where !== ''),
    'reference: where the machine goes (docs/decisions/0038)',
    true,
  );
  if (!sqlite) return;
  // Issue 29: the same rush on PostgreSQL (two servers) against SQLite's of this run.
  const share = rush.saves.perSecond / sqlite.saves.perSecond;
  record(
    `${label}${where}: saves against SQLite's of this run (${sqlite.saves.perSecond.toFixed(0)}/s)`,
    `${share.toFixed(2)} × (${stats(rush.saves)})`,
    '≥ 0.50 ×, p99 < 100 ms, no errors (docs/decisions/0021)',
    share >= 0.5 && rush.saves.p99 < 100 && rush.saves.errors === 0,
  );
}

export async function healthzThroughput(url: string): Promise<autocannon.Result> {
  return autocannon({ url: `${url}/healthz`, connections, duration: seconds });
}

// Measure what `npm start` runs: the current web app and server bundle.
const build = spawnSync(process.execPath, ['scripts/build.ts'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

process.stdout.write(
  `Premios bench on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown cpu'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}\n`,
);

if (values.only === undefined || onlyStart) {
  // Start to ready and idle memory, on a fresh SQLite database (migrations included).
  const startTimes: number[] = [];
  let idleRss = 0;
  for (let run = 0; run < 5; run++) {
    const server = await startBenchServer();
    startTimes.push(server.startToReadyMs);
    if (run === 0) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      idleRss = server.rssBytes();
    }
    await server.stop();
  }
  const startMs = median(startTimes);
  record(
    'server start to /readyz (SQLite, median of 5)',
    `${startMs.toFixed(0)} ms`,
    '< 1000 ms',
    startMs < 1000,
  );
  record(
    'idle memory (RSS)',
    `${(idleRss / 2 ** 20).toFixed(0)} MB`,
    '< 150 MB',
    idleRss < 150 * 2 ** 20,
  );
  if (onlyStart) finish();

  // The JavaScript a phone downloads to show the budgeted pages, counted in Chromium (gzip, every
  // script until the page is idle); Lighthouse's figures are `npm run lighthouse`.
  if (chromiumAvailable()) {
    const downloads = await measureDownloads();
    for (const page of downloads.pages) {
      record(
        `JavaScript Chromium downloads to show ${page.label} (gzip, until idle)`,
        `${(page.bytes / 1024).toFixed(1)} KB in ${page.scripts.length} scripts`,
        `≤ ${(page.budget / 1024).toFixed(0)} KB`,
        page.bytes <= page.budget,
      );
    }
  } else {
    process.stdout.write("Chromium is not installed: the web pages' JavaScript is not measured.\n");
  }

  const server = await startBenchServer();
  try {
    const health = await healthzThroughput(server.url);
    record(
      `/healthz throughput (${connections} connections)`,
      `${health.requests.average.toFixed(0)} req/s, p50 ${health.latency.p50} ms, p99 ${health.latency.p99} ms, errors ${health.errors + health.non2xx}`,
      'reference',
      health.errors + health.non2xx === 0,
    );
  } finally {
    await server.stop();
  }
}

/** The read-heavy lines of one database: ranking, import, participation, workbook, history. */
async function benchReads(where: string, shared?: { databaseUrl: () => Promise<string> }) {
  const ranking = await benchRanking(await shared?.databaseUrl());
  record(
    `ranking${where}, first page of ${ranking.rankingRows} fiscal ids (${ranking.nominations} nominations, ${ranking.exhibitors} exhibitors)`,
    `${ranking.rankingMs} ms = ${ranking.ratio}× the bare aggregate (${ranking.bareAggregateMs} ms); last page ${ranking.lastPageMs} ms`,
    '≤ 2× and < 100 ms',
    ranking.pass,
  );
  record(
    `possible duplicates among those ${ranking.rankingRows} fiscal ids${where} (median of 5)`,
    `${ranking.duplicatesMs} ms (${ranking.duplicateGroups} groups)`,
    '< 300 ms',
    ranking.duplicatesPass,
  );
  if (!shared) {
    const exported = await benchExport();
    record(
      `xlsx export of a ${exported.rows}-row ranking`,
      `${exported.exportMs} ms (${exported.bytes} bytes)`,
      '< 1000 ms',
      exported.pass,
    );
  }

  const turnout = await benchTurnout(await shared?.databaseUrl());
  record(
    `import of a ${turnout.rows}-row exhibitor file${where}: preview + confirm`,
    `${turnout.previewMs + turnout.importMs} ms (preview ${turnout.previewMs} ms, import ${turnout.importMs} ms)`,
    '< 3000 ms',
    turnout.importPass,
  );
  record(
    `participation tab of a ${turnout.rows}-exhibitor event${where} (median of 5)`,
    `${turnout.participationMs} ms`,
    '< 300 ms',
    turnout.participationPass,
  );
  record(
    `exhibitors tab of a ${turnout.rows}-exhibitor event${where}: a page, and a search with a filter (median of 5, slower of the two)`,
    `${turnout.rosterMs} ms`,
    '< 300 ms',
    turnout.rosterPass,
  );

  const whole = await benchEventExport(await shared?.databaseUrl());
  record(
    `whole-event workbook${where} of ${whole.exhibitors} exhibitors (${whole.nominations} nominations)`,
    `${whole.exportMs} ms, server peak RSS ${whole.peakRssMb} MB (${whole.bytes} bytes)`,
    '< 10000 ms and < 300 MB',
    whole.pass,
  );

  const search = await benchRegistrySearch(await shared?.databaseUrl());
  record(
    `"Buscar en el padrón"${where}: ${search.queries} searches of an exhibitor in a ${search.entries}-entry registry`,
    `p99 ${search.p99Ms} ms, p50 ${search.p50Ms} ms (/healthz in turns: p99 ${search.healthzP99Ms} ms, p50 ${search.healthzP50Ms} ms)`,
    'p99 < 50 ms',
    search.pass,
  );

  const history = await benchHistory(await shared?.databaseUrl());
  record(
    `history tab${where}: first page of an event with ${history.entries} entries (median of 5)`,
    `${history.firstPageMs} ms; one action's page ${history.actionPageMs} ms`,
    '< 300 ms',
    history.pass,
  );
  await benchRegistry(where, shared);
  await benchIntegrityTab(where, shared);
}

/** "Integridad" (issue 28 item 3): the tab of a 2,000-exhibitor event with planted alerts. */
async function benchIntegrityTab(where: string, shared?: { databaseUrl: () => Promise<string> }) {
  const integrity = await benchIntegrity(await shared?.databaseUrl());
  record(
    `"Integridad" tab${where} of ${integrity.exhibitors} exhibitors (${integrity.nominations} nominations, ${integrity.signIns} sign-ins, ${integrity.alerts} alerts; median of 5)`,
    `${integrity.tabMs} ms`,
    '< 500 ms',
    integrity.pass,
  );
}

/** "Importar padrón" (issue 27): 20,000 rows previewed, imported, and imported again as updates. */
async function benchRegistry(where: string, shared?: { databaseUrl: () => Promise<string> }) {
  const registry = await benchRegistryImport(await shared?.databaseUrl());
  record(
    `registry import${where}: ${registry.rows} rows previewed / imported / imported again (all updates)`,
    `${registry.previewMs} ms / ${registry.importMs} ms / ${registry.reimportMs} ms`,
    '< 5000 ms each',
    registry.pass,
  );
}

/** The SQLite rushes of this run: PostgreSQL's saves are measured against them. */
let sqliteRush: RushFigures | undefined;
let sqliteCategoriesRush: RushFigures | undefined;

/**
 * An event of 10 categories and 10,000 exhibitors (issue 26): the ranking budget for every one of
 * its categories, and the save budget for a rush saving into all ten.
 */
async function benchCategories(where: string, shared?: { databaseUrl: () => Promise<string> }) {
  const event = await benchCategoryEvent(
    Number(values.rush),
    connections,
    shared && { databaseUrl: await shared.databaseUrl(), instances: POSTGRES_INSTANCES },
  );
  const { slowest } = event;
  const ratios = event.rankings.map((r) => r.ratio);
  record(
    `ranking${where}, first page of each of 10 categories (${event.nominations} nominations, ${event.exhibitors} exhibitors): the slowest, ${slowest.name} (${slowest.rankingRows} fiscal ids)`,
    `${slowest.rankingMs} ms = ${slowest.ratio}× the bare aggregate (${slowest.bareAggregateMs} ms); the ten: ${Math.min(...ratios)}–${Math.max(...ratios)}×, first pages ${event.rankings.map((r) => r.rankingMs).join(' / ')} ms`,
    '≤ 2× and < 100 ms, each category',
    event.rankingPass,
  );
  record(
    `deadline rush into 10 categories of that event${where}: ${event.rush.exhibitors} exhibitors sign in`,
    stats(event.rush.signIn),
    'no errors (an exhibitor not signed in fails its 5 saves)',
    event.rush.signIn.errors === 0,
  );
  recordSaves(
    'deadline rush into 10 categories of that event',
    event.rush,
    where,
    shared && sqliteCategoriesRush,
  );
  if (!shared) sqliteCategoriesRush = event.rush;
}

/** The ranking and rush lines of one database; `where` names it in each line. */
async function benchDatabase(where: string, shared?: { databaseUrl: () => Promise<string> }) {
  if (onlyRegistry) return benchRegistry(where, shared);
  if (onlyIntegrity) return benchIntegrityTab(where, shared);
  if (onlyCategories) return benchCategories(where, shared);
  if (!onlyRush) await benchReads(where, shared);

  const rush = await benchRush(
    Number(values.rush),
    connections,
    shared && { databaseUrl: await shared.databaseUrl(), instances: POSTGRES_INSTANCES },
  );
  const failures = Object.entries(rush.signInFailures).map(([why, times]) => `${times}× ${why}`);
  record(
    `deadline rush${where}: ${rush.exhibitors} exhibitors sign in with an emailed code`,
    stats(rush.signIn) + (failures.length > 0 ? ` (${failures.join('; ')})` : ''),
    'no errors',
    rush.signIn.errors === 0,
  );
  record(
    `deadline rush${where}: those sign-ins' email step (POST /api/auth/start) / the mail's arrival after it`,
    `p50 ${rush.emailStep.p50.toFixed(1)} / ${rush.mailWait.p50.toFixed(1)} ms, p99 ${rush.emailStep.p99.toFixed(1)} / ${rush.mailWait.p99.toFixed(1)} ms`,
    'reference: where a sign-in waits',
    true,
  );
  record(
    `deadline rush${where}: CPU per sign-in, servers / PostgreSQL / load generator (cores busy)`,
    cpuShares(rush.signInCpu, rush.exhibitors, where !== ''),
    'reference: where the machine goes',
    true,
  );
  record(
    `deadline rush${where}: the code step of those sign-ins alone (POST /api/auth/code)`,
    `p50 ${rush.codeStep.p50.toFixed(1)} ms, p99 ${rush.codeStep.p99.toFixed(1)} ms, errors ${rush.codeStep.errors}`,
    'reference (docs/decisions/0033)',
    rush.codeStep.errors === 0,
  );
  recordSaves('deadline rush', rush, where, shared && sqliteRush);
  record(
    `/healthz${where}, same client and concurrency, in turns with the saves`,
    stats(rush.healthz),
    'reference',
    rush.healthz.errors === 0,
  );
  record(
    `the same saves refused by validation (400, before their transaction)${where}`,
    stats(rush.refused),
    'no errors',
    rush.refused.errors === 0,
  );
  record(
    `save throughput / refused-save throughput${where} (median of 5 rounds)`,
    `${rush.savesToRefused.toFixed(2)} (rounds: ${rush.savesToRefusedRounds.map((r) => r.toFixed(2)).join(', ')})`,
    shared
      ? 'reported: the budget is set on SQLite, where one machine holds the whole product'
      : '≥ 0.35 (design section 9, docs/decisions/0003)',
    shared ? true : rush.savesToRefused >= 0.35,
  );
  record(
    `save / refused save / /healthz throughput${where} (medians of 5 rounds)`,
    `${rush.savesToHealthz.toFixed(2)} (rounds: ${rush.savesToHealthzRounds.map((r) => r.toFixed(2)).join(', ')}) / ${rush.refusedToHealthz.toFixed(2)} / 1`,
    'reference: the retired aim, save ≥ 0.5 × /healthz (docs/decisions/0003)',
    true,
  );
  if (shared) {
    record(
      `deadline rush${where}: sign-in rush p99`,
      `${rush.signIn.p99.toFixed(0)} ms (${stats(rush.signIn)})`,
      '< 1000 ms, no errors (docs/decisions/0021)',
      rush.signIn.p99 < 1000 && rush.signIn.errors === 0,
    );
  }
  if (!shared) {
    sqliteRush = rush;
    record(
      'SQLite write-ahead log, peak size during the saves',
      `${(rush.walPeakBytes / 2 ** 20).toFixed(1)} MB`,
      '< 64 MB',
      rush.walPeakBytes < 64 * 2 ** 20,
    );
  }
  if (!onlyRush) await benchCategories(where, shared);
}

await benchDatabase('');

// PostgreSQL: the same measures with two servers behind one database, each on a fresh schema.
const postgresUrl = process.env.BENCH_DATABASE_URL;
if (postgresUrl) {
  const schemas: TestDatabase[] = [];
  try {
    await benchDatabase(` (PostgreSQL, ${POSTGRES_INSTANCES} servers)`, {
      async databaseUrl() {
        const schema = await freshTestDatabase('postgres', postgresUrl);
        schemas.push(schema);
        return schema.url;
      },
    });
  } finally {
    for (const schema of schemas) await schema.drop();
  }
} else {
  process.stdout.write('BENCH_DATABASE_URL is not set: the PostgreSQL rows are skipped.\n');
}

finish();
