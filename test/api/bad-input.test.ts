/**
 * Property-based bad input: thousands of generated bodies, query strings and path
 * parameters sent to every route of the route table, as a visitor, an exhibitor and an
 * administrator. Never a 5xx; every failure is the API's error body; a failed
 * request changes nothing stored.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Route } from '../../src/server/http/route.ts';
import { errorsOf } from '../../src/shared/api/define.ts';
import type { Session, TestApp } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { failureOf } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 100);

const hostile = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; drop table events; --",
  "' or '1'='1",
  '=HYPERLINK("http://evil","x")',
  '+1+1',
  '-2+3',
  '@SUM(A1)',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\u202e\u202d',
  '𝕳𝖊𝖑𝖑𝖔',
  '👩‍👩‍👧‍👦',
  'e\u0301',
  ' ',
  '',
  'a'.repeat(5000),
  '99999999999999999999999999',
  '-1',
  '0',
  'null',
  'undefined',
  '{}',
];

const junkString = fc.oneof(
  fc.constantFrom(...hostile),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.stringMatching(/^[0-9]{0,25}$/),
  fc.emailAddress(),
);
const junkValue = fc.oneof(
  junkString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(junkString, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), junkString, { maxKeys: 3 }),
);

function bodyKeys(route: Route): string[] {
  if (!route.body) return [];
  try {
    const schema = z
      .object({ properties: z.record(z.string(), z.unknown()).optional() })
      .parse(z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }));
    return Object.keys(schema.properties ?? {});
  } catch {
    return [];
  }
}

interface World {
  eventId: string;
  otherEventId: string;
  exhibitorId: string;
  otherExhibitorId: string;
}

function paramCandidates(name: string, world: World): fc.Arbitrary<string> {
  const known: Record<string, string[]> = {
    eventId: [world.eventId, world.otherEventId],
    exhibitorId: [world.exhibitorId, world.otherExhibitorId],
    exhId: [world.exhibitorId, world.otherExhibitorId],
    category: ['consumption', 'value'],
    fiscalId: ['30111111', '30222222'],
    order: ['1', '2', '5', '6'],
  };
  return fc.oneof(
    fc.constantFrom(...(known[name] ?? ['x'])),
    fc.uuid(),
    junkString.map((s) => encodeURIComponent(s).slice(0, 200) || 'x'),
  );
}

async function fingerprint(t: TestApp): Promise<string> {
  // sign_in_codes is left out on purpose: a wrong code counts an attempt (5 void the code).
  const tables = [
    'admins',
    'admin_invitations',
    'exhibitors',
    'events',
    'event_exhibitors',
    'nomination_lists',
    'nominations',
    'sessions',
    'password_reset_tokens',
    'mail_outbox',
    'branding',
    'audit_log',
  ];
  // One round trip per table, all at once (PostgreSQL's pool answers them side by side).
  const parts = await Promise.all(
    tables.map(async (table) => {
      const rows = await sql`select * from ${sql.table(table)}`.execute(t.deps.db);
      return `${table}:${JSON.stringify(
        rows.rows
          .map((row) =>
            JSON.stringify(row, (_k, v: unknown) => (v instanceof Uint8Array ? v.length : v)),
          )
          .sort(),
      )}`;
    }),
  );
  return parts.join('\n');
}

// Requests the contract forbids, by the thousand: every one is sent as it is.
describe('bad input on every route', () => {
  // A fresh app per test: the fuzzing trips the sign-in rate limits, which would answer the
  // oversized-body checks with 429 before their 413.
  const app = useTestApp({ appPerTest: true });
  let t: TestApp;
  let world: World;
  let sessions: Record<'visitor' | 'exhibitor' | 'admin', Session | undefined>;

  beforeEach(async () => {
    t = app.t;
    const event = await seedEvent(t.deps.db);
    const otherEvent = await seedEvent(t.deps.db);
    const exhibitor = await seedExhibitor(t.deps.db);
    const otherExhibitor = await seedExhibitor(t.deps.db);
    await seedMembership(t.deps.db, event.id, exhibitor.id);
    await seedMembership(t.deps.db, otherEvent.id, otherExhibitor.id);
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30111111' }, { fiscalId: '30222222' }],
    });
    world = {
      eventId: event.id,
      otherEventId: otherEvent.id,
      exhibitorId: exhibitor.id,
      otherExhibitorId: otherExhibitor.id,
    };
    sessions = {
      visitor: undefined,
      exhibitor: await t.signIn({ role: 'exh', exhibitorId: exhibitor.id }),
      admin: app.as,
    };
  });

  function expectErrorBody(response: LightMyRequestResponse, route?: Route) {
    const status = response.statusCode;
    expect(status, response.body).toBeLessThan(500);
    if (status >= 400 && status !== 404) {
      // Parsed as the API's error body (a known code and a message), or the test fails.
      const failure = failureOf(response);
      expect(typeof failure.message).toBe('string');
      // The refusal is one the endpoint's contract declares.
      if (route) expect(errorsOf(route.endpoint), response.body).toContain(failure.code);
    }
  }

  it('answers generated requests to every route without a 5xx and without changes on failure', async () => {
    const routes = t.routes.filter((route) => !route.url.startsWith('/api/test/'));
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const names = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);
      const keys = bodyKeys(route);
      const request = fc.record({
        role: fc.constantFrom('visitor', 'exhibitor', 'admin' as const),
        params: fc.tuple(...names.map((name) => paramCandidates(name, world))),
        query: fc.dictionary(
          fc.constantFrom('q', 'version', 'category', 'fiscalId', 'token', 'oobCode'),
          junkString,
          {
            maxKeys: 3,
          },
        ),
        body: fc.oneof(
          keys.length
            ? fc.record(Object.fromEntries(keys.map((key) => [key, junkValue])), {
                requiredKeys: [],
              })
            : fc.constant({}),
          fc.dictionary(fc.string({ maxLength: 8 }), junkValue, { maxKeys: 5 }),
          fc.array(junkValue, { maxLength: 3 }),
          junkValue,
        ),
      });
      await fc.assert(
        fc.asyncProperty(request, async ({ role, params, query, body }) => {
          let url = route.url;
          names.forEach((name, index) => {
            url = url.replace(`:${name}`, params[index] ?? 'x');
          });
          const before = route.method === 'GET' ? undefined : await fingerprint(t);
          const response = await t.request({
            method: route.method,
            url,
            query,
            ...(route.method === 'GET' || route.method === 'DELETE'
              ? {}
              : { payload: body as object }),
            ...(sessions[role] ? { as: sessions[role] } : {}),
          });
          expectErrorBody(response, route);
          if (before !== undefined && response.statusCode >= 400) {
            expect(await fingerprint(t), `${route.method} ${url} → ${response.statusCode}`).toBe(
              before,
            );
          }
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
    // Every route × RUNS_PER_ROUTE requests, one after another: it grows with the API (about 90
    // routes), so it gets far more than the default 30 s a test has.
  }, 600_000);

  it('refuses oversized bodies and wrong content types on every state-changing route', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(300 * 1024) });
    for (const route of t.routes.filter((r) => r.method !== 'GET' && !r.multipart)) {
      const url = route.url
        .replace(':eventId', world.eventId)
        .replace(':exhibitorId', world.exhibitorId)
        .replace(':category', 'consumption')
        .replace(':fiscalId', '30111111')
        .replace(':order', '1')
        .replace(/:[A-Za-z]+/g, 'x');
      const before = await fingerprint(t);
      const big = await t.request({
        method: route.method,
        url,
        headers: { 'content-type': 'application/json' },
        payload: huge,
        as: sessions.admin,
      });
      expect(big.statusCode, `${route.method} ${url}`).toBe(413);
      expectErrorBody(big, route);
      const text = await t.request({
        method: route.method,
        url,
        headers: { 'content-type': 'text/plain' },
        payload: 'hola',
        as: sessions.exhibitor,
      });
      expect(text.statusCode, `${route.method} ${url}`).toBeGreaterThanOrEqual(400);
      expectErrorBody(text, route);
      expect(await fingerprint(t)).toBe(before);
    }
  });
});
