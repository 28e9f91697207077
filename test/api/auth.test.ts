import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { hashToken } from '../../src/server/lib/crypto.ts';
import { verifyPassword } from '../../src/server/lib/passwords.ts';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, TEST_NOW, type Session, type TestApp } from '../helpers/app.ts';
import { seedAdmin, seedExhibitor } from '../helpers/seed.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

function sessionOf(response: LightMyRequestResponse): Session {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error('no session cookie');
  return { token: cookie.value, cookie: `${SESSION_COOKIE}=${cookie.value}` };
}

describe('exhibitor sign-in with an emailed code', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const start = (email: string, remoteAddress = '127.0.0.1') =>
    t.request({ method: 'POST', url: '/api/auth/start', payload: { email }, remoteAddress });
  const enter = (email: string, code: string, remoteAddress = '127.0.0.1') =>
    t.request({ method: 'POST', url: '/api/auth/code', payload: { email, code }, remoteAddress });

  /** Requests a code and returns it as emailed. */
  async function requestCode(email: string, typed = email, client?: string): Promise<string> {
    const before = t.smtp.allTo(email).length;
    const response = await start(typed, client);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ next: 'code' });
    await t.deliverMail();
    const mails = t.smtp.allTo(email);
    expect(mails).toHaveLength(before + 1);
    const code = /\b(\d{6})\b/.exec(mails.at(-1)!.text)?.[1];
    if (!code) throw new Error('no code in the email');
    return code;
  }

  it('emails a 6-digit code, stored only as a hash, valid 15 minutes; it works once', async () => {
    t.clock.set(TEST_NOW);
    const exhibitor = await seedExhibitor(t.deps.db, { email: 'uno@expo.test' });
    const code = await requestCode(exhibitor.email, ' UNO@Expo.test ');

    const mail = t.smtp.latestTo(exhibitor.email)!;
    expect(mail.subject).toBe(`Su código de acceso: ${code}`);
    expect(mail.html).toContain(code);
    expect(mail.html).toContain('cid:logo');
    const rows = await t.deps.db
      .selectFrom('sign_in_codes')
      .selectAll()
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code_hash).not.toContain(code);
    expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.expires_at).toBe(new Date(Date.parse(TEST_NOW) + 15 * MINUTE).toISOString());

    const ok = await enter(exhibitor.email, code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      user: { role: 'exh', email: exhibitor.email, fullName: exhibitor.fullName },
    });
    const session = await t.request({ method: 'GET', url: '/api/session', as: sessionOf(ok) });
    expect(session.json().user).toMatchObject({ role: 'exh', email: exhibitor.email });

    const again = await enter(exhibitor.email, code);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe(MSG.invalidCode);
    expect(again.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    // The sent message no longer holds the spent code.
    const outbox = await t.deps.db
      .selectFrom('mail_outbox')
      .select('params')
      .where('to_address', '=', exhibitor.email)
      .execute();
    expect(outbox.map((m) => m.params)).toEqual(['{}']);
  });

  it('refuses the 6th try from one client even when it is right (429); the code still works elsewhere', async () => {
    t.clock.set(TEST_NOW);
    const exhibitor = await seedExhibitor(t.deps.db);
    const code = await requestCode(exhibitor.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const response = await enter(exhibitor.email, wrong, '10.1.1.1');
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({ code: 'invalid_code', message: MSG.invalidCode });
    }
    const sixth = await enter(exhibitor.email, code, '10.1.1.1');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toEqual({
      code: 'code_tries_exhausted',
      message: MSG.codeTriesExhausted,
    });
    const row = await t.deps.db
      .selectFrom('sign_in_codes')
      .selectAll()
      .where('exhibitor_id', '=', exhibitor.id)
      .executeTakeFirstOrThrow();
    expect(row.voided_at).toBeNull();
    expect(row.used_at).toBeNull();
    // The guesser's tries spoiled nothing for the voter's own device.
    expect((await enter(exhibitor.email, code)).statusCode).toBe(200);
  });

  it('accepts the right code after 4 wrong tries', async () => {
    t.clock.set(TEST_NOW);
    const exhibitor = await seedExhibitor(t.deps.db);
    const code = await requestCode(exhibitor.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect((await enter(exhibitor.email, wrong)).statusCode).toBe(400);
    }
    expect((await enter(exhibitor.email, code)).statusCode).toBe(200);
  });

  it('refuses an expired code (15 minutes) and accepts one just before', async () => {
    t.clock.set(TEST_NOW);
    const late = await seedExhibitor(t.deps.db);
    const lateCode = await requestCode(late.email);
    const onTime = await seedExhibitor(t.deps.db);
    const onTimeCode = await requestCode(onTime.email);

    t.clock.advance(15 * MINUTE - SECOND);
    expect((await enter(onTime.email, onTimeCode)).statusCode).toBe(200);
    t.clock.advance(SECOND);
    const expired = await enter(late.email, lateCode);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.message).toBe(MSG.invalidCode);
  });

  it('sends at most one code per 30 s to a client; an earlier code stays valid after a new one', async () => {
    t.clock.set(TEST_NOW);
    const exhibitor = await seedExhibitor(t.deps.db);
    const first = await requestCode(exhibitor.email);

    t.clock.advance(29 * SECOND);
    const tooSoon = await start(exhibitor.email);
    expect(tooSoon.json()).toEqual({ next: 'code' });
    await t.deliverMail();
    expect(t.smtp.allTo(exhibitor.email)).toHaveLength(1);

    t.clock.advance(SECOND);
    const second = await requestCode(exhibitor.email);
    expect((await enter(exhibitor.email, first)).statusCode).toBe(200);
    // Signed in: every other code of the address is retired.
    if (first !== second) {
      const spent = await enter(exhibitor.email, second);
      expect(spent.statusCode).toBe(400);
      expect(spent.json().error.message).toBe(MSG.invalidCode);
    }
    const live = await t.deps.db
      .selectFrom('sign_in_codes')
      .select('id')
      .where('exhibitor_id', '=', exhibitor.id)
      .where('used_at', 'is', null)
      .where('voided_at', 'is', null)
      .execute();
    expect(live).toHaveLength(0);
  });

  it('sends at most 3 codes an hour to one client and 6 to one address', async () => {
    t.clock.set(TEST_NOW);
    const exhibitor = await seedExhibitor(t.deps.db);
    for (const client of ['10.2.0.1', '10.2.0.2']) {
      for (let n = 1; n <= 3; n += 1) {
        await requestCode(exhibitor.email, exhibitor.email, client);
        t.clock.advance(31 * SECOND);
      }
      const fourth = await start(exhibitor.email, client);
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json().error.message).toBe(MSG.tooManyRequests);
    }
    // A third client finds the address at its ceiling: no new mail, the codes already sent work.
    const third = await start(exhibitor.email, '10.2.0.3');
    expect(third.statusCode).toBe(200);
    expect(third.json()).toEqual({ next: 'code' });
    await t.deliverMail();
    expect(t.smtp.allTo(exhibitor.email)).toHaveLength(6);
    const rows = await t.deps.db
      .selectFrom('sign_in_codes')
      .select('id')
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    expect(rows).toHaveLength(6);

    // Once those codes have expired and the hour is over, a code is sent again.
    t.clock.advance(60 * MINUTE);
    await requestCode(exhibitor.email, exhibitor.email, '10.2.0.3');
  });

  it('answers a code for an address that has none with the same message', async () => {
    const nobody = await enter('nadie@expo.test', '123456');
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().error.message).toBe(MSG.invalidCode);
    const exhibitor = await seedExhibitor(t.deps.db);
    const noCode = await enter(exhibitor.email, '123456');
    expect(noCode.json().error.message).toBe(MSG.invalidCode);
    const malformed = await enter(exhibitor.email, '12a456');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toBe(MSG.invalidCode);
  });
});

describe('the email step', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const start = (email: string) =>
    t.request({ method: 'POST', url: '/api/auth/start', payload: { email } });

  it('sends an administrator with a completed account to the password step, mailing nothing', async () => {
    const admin = await seedAdmin(t.deps.db);
    const response = await start(admin.email);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ next: 'admin' });
    expect(await t.deliverMail()).toBe(0);
  });

  it('answers an unknown address with "La cuenta no existe"', async () => {
    const response = await start('desconocido@premios.test');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: 'not_found', message: MSG.accountNotFound },
    });
  });

  it('answers an invalid address with a field message', async () => {
    const response = await start('no-es-un-email');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ email: MSG.invalidEmail });
  });

  it('re-sends a pending administrator a fresh registration link, voiding the old one', async () => {
    t.clock.set(TEST_NOW);
    const invite = await t.request({
      method: 'POST',
      url: '/api/admins',
      payload: { email: 'pendiente@premios.test' },
      as: await t.signIn({ role: 'admin', adminId: (await seedAdmin(t.deps.db)).id }),
    });
    expect(invite.statusCode).toBe(201);
    await t.deliverMail();
    const firstLink = /token=([\w-]+)/.exec(t.smtp.latestTo('pendiente@premios.test')!.text)![1]!;

    t.clock.advance(MINUTE);
    const response = await start('pendiente@premios.test');
    expect(response.json()).toEqual({ next: 'pending' });
    await t.deliverMail();
    const mails = t.smtp.allTo('pendiente@premios.test');
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain('Ana Administradora le envió una invitación');
    const secondLink = /token=([\w-]+)/.exec(mails[1]!.text)![1]!;
    expect(secondLink).not.toBe(firstLink);

    const old = await t.request({
      method: 'GET',
      url: `/api/admins/invitation?token=${firstLink}`,
    });
    expect(old.statusCode).toBe(404);
    expect(old.json().error.message).toBe(MSG.invalidToken);
    const fresh = await t.request({
      method: 'GET',
      url: `/api/admins/invitation?token=${secondLink}`,
    });
    expect(fresh.json()).toEqual({ email: 'pendiente@premios.test' });

    // Asking again at once keeps the link just sent.
    expect((await start('pendiente@premios.test')).json()).toEqual({ next: 'pending' });
    await t.deliverMail();
    expect(t.smtp.allTo('pendiente@premios.test')).toHaveLength(2);
  });
});

describe('administrator password and reset', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signIn = (email: string, password: string) =>
    t.request({ method: 'POST', url: '/api/auth/password', payload: { email, password } });
  const requestReset = (email: string) =>
    t.request({ method: 'POST', url: '/api/auth/password-reset', payload: { email } });
  const confirmReset = (oobCode: string, password: string, confirmPassword = password) =>
    t.request({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { oobCode, password, confirmPassword },
    });

  async function resetLink(email: string): Promise<string> {
    await t.deliverMail();
    const mail = t.smtp.latestTo(email);
    expect(mail?.subject).toBe('Recuperar contraseña');
    const match = /http:\/\/premios\.test\/signin\/resetpassword\?oobCode=([\w-]+)/.exec(
      mail!.text,
    );
    expect(match).not.toBeNull();
    return match![1]!;
  }

  it('signs an administrator in with the right password', async () => {
    const admin = await seedAdmin(t.deps.db);
    const response = await signIn(admin.email, admin.password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { role: 'admin', email: admin.email, fullName: admin.fullName },
    });
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const stored = await t.deps.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('admin_id', '=', admin.id)
      .execute();
    expect(stored.map((s) => s.token_hash)).toEqual([hashToken(cookie.value)]);
  });

  it('says "La contraseña es incorrecta." for a wrong password and "No se pudo iniciar sesión." otherwise', async () => {
    const admin = await seedAdmin(t.deps.db);
    const wrong = await signIn(admin.email, 'otra-clave-123');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(MSG.wrongPassword);
    expect(wrong.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    const unknown = await signIn('nadie@premios.test', 'otra-clave-123');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.message).toBe(MSG.signInFailed);
    const pending = await seedAdmin(t.deps.db, { fullName: null });
    expect((await signIn(pending.email, 'cualquier-cosa')).json().error.message).toBe(
      MSG.signInFailed,
    );
    const exhibitor = await seedExhibitor(t.deps.db);
    expect((await signIn(exhibitor.email, 'cualquier-cosa')).json().error.message).toBe(
      MSG.signInFailed,
    );
  });

  it('slows a guessing client down after 5 wrong passwords, never locking the account', async () => {
    t.clock.set(TEST_NOW);
    const admin = await seedAdmin(t.deps.db);
    const from = (password: string, remoteAddress: string) =>
      t.request({
        method: 'POST',
        url: '/api/auth/password',
        payload: { email: admin.email, password },
        remoteAddress,
      });
    for (let n = 0; n < 5; n += 1) {
      expect((await from('mal-mal-mal', '10.3.0.1')).json().error.message).toBe(MSG.wrongPassword);
    }
    // The 6th try waits 1 s, the 7th 2 s: refused before then, even with the right password.
    const tooSoon = await from(admin.password, '10.3.0.1');
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.json().error.message).toBe(MSG.tooManyRequests);
    t.clock.advance(SECOND);
    expect((await from('mal-mal-mal', '10.3.0.1')).statusCode).toBe(400);
    t.clock.advance(SECOND);
    expect((await from(admin.password, '10.3.0.1')).statusCode).toBe(429);
    // Meanwhile the owner, on another client, gets in on the first try.
    expect((await from(admin.password, '10.3.0.2')).statusCode).toBe(200);
    t.clock.advance(SECOND);
    expect((await from(admin.password, '10.3.0.1')).statusCode).toBe(200);
    // A correct password starts that client over: 5 free tries again.
    for (let n = 0; n < 5; n += 1) {
      expect((await from('mal-mal-mal', '10.3.0.1')).statusCode).toBe(400);
    }
  });

  it('resets a password through a single-use link; the old password and every session end', async () => {
    t.clock.set(TEST_NOW);
    const admin = await seedAdmin(t.deps.db, { email: 'olvido@premios.test' });
    const before = await signIn(admin.email, admin.password);
    const oldSession = sessionOf(before);

    const asked = await requestReset(admin.email);
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ ok: true });
    const oobCode = await resetLink(admin.email);
    const stored = await t.deps.db
      .selectFrom('password_reset_tokens')
      .selectAll()
      .where('admin_id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(oobCode));
    expect(stored.expires_at).toBe(new Date(Date.parse(TEST_NOW) + 60 * MINUTE).toISOString());

    const changed = await confirmReset(oobCode, 'Nueva-clave-2026');
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ ok: true });

    const row = await t.deps.db
      .selectFrom('admins')
      .select('password_hash')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash!, 'Nueva-clave-2026')).toBe(true);
    expect((await signIn(admin.email, admin.password)).json().error.message).toBe(
      MSG.wrongPassword,
    );
    expect((await signIn(admin.email, 'Nueva-clave-2026')).statusCode).toBe(200);
    const gone = await t.request({ method: 'GET', url: '/api/session', as: oldSession });
    expect(gone.json()).toEqual({ user: null });

    const reused = await confirmReset(oobCode, 'Otra-clave-2026');
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.message).toBe(MSG.resetFailed);
    expect((await signIn(admin.email, 'Nueva-clave-2026')).statusCode).toBe(200);
  });

  it('answers a reset request for an unknown address the same way, sending nothing', async () => {
    const known = await seedAdmin(t.deps.db);
    const a = await requestReset(known.email);
    const b = await requestReset('nadie-aqui@premios.test');
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.json()).toEqual(a.json());
    await t.deliverMail();
    expect(t.smtp.allTo('nadie-aqui@premios.test')).toHaveLength(0);
  });

  it('refuses an expired link (1 hour), a made-up one, and a weak or mismatched password', async () => {
    t.clock.set(TEST_NOW);
    const admin = await seedAdmin(t.deps.db);
    await requestReset(admin.email);
    const oobCode = await resetLink(admin.email);

    const short = await confirmReset(oobCode, 'corta');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.message).toBe(MSG.resetWeakPassword);
    const common = await confirmReset(oobCode, 'password123');
    expect(common.json().error.message).toBe(MSG.resetWeakPassword);
    const mismatch = await confirmReset(oobCode, 'Nueva-clave-2026', 'Nueva-clave-2027');
    expect(mismatch.json().error.message).toBe(MSG.resetPasswordMismatch);
    expect((await confirmReset('inventado', 'Nueva-clave-2026')).json().error.message).toBe(
      MSG.resetFailed,
    );

    t.clock.advance(60 * MINUTE);
    const expired = await confirmReset(oobCode, 'Nueva-clave-2026');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.message).toBe(MSG.resetFailed);
    expect((await signIn(admin.email, admin.password)).statusCode).toBe(200);
  });

  it('sends at most one reset link per 30 s, and only the newest works', async () => {
    t.clock.set(TEST_NOW);
    const admin = await seedAdmin(t.deps.db);
    await requestReset(admin.email);
    const first = await resetLink(admin.email);
    await requestReset(admin.email);
    await t.deliverMail();
    expect(t.smtp.allTo(admin.email)).toHaveLength(1);
    t.clock.advance(30 * SECOND);
    await requestReset(admin.email);
    const second = await resetLink(admin.email);
    expect(t.smtp.allTo(admin.email)).toHaveLength(2);
    expect((await confirmReset(first, 'Nueva-clave-2026')).json().error.message).toBe(
      MSG.resetFailed,
    );
    expect((await confirmReset(second, 'Nueva-clave-2026')).statusCode).toBe(200);
  });
});

describe('signing out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('"Salir" deletes the session row; the token no longer works', async () => {
    const exhibitor = await seedExhibitor(t.deps.db);
    const session = await t.signIn({ role: 'exh', exhibitorId: exhibitor.id });
    const out = await t.request({ method: 'DELETE', url: '/api/session', as: session });
    expect(out.statusCode).toBe(200);
    const rows = await t.deps.db
      .selectFrom('sessions')
      .select('id')
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    expect(rows).toHaveLength(0);
    expect((await t.request({ method: 'GET', url: '/api/session', as: session })).json()).toEqual({
      user: null,
    });
  });
});
