import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Config } from '../../src/server/config.ts';
import type { Route } from '../../src/server/http/route.ts';
import { createTestApp, TEST_NOW, type Session, type TestApp } from './app.ts';
import { testClient, type TestClient } from './client.ts';
import { seedAdmin, seedEvent } from './seed.ts';

export type SeededAdmin = Awaited<ReturnType<typeof seedAdmin>>;
export type SeededEvent = Awaited<ReturnType<typeof seedEvent>>;

export interface ApiFixtureOptions {
  /** The clock's instant at the start of every test (default TEST_NOW). */
  now?: string;
  config?: Partial<Config>;
  routes?: Route[];
  /** The administrator every test is signed in as (default "Ana Administradora"). */
  admin?: Parameters<typeof seedAdmin>[1];
  /** Seed one event for the whole file, with these values. */
  event?: Parameters<typeof seedEvent>[1];
  /**
   * Whether each test starts at `now` with a fresh administrator's session (default true). A file
   * whose tests carry the clock on from one to the next says false and signs in itself.
   */
  freshEachTest?: boolean;
  /**
   * A new app (empty database, mailbox and outbox, no running worker) for every test instead of
   * one for the file (default false): for a file whose tests each read the whole outbox or start
   * the mail worker.
   */
  appPerTest?: boolean;
}

/**
 * The set-up every API test file shares: the app on the engine TEST_DB_ENGINE chooses, an
 * administrator signed in afresh for each test at the same instant (sessions expire after 12 idle
 * hours of the test clock), a typed client calling as that administrator, and optionally one
 * seeded event. Call it once inside a file's top `describe`; read its fields inside tests and hooks.
 */
export function useTestApp(options: ApiFixtureOptions = {}): ApiFixture {
  const fixture = new ApiFixture(options.now ?? TEST_NOW);
  const start = async () => {
    const t = await createTestApp({
      now: fixture.now,
      ...(options.config ? { config: options.config } : {}),
      ...(options.routes ? { routes: options.routes } : {}),
    });
    const admin = await seedAdmin(t.deps.db, { fullName: 'Ana Administradora', ...options.admin });
    const event = options.event ? await seedEvent(t.deps.db, options.event) : undefined;
    fixture.started(t, admin, event);
    await fixture.signInAdmin();
  };
  if (options.appPerTest) {
    beforeEach(start);
    afterEach(() => fixture.close());
    return fixture;
  }
  beforeAll(start);
  afterAll(() => fixture.close());
  if (options.freshEachTest !== false) {
    beforeEach(async () => {
      fixture.t.clock.set(fixture.now);
      await fixture.signInAdmin();
    });
  }
  return fixture;
}

export class ApiFixture {
  readonly now: string;
  #t: TestApp | undefined;
  #admin: SeededAdmin | undefined;
  #event: SeededEvent | undefined;
  #session: Session | undefined;

  constructor(now: string) {
    this.now = now;
  }

  started(t: TestApp, admin: SeededAdmin, event: SeededEvent | undefined): void {
    this.#t = t;
    this.#admin = admin;
    this.#event = event;
  }

  /** The app under test. */
  get t(): TestApp {
    return this.#t ?? notStarted();
  }

  /** The database of the app under test (its Kysely handle). */
  get db(): TestApp['deps']['db'] {
    return this.t.deps.db;
  }

  /** The administrator of the file. */
  get admin(): SeededAdmin {
    return this.#admin ?? notStarted();
  }

  /** The administrator's session of the current test. */
  get as(): Session {
    return this.#session ?? notStarted();
  }

  /** The typed client, calling as the administrator. */
  get api(): TestClient {
    return testClient(this.t, this.as);
  }

  /** The typed client calling without a session. */
  get signedOut(): TestClient {
    return testClient(this.t, null);
  }

  /** The event seeded for the file (`event` option). */
  get event(): SeededEvent {
    if (!this.#event) throw new Error('useTestApp({ event }) seeds the event this test reads');
    return this.#event;
  }

  /** A fresh session for the administrator, at the clock's current instant. */
  async signInAdmin(): Promise<Session> {
    this.#session = await this.t.signIn({ role: 'admin', adminId: this.admin.id });
    return this.#session;
  }

  /** Moves the clock to `instant` and signs the administrator in again there. */
  async at(instant: string): Promise<void> {
    this.t.clock.set(instant);
    await this.signInAdmin();
  }

  /** The typed client calling as an exhibitor, signed in now. */
  async exhibitor(exhibitorId: string): Promise<TestClient> {
    return testClient(this.t, await this.t.signIn({ role: 'exh', exhibitorId }));
  }

  /** The typed client calling as `session`, or signed out (null). */
  client(session: Session | null): TestClient {
    return testClient(this.t, session);
  }

  async close(): Promise<void> {
    await this.#t?.close();
  }
}

function notStarted(): never {
  throw new Error('the test app is read before useTestApp has started it (read it inside a test)');
}
