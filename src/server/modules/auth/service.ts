import { timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { ACCESS_CODE_TTL_MINUTES, PASSWORD_RESET_TTL_MINUTES } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { SignInStartResponse } from '../../../shared/schemas/auth.ts';
import type { AppDeps } from '../../deps.ts';
import { prepared } from '../../db/prepared.ts';
import { newSessionSecret, type SessionSubject } from '../../http/session.ts';
import type { SignedInAdmin } from '../../../shared/signed-in.ts';
import { recordAudit } from '../../lib/audit.ts';
import { hashToken, newAccessCode, newId, newLinkToken, newToken } from '../../lib/crypto.ts';
import { AppError, badRequest, notFound, tooManyRequests } from '../../lib/errors.ts';
import {
  clearThrottle,
  clearThrottlePrefix,
  countTry,
  hitThrottle,
  notBeforeByHit,
  perClient,
  throttleRefusal,
  windowExpiredAt,
} from '../../lib/throttle.ts';
import { addMinutes, iso } from '../../lib/time.ts';
import { enqueueMail, forgetSentSecrets } from '../../mail/outbox.ts';
import type { MailTemplateName } from '../../mail/templates/index.ts';
import type { SignInCodeParams } from '../../mail/templates/sign-in-code.ts';
import { resendAdminInvitation } from '../../mail/admin-invitations.ts';
import { removeSecondFactor } from './mfa.ts';
import {
  codeSendPerAddress,
  codeSendPerClient,
  codeTries,
  passwordScopes,
  passwordTries,
  passwordTryPerClient,
} from './limits.ts';
import { hashPassword, isWeakPassword, verifyPassword } from '../../lib/passwords.ts';

/** A signed-in subject plus what the `currentUser` cookie shows. */
export interface SignedIn {
  subject: SessionSubject;
  display: { role: 'admin' | 'exh'; email: string; fullName: string };
  /** The password was right and the account has a second factor: the code comes next. */
  secondFactor?: boolean;
}

/** Reset emails per account: one per interval, a few per hour, so nobody can flood a mailbox. */
const RESET_MIN_INTERVAL_SECONDS = 30;
const RESET_MAX_PER_HOUR = 5;

const invalidCode = () => new AppError('invalid_code');
const codeTriesExhausted = () => new AppError('code_tries_exhausted');
const resetFailed = () => new AppError('invalid_reset');

export const resetPasswordPath = (oobCode: string) =>
  `/signin/resetpassword?oobCode=${encodeURIComponent(oobCode)}`;

/** A code is hashed with its row id, so equal codes never share a stored value. */
const codeHash = (codeId: string, code: string) => hashToken(`${codeId}:${code}`);

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/*
 * The statements every exhibitor's sign-in runs, compiled once: at a deadline they all sign in.
 */
const exhibitorByEmail = prepared<
  { email: string },
  { id: string; email: string; full_name: string }
>((db, arg) =>
  db
    .selectFrom('exhibitors')
    .select(['id', 'email', 'full_name'])
    .where('email', '=', arg('email')),
);
const liveCodes = prepared<{ exhibitorId: string; now: string }, { id: string; code_hash: string }>(
  (db, arg) =>
    db
      .selectFrom('sign_in_codes')
      .select(['id', 'code_hash'])
      .where('exhibitor_id', '=', arg('exhibitorId'))
      .where('used_at', 'is', null)
      .where('voided_at', 'is', null)
      .where('expires_at', '>', arg('now')),
);

/** `client`: who asks (the request's address), the key of the per-client limits. */
export interface SignInStart {
  email: string;
  client: string;
}

export interface CodeSignIn extends SignInStart {
  code: string;
}

/**
 * PostgreSQL's email step (premios_request_sign_in_code) counts the per-address rule as a rule
 * without waits (premios_hit_throttle): should it ever get one, the ordinary path counts it.
 */
const codeSendWithoutAddressWait = codeSendPerAddress.delayAfter === undefined;

/**
 * The email step: an exhibitor gets a code, an administrator goes to the password step, a pending
 * administrator gets the registration link again; an unknown address is answered with "La cuenta
 * no existe" (the product tells the visitor so, rather than hiding it).
 */
export async function startSignIn(
  deps: AppDeps,
  { email, client }: SignInStart,
): Promise<SignInStartResponse['next']> {
  // An address is never both; should it ever be, the exhibitor role wins.
  if (deps.engine === 'postgres' && codeSendWithoutAddressWait) {
    // The exhibitor's email step in one round trip (docs/decisions/0040).
    if ((await requestCodeInOneStatement(deps, { email, client })) === 'code') {
      return 'code';
    }
  } else {
    const exhibitor = (await exhibitorByEmail(deps.db, { email })).rows[0];
    if (exhibitor) {
      await sendAccessCode(deps, exhibitor, client);
      return 'code';
    }
  }
  const admin = await deps.db
    .selectFrom('admins')
    .select(['id', 'email', 'full_name', 'revoked_at'])
    .where('email', '=', email)
    .executeTakeFirst();
  // A revoked administrator has no account any more, as far as signing in goes.
  if (!admin || admin.revoked_at) throw notFound(MSG.accountNotFound);
  if (admin.full_name) return 'admin';
  await resendAdminInvitation(deps, { id: admin.id, email: admin.email });
  return 'pending';
}

/** Link tokens are hashed apart from codes, so neither can be mistaken for the other. */
const linkHash = (token: string) => hashToken(`link:${token}`);

export const signInLinkPath = (token: string) => `/signin/link?token=${encodeURIComponent(token)}`;

/**
 * Issues a 6-digit code and a one-time sign-in link, both valid 15 minutes. Earlier codes stay
 * valid: a code that reached the voter's mailbox is never voided by somebody else asking for
 * another. Limits are per (address, client) and, higher, per address; a client asking again
 * within 30 s, or an address past its ceiling while its last codes are still good, gets no new
 * code and is sent to the code step (the codes already mailed work).
 */
export async function sendAccessCode(
  deps: AppDeps,
  exhibitor: { id: string; email: string },
  client: string,
): Promise<{ sent: boolean }> {
  const now = deps.clock.now();
  const clientKey = perClient(exhibitor.id, client);
  if (!(await hitThrottle(deps.db, codeSendPerClient, clientKey, now)).allowed) {
    // Asking again within 30 s sends nothing: the code on its way will do.
    if ((await throttleRefusal(deps.db, codeSendPerClient, clientKey, now)) === 'waiting') {
      return { sent: false };
    }
    throw tooManyRequests();
  }
  if (!(await hitThrottle(deps.db, codeSendPerAddress, exhibitor.id, now)).allowed) {
    const live = await deps.db
      .selectFrom('sign_in_codes')
      .select('id')
      .where('exhibitor_id', '=', exhibitor.id)
      .where('used_at', 'is', null)
      .where('voided_at', 'is', null)
      .where('expires_at', '>', iso(now))
      .executeTakeFirst();
    if (live) return { sent: false };
    throw tooManyRequests();
  }
  const { row, params } = newSignInCode(now);
  await deps.transact(async (trx) => {
    await trx
      .insertInto('sign_in_codes')
      .values({ ...row, exhibitor_id: exhibitor.id })
      .execute();
    await enqueueMail(trx, now, {
      template: 'sign-in-code',
      to: exhibitor.email,
      params,
      exhibitorId: exhibitor.id,
    });
  });
  return { sent: true };
}

/** A new code and its link, as stored (hashed) and as mailed. */
function newSignInCode(now: Date) {
  const id = newId();
  const code = newAccessCode();
  const token = newLinkToken();
  return {
    row: {
      id,
      code_hash: codeHash(id, code),
      link_hash: linkHash(token),
      expires_at: iso(addMinutes(now, ACCESS_CODE_TTL_MINUTES)),
      used_at: null,
      voided_at: null,
      created_at: iso(now),
    },
    params: { code, linkPath: signInLinkPath(token) } satisfies SignInCodeParams,
  };
}

/** What premios_request_sign_in_code (migration 0033) answers. */
type CodeRequestOutcome = 'not_exhibitor' | 'sent' | 'waiting' | 'live' | 'limited';

const callRequestSignInCode = prepared<
  {
    email: string;
    client: string;
    now: string;
    sendClientExpired: string;
    sendClientNotBefore: string[];
    sendAddressExpired: string;
    codeId: string;
    codeHash: string;
    linkHash: string;
    codeExpiresAt: string;
    mailId: string;
    mailParams: string;
  },
  { requested: { outcome: CodeRequestOutcome } }
>((db, arg) => {
  const call = sql<{ requested: { outcome: CodeRequestOutcome } }>`select
    premios_request_sign_in_code(
    ${arg('email')}, ${arg('client')}, ${arg('now')},
    ${codeSendPerClient.scope}, ${arg('sendClientExpired')},
    cast(${codeSendPerClient.max} as integer), cast(${arg('sendClientNotBefore')} as text[]),
    ${codeSendPerAddress.scope}, ${arg('sendAddressExpired')},
    cast(${codeSendPerAddress.max} as integer),
    ${arg('codeId')}, ${arg('codeHash')}, ${arg('linkHash')}, ${arg('codeExpiresAt')},
    ${arg('mailId')}, ${'sign-in-code' satisfies MailTemplateName}, ${arg('mailParams')}) as requested`;
  return { compile: () => call.compile(db) };
});

/**
 * PostgreSQL: `startSignIn`'s exhibitor part (the lookup and `sendAccessCode`) as one statement,
 * one round trip, its own transaction: docs/decisions/0040. The same counts (committed when the
 * answer is a refusal), the same answers, the code and its message written together. Says
 * "not_exhibitor" when the address is no exhibitor's (nothing changed).
 */
async function requestCodeInOneStatement(
  deps: AppDeps,
  { email, client }: SignInStart,
): Promise<'not_exhibitor' | 'code'> {
  const now = deps.clock.now();
  const { row, params } = newSignInCode(now);
  const { rows } = await callRequestSignInCode(deps.db, {
    email,
    client,
    now: iso(now),
    sendClientExpired: windowExpiredAt(codeSendPerClient, now),
    sendClientNotBefore: notBeforeByHit(codeSendPerClient, now),
    sendAddressExpired: windowExpiredAt(codeSendPerAddress, now),
    codeId: row.id,
    codeHash: row.code_hash,
    linkHash: row.link_hash,
    codeExpiresAt: row.expires_at,
    mailId: newId(),
    mailParams: JSON.stringify(params),
  });
  const outcome = rows[0]?.requested.outcome;
  switch (outcome) {
    case 'not_exhibitor':
      return 'not_exhibitor';
    case 'sent':
      deps.committed('mail-queued');
      return 'code';
    case 'waiting':
    case 'live':
      return 'code';
    case 'limited':
      throw tooManyRequests();
    case undefined:
      throw new Error('premios_request_sign_in_code answered nothing');
  }
}

/**
 * Spends one live code row (a code or its link) and retires the others: the voter is in, so
 * every other secret mailed for this address is of no further use and is blanked from the outbox.
 */
async function spendCode(
  deps: AppDeps,
  exhibitor: { id: string; email: string },
  codeId: string,
  now: Date,
): Promise<boolean> {
  return deps.transact(async (trx) => {
    const used = await trx
      .updateTable('sign_in_codes')
      .set({ used_at: iso(now) })
      .where('id', '=', codeId)
      .where('used_at', 'is', null)
      .where('voided_at', 'is', null)
      .where('expires_at', '>', iso(now))
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable('sign_in_codes')
      .set({ voided_at: iso(now) })
      .where('exhibitor_id', '=', exhibitor.id)
      .where('used_at', 'is', null)
      .where('voided_at', 'is', null)
      .execute();
    await forgetSentSecrets(trx, 'sign-in-code', exhibitor.email);
    return true;
  });
}

const exhibitorSignedIn = (exhibitor: {
  id: string;
  email: string;
  full_name: string;
}): SignedIn => ({
  subject: { role: 'exh', exhibitorId: exhibitor.id },
  display: { role: 'exh', email: exhibitor.email, fullName: exhibitor.full_name },
});

/**
 * Checks an exhibitor's code against every live code of the address (each works once, within
 * 15 minutes). Each try is counted before it is evaluated, per (address, client) and per address:
 * a client past its allowance is refused (429) even with the right code; past the address's daily
 * cap, only a client that has not been trying codes for it gets its first try evaluated, a few
 * times a day. A wrong try voids nothing, so a guesser cannot spoil the voter's code.
 */
export async function signInWithCode(
  deps: AppDeps,
  { email, code, client }: CodeSignIn,
): Promise<SignedIn> {
  const now = deps.clock.now();
  const exhibitor = (await exhibitorByEmail(deps.db, { email })).rows[0];
  if (!exhibitor) throw invalidCode();
  if (!(await countTry(deps.db, codeTries, exhibitor.id, client, now))) {
    throw codeTriesExhausted();
  }
  const live = (await liveCodes(deps.db, { exhibitorId: exhibitor.id, now: iso(now) })).rows;
  const match = live.find((row) => sameHash(row.code_hash, codeHash(row.id, code)));
  if (!match || !(await spendCode(deps, exhibitor, match.id, now))) throw invalidCode();
  return exhibitorSignedIn(exhibitor);
}

/** What premios_sign_in_with_code (migration 0026) answers. */
type CodeSignInOutcome =
  | { outcome: 'signed_in'; exhibitorId: string; email: string; fullName: string }
  | { outcome: 'invalid_code' | 'tries_exhausted' };

const callSignInWithCode = prepared<
  {
    email: string;
    code: string;
    client: string;
    now: string;
    tryClientExpired: string;
    tryAddressExpired: string;
    tryGraceExpired: string;
    sessionId: string;
    sessionTokenHash: string;
    sessionExpiresAt: string;
  },
  { signed: CodeSignInOutcome }
>((db, arg) => {
  const { perClient: byClient, perSubject: byAddress, grace } = codeTries;
  const call = sql<{ signed: CodeSignInOutcome }>`select premios_sign_in_with_code(
    ${arg('email')}, ${arg('code')}, ${arg('client')}, ${arg('now')},
    ${byClient.scope}, ${arg('tryClientExpired')}, cast(${byClient.max} as integer),
    ${byAddress.scope}, ${arg('tryAddressExpired')}, cast(${byAddress.max} as integer),
    ${grace.scope}, ${arg('tryGraceExpired')}, cast(${grace.max} as integer),
    ${'sign-in-code' satisfies MailTemplateName}, ${arg('sessionId')}, ${arg('sessionTokenHash')},
    ${arg('sessionExpiresAt')}) as signed`;
  return { compile: () => call.compile(db) };
});

/**
 * The function counts tries as a rule without delays does: should a code rule ever get a delay,
 * the code sign-in takes the ordinary path.
 */
const codeTriesWithoutDelays = [codeTries.perClient, codeTries.perSubject, codeTries.grace].every(
  (rule) => rule.delayAfter === undefined,
);

/**
 * PostgreSQL: `signInWithCode` and the session it opens (`createSession`) as one statement, one
 * round trip, its own transaction: docs/decisions/0033. The same tries counted (committed even when
 * the code is wrong: a refusal is an answer, not an error), the same refusals, the code spent once,
 * the others voided, the mailed secrets blanked, the session opened and "Último ingreso" stamped.
 * Returns the new session's token, or null for the ordinary path (having changed nothing).
 */
export async function signInWithCodeInOneStatement(
  deps: AppDeps,
  { email, code, client }: CodeSignIn,
): Promise<{ signedIn: SignedIn; sessionToken: string } | null> {
  if (!codeTriesWithoutDelays) return null;
  const now = deps.clock.now();
  const { token, id, tokenHash, expiresAt } = newSessionSecret(now);
  const { rows } = await callSignInWithCode(deps.db, {
    email,
    code,
    client,
    now: iso(now),
    tryClientExpired: windowExpiredAt(codeTries.perClient, now),
    tryAddressExpired: windowExpiredAt(codeTries.perSubject, now),
    tryGraceExpired: windowExpiredAt(codeTries.grace, now),
    sessionId: id,
    sessionTokenHash: tokenHash,
    sessionExpiresAt: expiresAt,
  });
  const signed = rows[0]?.signed;
  if (!signed) throw new Error('premios_sign_in_with_code answered nothing');
  switch (signed.outcome) {
    case 'signed_in':
      return {
        signedIn: exhibitorSignedIn({
          id: signed.exhibitorId,
          email: signed.email,
          full_name: signed.fullName,
        }),
        sessionToken: token,
      };
    case 'invalid_code':
      throw invalidCode();
    case 'tries_exhausted':
      throw codeTriesExhausted();
  }
}

/**
 * Signs an exhibitor in with the one-time link mailed beside a code. The link is 128 random bits,
 * so it needs no try counter of its own: nothing a stranger does can use it up.
 */
export async function signInWithLink(
  deps: AppDeps,
  { token }: { token: string },
): Promise<SignedIn> {
  const now = deps.clock.now();
  const row = await deps.db
    .selectFrom('sign_in_codes')
    .innerJoin('exhibitors', 'exhibitors.id', 'sign_in_codes.exhibitor_id')
    .select([
      'sign_in_codes.id as codeId',
      'exhibitors.id',
      'exhibitors.email',
      'exhibitors.full_name',
    ])
    .where('sign_in_codes.link_hash', '=', linkHash(token))
    .executeTakeFirst();
  if (!row || !(await spendCode(deps, row, row.codeId, now))) {
    throw new AppError('invalid_link');
  }
  return exhibitorSignedIn(row);
}

export interface PasswordSignIn extends SignInStart {
  password: string;
}

/**
 * Administrator password step. Each try is counted before the password is checked: per (account,
 * client) with a growing wait after a few wrong ones, and per account far above any human rate.
 * Nobody is locked out by someone else's tries: past the account's ceiling, a client that has
 * not been guessing still gets its first try. A correct password clears its client's counter.
 */
export async function signInWithPassword(
  deps: AppDeps,
  { email, password, client }: PasswordSignIn,
): Promise<SignedIn> {
  const now = deps.clock.now();
  const admin = await deps.db
    .selectFrom('admins')
    .select(['id', 'email', 'full_name', 'password_hash', 'revoked_at', 'mfa_enabled_at'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!admin || !admin.full_name || !admin.password_hash || admin.revoked_at) {
    throw new AppError('sign_in_failed');
  }
  const clientKey = perClient(admin.id, client);
  if (!(await countTry(deps.db, passwordTries, admin.id, client, now))) {
    throw tooManyRequests();
  }
  if (!(await verifyPassword(admin.password_hash, password))) {
    await recordAudit(deps.db, { role: 'system', email: admin.email }, now, {
      action: 'admin.sign_in_failed',
      entityType: 'admin',
      entityId: admin.id,
    });
    throw new AppError('wrong_password', { fields: { password: MSG.wrongPassword } });
  }
  await clearThrottle(deps.db, [passwordTryPerClient.scope], clientKey);
  return {
    subject: { role: 'admin', adminId: admin.id },
    display: { role: 'admin', email: admin.email, fullName: admin.full_name },
    secondFactor: admin.mfa_enabled_at !== null,
  };
}

export interface ChangePasswordRequest {
  admin: SignedInAdmin;
  currentPassword: string;
  password: string;
  client: string;
}

/**
 * "Cambiar contraseña": the current password first, counted as a sign-in try (a session left open
 * must not become a way to guess it); then the new hash, and every other session of the account
 * ends (the one asking stays signed in).
 */
export async function changePassword(
  deps: AppDeps,
  { admin, currentPassword, password, client }: ChangePasswordRequest,
): Promise<void> {
  if (isWeakPassword(password)) throw badRequest(MSG.resetWeakPassword, 'password');
  const now = deps.clock.now();
  const account = await deps.db
    .selectFrom('admins')
    .select(['password_hash'])
    .where('id', '=', admin.adminId)
    .executeTakeFirstOrThrow();
  if (!(await countTry(deps.db, passwordTries, admin.adminId, client, now))) {
    throw tooManyRequests();
  }
  if (!account.password_hash || !(await verifyPassword(account.password_hash, currentPassword))) {
    throw new AppError('wrong_password', { fields: { currentPassword: MSG.wrongPassword } });
  }
  const passwordHash = await hashPassword(password);
  await deps.transact(async (trx) => {
    await trx
      .updateTable('admins')
      .set({ password_hash: passwordHash, updated_at: iso(now) })
      .where('id', '=', admin.adminId)
      .execute();
    await trx
      .deleteFrom('sessions')
      .where('admin_id', '=', admin.adminId)
      .where('id', '!=', admin.sessionId)
      .execute();
    await clearThrottle(trx, [passwordTryPerClient.scope], perClient(admin.adminId, client));
    await recordAudit(trx, admin, now, {
      action: 'admin.password_changed',
      entityType: 'admin',
      entityId: admin.adminId,
    });
  });
}

/**
 * Emails a single-use, 1-hour reset link to an administrator with a completed account. The caller
 * answers the same whether or not that happened, so the form reveals no address.
 */
export async function requestPasswordReset(
  deps: AppDeps,
  { email }: { email: string },
): Promise<void> {
  const now = deps.clock.now();
  const admin = await deps.db
    .selectFrom('admins')
    .select(['id', 'email', 'full_name', 'password_hash', 'revoked_at'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!admin?.full_name || !admin.password_hash || admin.revoked_at) return;
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

export interface PasswordResetConfirmation {
  oobCode: string;
  password: string;
  /** "Desactivar también la verificación en dos pasos". */
  resetSecondFactor: boolean;
}

/** Sets a new password from a reset link; the link is spent and every session of the account ends. */
export async function confirmPasswordReset(
  deps: AppDeps,
  { oobCode, password, resetSecondFactor }: PasswordResetConfirmation,
): Promise<void> {
  if (isWeakPassword(password)) {
    throw badRequest(MSG.resetWeakPassword, 'password');
  }
  const now = deps.clock.now();
  // Hashing is slow on purpose, so a made-up or spent link is refused before any is spent on it;
  // the hash is still computed outside the transaction, which re-checks the link under its lock.
  const known = await deps.db
    .selectFrom('password_reset_tokens')
    .select('id')
    .where('token_hash', '=', hashToken(oobCode))
    .where('used_at', 'is', null)
    .where('expires_at', '>', iso(now))
    .executeTakeFirst();
  if (!known) throw resetFailed();
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
    if (resetSecondFactor) await removeSecondFactor(trx, token, now);
    // A completed reset proves the owner: whatever others' wrong tries counted starts over.
    await clearThrottlePrefix(trx, passwordScopes, token.adminId);
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
