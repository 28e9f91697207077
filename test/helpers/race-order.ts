import pg from 'pg';
import type { Transact } from '../../src/server/db/transact.ts';
import type { TestApp } from './app.ts';

/**
 * Runs two racing requests so that `first` wins for certain, with no sleep: `first` is held while
 * it holds what `second` must wait for, `second` is started, and `first` is let go.
 *
 * PostgreSQL: a connection of the test's own locks `heldTable` (share mode: reads pass, writes
 * wait), a table both requests write to only after taking the locks they contend for. `first` is
 * started and stops at that table with its locks taken; `second` is started and runs until it waits
 * behind `first` (both waits seen in pg_locks); then the table is released.
 *
 * SQLite (one writer, one connection): `first`'s transaction is held as it begins, with the
 * connection; `second`, started then, cannot read or write anything before `first` has committed.
 */
export async function raceInOrder<A, B>(
  app: TestApp,
  heldTable: string,
  first: () => Promise<A>,
  second: () => Promise<B>,
): Promise<[A, B]> {
  return app.database.engine === 'postgres'
    ? postgresInOrder(app.config.databaseUrl, heldTable, first, second)
    : sqliteInOrder(app, first, second);
}

async function postgresInOrder<A, B>(
  databaseUrl: string,
  heldTable: string,
  first: () => Promise<A>,
  second: () => Promise<B>,
): Promise<[A, B]> {
  const holder = new pg.Client({ connectionString: databaseUrl });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query(`lock table ${pg.escapeIdentifier(heldTable)} in share mode`);
    const holderPid = await backendPid(holder);
    const firstDone = watched(first());
    const firstPid = await waitForOneBlockedBy(holder, holderPid, firstDone);
    const secondDone = watched(second());
    await waitForOneBlockedBy(holder, firstPid, secondDone, holderPid);
    await holder.query('commit');
    return [await firstDone.promise, await secondDone.promise];
  } finally {
    await holder.end();
  }
}

/** A request's promise, and whether it has settled (it was to wait, not to finish). */
function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const settle = () => (settled = true);
  promise.then(settle, settle);
  return { promise, settled: () => settled };
}

async function backendPid(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  return Number(rows[0]?.pid);
}

/**
 * The backend that waits for a lock `blocker` holds, once there is one: `request`'s, which must
 * neither finish meanwhile nor pass `blocker` to wait for the held table (`holder`) itself: the
 * two would not contend. pg_locks is read afresh on every query (pg_stat_activity would stay as
 * first read inside the holder's transaction).
 */
async function waitForOneBlockedBy(
  client: pg.Client,
  blocker: number,
  request: { settled: () => boolean },
  holder?: number,
): Promise<number> {
  for (;;) {
    if (request.settled()) throw new Error(`a request finished without waiting for ${blocker}`);
    const { rows } = await client.query<{ pid: number; blockers: number[] }>(
      `select distinct pid, pg_blocking_pids(pid) as blockers from pg_locks
        where not granted and pid <> $1`,
      [blocker],
    );
    const waiting = rows.filter((row) => row.blockers.includes(blocker));
    if (waiting.length > 1) throw new Error(`more than one backend waits for ${blocker}`);
    if (waiting[0]) return Number(waiting[0].pid);
    if (holder !== undefined && rows.some((row) => row.blockers.includes(holder))) {
      throw new Error(`a request passed ${blocker} without waiting for it`);
    }
  }
}

async function sqliteInOrder<A, B>(
  app: TestApp,
  first: () => Promise<A>,
  second: () => Promise<B>,
): Promise<[A, B]> {
  const { deps } = app;
  const transact = deps.transact;
  let begun = () => {};
  const firstBegun = new Promise<void>((resolve) => (begun = resolve));
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  // The next transaction is `first`'s (neither request opens one before its own).
  const holdNext: Transact = (work) => {
    deps.transact = transact;
    return transact(async (tx) => {
      begun();
      await released;
      return work(tx);
    });
  };
  deps.transact = holdNext;
  try {
    const firstDone = first();
    await firstBegun;
    const secondDone = second();
    release();
    return [await firstDone, await secondDone];
  } finally {
    deps.transact = transact;
  }
}
