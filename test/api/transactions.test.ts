import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { shouldTruncate } from '../../src/server/db/checkpointer.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.ts';
import { prepared } from '../../src/server/db/prepared.ts';
import type { Tx } from '../../src/server/db/transact.ts';
import { enqueueMail } from '../../src/server/mail/outbox.ts';
import { freshTestDatabase, type TestDatabase } from '../helpers/database.ts';

const stamp = '2026-11-22T10:00:00.000Z';
const exhibitor = (id: string) => ({
  id,
  email: `${id}@expositor.test`,
  full_name: `Expositor ${id}`,
  company: 'Empresa',
  created_at: stamp,
  updated_at: stamp,
});

let testDb: TestDatabase | undefined;
let handle: DatabaseHandle | undefined;
afterEach(async () => {
  await handle?.close();
  await testDb?.drop();
  handle = undefined;
  testDb = undefined;
});

async function openFresh(options: Parameters<typeof openDatabase>[1] = {}) {
  testDb = await freshTestDatabase();
  handle = openDatabase(testDb.url, options);
  await handle.migrate();
  return handle;
}

const storedIds = async (database: DatabaseHandle) =>
  (await database.db.selectFrom('exhibitors').select('id').orderBy('id').execute()).map(
    (row) => row.id,
  );

describe('transact', () => {
  it('answers each piece of work arriving together with its own result; one that throws is rolled back alone', async () => {
    const database = await openFresh();
    // On PostgreSQL each piece has its own connection: the duplicate below waits for the first
    // insert, so that it is the one refused whatever order the connections come in.
    let firstInserted = () => {};
    const afterFirstInsert = new Promise<void>((resolve) => (firstInserted = resolve));
    // Called in one turn of the event loop: on SQLite these share one group commit.
    const outcomes = await Promise.allSettled([
      database.transact(async (trx) => {
        await trx.insertInto('exhibitors').values(exhibitor('a')).execute();
        firstInserted();
        return 'primera';
      }),
      database.transact(async (trx) => {
        await trx.insertInto('exhibitors').values(exhibitor('b')).execute();
        throw new Error('la segunda falla después de escribir');
      }),
      database.transact(async (trx) => {
        await afterFirstInsert;
        // The same email as the first: the unique constraint refuses it.
        await trx
          .insertInto('exhibitors')
          .values({ ...exhibitor('c'), email: 'a@expositor.test' })
          .execute();
      }),
      database.transact(async (trx) => {
        await trx.insertInto('exhibitors').values(exhibitor('d')).execute();
        return 'cuarta';
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 'primera' });
    expect(outcomes[3]).toEqual({ status: 'fulfilled', value: 'cuarta' });
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain(
      'la segunda falla después de escribir',
    );
    expect(await storedIds(database)).toEqual(['a', 'd']);
  });

  it('on SQLite, answers nobody before the commit: when the group commit fails, every piece in it fails and nothing is stored', async (context) => {
    const database = await openFresh();
    // Group commit is SQLite's; PostgreSQL gives each piece its own transaction (first test).
    if (database.engine !== 'sqlite') context.skip();
    const outcomes = await Promise.allSettled([
      database.transact(async (trx) => {
        await trx.insertInto('exhibitors').values(exhibitor('a')).execute();
      }),
      database.transact(async (trx) => {
        // A foreign key checked only at COMMIT: the membership of an exhibitor that does not exist.
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx
          .insertInto('event_exhibitors')
          .values({
            event_id: 'no-existe',
            exhibitor_id: 'tampoco',
            invited_by: null,
            invitation_message_id: null,
            created_at: stamp,
          })
          .execute();
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(await storedIds(database)).toEqual([]);
    // The connection is usable afterwards.
    await database.transact((trx) => trx.insertInto('exhibitors').values(exhibitor('b')).execute());
    expect(await storedIds(database)).toEqual(['b']);
  });
});

describe('work inside transact', () => {
  const queueCode = (tx: Tx, to: string) =>
    enqueueMail(tx, new Date(stamp), { template: 'sign-in-code', to, params: { code: '123456' } });

  it('is refused the outer connection at once, instead of waiting for its own transaction', async () => {
    const database = await openFresh();
    const outcome = await database
      .transact(async (trx) => {
        await trx.insertInto('exhibitors').values(exhibitor('a')).execute();
        // A closure can still see the outer connection; using it is the mistake refused here.
        await database.db.selectFrom('exhibitors').select('id').execute();
      })
      .catch((error: unknown) => error);
    expect(String(outcome)).toContain(
      'The outer connection was used inside transact: use the transaction the work was given',
    );
    expect(await storedIds(database)).toEqual([]);
  });

  it('cannot open a transaction of its own', async () => {
    const database = await openFresh();
    const outcome = await database
      .transact(() => database.transact(async () => 'anidada'))
      .catch((error: unknown) => error);
    expect(String(outcome)).toContain(
      'transact was called inside transact: use the transaction the work was given',
    );
    // Nothing is left waiting: the next piece of work runs.
    await database.transact((trx) => trx.insertInto('exhibitors').values(exhibitor('b')).execute());
    expect(await storedIds(database)).toEqual(['b']);
  });

  it('that queued mail wakes its listeners after the commit; rolled-back work wakes nobody', async () => {
    const database = await openFresh();
    const woken: string[] = [];
    const stop = database.afterCommit('mail-queued', () => woken.push('despertado'));
    // Arriving together: on SQLite one group commit, in which the second piece rolls back alone.
    const outcomes = await Promise.allSettled([
      database.transact(async (trx) => {
        await queueCode(trx, 'uno@expositor.test');
        expect(woken).toEqual([]);
      }),
      database.transact(async (trx) => {
        await queueCode(trx, 'dos@expositor.test');
        throw new Error('falla después de encolar');
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
    expect(woken).toEqual(['despertado']);
    const queued = await database.db.selectFrom('mail_outbox').select('to_address').execute();
    expect(queued).toEqual([{ to_address: 'uno@expositor.test' }]);

    await database.transact((trx) => trx.insertInto('exhibitors').values(exhibitor('c')).execute());
    expect(woken).toEqual(['despertado']);
    stop();
    await database.transact((trx) => queueCode(trx, 'tres@expositor.test'));
    expect(woken).toEqual(['despertado']);
  });
});

describe('prepared queries', () => {
  const findExhibitor = prepared<{ email: string; company: string }, { id: string }>((db, arg) =>
    db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', '=', arg('email'))
      .where('company', '=', arg('company'))
      .where('full_name', '!=', 'constante'),
  );

  it('send the SQL the builder compiles, with each call arguments in place of the marks', async () => {
    const database = await openFresh();
    await database.db
      .insertInto('exhibitors')
      .values([exhibitor('a'), { ...exhibitor('b'), company: 'Otra' }])
      .execute();
    const first = await findExhibitor(database.db, {
      email: 'a@expositor.test',
      company: 'Empresa',
    });
    const second = await database.transact((trx) =>
      findExhibitor(trx, { email: 'b@expositor.test', company: 'Otra' }),
    );
    const none = await findExhibitor(database.db, {
      email: 'b@expositor.test',
      company: 'Empresa',
    });
    expect(first.rows).toEqual([{ id: 'a' }]);
    expect(second.rows).toEqual([{ id: 'b' }]);
    expect(none.rows).toEqual([]);
  });
});

describe('background checkpoints (SQLite)', () => {
  it('copy the write-ahead log into the database file from a worker thread, not the writer', async (context) => {
    // The WAL and its checkpoints exist only on SQLite.
    if (process.env.TEST_DB_ENGINE === 'postgres') context.skip();
    const database = await openFresh({ backgroundCheckpoints: true });
    const file = (testDb as TestDatabase).url.slice('sqlite:'.length);
    const autocheckpoint = await sql<{
      wal_autocheckpoint: number;
    }>`pragma wal_autocheckpoint`.execute(database.db);
    expect(autocheckpoint.rows[0]?.wal_autocheckpoint).toBe(0);

    const sizeBefore = fs.statSync(file).size;
    const rows = Array.from({ length: 2000 }, (_, index) => ({
      ...exhibitor(`x${index}`),
      full_name: 'n'.repeat(500),
    }));
    for (let start = 0; start < rows.length; start += 200) {
      await database.transact((trx) =>
        trx
          .insertInto('exhibitors')
          .values(rows.slice(start, start + 200))
          .execute(),
      );
    }
    // The writer no longer checkpoints: the rows reach the database file only through the worker.
    for (let waited = 0; fs.statSync(file).size <= sizeBefore + 1_000_000; waited += 20) {
      if (waited > 10_000) throw new Error('the worker never checkpointed');
      await delay(20);
    }
    expect(await database.db.selectFrom('exhibitors').select('id').execute()).toHaveLength(2000);
  });

  it('leave the emptying of the log to the writer, only once it is copied back and idle or past 16 MB', () => {
    const MB = 1024 * 1024;
    expect(
      shouldTruncate({ logBytes: 4 * MB, copied: true }, { logBytes: 4 * MB, copied: true }),
    ).toBe(true);
    expect(
      shouldTruncate({ logBytes: 4 * MB, copied: true }, { logBytes: 3 * MB, copied: true }),
    ).toBe(false);
    expect(
      shouldTruncate({ logBytes: 17 * MB, copied: true }, { logBytes: 3 * MB, copied: true }),
    ).toBe(true);
    expect(
      shouldTruncate({ logBytes: 17 * MB, copied: false }, { logBytes: 17 * MB, copied: false }),
    ).toBe(false);
    expect(shouldTruncate({ logBytes: 0, copied: true }, { logBytes: 0, copied: true })).toBe(
      false,
    );
  });

  it('bound the log: journal_size_limit is set, and an idle database empties its log file', async (context) => {
    // The write-ahead log and its size limit exist only on SQLite.
    if (process.env.TEST_DB_ENGINE === 'postgres') context.skip();
    const database = await openFresh({ backgroundCheckpoints: true });
    const file = (testDb as TestDatabase).url.slice('sqlite:'.length);
    const limit = await sql<{ journal_size_limit: number }>`pragma journal_size_limit`.execute(
      database.db,
    );
    expect(limit.rows[0]?.journal_size_limit).toBe(16 * 1024 * 1024);

    const rows = Array.from({ length: 2000 }, (_, index) => ({
      ...exhibitor(`w${index}`),
      full_name: 'w'.repeat(1000),
    }));
    for (let start = 0; start < rows.length; start += 200) {
      await database.transact((trx) =>
        trx
          .insertInto('exhibitors')
          .values(rows.slice(start, start + 200))
          .execute(),
      );
    }
    const wal = `${file}-wal`;
    expect(fs.statSync(wal).size).toBeGreaterThan(1_000_000);
    // Nothing more is written: within a few checkpoint ticks the log file is emptied.
    for (let waited = 0; fs.statSync(wal).size > 0; waited += 20) {
      if (waited > 10_000) throw new Error(`the log stayed at ${fs.statSync(wal).size} bytes`);
      await delay(20);
    }
    expect(await database.db.selectFrom('exhibitors').select('id').execute()).toHaveLength(
      rows.length,
    );
  });
});
