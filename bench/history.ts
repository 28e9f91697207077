/**
 * Budget of the event history ("Historial"), through the real server: the first page of an event
 * with 100,000 entries (under 300 ms), and a page of one action. `node bench/history.ts` prints it.
 */
import { performance } from 'node:perf_hooks';
import { CSRF_HEADER, CSRF_VALUE } from '../src/server/app.ts';
import { openDatabase } from '../src/server/db/connection.ts';
import type { AppDeps } from '../src/server/deps.ts';
import { createSession } from '../src/server/http/session.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { seedAdmin, seedEvent } from '../test/helpers/seed.ts';
import { startBenchServer } from './server.ts';

const ENTRIES = 100_000;
const BATCH = 500;
const RUNS = 5;
const ACTIONS = ['nomination.add', 'nomination.edit', 'nomination.move', 'vote.edit'];

/** A nominee as the stored entries keep it (the nine fields of the form). */
function nominee(fiscalId: string, name: string) {
  return {
    name,
    registeredName: `${name} S.A.`,
    fiscalId,
    contactName: 'Contacto',
    contactPosition: 'Gerente',
    phone: '3410000000',
    email: 'contacto@example.com',
    location: 'Rosario',
    city: 'Santa Fe',
  };
}

/** Details that fit each action's schema, so the page reads them as a real history does. */
function detailsOf(action: string, i: number): unknown {
  const before = nominee(`20${i}`, `Antes ${i}`);
  const after = nominee(`20${i + 1}`, `Después ${i}`);
  if (action === 'vote.edit') {
    return {
      exhibitorId: `x${i}`,
      category: 'consumption',
      order: 1,
      reason: 'typo',
      before,
      after,
    };
  }
  return {
    exhibitorId: `x${i}`,
    category: 'consumption',
    before: [{ ...before, order: 1 }],
    after: [{ ...after, order: 1 }],
  };
}

export interface HistoryFigures {
  entries: number;
  firstPageMs: number;
  actionPageMs: number;
  pass: boolean;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** On a fresh SQLite database, or on `databaseUrl` (a fresh PostgreSQL schema). */
export async function benchHistory(databaseUrl?: string): Promise<HistoryFigures> {
  const server = await startBenchServer({}, databaseUrl);
  const database = openDatabase(server.databaseUrl);
  try {
    const db = database.db;
    const admin = await seedAdmin(db);
    const event = await seedEvent(db);
    // Another event's entries share the table, as they would in a real database.
    const other = await seedEvent(db);
    for (let start = 0; start < ENTRIES * 2; start += BATCH) {
      await db
        .insertInto('audit_log')
        .values(
          Array.from({ length: BATCH }, (_, k) => {
            const i = start + k;
            return {
              at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
              actor_role: 'admin',
              actor_id: admin.id,
              actor_email: null,
              action: ACTIONS[i % ACTIONS.length] ?? 'vote.edit',
              entity_type: 'nomination',
              entity_id: `e${i}`,
              event_id: i % 2 === 0 ? event.id : other.id,
              details: JSON.stringify(detailsOf(ACTIONS[i % ACTIONS.length] ?? 'vote.edit', i)),
            };
          }),
        )
        .execute();
    }
    const deps = { db, clock: { now: () => new Date() } } as AppDeps;
    const cookie = `${SESSION_COOKIE}=${await createSession(deps, { role: 'admin', adminId: admin.id })}`;
    const call = async (path: string) => {
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, {
        headers: { cookie, [CSRF_HEADER]: CSRF_VALUE },
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text}`);
      return performance.now() - started;
    };
    const measure = async (path: string) => {
      await call(path);
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) times.push(await call(path));
      return median(times);
    };
    const firstPageMs = await measure(`/api/events/${event.id}/history`);
    const actionPageMs = await measure(`/api/events/${event.id}/history?action=vote.edit`);
    return {
      entries: ENTRIES,
      firstPageMs: Number(firstPageMs.toFixed(1)),
      actionPageMs: Number(actionPageMs.toFixed(1)),
      pass: firstPageMs < 300 && actionPageMs < 300,
    };
  } finally {
    await database.close();
    await server.stop();
  }
}

if (import.meta.main) {
  process.stdout.write(`${JSON.stringify(await benchHistory(), null, 2)}\n`);
}
