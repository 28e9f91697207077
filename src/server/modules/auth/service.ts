import { timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import {
  ACCESS_CODE_MAX_ATTEMPTS,
  ACCESS_CODE_MAX_PER_HOUR,
  ACCESS_CODE_MIN_INTERVAL_SECONDS,
  ACCESS_CODE_TTL_MINUTES,
  PASSWORD_RESET_TTL_MINUTES,
} from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { SignInStartResponse } from '../../../shared/schemas/auth.ts';
import type { AppDeps } from '../../deps.ts';
import type { SessionSubject } from '../../http/session.ts';
import { recordAudit } from '../../lib/audit.ts';
import { hashToken, newAccessCode, newId, newToken } from '../../lib/crypto.ts';
import { AppError, badRequest, notFound, tooManyRequests } from '../../lib/errors.ts';
import { addMinutes, iso } from '../../lib/time.ts';
import { enqueueMail, forgetSentSecrets } from '../../mail/outbox.ts';
import { resendAdminInvitation } from '../admins/service.ts';
import { hashPassword, isWeakPassword, verifyPassword } from './passwords.ts';

/** A signed-in subject plus what the `currentUser` cookie shows. */
export interface SignedIn {
  subject: SessionSubject;
  display: { role: 'admin' | 'exh'; email: string; fullName: string };
}

/** Wrong admin passwords per account before it is paused (on top of the per-client limit). */
export const ADMIN_PASSWORD_MAX_FAILURES = 10;
export const ADMIN_PASSWORD_FAILURE_WINDOW_MINUTES = 15;
/** Reset emails per account: one per interval, a few per hour, so nobody can flood a mailbox. */
const RESET_MIN_INTERVAL_SECONDS = 30;
const RESET_MAX_PER_HOUR = 5;

const invalidCode = () => new AppError(400, 'invalid_code', MSG.invalidCode);
const resetFailed = () => new AppError(400, 'invalid_reset', MSG.resetFailed);

export const resetPasswordPath = (oobCode: string) =>
  `/signin/resetpassword?oobCode=${encodeURIComponent(oobCode)}`;

/** A code is hashed with its row id, so equal codes never share a stored value. */
const codeHash = (codeId: string, code: string) => hashToken(`${codeId}:${code}`);

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The email step: an exhibitor gets a code, an administrator goes to the password step, a pending
 * administrator gets the registration link again; an unknown address is answered with "La cuenta
 * no existe" (the product tells the visitor so, rather than hiding it).
 */
export async function startSignIn(
  deps: AppDeps,
  email: string,
): Promise<SignInStartResponse['next']> {
  // An address is never both; should it ever be, the exhibitor role wins.
  const exhibitor = await deps.db
    .selectFrom('exhibitors')
    .select(['id', 'email'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (exhibitor) {
    await sendAccessCode(deps, exhibitor);
    return 'code';
  }
  const admin = await deps.db
    .selectFrom('admins')
    .select(['id', 'email', 'full_name'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!admin) throw notFound(MSG.accountNotFound);
  if (admin.full_name) return 'admin';
  await resendAdminInvitation(deps, { id: admin.id, email: admin.email });
  return 'pending';
}

/**
 * Issues a 6-digit code: at most one per 30 s and 10 per hour per address;
 * a new code voids the previous one. Asking again within 30 s while the last code is still good
 * sends nothing and keeps that code.
 */
export async function sendAccessCode(
  deps: AppDeps,
  exhibitor: { id: string; email: string },
): Promise<{ sent: boolean }> {
  const now = deps.clock.now();
  const result = await deps.transact(async (trx) => {
    const recent = await trx
      .selectFrom('sign_in_codes')
      .select(['created_at', 'used_at', 'voided_at', 'expires_at'])
      .where('exhibitor_id', '=', exhibitor.id)
      .where('created_at', '>', iso(addMinutes(now, -60)))
      .orderBy('created_at', 'desc')
      .execute();
    const latest = recent[0];
    const minInterval = ACCESS_CODE_MIN_INTERVAL_SECONDS * 1000;
    if (latest && now.getTime() - new Date(latest.created_at).getTime() < minInterval) {
      const stillGood = !latest.used_at && !latest.voided_at && latest.expires_at > iso(now);
      if (stillGood) return { sent: false };
      throw tooManyRequests();
    }
    if (recent.length >= ACCESS_CODE_MAX_PER_HOUR) throw tooManyRequests();

    await trx
      .updateTable('sign_in_codes')
      .set({ voided_at: iso(now) })
      .where('exhibitor_id', '=', exhibitor.id)
      .where('used_at', 'is', null)
      .where('voided_at', 'is', null)
      .execute();
    await forgetSentSecrets(trx, 'sign-in-code', exhibitor.email);
    const id = newId();
    const code = newAccessCode();
    await trx
      .insertInto('sign_in_codes')
      .values({
        id,
        exhibitor_id: exhibitor.id,
        code_hash: codeHash(id, code),
        attempts: 0,
        expires_at: iso(addMinutes(now, ACCESS_CODE_TTL_MINUTES)),
        used_at: null,
        voided_at: null,
        created_at: iso(now),
      })
      .execute();
    await enqueueMail(trx, now, {
      template: 'sign-in-code',
      to: exhibitor.email,
      params: { code },
      exhibitorId: exhibitor.id,
    });
    return { sent: true };
  });
  return result;
}

/**
 * Checks an exhibitor's code: only the latest live code counts; it works once, within 15 minutes,
 * and the 5th wrong try voids it (so even the right code fails afterwards).
 */
export async function signInWithCode(
  deps: AppDeps,
  email: string,
  code: string,
): Promise<SignedIn> {
  const now = deps.clock.now();
  const exhibitor = await deps.db
    .selectFrom('exhibitors')
    .select(['id', 'email', 'full_name'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!exhibitor) throw invalidCode();
  const accepted = await deps.transact(async (trx) => {
    const live = await trx
      .selectFrom('sign_in_codes')
      .select(['id', 'code_hash', 'attempts', 'expires_at'])
      .where('exhibitor_id', '=', exhibitor.id)
      .where('used_at', 'is', null)
      .where('voided_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (!live || live.expires_at <= iso(now) || live.attempts >= ACCESS_CODE_MAX_ATTEMPTS) {
      return false;
    }
    if (!sameHash(live.code_hash, codeHash(live.id, code))) {
      // Counted in SQL so that concurrent wrong tries cannot share one count.
      await trx
        .updateTable('sign_in_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', live.id)
        .execute();
      await trx
        .updateTable('sign_in_codes')
        .set({ voided_at: iso(now) })
        .where('id', '=', live.id)
        .where('attempts', '>=', ACCESS_CODE_MAX_ATTEMPTS)
        .where('voided_at', 'is', null)
        .execute();
      return false;
    }
    const used = await trx
      .updateTable('sign_in_codes')
      .set({ used_at: iso(now) })
      .where('id', '=', live.id)
      .where('used_at', 'is', null)
      .where('voided_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return false;
    await forgetSentSecrets(trx, 'sign-in-code', exhibitor.email);
    return true;
  });
  if (!accepted) throw invalidCode();
  return {
    subject: { role: 'exh', exhibitorId: exhibitor.id },
    display: { role: 'exh', email: exhibitor.email, fullName: exhibitor.full_name },
  };
}

/** Administrator password step. Wrong password and every other failure have their own message. */
export async function signInWithPassword(
  deps: AppDeps,
  email: string,
  password: string,
): Promise<SignedIn> {
  const now = deps.clock.now();
  const admin = await deps.db
    .selectFrom('admins')
    .select(['id', 'email', 'full_name', 'password_hash'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!admin || !admin.full_name || !admin.password_hash) {
    throw new AppError(400, 'sign_in_failed', MSG.signInFailed);
  }
  const failures = await deps.db
    .selectFrom('audit_log')
    .select(sql<number>`cast(count(*) as integer)`.as('count'))
    .where('action', '=', 'admin.sign_in_failed')
    .where('entity_id', '=', admin.id)
    .where('at', '>', iso(addMinutes(now, -ADMIN_PASSWORD_FAILURE_WINDOW_MINUTES)))
    .executeTakeFirstOrThrow();
  if (Number(failures.count) >= ADMIN_PASSWORD_MAX_FAILURES) throw tooManyRequests();
  if (!(await verifyPassword(admin.password_hash, password))) {
    await recordAudit(deps.db, { role: 'system', email: admin.email }, now, {
      action: 'admin.sign_in_failed',
      entityType: 'admin',
      entityId: admin.id,
    });
    throw new AppError(400, 'wrong_password', MSG.wrongPassword, { password: MSG.wrongPassword });
  }
  return {
    subject: { role: 'admin', adminId: admin.id },
    display: { role: 'admin', email: admin.email, fullName: admin.full_name },
  };
}

/**
 * Emails a single-use, 1-hour reset link to an administrator with a completed account. The caller
 * answers the same whether or not that happened, so the form reveals no address.
 */
export async function requestPasswordReset(deps: AppDeps, email: string): Promise<void> {
  const now = deps.clock.now();
  const admin = await deps.db
    .selectFrom('admins')
    .select(['id', 'email', 'full_name', 'password_hash'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!admin?.full_name || !admin.password_hash) return;
  const queued = await deps.transact(async (trx) => {
    const recent = await trx
      .selectFrom('password_reset_tokens')
      .select('created_at')
      .where('admin_id', '=', admin.id)
      .where('created_at', '>', iso(addMinutes(now, -60)))
      .orderBy('created_at', 'desc')
      .execute();
    const latest = recent[0];
    if (
      recent.length >= RESET_MAX_PER_HOUR ||
      (latest &&
        now.getTime() - new Date(latest.created_at).getTime() < RESET_MIN_INTERVAL_SECONDS * 1000)
    ) {
      return false;
    }
    // Only the newest link works: an older one in the mailbox is spent.
    await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: iso(now) })
      .where('admin_id', '=', admin.id)
      .where('used_at', 'is', null)
      .execute();
    await forgetSentSecrets(trx, 'password-reset', admin.email);
    const oobCode = newToken();
    await trx
      .insertInto('password_reset_tokens')
      .values({
        id: newId(),
        admin_id: admin.id,
        token_hash: hashToken(oobCode),
        expires_at: iso(addMinutes(now, PASSWORD_RESET_TTL_MINUTES)),
        used_at: null,
        created_at: iso(now),
      })
      .execute();
    await enqueueMail(trx, now, {
      template: 'password-reset',
      to: admin.email,
      params: { linkPath: resetPasswordPath(oobCode) },
    });
    return true;
  });
  if (!queued) deps.logger.info({ adminId: admin.id }, 'password reset not sent: asked too often');
}

/** Sets a new password from a reset link; the link is spent and every session of the account ends. */
export async function confirmPasswordReset(
  deps: AppDeps,
  oobCode: string,
  password: string,
): Promise<void> {
  if (isWeakPassword(password)) {
    throw badRequest(MSG.resetWeakPassword, { password: MSG.resetWeakPassword });
  }
  const now = deps.clock.now();
  // Hashing is slow on purpose: do it before the transaction holds any lock.
  const passwordHash = await hashPassword(password);
  const changed = await deps.transact(async (trx) => {
    const token = await trx
      .selectFrom('password_reset_tokens')
      .innerJoin('admins', 'admins.id', 'password_reset_tokens.admin_id')
      .select(['password_reset_tokens.id', 'admins.id as adminId', 'admins.email'])
      .where('password_reset_tokens.token_hash', '=', hashToken(oobCode))
      .where('password_reset_tokens.used_at', 'is', null)
      .where('password_reset_tokens.expires_at', '>', iso(now))
      .executeTakeFirst();
    if (!token) return false;
    const spent = await trx
      .updateTable('password_reset_tokens')
      .set({ used_at: iso(now) })
      .where('id', '=', token.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable('admins')
      .set({ password_hash: passwordHash, updated_at: iso(now) })
      .where('id', '=', token.adminId)
      .execute();
    await trx.deleteFrom('sessions').where('admin_id', '=', token.adminId).execute();
    await forgetSentSecrets(trx, 'password-reset', token.email);
    await recordAudit(trx, { role: 'system', email: token.email }, now, {
      action: 'admin.password_reset',
      entityType: 'admin',
      entityId: token.adminId,
    });
    return true;
  });
  if (!changed) throw resetFailed();
}
