import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { resolveSecretKey, secretBox } from '../../src/server/lib/secret-box.ts';
import { inviteAdmin, listAdmins } from '../../src/shared/api/admins.ts';
import {
  disableMfa,
  enableMfa,
  mfaStatus,
  sendMfaEnrolCode,
  signInWithPassword,
  signInWithRecoveryCode,
  signInWithTotp,
  startMfaSetup,
} from '../../src/shared/api/auth.ts';
import { listEvents } from '../../src/shared/api/events.ts';
import { manual } from '../../src/shared/api/results.ts';
import { getSession } from '../../src/shared/api/session.ts';
import { MFA_CHALLENGE_COOKIE } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { TEST_NOW, TEST_SECRET_KEY, type Session } from '../helpers/app.ts';
import { useTestApp, type ApiFixture } from '../helpers/api-fixture.ts';
import { answered, errorOf, refused, sessionSetBy, type ApiFailure } from '../helpers/client.ts';
import { seedAdmin } from '../helpers/seed.ts';

/** The code an authenticator app shows for `secret` at `at`. */
const codeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

type Admin = Awaited<ReturnType<typeof seedAdmin>>;

/** The code mailed to `email` to enrol a second factor, as its owner reads it. */
async function mailedEnrolCode(app: ApiFixture, as: Session, email: string): Promise<string> {
  const { t } = app;
  expect(await app.client(as).call(sendMfaEnrolCode, {})).toEqual({ ok: true });
  await t.deliverMail();
  const mail = t.smtp.latestTo(email);
  expect(mail?.subject).toBe('Código para activar la verificación en dos pasos');
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  expect(code).toBeDefined();
  return code!;
}

/** "Activar verificación en dos pasos": the emailed code first, then the secret. */
async function startSetup(app: ApiFixture, as: Session, email: string) {
  const emailCode = await mailedEnrolCode(app, as, email);
  return app.client(as).send(startMfaSetup, { body: { emailCode } });
}

/** Helpers over one test app: enrol an administrator, sign in with password then code. */
function mfaSteps(app: ApiFixture) {
  const password = async (admin: Admin) =>
    answered(
      await app.signedOut.send(signInWithPassword, {
        body: { email: admin.email, password: admin.password },
      }),
    );
  /** The pending state's cookie header from a password answer. */
  const pendingCookie = (answer: Awaited<ReturnType<typeof password>>) => {
    const cookie = answer.response.cookies.find((c) => c.name === MFA_CHALLENGE_COOKIE);
    expect(cookie?.httpOnly).toBe(true);
    return `${MFA_CHALLENGE_COOKIE}=${cookie!.value}`;
  };
  const totp = (cookie: string | undefined, code: string) =>
    app.signedOut.send(signInWithTotp, { body: { code } }, cookie ? { headers: { cookie } } : {});
  const recovery = (cookie: string, recoveryCode: string) =>
    app.signedOut.send(signInWithRecoveryCode, { body: { recoveryCode } }, { headers: { cookie } });
  async function enrol(admin: Admin): Promise<{ secret: string; recoveryCodes: string[] }> {
    const as = await app.t.signIn({ role: 'admin', adminId: admin.id });
    const setup = answered(await startSetup(app, as, admin.email));
    expect(setup.status).toBe(200);
    const { secret } = setup.data;
    const { recoveryCodes } = await app
      .client(as)
      .call(enableMfa, { body: { code: codeAt(secret, app.t.clock.now()) } });
    return { secret, recoveryCodes };
  }
  return { password, pendingCookie, totp, recovery, enrol };
}

describe('second factor: enrolment and disabling', () => {
  // Ana's address is in the authenticator's label (otpauth URI).
  const app = useTestApp({ admin: { email: 'ana@premios.test', fullName: 'Ana' } });

  const row = () =>
    app.db
      .selectFrom('admins')
      .selectAll()
      .where('id', '=', app.admin.id)
      .executeTakeFirstOrThrow();
  const enable = (code: string) => app.api.send(enableMfa, { body: { code } });
  const disable = (code: string) => app.api.send(disableMfa, { body: { code } });

  it('enrols: secret as text and QR, confirmed by a code, ten recovery codes stored hashed', async () => {
    const { t, admin: ana } = app;
    expect(await app.api.call(mfaStatus, {})).toEqual({
      enabled: false,
      required: false,
      recoveryCodesLeft: 0,
    });

    const enableFirst = refused(await enable('123456'));
    expect(enableFirst.status).toBe(409);
    expect(enableFirst.message).toBe(MSG.mfaNotStarted);

    const setup = answered(await startSetup(app, app.as, ana.email));
    expect(setup.status).toBe(200);
    const { secret, otpauthUri, qrCode } = setup.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).toBe(
      `otpauth://totp/Premios:ana%40premios.test?issuer=Premios&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    // Stored sealed (AES-256-GCM under SECRET_KEY), never as the secret itself.
    const pending = (await row()).mfa_pending_secret!;
    expect(pending).not.toContain(secret);
    expect(secretBox(TEST_SECRET_KEY).open(pending)).toBe(secret);
    expect((await row()).mfa_enabled_at).toBeNull();

    const wrong = refused(await enable('000000'));
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong)).toMatchObject({
      message: MSG.mfaInvalidCode,
      fields: { code: MSG.mfaInvalidCode },
    });
    const malformed = refused(await enable('12ab'));
    expect(malformed.status).toBe(400);
    expect(malformed.message).toBe(MSG.mfaInvalidCode);

    const enabled = answered(await enable(codeAt(secret, t.clock.now())));
    expect(enabled.status).toBe(200);
    const { recoveryCodes } = enabled.data;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);

    const stored = await row();
    expect(stored.mfa_enabled_at).toBe(TEST_NOW);
    expect(stored.mfa_pending_secret).toBeNull();
    expect(secretBox(TEST_SECRET_KEY).open(stored.mfa_secret!)).toBe(secret);
    const hashes = await t.deps.db
      .selectFrom('admin_recovery_codes')
      .select('code_hash')
      .where('admin_id', '=', ana.id)
      .execute();
    expect(hashes).toHaveLength(10);
    const dump = JSON.stringify(hashes);
    for (const code of recoveryCodes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replace('-', ''));
    }
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('actor_id')
      .where('action', '=', 'admin.mfa_enabled')
      .executeTakeFirstOrThrow();
    expect(audit.actor_id).toBe(ana.id);

    expect(await app.api.call(mfaStatus, {})).toEqual({
      enabled: true,
      required: false,
      recoveryCodesLeft: 10,
    });
    const list = await app.api.call(listAdmins, {});
    expect(list.admins[0]?.mfaEnabled).toBe(true);
    const again = await app.api.fail(startMfaSetup, { body: { emailCode: '123456' } });
    expect(again.status).toBe(409);
    expect(again.message).toBe(MSG.mfaAlreadyEnabled);

    // Disabling asks for a current code; the code that enabled it is spent already.
    const reused = refused(await disable(codeAt(secret, t.clock.now())));
    expect(reused.status).toBe(400);
    expect(reused.message).toBe(MSG.mfaInvalidCode);
    expect((await row()).mfa_enabled_at).toBe(TEST_NOW);
    t.clock.advance(30_000);
    const disabled = await disable(codeAt(secret, t.clock.now()));
    expect(disabled.status).toBe(200);
    const off = await row();
    expect(off).toMatchObject({ mfa_secret: null, mfa_enabled_at: null, mfa_pending_secret: null });
    const left = await t.deps.db
      .selectFrom('admin_recovery_codes')
      .select('id')
      .where('admin_id', '=', ana.id)
      .execute();
    expect(left).toEqual([]);
    const twice = refused(await disable('123456'));
    expect(twice.status).toBe(409);
    expect(twice.message).toBe(MSG.mfaNotEnabled);
  });
});

describe('second factor: signing in', () => {
  const app = useTestApp();
  const steps = mfaSteps(app);

  const sessionsOf = (adminId: string) =>
    app.db.selectFrom('sessions').select('id').where('admin_id', '=', adminId).execute();

  it('the password alone opens no session; the code does, once', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db, { email: 'bea@premios.test', fullName: 'Bea' });
    const { secret } = await steps.enrol(admin);
    await t.deps.db.deleteFrom('sessions').where('admin_id', '=', admin.id).execute();
    t.clock.advance(60_000);

    const first = await steps.password(admin);
    expect(first.status).toBe(200);
    expect(first.data).toEqual({ mfa: true });
    expect(sessionSetBy(first.response)).toBeUndefined();
    expect(await sessionsOf(admin.id)).toEqual([]);
    const cookie = steps.pendingCookie(first);
    // The pending state is no session: it opens nothing.
    const withPending = { headers: { cookie } };
    expect(await app.signedOut.call(getSession, {}, withPending)).toEqual({ user: null });
    const events = await app.signedOut.fail(listEvents, {}, withPending);
    expect(events.status).toBe(401);

    const wrong = refused(await steps.totp(cookie, '000000'));
    expect(wrong.status).toBe(400);
    expect(wrong.message).toBe(MSG.mfaInvalidCode);

    const code = codeAt(secret, t.clock.now());
    const ok = answered(await steps.totp(cookie, code));
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({ user: { role: 'admin', email: admin.email, fullName: 'Bea' } });
    expect(sessionSetBy(ok.response)).toBeDefined();
    expect(await sessionsOf(admin.id)).toHaveLength(1);

    // The pending state is spent, and the same code is refused in a new one (same 30 s window).
    expect((await steps.totp(cookie, code)).status).toBe(401);
    const second = steps.pendingCookie(await steps.password(admin));
    const reused = refused(await steps.totp(second, code));
    expect(reused.status).toBe(400);
    expect(reused.message).toBe(MSG.mfaInvalidCode);
    // The previous step's code is within the window but older than the one spent: refused too.
    const older = await steps.totp(
      second,
      codeAt(secret, new Date(t.clock.now().getTime() - 30_000)),
    );
    expect(older.status).toBe(400);
    // One step later (the next code) works: a window of ±1 step.
    const next = await steps.totp(
      second,
      codeAt(secret, new Date(t.clock.now().getTime() + 30_000)),
    );
    expect(next.status).toBe(200);
    // Two steps away is outside the window.
    t.clock.advance(120_000);
    const third = steps.pendingCookie(await steps.password(admin));
    const far = await steps.totp(third, codeAt(secret, new Date(t.clock.now().getTime() + 60_000)));
    expect(far.status).toBe(400);
    expect(await sessionsOf(admin.id)).toHaveLength(2);
  });

  it('without the pending state, or after it expires, answers 401 with the message', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db, { email: 'caro@premios.test', fullName: 'Caro' });
    const { secret } = await steps.enrol(admin);
    const none = refused(await steps.totp(undefined, '123456'));
    expect(none.status).toBe(401);
    expect(none.message).toBe(MSG.mfaExpired);

    t.clock.advance(60_000);
    const cookie = steps.pendingCookie(await steps.password(admin));
    t.clock.advance(10 * 60_000);
    const late = refused(await steps.totp(cookie, codeAt(secret, t.clock.now())));
    expect(late.status).toBe(401);
    expect(late.message).toBe(MSG.mfaExpired);
  });

  it('a recovery code signs in once; each code only once', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db, { email: 'dani@premios.test', fullName: 'Dani' });
    const { recoveryCodes } = await steps.enrol(admin);
    const [firstCode, secondCode] = recoveryCodes as [string, string];

    const cookie = steps.pendingCookie(await steps.password(admin));
    const bad = refused(await steps.recovery(cookie, 'zzzzz-zzzzz'));
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toMatchObject({
      message: MSG.mfaInvalidRecoveryCode,
      fields: { recoveryCode: MSG.mfaInvalidRecoveryCode },
    });
    // Case, spaces and the dash do not matter.
    const ok = answered(
      await steps.recovery(cookie, ` ${firstCode.toUpperCase().replace('-', ' ')} `),
    );
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({ user: { role: 'admin', email: admin.email, fullName: 'Dani' } });

    const again = steps.pendingCookie(await steps.password(admin));
    const reused = refused(await steps.recovery(again, firstCode));
    expect(reused.status).toBe(400);
    expect(reused.message).toBe(MSG.mfaInvalidRecoveryCode);
    expect((await steps.recovery(again, secondCode)).status).toBe(200);

    const used = await t.deps.db
      .selectFrom('admin_recovery_codes')
      .select('used_at')
      .where('admin_id', '=', admin.id)
      .where('used_at', 'is not', null)
      .execute();
    expect(used).toHaveLength(2);
    const audits = await t.deps.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'admin.recovery_code_used')
      .where('entity_id', '=', admin.id)
      .execute();
    expect(audits).toHaveLength(2);
  });

  it('throttles tries atomically like passwords: of 12 parallel wrong codes, 5 are evaluated', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db, { email: 'eli@premios.test', fullName: 'Eli' });
    const { secret } = await steps.enrol(admin);
    t.clock.advance(60_000);
    const cookie = steps.pendingCookie(await steps.password(admin));
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => steps.totp(cookie, '000000')),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(5).fill(400), ...Array(7).fill(429)]);
    const limited = refused(answers.find((a) => a.status === 429)!);
    expect(limited.message).toBe(MSG.tooManyRequests);
    // Even the right code waits its turn.
    const right = await steps.totp(cookie, codeAt(secret, t.clock.now()));
    expect(right.status).toBe(429);
    // After the wait (1 s after the fifth wrong try) the right code is evaluated.
    t.clock.advance(1_000);
    expect((await steps.totp(cookie, codeAt(secret, t.clock.now()))).status).toBe(200);
  });
});

describe('REQUIRE_ADMIN_MFA=true', () => {
  const app = useTestApp({ config: { requireAdminMfa: true } });

  it('an administrator without it may only set it up; with it, everything opens', async () => {
    const { t } = app;
    const admin = await seedAdmin(t.deps.db, { email: 'fer@premios.test', fullName: 'Fer' });
    const signedIn = answered(
      await app.signedOut.send(signInWithPassword, {
        body: { email: admin.email, password: admin.password },
      }),
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.data).toEqual({
      user: { role: 'admin', email: admin.email, fullName: 'Fer' },
      mfaSetupRequired: true,
    });
    const as = sessionSetBy(signedIn.response)!;
    const fer = app.client(as);

    expect(await fer.call(getSession, {})).toEqual({
      user: { role: 'admin', email: admin.email, fullName: 'Fer', mfaSetupRequired: true },
    });
    const refusals: [string, ApiFailure][] = [
      ['GET /api/events', await fer.fail(listEvents, {})],
      ['GET /api/admins', await fer.fail(listAdmins, {})],
      ['POST /api/admins', await fer.fail(inviteAdmin, { body: { email: 'otro@premios.test' } })],
      ['GET /api/manual', await fer.fail(manual, {})],
    ];
    for (const [url, refusal] of refusals) {
      expect(refusal.status, url).toBe(403);
      expect(refusal.message).toBe(MSG.mfaRequired);
    }
    const invited = await t.deps.db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', 'otro@premios.test')
      .execute();
    expect(invited).toEqual([]);

    expect(await fer.call(mfaStatus, {})).toEqual({
      enabled: false,
      required: true,
      recoveryCodesLeft: 0,
    });
    const { secret } = answered(await startSetup(app, as, admin.email)).data;
    const enabled = await fer.send(enableMfa, { body: { code: codeAt(secret, t.clock.now()) } });
    expect(enabled.status).toBe(200);
    expect((await fer.send(listEvents, {})).status).toBe(200);
    expect(await fer.call(getSession, {})).toEqual({
      user: { role: 'admin', email: admin.email, fullName: 'Fer' },
    });
  });
});

describe('the key of stored secrets', () => {
  it('on SQLite without SECRET_KEY, is generated once into DATA_DIR', () => {
    const dataDir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'premios-key-'));
    const config = { secretKey: undefined, dataDir };
    const key = resolveSecretKey(config, 'sqlite');
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(fs.statSync(path.join(dataDir, 'secret-key')).mode & 0o777).toBe(0o600);
    expect(resolveSecretKey(config, 'sqlite')).toBe(key);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe('without SECRET_KEY', () => {
    const app = useTestApp({ config: { secretKey: undefined } });

    it('on PostgreSQL without SECRET_KEY, none is invented and enabling answers 409', async () => {
      expect(resolveSecretKey({ secretKey: undefined, dataDir: '/nonexistent' }, 'postgres')).toBe(
        null,
      );
      const { t } = app;
      if (t.deps.engine === 'postgres') {
        const setup = await app.api.fail(sendMfaEnrolCode, {});
        expect(setup.status).toBe(409);
        expect(setup.message).toBe(MSG.mfaUnavailable);
      } else {
        const setup = await startSetup(app, app.as, app.admin.email);
        expect(setup.status).toBe(200);
        expect(fs.existsSync(path.join(t.config.dataDir, 'secret-key'))).toBe(true);
      }
    });
  });

  it('a sealed secret does not open under another key, nor once altered', () => {
    const sealed = secretBox(TEST_SECRET_KEY).seal('JBSWY3DPEHPK3PXP');
    expect(() => secretBox('otra-clave-de-treinta-y-dos-caracteres-o-mas').open(sealed)).toThrow();
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => secretBox(TEST_SECRET_KEY).open(altered)).toThrow();
  });
});
