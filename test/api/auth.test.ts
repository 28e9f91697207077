import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/server/lib/crypto.ts';
import { verifyPassword } from '../../src/server/lib/passwords.ts';
import { getInvitation, inviteAdmin } from '../../src/shared/api/admins.ts';
import {
  confirmPasswordReset,
  requestPasswordReset,
  signInWithCode,
  signInWithPassword,
  startSignIn,
} from '../../src/shared/api/auth.ts';
import { getSession, signOut } from '../../src/shared/api/session.ts';
import { SESSION_COOKIE } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { TEST_NOW, type Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, errorOf, refused, sessionSetBy } from '../helpers/client.ts';
import { seedAdmin, seedExhibitor } from '../helpers/seed.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

function sessionOf(response: Parameters<typeof sessionSetBy>[0]): Session {
  const session = sessionSetBy(response);
  if (!session) throw new Error('no session cookie');
  return session;
}

describe('exhibitor sign-in with an emailed code', () => {
  const app = useTestApp();

  const start = (email: string, remoteAddress = '127.0.0.1') =>
    app.signedOut.send(startSignIn, { body: { email } }, { remoteAddress });
  const enter = (email: string, code: string, remoteAddress = '127.0.0.1') =>
    app.signedOut.send(signInWithCode, { body: { email, code } }, { remoteAddress });

  /** Requests a code and returns it as emailed. */
  async function requestCode(email: string, typed = email, client?: string): Promise<string> {
    const { t } = app;
    const before = t.smtp.allTo(email).length;
    const response = answered(await start(typed, client));
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ next: 'code' });
    await t.deliverMail();
    const mails = t.smtp.allTo(email);
    expect(mails).toHaveLength(before + 1);
    const code = /\b(\d{6})\b/.exec(mails.at(-1)!.text)?.[1];
    if (!code) throw new Error('no code in the email');
    return code;
  }

  it('emails a 6-digit code, stored only as a hash, valid 15 minutes; it works once', async () => {
    const { t } = app;
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

    const ok = answered(await enter(exhibitor.email, code));
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({
      user: { role: 'exh', email: exhibitor.email, fullName: exhibitor.fullName },
    });
    const session = await app.client(sessionOf(ok.response)).call(getSession, {});
    expect(session.user).toMatchObject({ role: 'exh', email: exhibitor.email });

    const again = refused(await enter(exhibitor.email, code));
    expect(again.status).toBe(400);
    expect(again.message).toBe(MSG.invalidCode);
    expect(sessionSetBy(again.response)).toBeUndefined();

    // The sent message no longer holds the spent code.
    const outbox = await t.deps.db
      .selectFrom('mail_outbox')
      .select('params')
      .where('to_address', '=', exhibitor.email)
      .execute();
    expect(outbox.map((m) => m.params)).toEqual(['{}']);
  });

  it('refuses the 6th try from one client even when it is right (429); the code still works elsewhere', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    const code = await requestCode(exhibitor.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const response = refused(await enter(exhibitor.email, wrong, '10.1.1.1'));
      expect(response.status).toBe(400);
      expect(errorOf(response)).toEqual({ code: 'invalid_code', message: MSG.invalidCode });
    }
    const sixth = refused(await enter(exhibitor.email, code, '10.1.1.1'));
    expect(sixth.status).toBe(429);
    expect(errorOf(sixth)).toEqual({
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
    expect((await enter(exhibitor.email, code)).status).toBe(200);
  });

  it('accepts the right code after 4 wrong tries', async () => {
    const exhibitor = await seedExhibitor(app.db);
    const code = await requestCode(exhibitor.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect((await enter(exhibitor.email, wrong)).status).toBe(400);
    }
    expect((await enter(exhibitor.email, code)).status).toBe(200);
  });

  it('refuses an expired code (15 minutes) and accepts one just before', async () => {
    const { t } = app;
    const late = await seedExhibitor(t.deps.db);
    const lateCode = await requestCode(late.email);
    const onTime = await seedExhibitor(t.deps.db);
    const onTimeCode = await requestCode(onTime.email);

    t.clock.advance(15 * MINUTE - SECOND);
    expect((await enter(onTime.email, onTimeCode)).status).toBe(200);
    t.clock.advance(SECOND);
    const expired = refused(await enter(late.email, lateCode));
    expect(expired.status).toBe(400);
    expect(expired.message).toBe(MSG.invalidCode);
  });

  it('sends at most one code per 30 s to a client; an earlier code stays valid after a new one', async () => {
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    const first = await requestCode(exhibitor.email);

    t.clock.advance(29 * SECOND);
    const tooSoon = answered(await start(exhibitor.email));
    expect(tooSoon.data).toEqual({ next: 'code' });
    await t.deliverMail();
    expect(t.smtp.allTo(exhibitor.email)).toHaveLength(1);

    t.clock.advance(SECOND);
    const second = await requestCode(exhibitor.email);
    expect((await enter(exhibitor.email, first)).status).toBe(200);
    // Signed in: every other code of the address is retired.
    if (first !== second) {
      const spent = refused(await enter(exhibitor.email, second));
      expect(spent.status).toBe(400);
      expect(spent.message).toBe(MSG.invalidCode);
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
    const { t } = app;
    const exhibitor = await seedExhibitor(t.deps.db);
    for (const client of ['10.2.0.1', '10.2.0.2']) {
      for (let n = 1; n <= 3; n += 1) {
        await requestCode(exhibitor.email, exhibitor.email, client);
        t.clock.advance(31 * SECOND);
      }
      const fourth = refused(await start(exhibitor.email, client));
      expect(fourth.status).toBe(429);
      expect(fourth.message).toBe(MSG.tooManyRequests);
    }
    // A third client finds the address at its ceiling: no new mail, the codes already sent work.
    const third = answered(await start(exhibitor.email, '10.2.0.3'));
    expect(third.status).toBe(200);
    expect(third.data).toEqual({ next: 'code' });
    await t.deliverMail();
    expect(t.smtp.allTo(exhibitor.email)).toHaveLength(6);
    const rows = await t.deps.db
      .selectFrom('sign_in_codes')
      .select('id')
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    expect(rows).toHaveLength(6);

    // Once those codes have expired, the ceiling refuses: there is no code left to type.
    t.clock.advance(15 * MINUTE);
    const noneLive = refused(await start(exhibitor.email, '10.2.0.4'));
    expect(noneLive.status).toBe(429);
    expect(noneLive.message).toBe(MSG.tooManyRequests);

    // Once the hour is over too, a code is sent again.
    t.clock.advance(45 * MINUTE);
    await requestCode(exhibitor.email, exhibitor.email, '10.2.0.3');
  });

  it('answers a code for an address that has none with the same message', async () => {
    const nobody = refused(await enter('nadie@expo.test', '123456'));
    expect(nobody.status).toBe(400);
    expect(nobody.message).toBe(MSG.invalidCode);
    const exhibitor = await seedExhibitor(app.db);
    const noCode = refused(await enter(exhibitor.email, '123456'));
    expect(noCode.message).toBe(MSG.invalidCode);
    const malformed = refused(await enter(exhibitor.email, '12a456'));
    expect(malformed.status).toBe(400);
    expect(malformed.message).toBe(MSG.invalidCode);
  });
});

describe('the email step', () => {
  const app = useTestApp();

  const start = (email: string) => app.signedOut.send(startSignIn, { body: { email } });

  it('sends an administrator with a completed account to the password step, mailing nothing', async () => {
    const admin = await seedAdmin(app.db);
    const response = answered(await start(admin.email));
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ next: 'admin' });
    expect(await app.t.deliverMail()).toBe(0);
  });

  it('answers an unknown address with "La cuenta no existe"', async () => {
    const response = refused(await start('desconocido@premios.test'));
    expect(response.status).toBe(404);
    expect(errorOf(response)).toEqual({ code: 'not_found', message: MSG.accountNotFound });
  });

  it('answers an invalid address with a field message', async () => {
    const response = refused(await start('no-es-un-email'));
    expect(response.status).toBe(400);
    expect(response.fields).toEqual({ email: MSG.invalidEmail });
  });

  it('re-sends a pending administrator a fresh registration link, voiding the old one', async () => {
    const { t } = app;
    // The fixture's administrator, "Ana Administradora", invites.
    await app.api.call(inviteAdmin, { body: { email: 'pendiente@premios.test' } });
    await t.deliverMail();
    const firstLink = /token=([\w-]+)/.exec(t.smtp.latestTo('pendiente@premios.test')!.text)![1]!;

    t.clock.advance(MINUTE);
    expect(answered(await start('pendiente@premios.test')).data).toEqual({ next: 'pending' });
    await t.deliverMail();
    const mails = t.smtp.allTo('pendiente@premios.test');
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain('Ana Administradora le envió una invitación');
    const secondLink = /token=([\w-]+)/.exec(mails[1]!.text)![1]!;
    expect(secondLink).not.toBe(firstLink);

    const old = await app.signedOut.fail(getInvitation, { query: { token: firstLink } });
    expect(old.status).toBe(404);
    expect(old.message).toBe(MSG.invalidToken);
    const fresh = await app.signedOut.call(getInvitation, { query: { token: secondLink } });
    expect(fresh).toEqual({ email: 'pendiente@premios.test' });

    // Asking again at once keeps the link just sent.
    expect(answered(await start('pendiente@premios.test')).data).toEqual({ next: 'pending' });
    await t.deliverMail();
    expect(t.smtp.allTo('pendiente@premios.test')).toHaveLength(2);
  });
});

describe('administrator password and reset', () => {
  const app = useTestApp();

  const signIn = (email: string, password: string) =>
    app.signedOut.send(signInWithPassword, { body: { email, password } });
  const requestReset = (email: string) =>
    app.signedOut.send(requestPasswordReset, { body: { email } });
  const confirmReset = (oobCode: string, password: string, confirmPassword = password) =>
    app.signedOut.send(confirmPasswordReset, { body: { oobCode, password, confirmPassword } });

  async function resetLink(email: string): Promise<string> {
    const { t } = app;
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
    const admin = await seedAdmin(app.db);
    const response = answered(await signIn(admin.email, admin.password));
    expect(response.status).toBe(200);
    expect(response.data).toEqual({
      user: { role: 'admin', email: admin.email, fullName: admin.fullName },
    });
    // The cookie's attributes: read from the raw header.
    const cookie = response.response.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const stored = await app.db
      .selectFrom('sessions')
      .select('token_hash')
      .where('admin_id', '=', admin.id)
      .execute();
    expect(stored.map((s) => s.token_hash)).toEqual([hashToken(cookie.value)]);
  });

  it('says "La contraseña es incorrecta." for a wrong password and "No se pudo iniciar sesión." otherwise', async () => {
    const admin = await seedAdmin(app.db);
    const wrong = refused(await signIn(admin.email, 'otra-clave-123'));
    expect(wrong.status).toBe(400);
    expect(wrong.message).toBe(MSG.wrongPassword);
    expect(sessionSetBy(wrong.response)).toBeUndefined();

    const unknown = refused(await signIn('nadie@premios.test', 'otra-clave-123'));
    expect(unknown.status).toBe(400);
    expect(unknown.message).toBe(MSG.signInFailed);
    const pending = await seedAdmin(app.db, { fullName: null });
    expect(refused(await signIn(pending.email, 'cualquier-cosa')).message).toBe(MSG.signInFailed);
    const exhibitor = await seedExhibitor(app.db);
    expect(refused(await signIn(exhibitor.email, 'cualquier-cosa')).message).toBe(MSG.signInFailed);
  });

  it('slows a guessing client down after 5 wrong passwords, never locking the account', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db);
    const from = (password: string, remoteAddress: string) =>
      app.signedOut.send(
        signInWithPassword,
        { body: { email: admin.email, password } },
        { remoteAddress },
      );
    for (let n = 0; n < 5; n += 1) {
      expect(refused(await from('mal-mal-mal', '10.3.0.1')).message).toBe(MSG.wrongPassword);
    }
    // The 6th try waits 1 s, the 7th 2 s: refused before then, even with the right password.
    const tooSoon = refused(await from(admin.password, '10.3.0.1'));
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.message).toBe(MSG.tooManyRequests);
    t.clock.advance(SECOND);
    expect((await from('mal-mal-mal', '10.3.0.1')).status).toBe(400);
    t.clock.advance(SECOND);
    expect((await from(admin.password, '10.3.0.1')).status).toBe(429);
    // Meanwhile the owner, on another client, gets in on the first try.
    expect((await from(admin.password, '10.3.0.2')).status).toBe(200);
    t.clock.advance(SECOND);
    expect((await from(admin.password, '10.3.0.1')).status).toBe(200);
    // A correct password starts that client over: 5 free tries again.
    for (let n = 0; n < 5; n += 1) {
      expect((await from('mal-mal-mal', '10.3.0.1')).status).toBe(400);
    }
  });

  it('resets a password through a single-use link; the old password and every session end', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db, { email: 'olvido@premios.test' });
    const before = answered(await signIn(admin.email, admin.password));
    const oldSession = sessionOf(before.response);

    const asked = answered(await requestReset(admin.email));
    expect(asked.status).toBe(200);
    expect(asked.data).toEqual({ ok: true });
    const oobCode = await resetLink(admin.email);
    const stored = await t.deps.db
      .selectFrom('password_reset_tokens')
      .selectAll()
      .where('admin_id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(oobCode));
    expect(stored.expires_at).toBe(new Date(Date.parse(TEST_NOW) + 60 * MINUTE).toISOString());

    const changed = answered(await confirmReset(oobCode, 'Nueva-clave-2026'));
    expect(changed.status).toBe(200);
    expect(changed.data).toEqual({ ok: true });

    const row = await t.deps.db
      .selectFrom('admins')
      .select('password_hash')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(row.password_hash!, 'Nueva-clave-2026')).toBe(true);
    expect(refused(await signIn(admin.email, admin.password)).message).toBe(MSG.wrongPassword);
    expect((await signIn(admin.email, 'Nueva-clave-2026')).status).toBe(200);
    expect(await app.client(oldSession).call(getSession, {})).toEqual({ user: null });

    const reused = refused(await confirmReset(oobCode, 'Otra-clave-2026'));
    expect(reused.status).toBe(400);
    expect(reused.message).toBe(MSG.resetFailed);
    expect((await signIn(admin.email, 'Nueva-clave-2026')).status).toBe(200);
  });

  it('answers a reset request for an unknown address the same way, sending nothing', async () => {
    const known = await seedAdmin(app.db);
    const a = answered(await requestReset(known.email));
    const b = answered(await requestReset('nadie-aqui@premios.test'));
    expect(b.status).toBe(a.status);
    expect(b.data).toEqual(a.data);
    await app.t.deliverMail();
    expect(app.t.smtp.allTo('nadie-aqui@premios.test')).toHaveLength(0);
  });

  it('refuses an expired link (1 hour), a made-up one, and a weak or mismatched password', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db);
    await requestReset(admin.email);
    const oobCode = await resetLink(admin.email);

    const short = refused(await confirmReset(oobCode, 'corta'));
    expect(short.status).toBe(400);
    expect(short.message).toBe(MSG.resetWeakPassword);
    const common = refused(await confirmReset(oobCode, 'password123'));
    expect(common.message).toBe(MSG.resetWeakPassword);
    const mismatch = refused(await confirmReset(oobCode, 'Nueva-clave-2026', 'Nueva-clave-2027'));
    expect(mismatch.message).toBe(MSG.resetPasswordMismatch);
    expect(refused(await confirmReset('inventado', 'Nueva-clave-2026')).message).toBe(
      MSG.resetFailed,
    );

    t.clock.advance(60 * MINUTE);
    const expired = refused(await confirmReset(oobCode, 'Nueva-clave-2026'));
    expect(expired.status).toBe(400);
    expect(expired.message).toBe(MSG.resetFailed);
    expect((await signIn(admin.email, admin.password)).status).toBe(200);
  });

  it('sends at most one reset link per 30 s, and only the newest works', async () => {
    const { t } = app;
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
    expect(refused(await confirmReset(first, 'Nueva-clave-2026')).message).toBe(MSG.resetFailed);
    expect((await confirmReset(second, 'Nueva-clave-2026')).status).toBe(200);
  });
});

describe('signing out', () => {
  const app = useTestApp();

  it('"Salir" deletes the session row; the token no longer works', async () => {
    const exhibitor = await seedExhibitor(app.db);
    const asExhibitor = await app.exhibitor(exhibitor.id);
    expect(await asExhibitor.call(signOut, {})).toEqual({ ok: true });
    const rows = await app.db
      .selectFrom('sessions')
      .select('id')
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    expect(rows).toHaveLength(0);
    expect(await asExhibitor.call(getSession, {})).toEqual({ user: null });
  });
});
