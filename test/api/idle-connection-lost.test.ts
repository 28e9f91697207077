import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * PostgreSQL closes a connection the pool keeps idle (a restart, a failover, an administrator's
 * `pg_terminate_backend`): the server goes on, and the next request gets a new connection
 * (docs/decisions/0042). Without a listener on the pool, the error would end the process.
 */
const onPostgres = process.env.TEST_DB_ENGINE === 'postgres';

describe.runIf(onPostgres)('a kept PostgreSQL connection closed by the database', () => {
  let t: TestApp;
  let admin: pg.Client;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await t.close();
  });

  const backendPid = async () =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(t.deps.db)).rows[0]?.pid;

  it('is dropped and replaced; the server answers the next request', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    // One request at a time uses one connection, kept idle between requests.
    const kept = await backendPid();
    expect(await backendPid()).toBe(kept);

    const lost = new Promise<Error>((resolve) => t.database.onIdleConnectionLost(resolve));
    await admin.query('select pg_terminate_backend($1)', [kept]);
    const error = await lost;
    expect(error.message).toBe('terminating connection due to administrator command');

    const after = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ status: 'ready' });
    const replacement = await backendPid();
    expect(replacement).not.toBe(kept);
  });
});
