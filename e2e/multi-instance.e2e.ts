import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../src/server/http/session.ts';
import type { AppDeps } from '../src/server/deps.ts';
import { enqueueMail } from '../src/server/mail/outbox.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { freshTestDatabase, type TestDatabase } from '../test/helpers/database.ts';
import { runSaver } from '../test/helpers/nomination-load.ts';
import { seedAdmin, seedEvent, seedExhibitor, seedMembership } from '../test/helpers/seed.ts';
import { startSmtpServer, type TestSmtpServer } from '../test/helpers/smtp.ts';
import { migrationProvider } from '../src/server/db/migrations/index.ts';
import { startServer, type RunningServer } from '../test/helpers/server.ts';

/** Two server processes on one PostgreSQL database. */
describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('several instances on PostgreSQL', () => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let first: RunningServer;
  let second: RunningServer;

  beforeAll(async () => {
    database = await freshTestDatabase('postgres');
    smtp = await startSmtpServer();
    // Started together on an empty database: both migrate, the schema is applied once.
    [first, second] = await Promise.all([
      startServer({ databaseUrl: database.url, smtp }),
      startServer({ databaseUrl: database.url, smtp }),
    ]);
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await smtp?.stop();
    await database?.drop();
  });

  it('applied each migration once', async () => {
    const applied = await first.database.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    const defined = Object.keys(await migrationProvider('postgres').getMigrations());
    expect(applied.map((row) => (row as { name: string }).name).sort()).toEqual(defined.sort());
  });

  it('accepts a session made on one instance on the other', async () => {
    const admin = await seedAdmin(first.database.db, { email: 'multi@premios.test' });
    const deps = { db: first.database.db, clock: { now: () => new Date() } } as AppDeps;
    const token = await createSession(deps, { role: 'admin', adminId: admin.id });
    for (const server of [first, second]) {
      const response = await fetch(`${server.url}/api/session`, {
        headers: { cookie: `${SESSION_COOKIE}=${token}` },
      });
      expect(await response.json()).toEqual({
        user: { role: 'admin', email: 'multi@premios.test', fullName: admin.fullName },
      });
    }
  });

  it('sends every outbox message exactly once with both workers polling', async () => {
    const total = 60;
    const now = new Date();
    await first.database.transact(async (tx) => {
      for (let i = 0; i < total; i++) {
        await enqueueMail(tx, now, {
          template: 'sign-in-code',
          to: `destino${i}@empresa.test`,
          params: { code: String(100000 + i) },
        });
      }
    });
    await expect
      .poll(
        async () =>
          (
            await first.database.db
              .selectFrom('mail_outbox')
              .select('id')
              .where('status', '=', 'sent')
              .where('to_address', 'like', 'destino%')
              .execute()
          ).length,
        { timeout: 30_000, interval: 200 },
      )
      .toBe(total);
    const received = smtp.messages.filter((m) => m.to[0]?.startsWith('destino'));
    expect(received).toHaveLength(total);
    expect(new Set(received.map((m) => m.to[0])).size).toBe(total);
  });

  it('never loses an acknowledged change when one list is saved through both at once', async () => {
    const db = first.database.db;
    const event = await seedEvent(db, { eventDate: '2099-12-31', voteDeadline: '2099-12-30' });
    const exhibitor = await seedExhibitor(db);
    await seedMembership(db, event.id, exhibitor.id);
    const deps = { db, clock: { now: () => new Date() } } as AppDeps;
    const cookie = `${SESSION_COOKIE}=${await createSession(deps, { role: 'exh', exhibitorId: exhibitor.id })}`;
    const [one, two] = await Promise.all(
      [first, second].map((server, index) =>
        runSaver({
          baseUrl: server.url,
          cookie,
          eventId: event.id,
          exhibitorId: exhibitor.id,
          category: 'consumption',
          maxSaves: 60,
          fiscalPrefix: index === 0 ? '31' : '32',
        }),
      ),
    );
    const acked = [...(one?.ackedVersions ?? []), ...(two?.ackedVersions ?? [])];
    // Each acknowledged save made exactly one new version: none was overwritten by the other.
    expect(new Set(acked).size).toBe(acked.length);
    const stored = await db
      .selectFrom('nomination_lists')
      .select('version')
      .where('event_id', '=', event.id)
      .where('exhibitor_id', '=', exhibitor.id)
      .executeTakeFirstOrThrow();
    expect(stored.version).toBe(acked.length);
    expect(Math.max(...acked)).toBe(acked.length);
    // Both instances were really used, and some saves were refused as stale (409), not lost.
    expect(one?.ackedVersions.length).toBeGreaterThan(0);
    expect(two?.ackedVersions.length).toBeGreaterThan(0);
  });
});
