import { CompiledQuery } from 'kysely';
import type { Db } from './connection.ts';

/**
 * Runs `work` in a transaction and answers once it is committed; the one way services write
 * several statements together. `work` should only talk to the database through `trx`.
 */
export type Transact = <T>(work: (trx: Db) => Promise<T>) => Promise<T>;

/** PostgreSQL: a transaction of its own for each piece of work, from the pool. */
export function transactionPerWork(db: Db): Transact {
  return (work) => db.transaction().execute(work);
}

interface PendingWork {
  work: (trx: Db) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const SAVEPOINT = CompiledQuery.raw('savepoint grouped_work');
const RELEASE = CompiledQuery.raw('release savepoint grouped_work');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint grouped_work');

/** Enough to take a deadline rush's burst in one commit, few enough to keep each answer quick. */
const MAX_GROUP = 64;

/**
 * SQLite: group commit. SQLite has one writer, and committing costs more than a save's own
 * statements, so the work that arrives together (the requests read in one turn of the event loop)
 * shares one transaction. Each piece runs in its own savepoint: one that throws is rolled back
 * alone and the others stand. Nobody is answered before the commit that holds their work; when
 * that commit fails, everyone in the group gets its error.
 */
export function groupCommit(db: Db): Transact {
  const queue: PendingWork[] = [];
  let draining = false;

  const runGroup = async (group: PendingWork[]): Promise<Outcome[]> => {
    const outcomes: Outcome[] = [];
    await db.transaction().execute(async (trx) => {
      for (const pending of group) {
        await trx.executeQuery(SAVEPOINT);
        try {
          const value = await pending.work(trx);
          await trx.executeQuery(RELEASE);
          outcomes.push({ ok: true, value });
        } catch (error) {
          await trx.executeQuery(ROLLBACK_TO);
          await trx.executeQuery(RELEASE);
          outcomes.push({ ok: false, error });
        }
      }
    });
    return outcomes;
  };

  const drain = async () => {
    while (queue.length > 0) {
      const group = queue.splice(0, MAX_GROUP);
      try {
        const outcomes = await runGroup(group);
        group.forEach((pending, index) => {
          const outcome = outcomes[index] as Outcome;
          if (outcome.ok) pending.resolve(outcome.value);
          else pending.reject(outcome.error);
        });
      } catch (error) {
        for (const pending of group) pending.reject(error);
      }
    }
    draining = false;
  };

  return <T>(work: (trx: Db) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!draining) {
        draining = true;
        // After the current turn's I/O callbacks, so that requests read together commit together.
        setImmediate(() => void drain());
      }
    });
}
