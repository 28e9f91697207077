import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CURRENT_USER_COOKIE,
  MFA_CHALLENGE_COOKIE,
  MFA_CHALLENGE_TTL_MINUTES,
  SESSION_ABSOLUTE_DAYS,
  SESSION_COOKIE,
  SESSION_IDLE_HOURS,
} from '../../shared/constants.ts';
import type { CurrentUser } from '../../shared/schemas/session.ts';
import type { SignedInUser } from '../../shared/signed-in.ts';
import type { AppDeps } from '../deps.ts';
import { hashToken, newId, newToken } from '../lib/crypto.ts';
import { addDays, addHours, iso } from '../lib/time.ts';
import { prepared } from '../db/prepared.ts';

/** A session's user: the signed-in types of src/shared/signed-in.ts. */
export type SessionUser = SignedInUser;

export type SessionSubject =
  { role: 'admin'; adminId: string } | { role: 'exh'; exhibitorId: string };

/** Refresh last_seen_at at most this often, so reads do not turn into writes. */
export const TOUCH_INTERVAL_MS = 5 * 60_000;

const insertSession = prepared<
  {
    id: string;
    tokenHash: string;
    role: 'admin' | 'exh';
    adminId: string | null;
    exhibitorId: string | null;
    at: string;
    expiresAt: string;
  },
  never
>((db, arg) =>
  db.insertInto('sessions').values({
    id: arg('id'),
    token_hash: arg('tokenHash'),
    role: arg('role'),
    admin_id: arg('adminId'),
    exhibitor_id: arg('exhibitorId'),
    created_at: arg('at'),
    last_seen_at: arg('at'),
    expires_at: arg('expiresAt'),
  }),
);
const stampAdminSignIn = prepared<{ id: string; at: string }, never>((db, arg) =>
  db
    .updateTable('admins')
    .set({ last_signed_in_at: arg('at') })
    .where('id', '=', arg('id')),
);
const stampExhibitorSignIn = prepared<{ id: string; at: string }, never>((db, arg) =>
  db
    .updateTable('exhibitors')
    .set({ last_signed_in_at: arg('at') })
    .where('id', '=', arg('id')),
);

/**
 * A new session's secret token and what is stored of it (its id, the token's hash, its absolute
 * expiry), for whatever opens it: `createSession`, or PostgreSQL's one-statement code sign-in.
 */
export function newSessionSecret(now: Date): {
  token: string;
  id: string;
  tokenHash: string;
  expiresAt: string;
} {
  const token = newToken();
  return {
    token,
    id: newId(),
    tokenHash: hashToken(token),
    expiresAt: iso(addDays(now, SESSION_ABSOLUTE_DAYS)),
  };
}

/**
 * Opens a session, records the sign-in ("Último ingreso"), and returns its secret token; only the
 * token's hash is stored. Its statements are compiled once: at a deadline every exhibitor signs in.
 */
export async function createSession(deps: AppDeps, subject: SessionSubject): Promise<string> {
  const now = deps.clock.now();
  const { token, ...stored } = newSessionSecret(now);
  await insertSession(deps.db, {
    ...stored,
    role: subject.role,
    adminId: subject.role === 'admin' ? subject.adminId : null,
    exhibitorId: subject.role === 'exh' ? subject.exhibitorId : null,
    at: iso(now),
  });
  // "Último ingreso" of the participation table and of the administrators list. Informational, so
  // it needs no transaction with the session: a crash in between loses only this stamp.
  const stamp = { at: iso(now) };
  if (subject.role === 'admin') await stampAdminSignIn(deps.db, { id: subject.adminId, ...stamp });
  else await stampExhibitorSignIn(deps.db, { id: subject.exhibitorId, ...stamp });
  return token;
}

/**
 * The signed-in user behind a session token, or null when missing, idle or expired. Every API call
 * asks, so the session and its user come from one statement.
 */
interface SessionRow {
  id: string;
  role: 'admin' | 'exh';
  last_seen_at: string;
  expires_at: string;
  admin_id: string | null;
  admin_email: string | null;
  admin_name: string | null;
  admin_revoked_at: string | null;
  admin_mfa_enabled_at: string | null;
  exhibitor_id: string | null;
  exhibitor_email: string | null;
  exhibitor_name: string | null;
  exhibitor_company: string | null;
}

/** Every API call asks, so the session and its user come from one statement, compiled once. */
const selectSessionUser = prepared<{ tokenHash: string }, SessionRow>((db, arg) =>
  db
    .selectFrom('sessions')
    .leftJoin('admins', 'admins.id', 'sessions.admin_id')
    .leftJoin('exhibitors', 'exhibitors.id', 'sessions.exhibitor_id')
    .select([
      'sessions.id',
      'sessions.role',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'admins.id as admin_id',
      'admins.email as admin_email',
      'admins.full_name as admin_name',
      'admins.revoked_at as admin_revoked_at',
      'admins.mfa_enabled_at as admin_mfa_enabled_at',
      'exhibitors.id as exhibitor_id',
      'exhibitors.email as exhibitor_email',
      'exhibitors.full_name as exhibitor_name',
      'exhibitors.company as exhibitor_company',
    ])
    .where('sessions.token_hash', '=', arg('tokenHash')),
);

/** The signed-in user behind a session token, or null when missing, idle or expired. */
export async function findSessionUser(deps: AppDeps, token: string): Promise<SessionUser | null> {
  const now = deps.clock.now();
  const session = (await selectSessionUser(deps.db, { tokenHash: hashToken(token) })).rows[0];
  if (!session) return null;
  const idleLimit = addHours(new Date(session.last_seen_at), SESSION_IDLE_HOURS);
  if (new Date(session.expires_at) <= now || idleLimit <= now) {
    await deps.db.deleteFrom('sessions').where('id', '=', session.id).execute();
    return null;
  }
  if (now.getTime() - new Date(session.last_seen_at).getTime() > TOUCH_INTERVAL_MS) {
    await deps.db
      .updateTable('sessions')
      .set({ last_seen_at: iso(now) })
      .where('id', '=', session.id)
      .execute();
  }
  if (
    session.role === 'admin' &&
    session.admin_id &&
    session.admin_email &&
    session.admin_name &&
    !session.admin_revoked_at
  ) {
    return {
      role: 'admin',
      sessionId: session.id,
      adminId: session.admin_id,
      email: session.admin_email,
      fullName: session.admin_name,
      mfaEnabled: session.admin_mfa_enabled_at !== null,
    };
  }
  if (
    session.role === 'exh' &&
    session.exhibitor_id &&
    session.exhibitor_email &&
    session.exhibitor_name !== null &&
    session.exhibitor_company !== null
  ) {
    return {
      role: 'exh',
      sessionId: session.id,
      exhibitorId: session.exhibitor_id,
      email: session.exhibitor_email,
      fullName: session.exhibitor_name,
      company: session.exhibitor_company,
    };
  }
  return null;
}

export async function deleteSession(deps: AppDeps, sessionId: string): Promise<void> {
  await deps.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** REQUIRE_ADMIN_MFA is on and this administrator has no second factor yet. */
export function mustSetUpMfa(deps: AppDeps, user: SessionUser): boolean {
  return user.role === 'admin' && deps.config.requireAdminMfa && !user.mfaEnabled;
}

export function toCurrentUser(user: SessionUser, deps?: AppDeps): CurrentUser {
  return {
    role: user.role,
    email: user.email,
    fullName: user.fullName,
    ...(deps && mustSetUpMfa(deps, user) ? { mfaSetupRequired: true as const } : {}),
  };
}

function isSecure(deps: AppDeps): boolean {
  return deps.config.appUrl.startsWith('https://');
}

/**
 * Under https the session cookie carries the `__Host-` prefix: browsers then accept it only with
 * Secure, path / and no Domain, so a neighbouring subdomain cannot plant or overwrite it.
 */
export function sessionCookieName(deps: AppDeps): string {
  return isSecure(deps) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/**
 * The longest name the display cookie carries. The forms allow 200 characters; a name stored
 * before they did (or by an import that skipped them) is cut here, so the cookie stays far under
 * the 4 KB browsers and HTTP clients accept, whatever the name. It is display data only.
 */
export const DISPLAY_NAME_MAX_CHARS = 200;

function displayName(fullName: string): string {
  if (fullName.length <= DISPLAY_NAME_MAX_CHARS) return fullName;
  // Never keep half of a character outside the Basic Multilingual Plane.
  const last = fullName.charCodeAt(DISPLAY_NAME_MAX_CHARS - 1);
  const cut =
    last >= 0xd800 && last <= 0xdbff ? DISPLAY_NAME_MAX_CHARS - 1 : DISPLAY_NAME_MAX_CHARS;
  return `${fullName.slice(0, cut - 1)}…`;
}

/** Sets the httpOnly session cookie and the display-only `currentUser` cookie. */
export function setSessionCookies(
  reply: FastifyReply,
  deps: AppDeps,
  token: string,
  user: CurrentUser,
): void {
  const secure = isSecure(deps);
  reply.setCookie(sessionCookieName(deps), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: SESSION_ABSOLUTE_DAYS * 86_400,
  });
  const display = { ...user, fullName: displayName(user.fullName) };
  reply.setCookie(CURRENT_USER_COOKIE, JSON.stringify(display), {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure,
    maxAge: SESSION_ABSOLUTE_DAYS * 86_400,
  });
}

export function clearSessionCookies(reply: FastifyReply, deps: AppDeps): void {
  const secure = isSecure(deps);
  reply.clearCookie(sessionCookieName(deps), { path: '/', secure });
  reply.clearCookie(CURRENT_USER_COOKIE, { path: '/', secure });
}

export function sessionToken(request: FastifyRequest, deps: AppDeps): string | undefined {
  return request.cookies[sessionCookieName(deps)];
}

/** Signs the user in on this response: new session, cookies set. */
export async function startSession(
  deps: AppDeps,
  reply: FastifyReply,
  subject: SessionSubject,
  display: CurrentUser,
): Promise<void> {
  const token = await createSession(deps, subject);
  setSessionCookies(reply, deps, token, display);
}

/** The pending second-factor sign-in's cookie, named like the session's (`__Host-` under https). */
function mfaCookieName(deps: AppDeps): string {
  return isSecure(deps) ? `__Host-${MFA_CHALLENGE_COOKIE}` : MFA_CHALLENGE_COOKIE;
}

export function setMfaChallengeCookie(reply: FastifyReply, deps: AppDeps, token: string): void {
  reply.setCookie(mfaCookieName(deps), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: isSecure(deps),
    maxAge: MFA_CHALLENGE_TTL_MINUTES * 60,
  });
}

export function clearMfaChallengeCookie(reply: FastifyReply, deps: AppDeps): void {
  reply.clearCookie(mfaCookieName(deps), { path: '/', secure: isSecure(deps) });
}

export function mfaChallengeToken(request: FastifyRequest, deps: AppDeps): string | undefined {
  return request.cookies[mfaCookieName(deps)];
}
