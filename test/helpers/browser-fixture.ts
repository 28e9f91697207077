import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { calendarDateIn } from '../../src/shared/dates.ts';
import type { SessionSubject } from '../../src/server/http/session.ts';
import { DESKTOP, launchBrowser, newContext, PHONE } from './browser.ts';
import { seedAdmin } from './seed.ts';
import { startServer, type RunningServer } from './server.ts';
import { signInContext } from './session.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp.ts';

export { DESKTOP, expectAccessible, hasHorizontalScroll, PHONE } from './browser.ts';

export type SeededAdmin = Awaited<ReturnType<typeof seedAdmin>>;
export type Viewport = { width: number; height: number };
/** A browser context of its own and the one page opened in it; close the context when done. */
export interface OpenPage {
  context: BrowserContext;
  page: Page;
}
/** Whom an exhibitor's page is signed in as (what seedExhibitor returns). */
export interface ExhibitorIdentity {
  id: string;
  email: string;
  fullName: string;
}
/** An administrator to sign a page in as (what seedAdmin returns). */
export interface AdminIdentity {
  id: string;
  email: string;
  fullName: string | null;
}

export interface BrowserAppOptions {
  /** Starts the server's clock at this instant (test/helpers/clocked-server.ts); pages sign in there. */
  now?: string;
  /** More environment for the server (e.g. REQUIRE_ADMIN_MFA, TRUST_PROXY). */
  env?: Record<string, string>;
  /**
   * The administrator seeded for the file, whom `adminPage` signs in (default "Ana
   * Administradora"); false for a file about signing in, whose tests seed the people they need.
   */
  admin?: Parameters<typeof seedAdmin>[1] | false;
}

/**
 * The set-up every browser test file shares: the built server on a fresh SQLite file with a real
 * SMTP server on loopback, Debian's Chromium, an administrator seeded in the server's database, and
 * pages opened in contexts of their own: signed out, signed in as that administrator or as an
 * exhibitor, at desktop or phone width. Call it once inside a file's `describe` (before the file's
 * own `beforeAll`, which then seeds through `app.db`); read its fields inside tests and hooks.
 * Everything it started is stopped after the file's own `afterAll`.
 */
export function useBrowserApp(options: BrowserAppOptions = {}): BrowserApp {
  const app = new BrowserApp(options);
  beforeAll(() => app.start());
  afterAll(() => app.close());
  return app;
}

export class BrowserApp {
  readonly #options: BrowserAppOptions;
  #smtp: TestSmtpServer | undefined;
  #server: RunningServer | undefined;
  #browser: Browser | undefined;
  #admin: SeededAdmin | undefined;
  /** The instant pages sign in at: the clocked server's start, or the real clock (undefined). */
  #sessionAt: string | undefined;
  /** The first server's SQLite file, in its data directory: the servers after it use it too. */
  #databaseUrl: string | undefined;
  /** Data directories of servers `restartAt` replaced, removed at the end. */
  readonly #leftDataDirs: string[] = [];

  constructor(options: BrowserAppOptions) {
    this.#options = options;
    this.#sessionAt = options.now;
  }

  async start(): Promise<void> {
    this.#smtp = await startSmtpServer();
    this.#server = await startServer({
      smtp: this.#smtp,
      ...(this.#options.now ? { now: this.#options.now } : {}),
      ...(this.#options.env ? { env: this.#options.env } : {}),
    });
    this.#databaseUrl = `sqlite:${path.join(this.#server.dataDir, 'premios.db')}`;
    this.#browser = await launchBrowser();
    if (this.#options.admin !== false) {
      this.#admin = await seedAdmin(this.db, {
        fullName: 'Ana Administradora',
        ...this.#options.admin,
      });
    }
  }

  async close(): Promise<void> {
    await this.#browser?.close();
    await this.#server?.stop();
    await this.#smtp?.stop();
    for (const dir of this.#leftDataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }

  /** The running server (its url, data directory, database handle, mail server). */
  get server(): RunningServer {
    return this.#server ?? notStarted();
  }

  /** The server's database (its Kysely handle), for seeding and checking rows. */
  get db(): RunningServer['database']['db'] {
    return this.server.database.db;
  }

  /** The SMTP server every mail of the server goes to. */
  get smtp(): TestSmtpServer {
    return this.#smtp ?? notStarted();
  }

  get browser(): Browser {
    return this.#browser ?? notStarted();
  }

  /** The administrator seeded for the file. */
  get admin(): SeededAdmin {
    if (this.#admin) return this.#admin;
    if (this.#options.admin === false) {
      throw new Error('useBrowserApp({ admin: false }) seeds no administrator');
    }
    return notStarted();
  }

  /** The instant a page signed in now has its session created at (the server's clock). */
  sessionNow(): Date {
    return this.#sessionAt ? new Date(this.#sessionAt) : new Date();
  }

  /** A fresh context on the server (Spanish locale, downloads allowed), signed out. */
  context = (viewport: Viewport = DESKTOP): Promise<BrowserContext> =>
    newContext(this.browser, this.server.url, viewport);

  /** A signed-out page in a context of its own. */
  page = async (viewport: Viewport = DESKTOP): Promise<OpenPage> => {
    const context = await this.context(viewport);
    return { context, page: await context.newPage() };
  };

  /** A page signed in as `subject` (a session written to the server's database). */
  signedInPage = async (
    subject: SessionSubject,
    display: { email: string; fullName: string },
    viewport: Viewport = DESKTOP,
  ): Promise<OpenPage> => {
    const context = await this.context(viewport);
    await signInContext(context, this.server, subject, display, this.sessionNow());
    return { context, page: await context.newPage() };
  };

  /** A page signed in as the file's administrator, or as `admin`. */
  adminPage = (
    viewport: Viewport = DESKTOP,
    admin: AdminIdentity = this.admin,
  ): Promise<OpenPage> =>
    this.signedInPage(
      { role: 'admin', adminId: admin.id },
      { email: admin.email, fullName: admin.fullName ?? '' },
      viewport,
    );

  /** A page signed in as `exhibitor`. */
  exhibitorPage = (exhibitor: ExhibitorIdentity, viewport: Viewport = DESKTOP): Promise<OpenPage> =>
    this.signedInPage(
      { role: 'exh', exhibitorId: exhibitor.id },
      { email: exhibitor.email, fullName: exhibitor.fullName },
      viewport,
    );

  /** The administrator's page at a phone's width (390 px). */
  phoneAdminPage = (): Promise<OpenPage> => this.adminPage(PHONE);

  /**
   * The server goes down without a shutdown and comes back with its clock at `at`, on the same
   * database and mail server; pages signed in from now on sign in at `at`.
   */
  async restartAt(at: string): Promise<void> {
    const down = this.server;
    await down.crash();
    this.#server = undefined;
    this.#leftDataDirs.push(down.dataDir);
    // A start can miss the helper's 20 s on a machine other work loads: try again, as an operator
    // would (the failed process was killed; nothing of it stays).
    for (let attempt = 1; ; attempt++) {
      try {
        this.#server = await startServer({
          now: at,
          smtp: this.smtp,
          databaseUrl: this.#databaseUrl ?? notStarted(),
          ...(this.#options.env ? { env: this.#options.env } : {}),
        });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    this.#sessionAt = at;
  }
}

function notStarted(): never {
  throw new Error(
    'the browser app is read before useBrowserApp has started it (read it in a test)',
  );
}

/** A calendar date `days` from today in the server's zone (a server on the real clock). */
export function dateIn(days: number): string {
  const today = calendarDateIn(new Date(), 'America/Argentina/Buenos_Aires');
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * Waits until `text` (the whole text of an element) shows in `scope`; copies hidden at this
 * width (a phone-only cell on a desktop) are skipped. A busy machine gets time to load a screen.
 */
export const visible = (scope: Page | Locator, text: string) =>
  expect
    .poll(
      () => scope.getByText(text, { exact: true }).filter({ visible: true }).first().isVisible(),
      { timeout: 30_000 },
    )
    .toBe(true);

/** Waits for a dialog's fade-in to end, so the accessibility scan sees its real colours. */
export async function settled(dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await expect
    .poll(() => dialog.evaluate((el) => getComputedStyle(el.parentElement ?? el).opacity))
    .toBe('1');
}
