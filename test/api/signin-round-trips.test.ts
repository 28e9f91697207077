import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/lib/crypto.ts';
import { signInWithCode, startSignIn } from '../../src/shared/api/auth.ts';
import { getSession } from '../../src/shared/api/session.ts';
import { SESSION_ABSOLUTE_DAYS } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, TEST_NOW, type TestApp } from '../helpers/app.ts';
import { answered, errorOf, refused, sessionSetBy, testClient } from '../helpers/client.ts';
import { seedAdmin, seedExhibitor } from '../helpers/seed.ts';

/**
 * PostgreSQL's code sign-in and email step in one round trip each (docs/decisions/0033 and 0040):
 * every statement the server sends goes through `pg.Client#query`, which this test counts while
 * one request runs.
 */
const onPostgres = process.env.TEST_DB_ENGINE === 'postgres';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

describe.runIf(onPostgres)('a code sign-in and its email step on PostgreSQL', () => {
  let t: TestApp;
  let exhibitor: { id: string; email: string; fullName: string };
  const sent: string[] = [];
  /** The name each statement was sent under (a named statement: parsed once per connection). */
  const names: (string | undefined)[] = [];
  const originalQuery = pg.Client.prototype.query;

  const start = (email: string, remoteAddress = '127.0.0.1') =>
    testClient(t).send(startSignIn, { body: { email } }, { remoteAddress });
  const enter = (email: string, code: string, remoteAddress = '127.0.0.1') =>
    testClient(t).send(signInWithCode, { body: { email, code } }, { remoteAddress });

  /** The statements the server sends while `request` runs. */
  async function statementsOf<T>(request: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
    sent.length = 0;
    names.length = 0;
    const result = await request();
    return { result, sql: [...sent] };
  }

  /** Asks for a code on the email step and returns it as emailed. */
  async function requestCode(email: string, client?: string): Promise<string> {
    expect((await start(email, client)).status).toBe(200);
    await t.deliverMail();
    const code = /\b(\d{6})\b/.exec(t.smtp.latestTo(email)?.text ?? '')?.[1];
    if (!code) throw new Error(`no code in the mail to ${email}`);
    return code;
  }

  const sessionCookie = (outcome: { response: Parameters<typeof sessionSetBy>[0] }) =>
    sessionSetBy(outcome.response);

  const wrongCodeFor = (code: string) => (code === '000000' ? '111111' : '000000');

  const codesOf = (exhibitorId: string) =>
    t.deps.db
      .selectFrom('sign_in_codes')
      .select(['used_at', 'voided_at'])
      .where('exhibitor_id', '=', exhibitorId)
      .orderBy('created_at')
      .execute();

  const throttleOf = (exhibitorId: string) =>
    t.deps.db
      .selectFrom('auth_throttle')
      .select(['scope', 'key', 'hits', 'window_start'])
      .where('key', 'like', `${exhibitorId}%`)
      .where('scope', 'like', 'code-try-%')
      .orderBy('scope')
      .orderBy('key')
      .execute();

  const sessionsOf = (exhibitorId: string) =>
    t.deps.db
      .selectFrom('sessions')
      .select(['token_hash', 'role', 'created_at', 'last_seen_at', 'expires_at'])
      .where('exhibitor_id', '=', exhibitorId)
      .execute();

  beforeAll(async () => {
    t = await createTestApp();
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [text] = args;
      sent.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
      names.push(typeof text === 'string' ? undefined : (text as { name?: string }).name);
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof originalQuery;
  });
  afterAll(async () => {
    pg.Client.prototype.query = originalQuery;
    await t.close();
  });
  beforeEach(async () => {
    t.clock.set(TEST_NOW);
    exhibitor = await seedExhibitor(t.deps.db, { fullName: 'Esteban Uno' });
  });
  afterEach(() => {
    sent.length = 0;
  });

  it('signs in with the right code in one statement: code spent, others voided, session, stamp', async () => {
    await requestCode(exhibitor.email, '10.0.0.1');
    t.clock.advance(MINUTE);
    const code = await requestCode(exhibitor.email, '10.0.0.2');
    t.clock.advance(MINUTE);

    const { result, sql } = await statementsOf(() => enter(exhibitor.email, code, '10.0.0.2'));
    expect(result.status).toBe(200);
    expect(answered(result).data).toEqual({
      user: { role: 'exh', email: exhibitor.email, fullName: 'Esteban Uno' },
    });
    expect(sql).toHaveLength(1);
    expect(sql[0]).toMatch(/^select premios_sign_in_with_code\(/);
    expect(names).toEqual([expect.stringMatching(/^premios_hot_\d+$/)]);

    // What it leaves: the code spent, the earlier one voided, both mails' secrets blanked, the
    // session (only its token's hash stored), "Último ingreso", one try counted per rule.
    const at = new Date(Date.parse(TEST_NOW) + 2 * MINUTE).toISOString();
    expect(await codesOf(exhibitor.id)).toEqual([
      { used_at: null, voided_at: at },
      { used_at: at, voided_at: null },
    ]);
    const outbox = await t.deps.db
      .selectFrom('mail_outbox')
      .select('params')
      .where('to_address', '=', exhibitor.email)
      .execute();
    expect(outbox.map((mail) => mail.params)).toEqual(['{}', '{}']);
    const cookie = sessionCookie(result);
    if (!cookie) throw new Error('no session cookie');
    expect(await sessionsOf(exhibitor.id)).toEqual([
      {
        token_hash: hashToken(cookie.token),
        role: 'exh',
        created_at: at,
        last_seen_at: at,
        expires_at: new Date(
          Date.parse(at) + SESSION_ABSOLUTE_DAYS * 24 * 60 * MINUTE,
        ).toISOString(),
      },
    ]);
    const stamped = await t.deps.db
      .selectFrom('exhibitors')
      .select('last_signed_in_at')
      .where('id', '=', exhibitor.id)
      .executeTakeFirstOrThrow();
    expect(stamped.last_signed_in_at).toBe(at);
    expect(await throttleOf(exhibitor.id)).toEqual([
      { scope: 'code-try-address', key: exhibitor.id, hits: 1, window_start: at },
      { scope: 'code-try-client', key: `${exhibitor.id}|10.0.0.2`, hits: 1, window_start: at },
    ]);

    // The session works, and the code works once.
    const session = await testClient(t, cookie).call(getSession, {});
    expect(session.user).toMatchObject({ role: 'exh', email: exhibitor.email });
    const again = await statementsOf(() => enter(exhibitor.email, code, '10.0.0.2'));
    expect(again.result.status).toBe(400);
    expect(errorOf(refused(again.result))).toEqual({
      code: 'invalid_code',
      message: MSG.invalidCode,
    });
    expect(again.sql).toHaveLength(1);
    expect(sessionCookie(again.result)).toBeUndefined();
  });

  it('refuses a wrong code in one statement, counting the try and opening no session', async () => {
    const code = await requestCode(exhibitor.email);
    const { result, sql } = await statementsOf(() =>
      enter(exhibitor.email, wrongCodeFor(code), '10.0.0.3'),
    );
    expect(result.status).toBe(400);
    expect(errorOf(refused(result))).toEqual({ code: 'invalid_code', message: MSG.invalidCode });
    expect(sql).toHaveLength(1);
    expect(sessionCookie(result)).toBeUndefined();
    expect(await sessionsOf(exhibitor.id)).toEqual([]);
    expect(await codesOf(exhibitor.id)).toEqual([{ used_at: null, voided_at: null }]);
    expect((await throttleOf(exhibitor.id)).map((row) => [row.scope, row.hits])).toEqual([
      ['code-try-address', 1],
      ['code-try-client', 1],
    ]);
  });

  it('refuses an expired code and an unknown address with the same 400, in one statement', async () => {
    const code = await requestCode(exhibitor.email);
    t.clock.advance(15 * MINUTE);
    const expired = await statementsOf(() => enter(exhibitor.email, code));
    expect(expired.result.status).toBe(400);
    expect(errorOf(refused(expired.result))).toEqual({
      code: 'invalid_code',
      message: MSG.invalidCode,
    });
    expect(expired.sql).toHaveLength(1);
    expect(await codesOf(exhibitor.id)).toEqual([{ used_at: null, voided_at: null }]);
    expect(await sessionsOf(exhibitor.id)).toEqual([]);

    const unknown = await statementsOf(() => enter('nadie@expo.test', code));
    expect(unknown.result.status).toBe(400);
    expect(errorOf(refused(unknown.result))).toEqual({
      code: 'invalid_code',
      message: MSG.invalidCode,
    });
    expect(unknown.sql).toHaveLength(1);
  });

  it('refuses the 6th try from one client even with the right code (429), in one statement', async () => {
    const code = await requestCode(exhibitor.email);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await enter(exhibitor.email, wrongCodeFor(code), '10.0.0.4')).status).toBe(400);
    }
    const sixth = await statementsOf(() => enter(exhibitor.email, code, '10.0.0.4'));
    expect(sixth.result.status).toBe(429);
    expect(errorOf(refused(sixth.result))).toEqual({
      code: 'code_tries_exhausted',
      message: MSG.codeTriesExhausted,
    });
    expect(sixth.sql).toHaveLength(1);
    expect(sessionCookie(sixth.result)).toBeUndefined();
    expect(await codesOf(exhibitor.id)).toEqual([{ used_at: null, voided_at: null }]);
    // Refused tries change nothing: the client's counter stays at its maximum.
    expect(await throttleOf(exhibitor.id)).toMatchObject([
      { scope: 'code-try-address', hits: 5 },
      { scope: 'code-try-client', key: `${exhibitor.id}|10.0.0.4`, hits: 5 },
    ]);
  });

  it('keeps every limit exact under 40 parallel tries of the right code from 40 clients', async () => {
    const code = await requestCode(exhibitor.email);
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => enter(exhibitor.email, code, `10.2.0.${i + 1}`)),
    );
    // 15 tries evaluated by the daily cap and 5 more by the grace of fresh clients: one signs in
    // (the code works once), the other 19 find it spent; the other 20 are refused before.
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(400), ...Array<number>(20).fill(429)]);
    for (const reply of replies) {
      if (reply.status === 400) {
        expect(errorOf(refused(reply))).toEqual({ code: 'invalid_code', message: MSG.invalidCode });
      }
      if (reply.status === 429) {
        expect(errorOf(refused(reply))).toEqual({
          code: 'code_tries_exhausted',
          message: MSG.codeTriesExhausted,
        });
      }
    }
    expect(replies.filter((reply) => sessionCookie(reply))).toHaveLength(1);
    expect(await sessionsOf(exhibitor.id)).toHaveLength(1);
    const counters = await throttleOf(exhibitor.id);
    expect(counters.filter((row) => row.scope === 'code-try-address')).toMatchObject([
      { hits: 15 },
    ]);
    expect(counters.filter((row) => row.scope === 'code-try-grace')).toMatchObject([{ hits: 5 }]);
    expect(counters.filter((row) => row.scope === 'code-try-client')).toHaveLength(40);
  });
  const codeRowsOf = (exhibitorId: string) =>
    t.deps.db
      .selectFrom('sign_in_codes')
      .select(['expires_at', 'used_at', 'voided_at', 'created_at'])
      .where('exhibitor_id', '=', exhibitorId)
      .orderBy('created_at')
      .execute();

  const codeMailsOf = (exhibitorId: string) =>
    t.deps.db
      .selectFrom('mail_outbox')
      .select(['template', 'to_address', 'status', 'next_attempt_at', 'event_id', 'created_at'])
      .where('exhibitor_id', '=', exhibitorId)
      .orderBy('created_at')
      .execute();

  const sendCountersOf = (exhibitorId: string) =>
    t.deps.db
      .selectFrom('auth_throttle')
      .select(['scope', 'key', 'hits', 'window_start', 'not_before'])
      .where('key', 'like', `${exhibitorId}%`)
      .where('scope', 'like', 'code-send-%')
      .orderBy('scope')
      .orderBy('key')
      .execute();

  it('mails a code on the email step in one statement: the code, its message, one count per rule', async () => {
    const { result, sql } = await statementsOf(() => start(exhibitor.email, '10.1.0.1'));
    expect(result.status).toBe(200);
    expect(answered(result).data).toEqual({ next: 'code' });
    expect(sql).toHaveLength(1);
    expect(sql[0]).toMatch(/^select\s+premios_request_sign_in_code\(/);
    expect(names).toEqual([expect.stringMatching(/^premios_hot_\d+$/)]);

    const at = TEST_NOW;
    expect(await codeRowsOf(exhibitor.id)).toEqual([
      {
        expires_at: new Date(Date.parse(at) + 15 * MINUTE).toISOString(),
        used_at: null,
        voided_at: null,
        created_at: at,
      },
    ]);
    expect(await codeMailsOf(exhibitor.id)).toEqual([
      {
        template: 'sign-in-code',
        to_address: exhibitor.email,
        status: 'pending',
        next_attempt_at: at,
        event_id: null,
        created_at: at,
      },
    ]);
    expect(await sendCountersOf(exhibitor.id)).toEqual([
      {
        scope: 'code-send-address',
        key: exhibitor.id,
        hits: 1,
        window_start: at,
        not_before: at,
      },
      {
        scope: 'code-send-client',
        key: `${exhibitor.id}|10.1.0.1`,
        hits: 1,
        window_start: at,
        not_before: new Date(Date.parse(at) + 30 * SECOND).toISOString(),
      },
    ]);

    // The mailed code signs in.
    await t.deliverMail();
    const code = /\b(\d{6})\b/.exec(t.smtp.latestTo(exhibitor.email)?.text ?? '')?.[1] ?? '';
    expect((await enter(exhibitor.email, code, '10.1.0.1')).status).toBe(200);
  });

  it('sends nothing to a client asking again within 30 s, and a second code after, one statement each', async () => {
    await requestCode(exhibitor.email, '10.1.0.2');
    t.clock.advance(29 * SECOND);
    const tooSoon = await statementsOf(() => start(exhibitor.email, '10.1.0.2'));
    expect(tooSoon.result.status).toBe(200);
    expect(answered(tooSoon.result).data).toEqual({ next: 'code' });
    expect(tooSoon.sql).toHaveLength(1);
    expect(await codeRowsOf(exhibitor.id)).toHaveLength(1);
    expect(await codeMailsOf(exhibitor.id)).toHaveLength(1);
    expect((await sendCountersOf(exhibitor.id)).map((row) => [row.scope, row.hits])).toEqual([
      ['code-send-address', 1],
      ['code-send-client', 1],
    ]);

    t.clock.advance(SECOND);
    const again = await statementsOf(() => start(exhibitor.email, '10.1.0.2'));
    expect(again.result.status).toBe(200);
    expect(again.sql).toHaveLength(1);
    expect(await codeRowsOf(exhibitor.id)).toHaveLength(2);
    expect(await codeMailsOf(exhibitor.id)).toHaveLength(2);
  });

  it('refuses a 4th code an hour to a client (429); at the ceiling answers "code" while a code is live, 429 once none is', async () => {
    for (const client of ['10.1.1.1', '10.1.1.2']) {
      for (let n = 1; n <= 3; n += 1) {
        await requestCode(exhibitor.email, client);
        t.clock.advance(31 * SECOND);
      }
      const fourth = await statementsOf(() => start(exhibitor.email, client));
      expect(fourth.result.status).toBe(429);
      expect(errorOf(refused(fourth.result))).toEqual({
        code: 'rate_limited',
        message: MSG.tooManyRequests,
      });
      expect(fourth.sql).toHaveLength(1);
    }
    expect(await codeRowsOf(exhibitor.id)).toHaveLength(6);

    // A third client at the address's ceiling: the codes already mailed work, nothing is sent.
    const atCeiling = await statementsOf(() => start(exhibitor.email, '10.1.1.3'));
    expect(atCeiling.result.status).toBe(200);
    expect(answered(atCeiling.result).data).toEqual({ next: 'code' });
    expect(atCeiling.sql).toHaveLength(1);
    expect(await codeMailsOf(exhibitor.id)).toHaveLength(6);

    // Once the codes have expired, the ceiling refuses: there is nothing to type.
    t.clock.advance(15 * MINUTE);
    const noneLive = await statementsOf(() => start(exhibitor.email, '10.1.1.4'));
    expect(noneLive.result.status).toBe(429);
    expect(errorOf(refused(noneLive.result))).toEqual({
      code: 'rate_limited',
      message: MSG.tooManyRequests,
    });
    expect(noneLive.sql).toHaveLength(1);
    expect(await codeRowsOf(exhibitor.id)).toHaveLength(6);
    expect((await sendCountersOf(exhibitor.id)).filter((row) => row.key === exhibitor.id)).toEqual([
      expect.objectContaining({ scope: 'code-send-address', hits: 6 }),
    ]);
  });

  it("goes on to the administrators for an address that is no exhibitor's", async () => {
    const admin = await seedAdmin(t.deps.db);
    const password = await statementsOf(() => start(admin.email));
    expect(password.result.status).toBe(200);
    expect(answered(password.result).data).toEqual({ next: 'admin' });
    expect(password.sql).toHaveLength(2);
    expect(password.sql[0]).toMatch(/^select\s+premios_request_sign_in_code\(/);

    const unknown = await statementsOf(() => start('nadie@expo.test'));
    expect(unknown.result.status).toBe(404);
    expect(errorOf(refused(unknown.result))).toEqual({
      code: 'not_found',
      message: MSG.accountNotFound,
    });
    expect(await t.deliverMail()).toBe(0);
  });

  it('keeps the sending limits exact under parallel email steps', async () => {
    // One client, 20 at once: one code; the others are told the code is on its way.
    const fromOne = await Promise.all(
      Array.from({ length: 20 }, () => start(exhibitor.email, '10.3.0.1')),
    );
    expect(fromOne.map((reply) => reply.status)).toEqual(Array<number>(20).fill(200));
    expect(await codeRowsOf(exhibitor.id)).toHaveLength(1);
    expect(await codeMailsOf(exhibitor.id)).toHaveLength(1);

    // 40 clients at once: the address's ceiling of 6 codes an hour holds, every answer "code".
    const fromMany = await Promise.all(
      Array.from({ length: 40 }, (_, i) => start(exhibitor.email, `10.3.1.${i + 1}`)),
    );
    expect(fromMany.map((reply) => reply.status)).toEqual(Array<number>(40).fill(200));
    expect(await codeRowsOf(exhibitor.id)).toHaveLength(6);
    expect(await codeMailsOf(exhibitor.id)).toHaveLength(6);
    expect((await sendCountersOf(exhibitor.id)).filter((row) => row.key === exhibitor.id)).toEqual([
      expect.objectContaining({ scope: 'code-send-address', hits: 6 }),
    ]);
    expect(await t.deliverMail()).toBe(6);
  });
});
