import { describe, expect, it } from 'vitest';
import {
  confirmPasswordReset,
  requestPasswordReset,
  signInWithCode,
  signInWithLink,
  signInWithPassword,
  startSignIn,
} from '../../src/shared/api/auth.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, errorOf, failureOf, refused, sessionSetBy } from '../helpers/client.ts';
import { seedAdmin, seedExhibitor } from '../helpers/seed.ts';

/*
 * Sign-in as an attacker sees it: behind a trusted proxy, the client address is what
 * X-Forwarded-For says, so one machine can pose as many clients. The limits must keep guessing
 * bounded without letting anyone keep the real owner of an address out.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;

const VOTER = '203.0.113.5';
const attacker = (n: number) => `198.51.100.${n}`;

const statusCounts = (responses: { status: number }[]) =>
  responses.reduce<Record<number, number>>((counts, r) => {
    counts[r.status] = (counts[r.status] ?? 0) + 1;
    return counts;
  }, {});

describe('sign-in that a third party cannot block (TRUST_PROXY=true)', () => {
  const app = useTestApp({ config: { trustProxy: true } });

  const from = (client: string) => ({ headers: { 'x-forwarded-for': client } });
  const start = (email: string, client: string) =>
    app.signedOut.send(startSignIn, { body: { email } }, from(client));
  const enter = (email: string, code: string, client: string) =>
    app.signedOut.send(signInWithCode, { body: { email, code } }, from(client));
  const follow = (token: string, client: string) =>
    app.signedOut.send(signInWithLink, { body: { token } }, from(client));

  /** The code and link token of the newest mail to `email`. */
  async function mailbox(email: string): Promise<{ code: string; token: string }[]> {
    const { t } = app;
    await t.deliverMail();
    return t.smtp.allTo(email).map((mail) => {
      const code = /\b(\d{6})\b/.exec(mail.subject)?.[1];
      const token = /http:\/\/premios\.test\/signin\/link\?token=([\w-]+)/.exec(mail.text)?.[1];
      if (!code || !token) throw new Error(`no code or link in: ${mail.text}`);
      return { code, token };
    });
  }
  /** The code and link of the first mail the address has received. */
  async function firstMail(email: string): Promise<{ code: string; token: string }> {
    const [first] = await mailbox(email);
    if (!first) throw new Error(`no mail to ${email}`);
    return first;
  }
  const wrongFor = (codes: string[]) => {
    for (let n = 0; ; n += 1) {
      const candidate = String(n).padStart(6, '0');
      if (!codes.includes(candidate)) return candidate;
    }
  };

  it('evaluates at most 5 of 40 parallel wrong codes from one client; the rest answer 429', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    expect((await start(exhibitor.email, VOTER)).status).toBe(200);
    const { code } = await firstMail(exhibitor.email);
    const wrong = wrongFor([code]);
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => enter(exhibitor.email, wrong, attacker(1))),
    );
    expect(statusCounts(responses)).toEqual({ 400: 5, 429: 35 });
    for (const r of responses.filter((r) => r.status === 429)) {
      expect(errorOf(refused(r))).toEqual({
        code: 'code_tries_exhausted',
        message: MSG.codeTriesExhausted,
      });
    }
    // The guessing client is refused even the right code; the voter's own device gets in.
    expect((await enter(exhibitor.email, code, attacker(1))).status).toBe(429);
    const own = await enter(exhibitor.email, code, VOTER);
    expect(own.status).toBe(200);
    expect(sessionSetBy(own.response)).toBeDefined();
  });

  it('evaluates at most 15 + 5 of 40 parallel wrong codes from 40 clients (daily cap and grace)', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    expect((await start(exhibitor.email, VOTER)).status).toBe(200);
    const { code } = await firstMail(exhibitor.email);
    const wrong = wrongFor([code]);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, n) => enter(exhibitor.email, wrong, attacker(n + 1))),
    );
    expect(statusCounts(responses)).toEqual({ 400: 20, 429: 20 });
    const counters = await t.deps.db
      .selectFrom('auth_throttle')
      .select(['scope', 'hits'])
      .where('key', '=', exhibitor.id)
      .where('scope', 'in', ['code-try-address', 'code-try-grace'])
      .orderBy('scope')
      .execute();
    expect(counters).toEqual([
      { scope: 'code-try-address', hits: 15 },
      { scope: 'code-try-grace', hits: 5 },
    ]);
    // Past the cap, a client that has been guessing is refused even the right code.
    const guesser = refused(await enter(exhibitor.email, code, attacker(1)));
    expect(guesser.status).toBe(429);
    expect(guesser.message).toBe(MSG.codeTriesExhausted);
    // The link in the voter's mailbox is bound to none of those counters.
    const { token } = await firstMail(exhibitor.email);
    expect((await follow(token, VOTER)).status).toBe(200);
  });

  it('issues at most 6 codes for 40 parallel requests from 40 clients, and 1 from one client', async () => {
    const { t } = app;
    const many = await seedExhibitor(t.deps.db);
    const fromMany = await Promise.all(
      Array.from({ length: 40 }, (_, n) => start(many.email, attacker(n + 1))),
    );
    // Those past the ceiling are sent to the code step while a code is alive, refused before.
    for (const response of fromMany) {
      if (response.status === 429) {
        expect(refused(response).message).toBe(MSG.tooManyRequests);
      } else expect(answered(response).data).toEqual({ next: 'code' });
    }
    const one = await seedExhibitor(t.deps.db);
    const fromOne = await Promise.all(Array.from({ length: 40 }, () => start(one.email, VOTER)));
    expect(new Set(fromOne.map((r) => r.status))).toEqual(new Set([200]));
    const issued = async (exhibitorId: string) =>
      (
        await t.deps.db
          .selectFrom('sign_in_codes')
          .select('id')
          .where('exhibitor_id', '=', exhibitorId)
          .execute()
      ).length;
    expect(await issued(many.id)).toBe(6);
    expect(await issued(one.id)).toBe(1);
    expect(await mailbox(many.email)).toHaveLength(6);
    expect(await mailbox(one.email)).toHaveLength(1);
  });

  it('50 code requests and 100 wrong codes from strangers leave the voter able to sign in', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    expect((await start(exhibitor.email, VOTER)).status).toBe(200);
    const [voterMail] = (await mailbox(exhibitor.email)) as [{ code: string; token: string }];

    t.clock.advance(MINUTE);
    for (let n = 0; n < 50; n += 1) {
      const response = await start(exhibitor.email, attacker(n % 10));
      expect([200, 429]).toContain(response.status);
    }
    const mails = await mailbox(exhibitor.email);
    expect(mails.length).toBeLessThanOrEqual(6);
    const wrong = wrongFor(mails.map((m) => m.code));
    // One stranger guessing alone uses up only their own allowance.
    for (let n = 0; n < 20; n += 1) await enter(exhibitor.email, wrong, attacker(200));
    t.clock.advance(MINUTE);
    // The code that reached the voter's mailbox first still works from the voter's device.
    const withCode = await enter(exhibitor.email, voterMail.code, VOTER);
    expect(withCode.status).toBe(200);

    // Again, now with 100 wrong codes spread over 20 strangers: the daily cap is reached, and
    // the voter, told so, signs in with the link of any mail still in its 15 minutes.
    const second = await seedExhibitor(t.deps.db);
    expect((await start(second.email, VOTER)).status).toBe(200);
    for (let n = 0; n < 50; n += 1) await start(second.email, attacker(n % 10));
    const secondMails = await mailbox(second.email);
    const secondWrong = wrongFor(secondMails.map((m) => m.code));
    for (let n = 0; n < 100; n += 1) {
      const response = await enter(second.email, secondWrong, attacker(100 + (n % 20)));
      expect([400, 429]).toContain(response.status);
    }
    const voterRefused = refused(await enter(second.email, secondMails[0]!.code, VOTER));
    expect(voterRefused.status).toBe(429);
    expect(voterRefused.message).toBe(MSG.codeTriesExhausted);
    const viaLink = answered(await follow(secondMails[0]!.token, VOTER));
    expect(viaLink.status).toBe(200);
    expect(viaLink.data.user).toMatchObject({ role: 'exh', email: second.email });
  });
});

describe('the one-time sign-in link', () => {
  const app = useTestApp();

  const follow = (token: string) => app.signedOut.send(signInWithLink, { body: { token } });

  async function linkFor(email: string): Promise<string> {
    const { t } = app;
    const started = await app.signedOut.send(startSignIn, { body: { email } });
    expect(started.status).toBe(200);
    await t.deliverMail();
    const mail = t.smtp.latestTo(email)!;
    const token = /http:\/\/premios\.test\/signin\/link\?token=([\w-]+)/.exec(mail.text)?.[1];
    expect(mail.html).toContain(`http://premios.test/signin/link?token=${token}`);
    if (!token) throw new Error('no link in the email');
    return token;
  }

  it('signs in once with a 128-bit token, stored only as a hash; the code of that mail is spent too', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    const token = await linkFor(exhibitor.email);
    expect(Buffer.from(token, 'base64url')).toHaveLength(16);
    const row = await t.deps.db
      .selectFrom('sign_in_codes')
      .select(['link_hash'])
      .where('exhibitor_id', '=', exhibitor.id)
      .executeTakeFirstOrThrow();
    expect(row.link_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.link_hash).not.toContain(token);

    // Opening the page is a GET of the web app: the API has no GET for the link (another route).
    const get = await t.request({ method: 'GET', url: `/api/auth/link?token=${token}` });
    expect(get.statusCode).toBe(404);

    const ok = answered(await follow(token));
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({
      user: { role: 'exh', email: exhibitor.email, fullName: exhibitor.fullName },
    });
    const again = refused(await follow(token));
    expect(again.status).toBe(400);
    expect(errorOf(again)).toEqual({ code: 'invalid_link', message: MSG.invalidSignInLink });
    const code = /\b(\d{6})\b/.exec(t.smtp.latestTo(exhibitor.email)!.subject)![1]!;
    expect(
      (await app.signedOut.send(signInWithCode, { body: { email: exhibitor.email, code } })).status,
    ).toBe(400);
  });

  it('expires after 15 minutes, and refuses made-up or malformed tokens in Spanish', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    const token = await linkFor(exhibitor.email);
    t.clock.advance(15 * MINUTE);
    const late = refused(await follow(token));
    expect(late.status).toBe(400);
    expect(late.message).toBe(MSG.invalidSignInLink);
    for (const bad of ['inventado', '', 'x'.repeat(201)]) {
      const response = refused(await follow(bad));
      expect(response.status).toBe(400);
      expect(response.message).toBe(MSG.invalidSignInLink);
    }
    // A value of the wrong kind (the contract forbids it: sent as is) is named as such, as on
    // every JSON route.
    const number = await t.request({
      method: 'POST',
      url: '/api/auth/link',
      payload: { token: 42 },
    });
    expect(number.statusCode).toBe(400);
    expect(failureOf(number).message).toBe(MSG.expectedText);
  });

  it('works once among 40 parallel uses', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    const token = await linkFor(exhibitor.email);
    const responses = await Promise.all(Array.from({ length: 40 }, () => follow(token)));
    expect(statusCounts(responses)).toEqual({ 200: 1, 400: 39 });
    const sessions = await t.deps.db
      .selectFrom('sessions')
      .select('id')
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    expect(sessions).toHaveLength(1);
  });
});

describe('administrator sign-in without lockout as a weapon (TRUST_PROXY=true)', () => {
  const app = useTestApp({ config: { trustProxy: true } });

  const signIn = (email: string, password: string, client: string) =>
    app.signedOut.send(
      signInWithPassword,
      { body: { email, password } },
      { headers: { 'x-forwarded-for': client } },
    );

  it('evaluates 5 of 40 parallel wrong passwords from one client; the owner gets in from another on the first try', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db);
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => signIn(admin.email, 'mal-mal-mal', attacker(1))),
    );
    expect(statusCounts(responses)).toEqual({ 400: 5, 429: 35 });
    const failures = await t.deps.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'admin.sign_in_failed')
      .where('entity_id', '=', admin.id)
      .execute();
    expect(failures).toHaveLength(5);
    expect((await signIn(admin.email, admin.password, attacker(1))).status).toBe(429);
    const owner = answered(await signIn(admin.email, admin.password, VOTER));
    expect(owner.status).toBe(200);
    expect(owner.data).toMatchObject({ user: { role: 'admin', email: admin.email } });
  });

  it('past the hourly account ceiling, refuses guessing clients but not a first try from elsewhere', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db);
    expect((await signIn(admin.email, 'mal-mal-mal', attacker(2))).status).toBe(400);
    // As if 100 tries had been made this hour from many clients.
    await t.deps.db
      .updateTable('auth_throttle')
      .set({ hits: 100 })
      .where('scope', '=', 'password-try-account')
      .where('key', '=', admin.id)
      .execute();
    const guesser = refused(await signIn(admin.email, admin.password, attacker(2)));
    expect(guesser.status).toBe(429);
    expect(guesser.message).toBe(MSG.tooManyRequests);
    expect((await signIn(admin.email, admin.password, VOTER)).status).toBe(200);
    t.clock.advance(60 * MINUTE);
    expect((await signIn(admin.email, admin.password, attacker(2))).status).toBe(200);
  });

  it('a completed password reset clears the counters of the account', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db);
    for (let n = 0; n < 5; n += 1) {
      expect((await signIn(admin.email, 'mal-mal-mal', attacker(3))).status).toBe(400);
    }
    expect((await signIn(admin.email, admin.password, attacker(3))).status).toBe(429);
    await app.signedOut.call(requestPasswordReset, { body: { email: admin.email } });
    await t.deliverMail();
    const oobCode = /oobCode=([\w-]+)/.exec(t.smtp.latestTo(admin.email)!.text)![1]!;
    const confirmed = await app.signedOut.send(confirmPasswordReset, {
      body: {
        oobCode,
        password: 'nueva-clave-segura-9',
        confirmPassword: 'nueva-clave-segura-9',
      },
    });
    expect(confirmed.status).toBe(200);
    const left = await t.deps.db
      .selectFrom('auth_throttle')
      .select('scope')
      .where('key', 'like', `${admin.id}%`)
      .execute();
    expect(left).toEqual([]);
    expect((await signIn(admin.email, 'nueva-clave-segura-9', attacker(3))).status).toBe(200);
  });

  it('refuses a made-up reset link without hashing the password (no work for an attacker)', async () => {
    const started = performance.now();
    const responses = await Promise.all(
      Array.from({ length: 40 }, () =>
        app.signedOut.send(confirmPasswordReset, {
          body: {
            oobCode: 'inventado',
            password: 'clave-larga-123',
            confirmPassword: 'clave-larga-123',
          },
        }),
      ),
    );
    expect(statusCounts(responses)).toEqual({ 400: 40 });
    expect(refused(responses[0]!).message).toBe(MSG.resetFailed);
    // 40 argon2 hashes take seconds on this machine; 40 lookups take a fraction of that.
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
