import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db, Engine } from './db/connection.ts';
import type { Transact, Transactions } from './db/transact.ts';
import type { Clock } from './lib/clock.ts';

/** Everything a service needs, passed explicitly (no module-level singletons). */
export interface AppDeps {
  config: Config;
  /** Reads and single statements outside a transaction; never from work inside `transact`. */
  db: Db;
  /**
   * Runs work in a transaction, answering after its commit; the work gets a `Tx` and nothing
   * else. Mail queued by the work wakes the mail worker once the commit succeeds.
   */
  transact: Transact;
  engine: Engine;
  /** After a single statement that committed on its own asked for an effect: see Transactions. */
  committed: Transactions['committed'];
  clock: Clock;
  logger: FastifyBaseLogger;
}
