import type { BrowserContext } from 'playwright-core';
import type { SessionSubject } from '../../src/server/http/session.ts';
import { createSession } from '../../src/server/http/session.ts';
import { CURRENT_USER_COOKIE, SESSION_COOKIE } from '../../src/shared/constants.ts';
import type { AppDeps } from '../../src/server/deps.ts';
import type { RunningServer } from './server.ts';

/**
 * Puts a signed-in session for `subject` into the browser context, written straight to the
 * server's database: for tests whose subject is not the sign-in screens themselves.
 */
export async function signInContext(
  context: BrowserContext,
  server: RunningServer,
  subject: SessionSubject,
  display: { email: string; fullName: string },
  /** The server's "now" when it runs with PREMIOS_TEST_NOW, so the session is not idle-expired. */
  now: Date = new Date(),
): Promise<void> {
  const deps = { db: server.database.db, clock: { now: () => now } } as AppDeps;
  const token = await createSession(deps, subject);
  const url = new URL(server.url);
  await context.addCookies([
    {
      name: SESSION_COOKIE,
      value: token,
      domain: url.hostname,
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
    },
    {
      name: CURRENT_USER_COOKIE,
      value: encodeURIComponent(JSON.stringify({ role: subject.role, ...display })),
      domain: url.hostname,
      path: '/',
      sameSite: 'Lax',
    },
  ]);
}
