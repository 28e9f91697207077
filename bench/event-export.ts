/**
 * Budget of the whole-event workbook ("Exportar todo"), through the real server: an event of
 * 10,000 exhibitors, each with a full CONSUMO list and most with a VALOR AGREGADO one, exported in
 * under 10 s with the server's memory (RSS, sampled during the download) under 300 MB.
 * `node bench/event-export.ts` prints it on SQLite; with BENCH_DATABASE_URL (a PostgreSQL
 * database) on a fresh schema of it instead, the line `npm run bench` measures there. Both run the
 * server bundle: `npm run build` first.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { CSRF_HEADER, CSRF_VALUE } from '../src/server/app.ts';
import { openDatabase, type Db } from '../src/server/db/connection.ts';
import type { AppDeps } from '../src/server/deps.ts';
import { createSession } from '../src/server/http/session.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { freshTestDatabase } from '../test/helpers/database.ts';
import { seedAdmin, seedEvent } from '../test/helpers/seed.ts';
import { startBenchServer } from './server.ts';

const EXHIBITORS = 10_000;
const BATCH = 250;
const STAMP = '2026-01-01T10:00:00.000Z';

export interface EventExportFigures {
  exhibitors: number;
  nominations: number;
  exportMs: number;
  peakRssMb: number;
  bytes: number;
  pass: boolean;
}

/**
 * The bench's event on `db`: `exhibitors` exhibitors, each with a full CONSUMO list and three in
 * four with three VALOR AGREGADO nominees, among 3,000 fiscal ids per category.
 */
export async function seedExportEvent(
  db: Db,
  exhibitors = EXHIBITORS,
): Promise<{ eventId: string; nominations: number }> {
  const event = await seedEvent(db, { name: 'Premios Grandes' });
  let nominations = 0;
  for (let start = 0; start < exhibitors; start += BATCH) {
    const ids = Array.from({ length: BATCH }, () => randomUUID());
    await db
      .insertInto('exhibitors')
      .values(
        ids.map((id, k) => ({
          id,
          email: `expositor${start + k}@bench.test`,
          full_name: `Expositor ${start + k}`,
          company: `Empresa ${(start + k) % 97}`,
          created_at: STAMP,
          updated_at: STAMP,
        })),
      )
      .execute();
    await db
      .insertInto('event_exhibitors')
      .values(
        ids.map((id) => ({
          event_id: event.id,
          exhibitor_id: id,
          invited_by: null,
          invitation_message_id: null,
          created_at: STAMP,
        })),
      )
      .execute();
    const lists = ids.flatMap((id, k) =>
      (['consumption', 'value'] as const)
        .filter((category) => category === 'consumption' || (start + k) % 4 !== 0)
        .map((category) => ({ id, k, category })),
    );
    await db
      .insertInto('nomination_lists')
      .values(
        lists.map(({ id, category }) => ({
          event_id: event.id,
          exhibitor_id: id,
          category,
          version: 1,
          updated_at: STAMP,
        })),
      )
      .execute();
    const rows = lists.flatMap(({ id, k, category }) =>
      Array.from({ length: category === 'consumption' ? 5 : 3 }, (_, j) => {
        const fiscalId = `${category === 'consumption' ? 30 : 31}${((start + k) * 7 + j * 13) % 3000}`;
        return {
          event_id: event.id,
          exhibitor_id: id,
          category,
          list_order: j + 1,
          fiscal_id: fiscalId,
          name: `Reseller ${fiscalId}`,
          registered_name: `Razón Social ${fiscalId} S.A.`,
          contact_name: 'Carla Contacto',
          contact_position: 'Gerente Comercial',
          phone: '1155550000',
          email: `contacto${fiscalId}@reseller.test`,
          location: 'Palermo',
          city: 'Buenos Aires',
          nominated_at: STAMP,
          updated_at: STAMP,
        };
      }),
    );
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('nominations')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    nominations += rows.length;
  }
  // What autovacuum does on PostgreSQL within a minute of a bulk load (and seedLargeEvent does):
  // without statistics the planner took an index that seeks on the event and category alone for
  // each exhibitor's counts (66 s for 2,000 exhibitors) and sorted every vote for each batch.
  await sql`analyze`.execute(db);
  return { eventId: event.id, nominations };
}

/** On a fresh SQLite database, or on `databaseUrl` (a fresh PostgreSQL schema). */
export async function benchEventExport(
  databaseUrl?: string,
  exhibitors = EXHIBITORS,
): Promise<EventExportFigures> {
  const server = await startBenchServer({}, databaseUrl);
  const database = openDatabase(server.databaseUrl);
  try {
    const db = database.db;
    const admin = await seedAdmin(db);
    const { eventId, nominations } = await seedExportEvent(db, exhibitors);
    const deps = { db, clock: { now: () => new Date() } } as AppDeps;
    const cookie = `${SESSION_COOKIE}=${await createSession(deps, { role: 'admin', adminId: admin.id })}`;
    let peak = server.rssBytes();
    const sampler = setInterval(() => {
      // The server may be gone (a crash shows as the failed download below).
      try {
        peak = Math.max(peak, server.rssBytes());
      } catch {
        clearInterval(sampler);
      }
    }, 20);
    const started = performance.now();
    const response = await fetch(`${server.url}/api/events/${eventId}/export`, {
      headers: { cookie, [CSRF_HEADER]: CSRF_VALUE },
    });
    if (!response.ok) throw new Error(`export: ${response.status} ${await response.text()}`);
    const bytes = (await response.arrayBuffer()).byteLength;
    const exportMs = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, server.rssBytes());
    const peakRssMb = peak / 2 ** 20;
    return {
      exhibitors,
      nominations,
      exportMs: Math.round(exportMs),
      peakRssMb: Math.round(peakRssMb),
      bytes,
      pass: exportMs < 10_000 && peakRssMb < 300,
    };
  } finally {
    await database.close();
    await server.stop();
  }
}

if (import.meta.main) {
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  const schema = postgresUrl ? await freshTestDatabase('postgres', postgresUrl) : undefined;
  try {
    process.stdout.write(`${JSON.stringify(await benchEventExport(schema?.url), null, 2)}\n`);
  } finally {
    await schema?.drop();
  }
}
