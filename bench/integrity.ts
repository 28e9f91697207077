/**
 * Budget of the "Integridad" tab (issue 28 item 3), through the real server: an event of 2,000
 * exhibitors, each with two full lists and two sign-ins, some of them planted alerts (identical
 * lists, lists in another order, shared browsers, nominations to their own domain), computed in
 * under 500 ms. `node bench/integrity.ts` prints it (after `npm run build`).
 */
import { performance } from 'node:perf_hooks';
import { CSRF_HEADER, CSRF_VALUE } from '../src/server/app.ts';
import { openDatabase, type Db } from '../src/server/db/connection.ts';
import type { AppDeps } from '../src/server/deps.ts';
import { createSession } from '../src/server/http/session.ts';
import { newId } from '../src/server/lib/crypto.ts';
import { CATEGORIES, SESSION_COOKIE } from '../src/shared/constants.ts';
import { integrityResponse } from '../src/shared/schemas/integrity.ts';
import { seedAdmin, seedEvent } from '../test/helpers/seed.ts';
import { startBenchServer } from './server.ts';

const EXHIBITORS = 2_000;
const LIST_LENGTH = 5;
const RUNS = 5;
const BATCH = 200;
const STAMP = '2026-01-01T00:00:00.000Z';

export interface IntegrityFigures {
  exhibitors: number;
  nominations: number;
  signIns: number;
  /** Alerts found: groups of identical lists, of another order, of one browser, self-nominations. */
  alerts: number;
  tabMs: number;
  pass: boolean;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** In batches, so that a statement stays within the engines' parameter limits. */
async function inBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += BATCH) {
    await insert(rows.slice(start, start + BATCH));
  }
}

/** The event of the bench: its exhibitors, lists and sign-ins, with the planted alerts. */
export async function seedIntegrityEvent(db: Db) {
  const event = await seedEvent(db);
  const exhibitors = Array.from({ length: EXHIBITORS }, (_, i) => ({
    id: newId(),
    email: `expositor${i}@empresa${i % 400}.com.ar`,
    full_name: `Expositor ${i}`,
    company: `Empresa ${i % 400}`,
    created_at: STAMP,
    updated_at: STAMP,
  }));
  await inBatches(exhibitors, (batch) => db.insertInto('exhibitors').values(batch).execute());
  await inBatches(exhibitors, (batch) =>
    db
      .insertInto('event_exhibitors')
      .values(
        batch.map((x) => ({
          event_id: event.id,
          exhibitor_id: x.id,
          invited_by: null,
          invitation_message_id: null,
          created_at: STAMP,
          invited_at: STAMP,
        })),
      )
      .execute(),
  );
  const lists = exhibitors.flatMap((x) =>
    CATEGORIES.map((category) => ({
      event_id: event.id,
      exhibitor_id: x.id,
      category,
      version: 1,
      updated_at: STAMP,
    })),
  );
  await inBatches(lists, (batch) => db.insertInto('nomination_lists').values(batch).execute());
  // 300 fiscal ids, each list its own walk through them; every 50th exhibitor copies the list
  // before theirs, every 70th reverses it; the contact of one nominee in 400 shares the
  // exhibitor's domain: some 40 identical pairs, 30 in another order and 50 self-nominations.
  const mix = (n: number) => Math.imul(n ^ (n >>> 15), 2_246_822_519) >>> 0;
  const nominations = exhibitors.flatMap((x, i) =>
    CATEGORIES.flatMap((category, c) =>
      Array.from({ length: LIST_LENGTH }, (_, k) => {
        const base = i % 50 === 0 && i > 0 ? i - 1 : i;
        const order = i % 70 === 0 ? LIST_LENGTH - 1 - k : k;
        const start = mix(base * 2 + c + 1) % 300;
        const step = 1 + (mix(base * 2 + c + 7_919) % 59);
        const fiscalId = String(20_000_000_000 + ((start + order * step) % 300));
        return {
          event_id: event.id,
          exhibitor_id: x.id,
          category,
          list_order: k + 1,
          fiscal_id: fiscalId,
          name: `Reseller ${fiscalId}`,
          registered_name: `Reseller ${fiscalId} S.A.`,
          contact_name: 'Contacto',
          contact_position: 'Gerente',
          phone: '1144440000',
          email:
            (i * 10 + c * 5 + k) % 400 === 0
              ? `ventas@empresa${i % 400}.com.ar`
              : `c${fiscalId}@gmail.com`,
          location: 'Palermo',
          city: 'Buenos Aires',
          nominated_at: STAMP,
          updated_at: STAMP,
        };
      }),
    ),
  );
  await inBatches(nominations, (batch) => db.insertInto('nominations').values(batch).execute());
  // Two sign-ins each over ten days, from 40 office addresses; one pair in 100 shares a browser.
  const signIns = exhibitors.flatMap((x, i) =>
    [0, 1].map((n) => ({
      event_id: event.id,
      session_id: newId(),
      exhibitor_id: x.id,
      device_id: i % 100 < 2 ? `compartido-${Math.floor(i / 100)}` : `dispositivo-${i}-${n}`,
      ip: `10.0.${i % 40}.1`,
      user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36',
      signed_in_at: new Date(
        Date.UTC(2026, 5, 1) + ((i * 7 + n * 5) % 240) * 3_600_000,
      ).toISOString(),
    })),
  );
  await inBatches(signIns, (batch) => db.insertInto('device_sign_ins').values(batch).execute());
  return { eventId: event.id, nominations: nominations.length, signIns: signIns.length };
}

/** On a fresh SQLite database, or on `databaseUrl` (a fresh PostgreSQL schema). */
export async function benchIntegrity(databaseUrl?: string): Promise<IntegrityFigures> {
  const server = await startBenchServer({}, databaseUrl);
  const database = openDatabase(server.databaseUrl);
  try {
    const db = database.db;
    const admin = await seedAdmin(db);
    const seeded = await seedIntegrityEvent(db);

    const deps = { db, clock: { now: () => new Date() } } as AppDeps;
    const cookie = `${SESSION_COOKIE}=${await createSession(deps, { role: 'admin', adminId: admin.id })}`;
    const path = `/api/events/${seeded.eventId}/integrity`;
    const call = async () => {
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, {
        headers: { cookie, [CSRF_HEADER]: CSRF_VALUE },
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text}`);
      return { ms: performance.now() - started, body: integrityResponse.parse(JSON.parse(text)) };
    };
    const { body } = await call();
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) times.push((await call()).ms);
    const tabMs = median(times);
    const alerts =
      body.sameDevice.length +
      body.categories.reduce(
        (sum, c) =>
          sum + c.identicalLists.length + c.reorderedLists.length + c.selfNominations.length,
        0,
      );
    return {
      exhibitors: EXHIBITORS,
      nominations: seeded.nominations,
      signIns: seeded.signIns,
      alerts,
      tabMs: Number(tabMs.toFixed(1)),
      pass: tabMs < 500,
    };
  } finally {
    await database.close();
    await server.stop();
  }
}

if (import.meta.main) {
  process.stdout.write(`${JSON.stringify(await benchIntegrity(), null, 2)}\n`);
}
