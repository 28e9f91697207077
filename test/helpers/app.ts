import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, CSRF_HEADER, CSRF_VALUE, type BuiltApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.ts';
import type { Route } from '../../src/server/http/route.ts';
import { createSession, type SessionSubject } from '../../src/server/http/session.ts';
import { manualClock } from './clock.ts';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { freshTestDatabase, type TestDatabase } from './database.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp.ts';

/** Default "now" of API tests: a fixed instant, moved explicitly with `clock.set/advance`. */
export const TEST_NOW = '2026-06-01T12:00:00.000Z';
export const TEST_TIMEZONE = 'America/Argentina/Buenos_Aires';
export const TEST_SECRET_KEY = 'clave-de-prueba-de-treinta-y-dos-caracteres-o-mas';

export interface TestApp extends BuiltApp {
  clock: ReturnType<typeof manualClock>;
  database: DatabaseHandle;
  smtp: TestSmtpServer;
  config: Config;
  /** app.inject with the CSRF header every browser request carries. */
  request(options: InjectOptions & { as?: Session }): Promise<LightMyRequestResponse>;
  /** A signed-in session for an admin or exhibitor id. */
  signIn(subject: SessionSubject): Promise<Session>;
  /** Runs the mail worker until the outbox has nothing due. */
  deliverMail(): Promise<number>;
  close(): Promise<void>;
}

export interface Session {
  cookie: string;
  token: string;
}

export async function createTestApp(
  options: { now?: string; config?: Partial<Config>; routes?: Route[] } = {},
): Promise<TestApp> {
  const testDb: TestDatabase = await freshTestDatabase();
  const smtp = await startSmtpServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-data-'));
  const config: Config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      APP_URL: 'http://premios.test',
      APP_TIMEZONE: TEST_TIMEZONE,
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'silent',
      // Both engines seal second-factor secrets with the same key (PostgreSQL requires one).
      SECRET_KEY: TEST_SECRET_KEY,
    }),
    databaseUrl: testDb.url,
    ...options.config,
  };
  const database = openDatabase(config.databaseUrl);
  await database.migrate();
  const clock = manualClock(options.now ?? TEST_NOW);
  const built = await buildApp({
    config,
    database,
    clock,
    logger: false,
    ...(options.routes ? { routes: options.routes } : {}),
  });
  await built.app.ready();

  return {
    ...built,
    clock,
    database,
    smtp,
    config,
    request({ as, headers, ...rest }) {
      return built.app.inject({
        ...rest,
        headers: {
          [CSRF_HEADER]: CSRF_VALUE,
          ...(as ? { cookie: as.cookie } : {}),
          ...headers,
        },
      });
    },
    async signIn(subject) {
      const token = await createSession(built.deps, subject);
      return { token, cookie: `${SESSION_COOKIE}=${token}` };
    },
    deliverMail: () => built.mailWorker.runOnce(),
    async close() {
      await built.app.close();
      await database.close();
      await smtp.stop();
      await testDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
