/**
 * Budget of "Buscar en el padrón" (issue 27): 1,000 searches of an exhibitor, as typed (two to
 * five letters of a name's word, or the start of a fiscal id), against a registry of 20,000
 * entries, through the real server; the p99 of their times (each request's whole round trip on
 * loopback, so an upper bound of the server's time) must be under 50 ms. The exhibitor has
 * nominations of their own in this event and an earlier one ("Mis nominaciones anteriores").
 * `node bench/registry-search.ts` prints it.
 */
import { performance } from 'node:perf_hooks';
import { CSRF_HEADER, CSRF_VALUE } from '../src/server/app.ts';
import { openDatabase } from '../src/server/db/connection.ts';
import type { AppDeps } from '../src/server/deps.ts';
import { createSession } from '../src/server/http/session.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { freshTestDatabase } from '../test/helpers/database.ts';
import { seedRegistry } from '../test/helpers/registry.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import { startBenchServer } from './server.ts';

const ENTRIES = 20_000;
const QUERIES = 1_000;

const FIRST = [
  'Andes',
  'Peña',
  'Río',
  'Sur',
  'Litoral',
  'Norte',
  'Cuyo',
  'Pampa',
  'Delta',
  'Sierra',
];
const SECOND = ['Sistemas', 'Informática', 'Datos', 'Redes', 'Cómputos', 'Soluciones', 'Digital'];
const THIRD = ['Group', 'Tech', 'Servicios', 'Consultora', 'Partners', 'Integradores'];

const nameOf = (i: number) =>
  `${FIRST[i % FIRST.length]} ${SECOND[Math.floor(i / 10) % SECOND.length]} ${THIRD[Math.floor(i / 70) % THIRD.length]} ${i}`;
const fiscalIdOf = (i: number) => `30${String(700_000_000 + i * 7)}`;

/** What an exhibitor types: a word's first 2 to 5 letters, or a fiscal id's first 3 to 8 digits. */
function typedQuery(k: number): string {
  const i = (k * 7919) % ENTRIES;
  if (k % 4 === 3) return fiscalIdOf(i).slice(0, 3 + (k % 6));
  const words = nameOf(i).split(' ');
  const word = words[k % 3] ?? 'and';
  return word.slice(0, 2 + (k % 4));
}

export interface RegistrySearchFigures {
  entries: number;
  queries: number;
  p50Ms: number;
  p99Ms: number;
  /** `/healthz` asked in turns with the searches: what the machine's load adds to any request. */
  healthzP50Ms: number;
  healthzP99Ms: number;
  pass: boolean;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ??
  Number.NaN;

/** On a fresh SQLite database, or on `databaseUrl` (a fresh PostgreSQL schema). */
export async function benchRegistrySearch(databaseUrl?: string): Promise<RegistrySearchFigures> {
  const server = await startBenchServer({}, databaseUrl);
  const database = openDatabase(server.databaseUrl);
  try {
    const db = database.db;
    await seedRegistry(
      db,
      Array.from({ length: ENTRIES }, (_, i) => ({
        fiscalId: fiscalIdOf(i),
        name: nameOf(i),
        contactName: i % 2 === 0 ? `Contacto ${i}` : '',
      })),
    );
    const event = await seedEvent(db, { eventDate: '2026-07-15', voteDeadline: '2026-07-01' });
    const earlier = await seedEvent(db, { eventDate: '2025-07-15', voteDeadline: '2025-07-01' });
    const exhibitor = await seedExhibitor(db);
    for (const { id } of [event, earlier]) await seedMembership(db, id, exhibitor.id);
    for (const [eventId, offset] of [
      [event.id, 0],
      [earlier.id, 5],
    ] as const) {
      await seedNominations(db, {
        eventId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: Array.from({ length: 5 }, (_, k) => ({
          fiscalId: fiscalIdOf(offset + k),
          name: nameOf(offset + k),
        })),
      });
    }
    const deps = { db, clock: { now: () => new Date() } } as AppDeps;
    const cookie = `${SESSION_COOKIE}=${await createSession(deps, { role: 'exh', exhibitorId: exhibitor.id })}`;
    const call = async (q: string) => {
      const path = `/api/exh/events/${event.id}/value/registry-search?q=${encodeURIComponent(q)}`;
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, {
        headers: { cookie, [CSRF_HEADER]: CSRF_VALUE },
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text}`);
      return performance.now() - started;
    };
    const healthz = async () => {
      const started = performance.now();
      await (await fetch(`${server.url}/healthz`)).text();
      return performance.now() - started;
    };
    // Warm-up: the first requests compile the route and fill the caches.
    for (let k = 0; k < 20; k++) await call(typedQuery(k));
    const times: number[] = [];
    const healthzTimes: number[] = [];
    for (let k = 0; k < QUERIES; k++) {
      times.push(await call(typedQuery(k)));
      healthzTimes.push(await healthz());
    }
    const p99 = percentile(times, 0.99);
    return {
      entries: ENTRIES,
      queries: QUERIES,
      p50Ms: Number(percentile(times, 0.5).toFixed(1)),
      p99Ms: Number(p99.toFixed(1)),
      healthzP50Ms: Number(percentile(healthzTimes, 0.5).toFixed(1)),
      healthzP99Ms: Number(percentile(healthzTimes, 0.99).toFixed(1)),
      pass: p99 < 50,
    };
  } finally {
    await database.close();
    await server.stop();
  }
}

if (import.meta.main) {
  // With BENCH_DATABASE_URL: on a fresh schema of that PostgreSQL database, dropped afterwards.
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  const schema = postgresUrl ? await freshTestDatabase('postgres', postgresUrl) : undefined;
  try {
    const figures = await benchRegistrySearch(schema?.url);
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    await schema?.drop();
  }
}
