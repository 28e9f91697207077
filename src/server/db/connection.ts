import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { setTimeout as delay } from 'node:timers/promises';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';
import {
  shouldTruncate,
  startCheckpointer,
  WAL_SIZE_LIMIT_BYTES,
  type Checkpointer,
  type CheckpointReport,
} from './checkpointer.ts';
import { hotStatementName } from './prepared.ts';
import { createTransactions, guardedDialect, type Transactions } from './transact.ts';

/**
 * pg's client, sending the hot paths' statements (`prepared.ts`) by name, so that each connection
 * parses and plans them once: at the deadline every save and sign-in is one of them
 * (docs/decisions/0041). Every other statement goes as before, unnamed.
 */
class HotStatementClient extends pg.Client {}
HotStatementClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [text, values] = args;
  const named =
    typeof text === 'string' && Array.isArray(values) && args.length === 2
      ? hotStatementName(text)
      : undefined;
  // Looked up at each call, not kept: whatever `pg.Client#query` is then does the work.
  const query = pg.Client.prototype.query as (...forwarded: unknown[]) => unknown;
  return named ? query.call(this, { name: named, text, values }) : query.apply(this, args);
} as typeof pg.Client.prototype.query;

export type Db = Kysely<Database>;
export type Engine = 'sqlite' | 'postgres';

export interface DatabaseHandle extends Transactions {
  /** Outside `transact` only: work inside a transaction is refused this connection. */
  db: Db;
  engine: Engine;
  /** Applies pending migrations; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /**
   * PostgreSQL: `listener` hears of each connection the database closed while the pool kept it
   * idle (a restart, a failover, `pg_terminate_backend`); the pool drops it and opens another when
   * next needed. Until a listener is set, a line on standard error. SQLite has no such event.
   */
  onIdleConnectionLost(listener: (error: Error) => void): void;
  close(): Promise<void>;
}

const STATEMENT_CACHE_SIZE = 500;

/** The engine behind a connection (or transaction), for the few statements written per engine. */
export function engineOf(db: Db): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export interface OpenOptions {
  /** SQLite: checkpoint the WAL on a worker thread (checkpointer.ts); the server's choice. */
  backgroundCheckpoints?: boolean;
}

const CHECKPOINT_INTERVAL_MS = 100;

/** Statements that only read; any other one that changed a row appended to the log. */
const READ_ONLY_SQL = /^\s*(select|with|pragma|explain)\b/i;

/**
 * Adapts `node:sqlite` to the better-sqlite3-shaped interface that Kysely's SqliteDialect expects.
 * `onWrite` runs after each statement that changed rows (an outbox poll that claimed none did not).
 */
function nodeSqliteDatabase(database: DatabaseSync, onWrite: () => void): SqliteDatabase {
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA foreign_keys = ON');
  database.exec('PRAGMA busy_timeout = 5000');
  // Deleted and overwritten rows are zeroed, not left in free pages: anonymising an event must
  // not leave the old values readable in the file (README, "Datos personales").
  database.exec('PRAGMA secure_delete = ON');
  // Without a limit the log keeps the size of its biggest burst (449 MB seen under load).
  database.exec(`PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  // Kysely asks for the same few SQL texts over and over: prepare each once, with its shape.
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(query: string) {
      let cached = statements.get(query);
      if (!cached) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        const statement = database.prepare(query);
        const writes = !READ_ONLY_SQL.test(query);
        cached = {
          reader: statement.columns().length > 0,
          all: (params) => {
            const rows = statement.all(...(params as SQLInputValue[]));
            if (writes && rows.length > 0) onWrite();
            return rows;
          },
          run: (params) => {
            const result = statement.run(...(params as SQLInputValue[]));
            if (writes && Number(result.changes) > 0) onWrite();
            return result;
          },
          iterate: (params) => {
            if (writes) onWrite();
            return statement.iterate(...(params as SQLInputValue[]));
          },
        };
        statements.set(query, cached);
      }
      return cached;
    },
  };
}

export function openDatabase(databaseUrl: string, options: OpenOptions = {}): DatabaseHandle {
  const engine: Engine = databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  let checkpointer: Checkpointer | undefined;
  /** Starts the checkpoint thread at the first write after the migrations, if it is to run. */
  let checkpointOnWrite: (() => void) | undefined;
  let migrating = false;
  let closed = false;
  let lostConnectionListener = (error: Error) => {
    process.stderr.write(`PostgreSQL closed an idle connection: ${error.message}\n`);
  };
  let dialect;
  if (engine === 'sqlite') {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const database = new DatabaseSync(file);
    const onWrite = () => {
      if (!checkpointOnWrite || migrating) return;
      const start = checkpointOnWrite;
      checkpointOnWrite = undefined;
      // After this statement and its request's turn: the thread's start is no part of the write.
      setImmediate(start);
    };
    dialect = new SqliteDialect({ database: nodeSqliteDatabase(database, onWrite) });
    if (options.backgroundCheckpoints && file !== ':memory:') {
      // The writer never checkpoints (see checkpointer.ts); the migrations, which run before the
      // thread does, empty the log themselves (`migrate`).
      database.exec('PRAGMA wal_autocheckpoint = 0');
      let previous: CheckpointReport | null = null;
      let truncating = false;
      // A worker thread is a whole Node environment (17 MB of the idle server's memory): a server
      // that has written nothing since it started has no log to copy, and goes without it.
      checkpointOnWrite = () => {
        if (closed) return;
        checkpointer = startCheckpointer(
          file,
          CHECKPOINT_INTERVAL_MS,
          () =>
            // Without the worker, the connection checkpoints for itself again (SQLite's default).
            database.exec('PRAGMA wal_autocheckpoint = 1000'),
          (report) => {
            const truncate = !truncating && shouldTruncate(report, previous);
            previous = report;
            if (!truncate) return;
            // Through Kysely, so it runs between two transactions of this one connection; the log
            // is already copied back, so this only cuts the file.
            truncating = true;
            sql
              .raw('PRAGMA wal_checkpoint(TRUNCATE)')
              .execute(db)
              .catch(() => undefined)
              .finally(() => (truncating = false));
          },
        );
      };
    }
  } else {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 10,
      Client: HotStatementClient,
      // Kept open once opened (docs/decisions/0042): a new connection's first save compiles the
      // save's function and plans its statements, so connections closed in a lull would make the
      // deadline's first saves the slowest. Idle connections do not keep a process alive.
      idleTimeoutMillis: 0,
      allowExitOnIdle: true,
    });
    // Without a listener, a kept connection that the database closes would end the process.
    pool.on('error', (error) => lostConnectionListener(error));
    dialect = new PostgresDialect({
      pool,
      // `.stream()` reads a large result a chunk at a time (the whole-event workbook).
      cursor: Cursor,
    });
  }
  const db = new Kysely<Database>({ dialect: guardedDialect(dialect) });

  return {
    db,
    engine,
    // Group commit on SQLite, a transaction per piece of work on PostgreSQL.
    ...createTransactions(db, engine),
    async migrate() {
      // Kysely looks for its bookkeeping tables in every schema unless told which one: name the
      // connection's own, so other schemas of the same database (other apps, tests) don't count.
      const migrationTableSchema =
        engine === 'postgres'
          ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
              ?.schema
          : undefined;
      const migrator = new Migrator({
        db,
        provider: migrationProvider(engine),
        ...(migrationTableSchema ? { migrationTableSchema } : {}),
      });
      // Before the checkpoint thread runs, the migrations' writes are checkpointed by SQLite's own
      // rule (every 1000 pages) and the log is emptied after them: they do not start the thread.
      const beforeCheckpointThread = checkpointOnWrite !== undefined;
      if (!beforeCheckpointThread) return migrateWithRetries(migrator);
      migrating = true;
      try {
        await sql`PRAGMA wal_autocheckpoint = 1000`.execute(db);
        await migrateWithRetries(migrator);
        await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
      } finally {
        await sql`PRAGMA wal_autocheckpoint = 0`.execute(db);
        migrating = false;
      }
    },
    onIdleConnectionLost(listener) {
      lostConnectionListener = listener;
    },
    async close() {
      closed = true;
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * PostgreSQL serialises migrators with an advisory lock; two SQLite processes may collide on the
 * write lock or lose the race to create a table; the loser's transaction rolls back and it tries
 * again, finding the winner's work recorded.
 */
async function migrateWithRetries(migrator: Migrator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return;
    const busy = /locked|busy|already exists/i.test(String(error));
    if (!busy || attempt >= 10) {
      const failed = results?.find((r) => r.status === 'Error');
      throw new Error(
        `Migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`,
      );
    }
    await delay(50 * attempt);
  }
}

/** True when the database answers a trivial query (readiness probe). */
export async function isDatabaseReachable(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
