import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSecretKey, secretBox } from '../../src/server/lib/secret-box.ts';
import { startMfaSetup } from '../../src/shared/api/auth.ts';
import { MFA_CHALLENGE_COOKIE, SESSION_COOKIE } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import {
  createTestApp,
  TEST_NOW,
  TEST_SECRET_KEY,
  type Session,
  type TestApp,
} from '../helpers/app.ts';
import { seedAdmin } from '../helpers/seed.ts';

/** The code an authenticator app shows for `secret` at `at`. */
const codeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

type Admin = Awaited<ReturnType<typeof seedAdmin>>;

/** The code mailed to `email` to enrol a second factor, as its owner reads it. */
async function mailedEnrolCode(t: TestApp, as: Session, email: string): Promise<string> {
  const sent = await t.request({ method: 'POST', url: '/api/security/mfa/email-code', as });
  expect(sent.statusCode).toBe(200);
  await t.deliverMail();
  const mail = t.smtp.latestTo(email);
  expect(mail?.subject).toBe('Código para activar la verificación en dos pasos');
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  expect(code).toBeDefined();
  return code!;
}

/** "Activar verificación en dos pasos": the emailed code first, then the secret. */
async function startSetup(t: TestApp, as: Session, email: string) {
  const emailCode = await mailedEnrolCode(t, as, email);
  return t.request({ method: 'POST', url: '/api/security/mfa/setup', as, payload: { emailCode } });
}

/** Helpers over one test app: enrol an administrator, sign in with password then code. */
function mfaSteps(t: TestApp) {
  const password = (admin: Admin) =>
    t.request({
      method: 'POST',
      url: '/api/auth/password',
      payload: { email: admin.email, password: admin.password },
    });
  /** The pending state's cookie header from a password answer. */
  const pendingCookie = (response: Awaited<ReturnType<typeof password>>) => {
    const cookie = response.cookies.find((c) => c.name === MFA_CHALLENGE_COOKIE);
    expect(cookie?.httpOnly).toBe(true);
    return `${MFA_CHALLENGE_COOKIE}=${cookie!.value}`;
  };
  const totp = (cookie: string | undefined, code: string) =>
    t.request({
      method: 'POST',
      url: '/api/auth/mfa',
      payload: { code },
      ...(cookie ? { headers: { cookie } } : {}),
    });
  const recovery = (cookie: string, recoveryCode: string) =>
    t.request({
      method: 'POST',
      url: '/api/auth/mfa/recovery',
      payload: { recoveryCode },
      headers: { cookie },
    });
  async function enrol(admin: Admin): Promise<{ secret: string; recoveryCodes: string[] }> {
    const as = await t.signIn({ role: 'admin', adminId: admin.id });
    const setup = await startSetup(t, as, admin.email);
    expect(setup.statusCode).toBe(200);
    const { secret } = startMfaSetup.response.schema.parse(setup.json());
    const enabled = await t.request({
      method: 'POST',
      url: '/api/security/mfa/enable',
      payload: { code: codeAt(secret, t.clock.now()) },
      as,
    });
    expect(enabled.statusCode).toBe(200);
    return { secret, recoveryCodes: (enabled.json() as { recoveryCodes: string[] }).recoveryCodes };
  }
  return { password, pendingCookie, totp, recovery, enrol };
}

describe('second factor: enrolment and disabling', () => {
  let t: TestApp;
  let ana: Admin;
  let asAna: Session;
  beforeAll(async () => {
    t = await createTestApp();
    ana = await seedAdmin(t.deps.db, { email: 'ana@premios.test', fullName: 'Ana' });
    asAna = await t.signIn({ role: 'admin', adminId: ana.id });
  });
  afterAll(() => t.close());

  const post = (url: string, payload?: object) =>
    t.request({ method: 'POST', url, as: asAna, ...(payload ? { payload } : {}) });
  const row = () =>
    t.deps.db.selectFrom('admins').selectAll().where('id', '=', ana.id).executeTakeFirstOrThrow();

  it('enrols: secret as text and QR, confirmed by a code, ten recovery codes stored hashed', async () => {
    t.clock.set(TEST_NOW);
    const before = await t.request({ method: 'GET', url: '/api/security', as: asAna });
    expect(before.json()).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });

    const enableFirst = await post('/api/security/mfa/enable', { code: '123456' });
    expect(enableFirst.statusCode).toBe(409);
    expect(enableFirst.json().error.message).toBe(MSG.mfaNotStarted);

    const setup = await startSetup(t, asAna, ana.email);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUri, qrCode } = startMfaSetup.response.schema.parse(setup.json());
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

    const wrong = await post('/api/security/mfa/enable', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      message: MSG.mfaInvalidCode,
      fields: { code: MSG.mfaInvalidCode },
    });
    const malformed = await post('/api/security/mfa/enable', { code: '12ab' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toBe(MSG.mfaInvalidCode);

    const enabled = await post('/api/security/mfa/enable', {
      code: codeAt(secret, t.clock.now()),
    });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json() as { recoveryCodes: string[] };
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

    const after = await t.request({ method: 'GET', url: '/api/security', as: asAna });
    expect(after.json()).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    const list = await t.request({ method: 'GET', url: '/api/admins', as: asAna });
    expect((list.json() as { admins: { mfaEnabled: boolean }[] }).admins[0]?.mfaEnabled).toBe(true);
    const again = await post('/api/security/mfa/setup', { emailCode: '123456' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MSG.mfaAlreadyEnabled);

    // Disabling asks for a current code; the code that enabled it is spent already.
    const reused = await post('/api/security/mfa/disable', {
      code: codeAt(secret, t.clock.now()),
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.message).toBe(MSG.mfaInvalidCode);
    expect((await row()).mfa_enabled_at).toBe(TEST_NOW);
    t.clock.advance(30_000);
    const disabled = await post('/api/security/mfa/disable', {
      code: codeAt(secret, t.clock.now()),
    });
    expect(disabled.statusCode).toBe(200);
    const off = await row();
    expect(off).toMatchObject({ mfa_secret: null, mfa_enabled_at: null, mfa_pending_secret: null });
    const left = await t.deps.db
      .selectFrom('admin_recovery_codes')
      .select('id')
      .where('admin_id', '=', ana.id)
      .execute();
    expect(left).toEqual([]);
    const twice = await post('/api/security/mfa/disable', { code: '123456' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(MSG.mfaNotEnabled);
  });
});

describe('second factor: signing in', () => {
  let t: TestApp;
  let steps: ReturnType<typeof mfaSteps>;
  beforeAll(async () => {
    t = await createTestApp();
    steps = mfaSteps(t);
  });
  afterAll(() => t.close());

  const sessionsOf = (adminId: string) =>
    t.deps.db.selectFrom('sessions').select('id').where('admin_id', '=', adminId).execute();

  it('the password alone opens no session; the code does, once', async () => {
    t.clock.set(TEST_NOW);
    const admin = await seedAdmin(t.deps.db, { email: 'bea@premios.test', fullName: 'Bea' });
    const { secret } = await steps.enrol(admin);
    await t.deps.db.deleteFrom('sessions').where('admin_id', '=', admin.id).execute();
    t.clock.advance(60_000);

    const first = await steps.password(admin);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ mfa: true });
    expect(first.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    expect(await sessionsOf(admin.id)).toEqual([]);
    const cookie = steps.pendingCookie(first);
    // The pending state is no session: it opens nothing.
    const session = await t.request({ method: 'GET', url: '/api/session', headers: { cookie } });
    expect(session.json()).toEqual({ user: null });
    const events = await t.request({ method: 'GET', url: '/api/events', headers: { cookie } });
    expect(events.statusCode).toBe(401);

    const wrong = await steps.totp(cookie, '000000');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(MSG.mfaInvalidCode);

    const code = codeAt(secret, t.clock.now());
    const ok = await steps.totp(cookie, code);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ user: { role: 'admin', email: admin.email, fullName: 'Bea' } });
    expect(ok.cookies.find((c) => c.name === SESSION_COOKIE)).toBeDefined();
    expect(await sessionsOf(admin.id)).toHaveLength(1);

    // The pending state is spent, and the same code is refused in a new one (same 30 s window).
    expect((await steps.totp(cookie, code)).statusCode).toBe(401);
    const second = steps.pendingCookie(await steps.password(admin));
    const reused = await steps.totp(second, code);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.message).toBe(MSG.mfaInvalidCode);
    // The previous step's code is within the window but older than the one spent: refused too.
    const older = await steps.totp(
      second,
      codeAt(secret, new Date(t.clock.now().getTime() - 30_000)),
    );
    expect(older.statusCode).toBe(400);
    // One step later (the next code) works: a window of ±1 step.
    const next = await steps.totp(
      second,
      codeAt(secret, new Date(t.clock.now().getTime() + 30_000)),
    );
    expect(next.statusCode).toBe(200);
    // Two steps away is outside the window.
    t.clock.advance(120_000);
    const third = steps.pendingCookie(await steps.password(admin));
    const far = await steps.totp(third, codeAt(secret, new Date(t.clock.now().getTime() + 60_000)));
    expect(far.statusCode).toBe(400);
    expect(await sessionsOf(admin.id)).toHaveLength(2);
  });

  it('without the pending state, or after it expires, answers 401 with the message', async () => {
    t.clock.set(TEST_NOW);
    const admin = await seedAdmin(t.deps.db, { email: 'caro@premios.test', fullName: 'Caro' });
    const { secret } = await steps.enrol(admin);
    const none = await steps.totp(undefined, '123456');
    expect(none.statusCode).toBe(401);
    expect(none.json().error.message).toBe(MSG.mfaExpired);

    t.clock.advance(60_000);
    const cookie = steps.pendingCookie(await steps.password(admin));
    t.clock.advance(10 * 60_000);
    const late = await steps.totp(cookie, codeAt(secret, t.clock.now()));
    expect(late.statusCode).toBe(401);
    expect(late.json().error.message).toBe(MSG.mfaExpired);
  });

  it('a recovery code signs in once; each code only once', async () => {
    t.clock.set(TEST_NOW);
    const admin = await seedAdmin(t.deps.db, { email: 'dani@premios.test', fullName: 'Dani' });
    const { recoveryCodes } = await steps.enrol(admin);
    const [firstCode, secondCode] = recoveryCodes as [string, string];

    const cookie = steps.pendingCookie(await steps.password(admin));
    const bad = await steps.recovery(cookie, 'zzzzz-zzzzz');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      message: MSG.mfaInvalidRecoveryCode,
      fields: { recoveryCode: MSG.mfaInvalidRecoveryCode },
    });
    // Case, spaces and the dash do not matter.
    const ok = await steps.recovery(cookie, ` ${firstCode.toUpperCase().replace('-', ' ')} `);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ user: { role: 'admin', email: admin.email, fullName: 'Dani' } });

    const again = steps.pendingCookie(await steps.password(admin));
    const reused = await steps.recovery(again, firstCode);
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.message).toBe(MSG.mfaInvalidRecoveryCode);
    expect((await steps.recovery(again, secondCode)).statusCode).toBe(200);

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
    t.clock.set(TEST_NOW);
    const admin = await seedAdmin(t.deps.db, { email: 'eli@premios.test', fullName: 'Eli' });
    const { secret } = await steps.enrol(admin);
    t.clock.advance(60_000);
    const cookie = steps.pendingCookie(await steps.password(admin));
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => steps.totp(cookie, '000000')),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([...Array(5).fill(400), ...Array(7).fill(429)]);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(refused.json().error.message).toBe(MSG.tooManyRequests);
    // Even the right code waits its turn.
    const right = await steps.totp(cookie, codeAt(secret, t.clock.now()));
    expect(right.statusCode).toBe(429);
    // After the wait (1 s after the fifth wrong try) the right code is evaluated.
    t.clock.advance(1_000);
    expect((await steps.totp(cookie, codeAt(secret, t.clock.now()))).statusCode).toBe(200);
  });
});

describe('REQUIRE_ADMIN_MFA=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { requireAdminMfa: true } });
  });
  afterAll(() => t.close());

  it('an administrator without it may only set it up; with it, everything opens', async () => {
    t.clock.set(TEST_NOW);
    const admin = await seedAdmin(t.deps.db, { email: 'fer@premios.test', fullName: 'Fer' });
    const signedIn = await t.request({
      method: 'POST',
      url: '/api/auth/password',
      payload: { email: admin.email, password: admin.password },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({
      user: { role: 'admin', email: admin.email, fullName: 'Fer' },
      mfaSetupRequired: true,
    });
    const token = signedIn.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    const as = { token, cookie: `${SESSION_COOKIE}=${token}` };

    const session = await t.request({ method: 'GET', url: '/api/session', as });
    expect(session.json()).toEqual({
      user: { role: 'admin', email: admin.email, fullName: 'Fer', mfaSetupRequired: true },
    });
    for (const [method, url] of [
      ['GET', '/api/events'],
      ['GET', '/api/admins'],
      ['POST', '/api/admins'],
      ['GET', '/api/manual'],
    ] as const) {
      const refused = await t.request({
        method,
        url,
        as,
        ...(method === 'POST' ? { payload: { email: 'otro@premios.test' } } : {}),
      });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().error.message).toBe(MSG.mfaRequired);
    }
    const invited = await t.deps.db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', 'otro@premios.test')
      .execute();
    expect(invited).toEqual([]);

    const status = await t.request({ method: 'GET', url: '/api/security', as });
    expect(status.json()).toEqual({ enabled: false, required: true, recoveryCodesLeft: 0 });
    const setup = await startSetup(t, as, admin.email);
    const { secret } = startMfaSetup.response.schema.parse(setup.json());
    const enabled = await t.request({
      method: 'POST',
      url: '/api/security/mfa/enable',
      payload: { code: codeAt(secret, t.clock.now()) },
      as,
    });
    expect(enabled.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/events', as })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/session', as })).json()).toEqual({
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

  it('on PostgreSQL without SECRET_KEY, none is invented and enabling answers 409', async () => {
    expect(resolveSecretKey({ secretKey: undefined, dataDir: '/nonexistent' }, 'postgres')).toBe(
      null,
    );
    const t = await createTestApp({ config: { secretKey: undefined } });
    try {
      const admin = await seedAdmin(t.deps.db);
      const as = await t.signIn({ role: 'admin', adminId: admin.id });
      if (t.deps.engine === 'postgres') {
        const setup = await t.request({ method: 'POST', url: '/api/security/mfa/email-code', as });
        expect(setup.statusCode).toBe(409);
        expect(setup.json().error.message).toBe(MSG.mfaUnavailable);
      } else {
        const setup = await startSetup(t, as, admin.email);
        expect(setup.statusCode).toBe(200);
        expect(fs.existsSync(path.join(t.config.dataDir, 'secret-key'))).toBe(true);
      }
    } finally {
      await t.close();
    }
  });

  it('a sealed secret does not open under another key, nor once altered', () => {
    const sealed = secretBox(TEST_SECRET_KEY).seal('JBSWY3DPEHPK3PXP');
    expect(() => secretBox('otra-clave-de-treinta-y-dos-caracteres-o-mas').open(sealed)).toThrow();
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => secretBox(TEST_SECRET_KEY).open(altered)).toThrow();
  });
});
