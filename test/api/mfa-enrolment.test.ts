import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MFA_CHALLENGE_COOKIE, SESSION_COOKIE } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, TEST_NOW, type Session, type TestApp } from '../helpers/app.ts';
import { seedAdmin } from '../helpers/seed.ts';

const codeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

/**
 * Issue 30, item 10: with REQUIRE_ADMIN_MFA=true, whoever holds only a stolen password must not be
 * able to enrol a second factor of their own, nor keep it once the owner resets the password by
 * email. Enrolling takes a code mailed to the account's address; a reset by email may remove the
 * second factor when asked.
 */
describe('enrolling a second factor takes a code mailed to the account', () => {
  let t: TestApp;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp({ config: { requireAdminMfa: true } });
  });
  afterAll(() => t.close());

  type Admin = Awaited<ReturnType<typeof seedAdmin>>;
  /** A new administrator signed in with the password alone (as a thief with it would be). */
  async function withPasswordOnly(): Promise<{ admin: Admin; as: Session }> {
    const admin = await seedAdmin(t.deps.db, {
      email: `mfa.${++n}@premios.test`,
      fullName: 'Gabi',
    });
    const signedIn = await t.request({
      method: 'POST',
      url: '/api/auth/password',
      payload: { email: admin.email, password: admin.password },
    });
    expect(signedIn.json()).toMatchObject({ mfaSetupRequired: true });
    const token = signedIn.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    return { admin, as: { token, cookie: `${SESSION_COOKIE}=${token}` } };
  }
  const sendCode = (as: Session) =>
    t.request({ method: 'POST', url: '/api/security/mfa/email-code', as });
  const setup = (as: Session, emailCode?: string) =>
    t.request({
      method: 'POST',
      url: '/api/security/mfa/setup',
      as,
      ...(emailCode === undefined ? {} : { payload: { emailCode } }),
    });
  async function mailedCode(email: string): Promise<string> {
    await t.deliverMail();
    const code = /\b(\d{6})\b/.exec(t.smtp.latestTo(email)?.text ?? '')?.[1];
    expect(code).toBeDefined();
    return code!;
  }
  const row = (id: string) =>
    t.deps.db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('without the mailed code there is no secret: missing, wrong, and a code never sent are refused', async () => {
    t.clock.set(TEST_NOW);
    const { admin, as } = await withPasswordOnly();
    const missing = await setup(as);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toEqual({ emailCode: MSG.requiredField });
    const malformed = await setup(as, '12ab');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toBe(MSG.mfaEnrolCodeInvalid);
    const neverSent = await setup(as, '123456');
    expect(neverSent.statusCode).toBe(400);
    expect(neverSent.json().error).toMatchObject({
      code: 'mfa_invalid_code',
      message: MSG.mfaEnrolCodeInvalid,
      fields: { emailCode: MSG.mfaEnrolCodeInvalid },
    });
    const stored = await row(admin.id);
    expect(stored.mfa_pending_secret).toBeNull();
    expect(stored.mfa_secret).toBeNull();
    // Nor can the step after it be reached.
    const enable = await t.request({
      method: 'POST',
      url: '/api/security/mfa/enable',
      as,
      payload: { code: '123456' },
    });
    expect(enable.statusCode).toBe(409);
    expect(enable.json().error.message).toBe(MSG.mfaNotStarted);
  });

  it('mails the code to the account address; the newest works once, within 15 minutes', async () => {
    t.clock.set(TEST_NOW);
    const { admin, as } = await withPasswordOnly();
    expect((await sendCode(as)).statusCode).toBe(200);
    const first = await mailedCode(admin.email);
    expect(t.smtp.allTo(admin.email)).toHaveLength(1);
    expect((await sendCode(as)).statusCode).toBe(200);
    const second = await mailedCode(admin.email);
    if (first !== second) {
      expect((await setup(as, first)).json().error.message).toBe(MSG.mfaEnrolCodeInvalid);
    }
    // Stored as a hash only.
    expect(JSON.stringify(await row(admin.id))).not.toContain(second);

    t.clock.advance(16 * 60 * 1000);
    const late = await setup(as, second);
    expect(late.statusCode).toBe(400);
    expect(late.json().error.message).toBe(MSG.mfaEnrolCodeInvalid);

    expect((await sendCode(as)).statusCode).toBe(200);
    const fresh = await mailedCode(admin.email);
    // Parallel use of one code: exactly one gets a secret.
    const answers = await Promise.all(Array.from({ length: 4 }, () => setup(as, fresh)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The others: the code is spent (400), or this client's tries wait a moment (429).
    expect(statuses.filter((s) => s !== 200).every((s) => s === 400 || s === 429)).toBe(true);
    const { secret } = answers.find((a) => a.statusCode === 200)!.json() as { secret: string };
    expect((await setup(as, fresh)).statusCode).toBe(400);
    // The mailed code is blanked from the sent message once spent.
    const sent = await t.deps.db
      .selectFrom('mail_outbox')
      .select('params')
      .where('template', '=', 'mfa-enrol-code')
      .where('to_address', '=', admin.email)
      .execute();
    expect(sent.map((m) => m.params)).toEqual(['{}', '{}', '{}']);

    const enabled = await t.request({
      method: 'POST',
      url: '/api/security/mfa/enable',
      as,
      payload: { code: codeAt(secret, t.clock.now()) },
    });
    expect(enabled.statusCode).toBe(200);
    const again = await sendCode(as);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MSG.mfaAlreadyEnabled);
  });

  it('sends at most five codes an hour to one account', async () => {
    t.clock.set(TEST_NOW);
    const { admin, as } = await withPasswordOnly();
    const answers = await Promise.all(Array.from({ length: 8 }, () => sendCode(as)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.json().error.message).toBe(MSG.mfaEnrolCodeLimit);
    await t.deliverMail();
    expect(t.smtp.allTo(admin.email)).toHaveLength(5);
  });

  it('guessing the mailed code is throttled like second-factor codes', async () => {
    t.clock.set(TEST_NOW);
    const { as } = await withPasswordOnly();
    expect((await sendCode(as)).statusCode).toBe(200);
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => setup(as, String(100000 + i))),
    );
    const statuses = guesses.map((g) => g.statusCode);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('a password reset by email removes a second factor when asked, and only then', async () => {
    t.clock.set(TEST_NOW);
    const { admin, as } = await withPasswordOnly();
    // The thief with the password enrols (here the test reads the mailbox for them).
    expect((await sendCode(as)).statusCode).toBe(200);
    const { secret } = (await setup(as, await mailedCode(admin.email))).json() as {
      secret: string;
    };
    await t.request({
      method: 'POST',
      url: '/api/security/mfa/enable',
      as,
      payload: { code: codeAt(secret, t.clock.now()) },
    });
    expect((await row(admin.id)).mfa_enabled_at).not.toBeNull();

    const reset = async (newPassword: string, resetSecondFactor?: boolean) => {
      await t.request({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: admin.email },
      });
      await t.deliverMail();
      const oobCode = /oobCode=([\w-]+)/.exec(t.smtp.latestTo(admin.email)!.text)![1]!;
      return t.request({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: {
          oobCode,
          password: newPassword,
          confirmPassword: newPassword,
          ...(resetSecondFactor === undefined ? {} : { resetSecondFactor }),
        },
      });
    };
    const password = (value: string) =>
      t.request({
        method: 'POST',
        url: '/api/auth/password',
        payload: { email: admin.email, password: value },
      });

    // A reset that does not ask keeps the factor: the password step still asks for the code.
    expect((await reset('primera-clave-nueva-1')).statusCode).toBe(200);
    const kept = await password('primera-clave-nueva-1');
    expect(kept.json()).toEqual({ mfa: true });
    expect(kept.cookies.some((c) => c.name === MFA_CHALLENGE_COOKIE)).toBe(true);

    t.clock.advance(2 * 60 * 1000);
    const removed = await reset('segunda-clave-nueva-2', true);
    expect(removed.statusCode).toBe(200);
    const stored = await row(admin.id);
    expect(stored).toMatchObject({
      mfa_secret: null,
      mfa_pending_secret: null,
      mfa_enabled_at: null,
      mfa_enrol_code_hash: null,
    });
    const leftovers = await Promise.all([
      t.deps.db
        .selectFrom('admin_recovery_codes')
        .select('id')
        .where('admin_id', '=', admin.id)
        .execute(),
      t.deps.db
        .selectFrom('mfa_challenges')
        .select('id')
        .where('admin_id', '=', admin.id)
        .execute(),
    ]);
    expect(leftovers).toEqual([[], []]);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select(['actor_role', 'entity_id'])
      .where('action', '=', 'admin.mfa_reset')
      .execute();
    expect(audit).toEqual([{ actor_role: 'system', entity_id: admin.id }]);
    // The owner is back in with the new password, and must enrol again, with their mailbox.
    const back = await password('segunda-clave-nueva-2');
    expect(back.json()).toMatchObject({ mfaSetupRequired: true });
  });
});
