import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig, ConfigError } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/connection.ts';
import { migrationProvider } from '../../src/server/db/migrations/index.ts';
import { implement } from '../../src/server/http/route.ts';
import { getLogo } from '../../src/shared/api/branding.ts';
import { defineEndpoint, json } from '../../src/shared/api/define.ts';
import { signOut } from '../../src/shared/api/session.ts';
import { okResponse } from '../../src/shared/schemas/common.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, errorOf, failureOf } from '../helpers/client.ts';
import { freshTestDatabase } from '../helpers/database.ts';

const boom = defineEndpoint({
  method: 'POST',
  path: '/api/test/boom',
  access: 'public',
  summary: 'test only: fails unexpectedly',
  response: json(okResponse),
  errors: [],
});

const deadlock = defineEndpoint({
  method: 'POST',
  path: '/api/test/deadlock',
  access: 'public',
  summary: 'test only: the database gave up this transaction',
  response: json(okResponse),
  errors: [],
});

/*
 * Most of the platform lives outside the contract (health checks, unknown paths, headers,
 * malformed requests): those requests are sent as they are, and their error bodies parsed.
 */
describe('platform', () => {
  const app = useTestApp({
    routes: [
      implement(boom, async () => {
        throw new Error('unexpected');
      }),
    ],
  });

  it('answers /healthz and /readyz', async () => {
    const { t } = app;
    expect((await t.request({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.request({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers unknown /api paths with the JSON error body and 404', async () => {
    const response = failureOf(await app.t.request({ method: 'GET', url: '/api/no-such-thing' }));
    expect(response.status).toBe(404);
    expect(errorOf(response)).toEqual({ code: 'not_found', message: MSG.apiNotFound });
  });

  it('sends a Content-Security-Policy that allows no inline script', async () => {
    const response = await app.t.request({ method: 'GET', url: '/healthz' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a state-changing request without the CSRF header, or from another origin', async () => {
    // Without the header the client always sends: a raw request.
    const noHeader = failureOf(await app.t.app.inject({ method: 'DELETE', url: '/api/session' }));
    expect(noHeader.status).toBe(403);
    expect(noHeader.message).toBe(MSG.csrfRejected);
    const foreign = await app.signedOut.fail(
      signOut,
      {},
      { headers: { origin: 'https://evil.example' } },
    );
    expect(foreign.status).toBe(403);
    const own = await app.signedOut.send(
      signOut,
      {},
      { headers: { origin: 'http://premios.test' } },
    );
    expect(own.status).toBe(200);
  });

  it('turns an unexpected failure into a 500 with the generic Spanish message', async () => {
    const response = await app.signedOut.fail(boom, {});
    expect(response.status).toBe(500);
    expect(errorOf(response)).toEqual({ code: 'internal_error', message: MSG.genericError });
  });

  it('answers malformed JSON with 400 and the error body', async () => {
    const response = failureOf(
      await app.t.request({
        method: 'POST',
        url: '/api/test/boom',
        headers: { 'content-type': 'application/json' },
        payload: '{"broken":',
      }),
    );
    expect(response.status).toBe(400);
    expect(errorOf(response)).toEqual({ code: 'invalid_input', message: MSG.invalidInput });
  });

  it('answers a malformed or oversized URL with the error body', async () => {
    const { t } = app;
    const long = failureOf(
      await t.request({ method: 'GET', url: `/api/exh/events/${'a'.repeat(200)}` }),
    );
    expect(long.status).toBe(414);
    expect(errorOf(long)).toEqual({ code: 'invalid_input', message: MSG.invalidInput });
    const broken = failureOf(
      await t.request({ method: 'GET', url: '/api/events/%E0%A4%A/exhibitors' }),
    );
    expect(broken.status).toBe(400);
    expect(errorOf(broken)).toEqual({ code: 'invalid_input', message: MSG.invalidInput });
  });

  it('publishes an OpenAPI document of the route table', async () => {
    const response = await app.t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = z
      .object({
        paths: z.record(z.string(), z.record(z.string(), z.object({ summary: z.string() }))),
      })
      .parse(response.json());
    expect(doc.paths['/api/session']?.get?.summary).toBeTruthy();
  });

  it('serves the default logo with a validator and answers 304 to it', async () => {
    const first = answered(await app.signedOut.send(getLogo, {}));
    expect(first.status).toBe(200);
    expect(first.response.headers['content-type']).toBe('image/png');
    expect(first.data.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    // A 304 has no body for the client to read: sent as is.
    const again = await app.t.request({
      method: 'GET',
      url: '/api/logo',
      headers: { 'if-none-match': String(first.response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });
});

describe('configuration', () => {
  it('rejects a bad PORT and a foreign DATABASE_URL with a one-line reason', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ APP_TIMEZONE: 'Mars/Olympus' })).toThrow(/APP_TIMEZONE/);
  });

  it('defaults to SQLite in DATA_DIR and port 3000', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/premios-x' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe('sqlite:/tmp/premios-x/premios.db');
    expect(config.appUrl).toBe('http://localhost:3000');
  });
});

describe('migrations', () => {
  it('can run twice, and from two connections at once, applying each migration once', async () => {
    const testDb = await freshTestDatabase();
    const first = openDatabase(testDb.url);
    const second = openDatabase(testDb.url);
    try {
      await Promise.all([first.migrate(), second.migrate()]);
      await first.migrate();
      const applied = await first.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      const defined = Object.keys(await migrationProvider('postgres').getMigrations());
      const names = z.array(z.object({ name: z.string() })).parse(applied);
      expect(names.map((row) => row.name).sort()).toEqual(defined.sort());
    } finally {
      await first.close();
      await second.close();
      await testDb.drop();
    }
  });
});

describe('behind a proxy', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY says which proxies to believe', async () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2');
    expect(() => loadConfig({ TRUST_PROXY: 'cualquiera' })).toThrow(/TRUST_PROXY/);
  });
});

describe('database conflicts', () => {
  const app = useTestApp({
    routes: [
      implement(deadlock, async () => {
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      }),
    ],
  });

  it('answers a PostgreSQL deadlock or serialization failure with 409 and nothing stored', async () => {
    const response = await app.signedOut.fail(deadlock, {});
    expect(response.status).toBe(409);
    expect(errorOf(response)).toEqual({ code: 'stale_list', message: MSG.staleList });
  });
});
