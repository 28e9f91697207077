import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type Dialect, type DialectAdapter, type Transaction } from 'kysely';
import type { Db, Engine } from './connection.ts';
import type { Database } from './schema.ts';

/**
 * The one connection work inside `transact` has: Kysely's transaction. It carries no `db` and no
 * `transact`, Kysely refuses to open a transaction or take a connection from it, and the outer
 * `Db` is not assignable to it, so a function that takes a `Tx` can only run inside a transaction.
 */
export type Tx = Transaction<Database>;

/** Runs `work` in a transaction and answers once it is committed. */
export type Transact = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;

/** Something to do once the commit that holds a piece of work has succeeded. */
export type CommitEffect = 'mail-queued';

export interface Transactions {
  /** The one way services write several statements together. */
  transact: Transact;
  /**
   * Calls `listener` after every commit holding work that asked for `effect` (never when that work
   * rolled back). Returns the function that stops it.
   */
  afterCommit(effect: CommitEffect, listener: () => void): () => void;
  /**
   * For work that committed without `transact`: one statement that is its own transaction (a
   * PostgreSQL function, docs/decisions/0021) and asked for `effect`. Calls its listeners now.
   */
  committed(effect: CommitEffect): void;
}

interface WorkContext {
  effects: Set<CommitEffect>;
}

/** Set while a piece of work runs: what it asked for after commit, and proof that it is running. */
const currentWork = new AsyncLocalStorage<WorkContext>();

/**
 * Asks for `effect` once the commit that holds the current work succeeds. Taking the work's `Tx`
 * keeps it to code that runs inside a transaction.
 */
export function requestAfterCommit(_tx: Tx, effect: CommitEffect): void {
  currentWork.getStore()?.effects.add(effect);
}

/**
 * The outer connection used from inside a piece of work: on SQLite it waits for the transaction
 * that waits for the work (a deadlock); on PostgreSQL it writes outside the transaction. The types
 * keep `Tx` helpers away from the outer connection, but a closure can still reach `deps.db`; this
 * turns that mistake into an immediate error instead of a hang.
 */
function refuseInsideWork(what: string): void {
  if (currentWork.getStore()) {
    throw new Error(`${what} inside transact: use the transaction the work was given`);
  }
}

/** One holder at a time, in the order they asked. */
function createMutex() {
  let tail = Promise.resolve();
  return async (): Promise<() => void> => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const previous = tail;
    tail = previous.then(() => released);
    await previous;
    return release;
  };
}

/**
 * `dialect` whose connections cannot be taken by work running inside `transact`. The check must
 * come before a single-connection engine's (SQLite's) wait for its one connection, which Kysely
 * would do before anything of ours runs: so this driver does that wait itself, after the check,
 * and Kysely is told not to.
 */
export function guardedDialect(dialect: Dialect): Dialect {
  const singleConnection = !dialect.createAdapter().supportsMultipleConnections;
  return {
    createAdapter() {
      const adapter = dialect.createAdapter();
      if (!singleConnection) return adapter;
      const unserialised: DialectAdapter = Object.create(adapter, {
        supportsMultipleConnections: { value: true },
      });
      return unserialised;
    },
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver() {
      const driver = dialect.createDriver();
      const acquire = driver.acquireConnection.bind(driver);
      const release = driver.releaseConnection.bind(driver);
      const takeTurn = createMutex();
      let endTurn = () => {};
      driver.acquireConnection = async () => {
        refuseInsideWork('The outer connection was used');
        if (!singleConnection) return acquire();
        endTurn = await takeTurn();
        try {
          return await acquire();
        } catch (error) {
          endTurn();
          throw error;
        }
      };
      driver.releaseConnection = async (connection) => {
        await release(connection);
        if (singleConnection) endTurn();
      };
      return driver;
    },
  };
}

type RunInTransaction = <T>(work: (trx: Tx) => Promise<T>) => Promise<T>;

export function createTransactions(db: Db, engine: Engine): Transactions {
  const run = engine === 'sqlite' ? groupCommit(db) : transactionPerWork(db);
  const listeners = new Map<CommitEffect, Set<() => void>>();
  return {
    async transact(work) {
      refuseInsideWork('transact was called');
      const context: WorkContext = { effects: new Set() };
      const value = await run((trx) => currentWork.run(context, () => work(trx)));
      for (const effect of context.effects) {
        for (const listener of listeners.get(effect) ?? []) listener();
      }
      return value;
    },
    committed(effect) {
      for (const listener of listeners.get(effect) ?? []) listener();
    },
    afterCommit(effect, listener) {
      const forEffect = listeners.get(effect) ?? new Set();
      listeners.set(effect, forEffect);
      forEffect.add(listener);
      return () => forEffect.delete(listener);
    },
  };
}

/** PostgreSQL: a transaction of its own for each piece of work, from the pool. */
function transactionPerWork(db: Db): RunInTransaction {
  return (work) => db.transaction().execute(work);
}

interface PendingWork {
  work: (trx: Tx) => Promise<unknown>;
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
function groupCommit(db: Db): RunInTransaction {
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

  return <T>(work: (trx: Tx) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!draining) {
        draining = true;
        // After the current turn's I/O callbacks, so that requests read together commit together.
        setImmediate(() => void drain());
      }
    });
}
