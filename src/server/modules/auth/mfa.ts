import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import {
  MFA_CHALLENGE_TTL_MINUTES,
  MFA_ENROL_CODE_TTL_MINUTES,
  RECOVERY_CODE_COUNT,
} from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { MfaSetup, MfaStatus } from '../../../shared/schemas/mfa.ts';
import type { SignedInAdmin as Admin } from '../../../shared/signed-in.ts';
import type { Db } from '../../db/connection.ts';
import type { Tx } from '../../db/transact.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { hashToken, newAccessCode, newId, newToken } from '../../lib/crypto.ts';
import { AppError, tooManyRequests } from '../../lib/errors.ts';
import { resolveSecretKey, secretBox, type SecretBox } from '../../lib/secret-box.ts';
import { clearThrottle, countTry, hitThrottle, perClient } from '../../lib/throttle.ts';
import { addMinutes, iso } from '../../lib/time.ts';
import { enqueueMail, forgetSentSecrets } from '../../mail/outbox.ts';
import { mfaEnrolCodeSend, mfaTries, mfaTryPerClient } from './limits.ts';
import type { SignedIn } from './service.ts';

/*
 * The administrators' second factor: TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps) with the
 * `otpauth` library, a window of one step either side, and the last step spent stored so that a
 * code is accepted once. Secrets are stored sealed (AES-256-GCM, lib/secret-box.ts).
 */

const PERIOD_SECONDS = 30;
const ISSUER = 'Premios';

function box(deps: AppDeps): SecretBox {
  const key = resolveSecretKey(deps.config, deps.engine);
  if (!key) throw new AppError('mfa_unavailable');
  return secretBox(key);
}

const totpFor = (secret: string, label: string) =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** The time step a code belongs to, when it is good within one step of now; else null. */
function stepOf(secret: string, code: string, now: Date): number | null {
  const delta = totpFor(secret, ISSUER).validate({
    token: code,
    timestamp: now.getTime(),
    window: 1,
  });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/**
 * Spends a time step in one conditional statement: only a step later than the last one spent is
 * accepted, so the same code (or an earlier one) never works twice, even in parallel.
 */
async function spendStep(db: Db, adminId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('admins')
    .set({ mfa_last_step: step })
    .where('id', '=', adminId)
    .where((eb) => eb.or([eb('mfa_last_step', 'is', null), eb('mfa_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Counts one second-factor try before it is evaluated, exactly like a password try: per (account,
 * client) with a growing wait, per account with a ceiling, and past it only a fresh client's first
 * try. Answers the per-client key, cleared when the code is right.
 */
async function countMfaTry(deps: AppDeps, adminId: string, client: string): Promise<string> {
  const now = deps.clock.now();
  if (!(await countTry(deps.db, mfaTries, adminId, client, now))) {
    throw tooManyRequests();
  }
  return perClient(adminId, client);
}

const wrongCode = () => new AppError('mfa_invalid_code', { fields: { code: MSG.mfaInvalidCode } });
const wrongRecoveryCode = () =>
  new AppError('mfa_invalid_code', {
    message: MSG.mfaInvalidRecoveryCode,
    fields: { recoveryCode: MSG.mfaInvalidRecoveryCode },
  });

/** Checks a TOTP code against a sealed secret and spends its step; throws when wrong or reused. */
async function checkCode(
  deps: AppDeps,
  adminId: string,
  sealed: string,
  code: string,
): Promise<void> {
  const step = stepOf(box(deps).open(sealed), code, deps.clock.now());
  if (step === null || !(await spendStep(deps.db, adminId, step))) throw wrongCode();
}

/** Recovery codes: 10 characters of an alphabet without look-alikes, shown as `xxxxx-xxxxx`. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function newRecoveryCode(): string {
  const chars = Array.from(
    { length: 10 },
    () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
  );
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}
/** `normalized` is the code without dash or case (as the input schema leaves it). */
const recoveryHash = (adminId: string, normalized: string) =>
  hashToken(`recovery:${adminId}:${normalized}`);

async function adminMfa(db: Db, adminId: string) {
  return db
    .selectFrom('admins')
    .select(['id', 'email', 'mfa_secret', 'mfa_pending_secret', 'mfa_enabled_at'])
    .where('id', '=', adminId)
    .executeTakeFirstOrThrow();
}

/** The signed-in administrator, the input of what they do to their own second factor. */
export interface OwnAccount {
  admin: Admin;
}

/** A code typed by the signed-in administrator; `client` (the request's address) keys the limits. */
export interface OwnCode extends OwnAccount {
  code: string;
  client: string;
}

export async function mfaStatus(deps: AppDeps, { admin }: OwnAccount): Promise<MfaStatus> {
  const row = await adminMfa(deps.db, admin.adminId);
  const left = await deps.db
    .selectFrom('admin_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('admin_id', '=', admin.adminId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    enabled: row.mfa_enabled_at !== null,
    required: deps.config.requireAdminMfa,
    recoveryCodesLeft: Number(left.n),
  };
}

/** The emailed enrolment code is stored as its hash, salted with the account (like sign-in codes). */
const enrolCodeHash = (adminId: string, code: string) => hashToken(`mfa-enrol:${adminId}:${code}`);

const wrongEnrolCode = () =>
  new AppError('mfa_invalid_code', {
    message: MSG.mfaEnrolCodeInvalid,
    fields: { emailCode: MSG.mfaEnrolCodeInvalid },
  });

/**
 * The first step of "Activar verificación en dos pasos": a 6-digit code mailed to the account's
 * own address (15 minutes, single use, only the newest one works). Whoever holds only the password
 * cannot read it, so cannot enrol a second factor of their own and lock the owner out. A few an
 * hour per administrator.
 */
export async function sendMfaEnrolCode(deps: AppDeps, { admin }: OwnAccount): Promise<void> {
  box(deps);
  const row = await adminMfa(deps.db, admin.adminId);
  if (row.mfa_enabled_at) throw new AppError('conflict', { message: MSG.mfaAlreadyEnabled });
  const now = deps.clock.now();
  if (!(await hitThrottle(deps.db, mfaEnrolCodeSend, admin.adminId, now)).allowed) {
    throw new AppError('rate_limited', { message: MSG.mfaEnrolCodeLimit });
  }
  const code = newAccessCode();
  await deps.transact(async (tx) => {
    await tx
      .updateTable('admins')
      .set({
        mfa_enrol_code_hash: enrolCodeHash(admin.adminId, code),
        mfa_enrol_code_expires_at: iso(addMinutes(now, MFA_ENROL_CODE_TTL_MINUTES)),
      })
      .where('id', '=', admin.adminId)
      .execute();
    await enqueueMail(tx, now, { template: 'mfa-enrol-code', to: row.email, params: { code } });
  });
}

/**
 * "Activar verificación en dos pasos" once the emailed code is typed: the code is spent (in one
 * conditional update, so it works once even in parallel; tries counted like second-factor codes)
 * and a new secret is kept sealed as pending until a code from the administrator's app confirms
 * it; shown as text, as an otpauth URI and as its QR code.
 */
export async function startMfaSetup(
  deps: AppDeps,
  { admin, emailCode, client }: OwnAccount & { emailCode: string; client: string },
): Promise<MfaSetup> {
  const sealer = box(deps);
  const row = await adminMfa(deps.db, admin.adminId);
  if (row.mfa_enabled_at) throw new AppError('conflict', { message: MSG.mfaAlreadyEnabled });
  const clientKey = await countMfaTry(deps, admin.adminId, client);
  const now = deps.clock.now();
  const secret = new Secret({ size: 20 }).base32;
  const started = await deps.transact(async (tx) => {
    const spent = await tx
      .updateTable('admins')
      .set({
        mfa_pending_secret: sealer.seal(secret),
        mfa_enrol_code_hash: null,
        mfa_enrol_code_expires_at: null,
      })
      .where('id', '=', admin.adminId)
      .where('mfa_enabled_at', 'is', null)
      .where('mfa_enrol_code_hash', '=', enrolCodeHash(admin.adminId, emailCode))
      .where('mfa_enrol_code_expires_at', '>', iso(now))
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return false;
    await forgetSentSecrets(tx, 'mfa-enrol-code', row.email);
    return true;
  });
  if (!started) throw wrongEnrolCode();
  await clearThrottle(deps.db, [mfaTryPerClient.scope], clientKey);
  const otpauthUri = totpFor(secret, admin.email).toString();
  // Loaded by the few who set up a second factor, not held by every server (about 1 MB).
  const { default: QRCode } = await import('qrcode');
  const qrCode = await QRCode.toDataURL(otpauthUri, { margin: 1, width: 240 });
  return { secret, otpauthUri, qrCode };
}

/**
 * Confirms the pending secret with a current code: the second factor is on, and ten one-time
 * recovery codes are answered once (only their hashes are stored; earlier ones are dropped).
 */
export async function enableMfa(
  deps: AppDeps,
  { admin, code, client }: OwnCode,
): Promise<string[]> {
  box(deps);
  const row = await adminMfa(deps.db, admin.adminId);
  if (row.mfa_enabled_at) throw new AppError('conflict', { message: MSG.mfaAlreadyEnabled });
  const pending = row.mfa_pending_secret;
  if (!pending) throw new AppError('conflict', { message: MSG.mfaNotStarted });
  const clientKey = await countMfaTry(deps, admin.adminId, client);
  await checkCode(deps, admin.adminId, pending, code);
  const now = deps.clock.now();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.transact(async (tx) => {
    const enabled = await tx
      .updateTable('admins')
      .set({ mfa_secret: pending, mfa_pending_secret: null, mfa_enabled_at: iso(now) })
      .where('id', '=', admin.adminId)
      .where('mfa_enabled_at', 'is', null)
      .where('mfa_pending_secret', '=', pending)
      .executeTakeFirst();
    if (Number(enabled.numUpdatedRows) !== 1) {
      throw new AppError('conflict', { message: MSG.mfaAlreadyEnabled });
    }
    await tx.deleteFrom('admin_recovery_codes').where('admin_id', '=', admin.adminId).execute();
    await tx
      .insertInto('admin_recovery_codes')
      .values(
        codes.map((recovery) => ({
          id: newId(),
          admin_id: admin.adminId,
          code_hash: recoveryHash(admin.adminId, recovery.replace('-', '')),
          used_at: null,
          created_at: iso(now),
        })),
      )
      .execute();
    await recordAudit(tx, admin, now, {
      action: 'admin.mfa_enabled',
      entityType: 'admin',
      entityId: admin.adminId,
    });
  });
  await clearThrottle(deps.db, [mfaTryPerClient.scope], clientKey);
  return codes;
}

/** "Desactivar verificación en dos pasos": takes a current code; the recovery codes go too. */
export async function disableMfa(deps: AppDeps, { admin, code, client }: OwnCode): Promise<void> {
  box(deps);
  const row = await adminMfa(deps.db, admin.adminId);
  const sealed = row.mfa_secret;
  if (!row.mfa_enabled_at || !sealed) {
    throw new AppError('conflict', { message: MSG.mfaNotEnabled });
  }
  const clientKey = await countMfaTry(deps, admin.adminId, client);
  await checkCode(deps, admin.adminId, sealed, code);
  const now = deps.clock.now();
  await deps.transact(async (tx) => {
    await tx
      .updateTable('admins')
      .set({ mfa_secret: null, mfa_pending_secret: null, mfa_enabled_at: null })
      .where('id', '=', admin.adminId)
      .execute();
    await tx.deleteFrom('admin_recovery_codes').where('admin_id', '=', admin.adminId).execute();
    await recordAudit(tx, admin, now, {
      action: 'admin.mfa_disabled',
      entityType: 'admin',
      entityId: admin.adminId,
    });
  });
  await clearThrottle(deps.db, [mfaTryPerClient.scope], clientKey);
}

/**
 * Removes an administrator's second factor after a password reset by email, when asked: the reset
 * link proves the mailbox, as enrolling does, so the owner gets back in even when someone else
 * enrolled a factor with a stolen password, or their own app is lost. Recovery codes, pending
 * second-factor sign-ins and an unspent enrolment code go too. Runs in the reset's transaction.
 */
export async function removeSecondFactor(
  tx: Tx,
  admin: { adminId: string; email: string },
  now: Date,
): Promise<void> {
  await tx
    .updateTable('admins')
    .set({
      mfa_secret: null,
      mfa_pending_secret: null,
      mfa_enabled_at: null,
      mfa_enrol_code_hash: null,
      mfa_enrol_code_expires_at: null,
    })
    .where('id', '=', admin.adminId)
    .execute();
  await tx.deleteFrom('admin_recovery_codes').where('admin_id', '=', admin.adminId).execute();
  await tx.deleteFrom('mfa_challenges').where('admin_id', '=', admin.adminId).execute();
  await recordAudit(tx, { role: 'system', email: admin.email }, now, {
    action: 'admin.mfa_reset',
    entityType: 'admin',
    entityId: admin.adminId,
  });
}

/**
 * The pending state between a right password and the second factor: a row with a short life and
 * the hash of the token the browser holds in an httpOnly cookie. No session exists until the code.
 */
export async function startMfaChallenge(
  deps: AppDeps,
  { adminId }: { adminId: string },
): Promise<string> {
  const now = deps.clock.now();
  const token = newToken();
  await deps.transact(async (tx) => {
    await tx
      .deleteFrom('mfa_challenges')
      .where('admin_id', '=', adminId)
      .where('expires_at', '<=', iso(now))
      .execute();
    await tx
      .insertInto('mfa_challenges')
      .values({
        id: newId(),
        admin_id: adminId,
        token_hash: hashToken(token),
        expires_at: iso(addMinutes(now, MFA_CHALLENGE_TTL_MINUTES)),
        created_at: iso(now),
      })
      .execute();
  });
  return token;
}

async function findChallenge(deps: AppDeps, token: string | undefined) {
  if (!token) throw new AppError('mfa_expired');
  const challenge = await deps.db
    .selectFrom('mfa_challenges')
    .innerJoin('admins', 'admins.id', 'mfa_challenges.admin_id')
    .select([
      'mfa_challenges.id',
      'admins.id as adminId',
      'admins.email',
      'admins.full_name',
      'admins.mfa_secret',
      'admins.revoked_at',
    ])
    .where('mfa_challenges.token_hash', '=', hashToken(token))
    .where('mfa_challenges.expires_at', '>', iso(deps.clock.now()))
    .executeTakeFirst();
  if (!challenge?.full_name || !challenge.mfa_secret || challenge.revoked_at) {
    throw new AppError('mfa_expired');
  }
  return { ...challenge, fullName: challenge.full_name, secret: challenge.mfa_secret };
}

/** Spends the pending state: a second request with the same cookie finds nothing. */
async function endChallenge(deps: AppDeps, challengeId: string): Promise<void> {
  const gone = await deps.db
    .deleteFrom('mfa_challenges')
    .where('id', '=', challengeId)
    .executeTakeFirst();
  if (Number(gone.numDeletedRows) !== 1) throw new AppError('mfa_expired');
}

const adminSignedIn = (challenge: {
  adminId: string;
  email: string;
  fullName: string;
}): SignedIn => ({
  subject: { role: 'admin', adminId: challenge.adminId },
  display: { role: 'admin', email: challenge.email, fullName: challenge.fullName },
});

/**
 * The second step's input: the pending challenge's token (from its cookie, if any), what was typed
 * and the request's address (`client`, the key of the per-client limits).
 */
export interface ChallengeAnswer {
  challengeToken: string | undefined;
  client: string;
}

/** The second step of an administrator's sign-in with a code of their app. */
export async function signInWithTotp(
  deps: AppDeps,
  { challengeToken: token, code, client }: ChallengeAnswer & { code: string },
): Promise<SignedIn> {
  const challenge = await findChallenge(deps, token);
  const clientKey = await countMfaTry(deps, challenge.adminId, client);
  await checkCode(deps, challenge.adminId, challenge.secret, code);
  await endChallenge(deps, challenge.id);
  await clearThrottle(deps.db, [mfaTryPerClient.scope], clientKey);
  return adminSignedIn(challenge);
}

/** The second step with a recovery code instead: each one works once. */
export async function signInWithRecoveryCode(
  deps: AppDeps,
  { challengeToken: token, recoveryCode, client }: ChallengeAnswer & { recoveryCode: string },
): Promise<SignedIn> {
  const challenge = await findChallenge(deps, token);
  const clientKey = await countMfaTry(deps, challenge.adminId, client);
  const now = deps.clock.now();
  const spent = await deps.db
    .updateTable('admin_recovery_codes')
    .set({ used_at: iso(now) })
    .where('admin_id', '=', challenge.adminId)
    .where('code_hash', '=', recoveryHash(challenge.adminId, recoveryCode))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw wrongRecoveryCode();
  await endChallenge(deps, challenge.id);
  await clearThrottle(deps.db, [mfaTryPerClient.scope], clientKey);
  await recordAudit(deps.db, { role: 'admin', adminId: challenge.adminId }, now, {
    action: 'admin.recovery_code_used',
    entityType: 'admin',
    entityId: challenge.adminId,
  });
  return adminSignedIn(challenge);
}
