import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/connection.ts';
import type { Engine } from './db/migrations.ts';
import type { Transact } from './db/transact.ts';
import type { Clock } from './lib/clock.ts';

/** Everything a service needs, passed explicitly (no module-level singletons). */
export interface AppDeps {
  config: Config;
  db: Db;
  /** Runs work in a transaction, answering after its commit (db/transact.ts). */
  transact: Transact;
  engine: Engine;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Wakes the mail worker after a transaction queued mail (it also polls). */
  notifyMailQueued(): void;
}
