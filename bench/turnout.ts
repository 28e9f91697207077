/**
 * Budgets of the turnout screens, through the real server: a 2,000-row import file previewed and
 * imported (under 3 s together), and the participation tab of that 2,000-exhibitor event with half
 * of them voting (under 300 ms). `node bench/turnout.ts` prints them.
 */
import { performance } from 'node:perf_hooks';
import { CSRF_HEADER, CSRF_VALUE } from '../src/server/app.ts';
import { openDatabase } from '../src/server/db/connection.ts';
import type { AppDeps } from '../src/server/deps.ts';
import { createSession } from '../src/server/http/session.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { multipart } from '../test/helpers/multipart.ts';
import { seedAdmin, seedEvent, seedNominations } from '../test/helpers/seed.ts';
import { startSmtpServer } from '../test/helpers/smtp.ts';
import { startBenchServer } from './server.ts';

const ROWS = 2_000;
const RUNS = 5;

export interface TurnoutFigures {
  rows: number;
  previewMs: number;
  importMs: number;
  added: number;
  importPass: boolean;
  participationMs: number;
  participationPass: boolean;
  /** The exhibitors tab: a middle page of the whole roster, and a search with a filter. */
  rosterMs: number;
  rosterPass: boolean;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** On a fresh SQLite database, or on `databaseUrl` (a fresh PostgreSQL schema). */
export async function benchTurnout(databaseUrl?: string): Promise<TurnoutFigures> {
  const smtp = await startSmtpServer();
  const server = await startBenchServer({ SMTP_URL: smtp.url }, databaseUrl);
  const database = openDatabase(server.databaseUrl);
  try {
    const db = database.db;
    const admin = await seedAdmin(db);
    const event = await seedEvent(db, { eventDate: '2099-12-31', voteDeadline: '2099-12-30' });
    const deps = { db, clock: { now: () => new Date() } } as AppDeps;
    const cookie = `${SESSION_COOKIE}=${await createSession(deps, { role: 'admin', adminId: admin.id })}`;
    const call = async (method: string, path: string, body?: ReturnType<typeof multipart>) => {
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { cookie, [CSRF_HEADER]: CSRF_VALUE, ...body?.headers },
        ...(body ? { body: body.payload } : {}),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return { ms: performance.now() - started, json: JSON.parse(text) as unknown };
    };

    const file = Buffer.from(
      [
        'Nombre completo;Email;Empresa',
        ...Array.from(
          { length: ROWS },
          (_, i) => `Expositor ${i};expositor${i}@bench.test;Empresa ${i % 97}`,
        ),
      ].join('\n'),
    );
    const upload = () => multipart([{ name: 'file', filename: 'expositores.csv', data: file }]);
    const preview = await call(
      'POST',
      `/api/events/${event.id}/exhibitors/import/preview`,
      upload(),
    );
    const imported = await call('POST', `/api/events/${event.id}/exhibitors/import`, upload());
    const added = (imported.json as { added: number }).added;
    if (added !== ROWS) throw new Error(`the import added ${added} of ${ROWS} rows`);

    // Half of them vote: a full list in CONSUMO for even rows, two nominees in VALOR for every 4th.
    const members = await db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', 'like', 'expositor%@bench.test')
      .execute();
    for (const [i, member] of members.entries()) {
      if (i % 2 !== 0) continue;
      await seedNominations(db, {
        eventId: event.id,
        exhibitorId: member.id,
        category: 'consumption',
        nominees: Array.from({ length: 5 }, (_, k) => ({ fiscalId: `30${(i * 7 + k) % 900}` })),
      });
      if (i % 4 === 0) {
        await seedNominations(db, {
          eventId: event.id,
          exhibitorId: member.id,
          category: 'value',
          nominees: [{ fiscalId: `31${i % 500}` }, { fiscalId: `32${i % 300}` }],
        });
      }
    }
    const participation = () => call('GET', `/api/events/${event.id}/participation`);
    await participation();
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) times.push((await participation()).ms);
    const participationMs = median(times);
    // The exhibitors tab reads the event's members whole and pages them in the server (decision
    // 0023): the budget is the participation tab's, which reads the same rows.
    const roster = async () =>
      Math.max(
        (await call('GET', `/api/events/${event.id}/exhibitors?page=20`)).ms,
        (await call('GET', `/api/events/${event.id}/exhibitors?q=empresa&invitation=pending`)).ms,
      );
    await roster();
    const rosterTimes: number[] = [];
    for (let run = 0; run < RUNS; run++) rosterTimes.push(await roster());
    const rosterMs = median(rosterTimes);
    return {
      rows: ROWS,
      previewMs: Math.round(preview.ms),
      importMs: Math.round(imported.ms),
      added,
      importPass: preview.ms + imported.ms < 3_000,
      participationMs: Number(participationMs.toFixed(1)),
      participationPass: participationMs < 300,
      rosterMs: Number(rosterMs.toFixed(1)),
      rosterPass: rosterMs < 300,
    };
  } finally {
    await database.close();
    await server.stop();
    await smtp.stop();
  }
}

if (import.meta.main) {
  process.stdout.write(`${JSON.stringify(await benchTurnout(), null, 2)}\n`);
}
