import { MSG } from '../../../shared/messages.ts';
import type { Db } from '../../db/connection.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit, type Actor } from '../../lib/audit.ts';
import { hashToken, newId } from '../../lib/crypto.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import type { AdminRow } from '../../../shared/schemas/admins.ts';
import type { SignedInAdmin } from '../../../shared/signed-in.ts';
import { iso } from '../../lib/time.ts';
import { forgetSentSecrets } from '../../mail/outbox.ts';
import { hashPassword, isWeakPassword } from '../../lib/passwords.ts';
import {
  issueAdminInvitation,
  registrationPath,
  resendAdminInvitation,
  voidAdminInvitations,
} from '../../mail/admin-invitations.ts';

/** True when the address belongs to any administrator (pending or not) or exhibitor. */
export async function isEmailInUse(db: Db, email: string): Promise<boolean> {
  const [admin, exhibitor] = await Promise.all([
    db.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirst(),
    db.selectFrom('exhibitors').select('id').where('email', '=', email).executeTakeFirst(),
  ]);
  return Boolean(admin || exhibitor);
}

/** The administrator a request names, by id. */
export interface AdminRef {
  adminId: string;
}

export interface InviteAdminInput {
  email: string;
  /** Who invites; `null` from the command line. */
  admin: SignedInAdmin | null;
}

/**
 * Invites a new administrator: the address must not belong to any administrator or exhibitor.
 * Returns the registration link (the CLI prints it).
 */
export async function inviteAdmin(
  deps: AppDeps,
  { email, admin: invitedBy }: InviteAdminInput,
): Promise<{ adminId: string; link: string }> {
  const now = deps.clock.now();
  return deps.transact(async (tx) => {
    // A revoked address may be invited again: the same record starts over as a pending invitation
    // (no name, password or second factor), so its history stays in one place.
    const revoked = await tx
      .selectFrom('admins')
      .select('id')
      .where('email', '=', email)
      .where('revoked_at', 'is not', null)
      .executeTakeFirst();
    if (!revoked && (await isEmailInUse(tx, email))) {
      throw new AppError('email_in_use', { fields: { email: MSG.adminEmailInUse } });
    }
    const adminId = revoked?.id ?? newId();
    if (revoked) {
      await tx
        .updateTable('admins')
        .set({
          full_name: null,
          password_hash: null,
          revoked_at: null,
          mfa_secret: null,
          mfa_pending_secret: null,
          mfa_enabled_at: null,
          mfa_last_step: null,
          updated_at: iso(now),
        })
        .where('id', '=', adminId)
        .execute();
      await tx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
    } else {
      await tx
        .insertInto('admins')
        .values({
          id: adminId,
          email,
          full_name: null,
          password_hash: null,
          created_at: iso(now),
          updated_at: iso(now),
        })
        .execute();
    }
    const token = await issueAdminInvitation(
      tx,
      now,
      adminId,
      email,
      invitedBy ? { id: invitedBy.adminId, name: invitedBy.fullName } : null,
    );
    await recordAudit(tx, invitedBy ?? { role: 'system', email: null }, now, {
      action: 'admin.invited',
      entityType: 'admin',
      entityId: adminId,
      details: { email },
    });
    return { adminId, link: `${deps.config.appUrl}${registrationPath(token)}` };
  });
}

interface Invitation {
  invitationId: string;
  adminId: string;
  email: string;
}

/** The pending administrator a registration link belongs to, or 404 "El enlace no es válido…". */
export async function findInvitation(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  { token }: { token: string },
): Promise<Invitation> {
  return findInvitationAt(deps.db, deps.clock.now(), token);
}

async function findInvitationAt(db: Db, now: Date, token: string): Promise<Invitation> {
  const invitation = await db
    .selectFrom('admin_invitations')
    .innerJoin('admins', 'admins.id', 'admin_invitations.admin_id')
    .select(['admin_invitations.id as invitationId', 'admins.id as adminId', 'admins.email'])
    .where('admin_invitations.token_hash', '=', hashToken(token))
    .where('admin_invitations.used_at', 'is', null)
    .where('admin_invitations.expires_at', '>', iso(now))
    .where('admins.full_name', 'is', null)
    .where('admins.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!invitation) throw notFound(MSG.invalidToken);
  return invitation;
}

export interface AcceptAdminInvitationInput {
  token: string;
  fullName: string;
  password: string;
}

/**
 * Completes an administrator's registration through the emailed link: saves name and password
 * and spends the link. Returns the administrator, for the caller to sign in.
 */
export async function acceptAdminInvitation(
  deps: AppDeps,
  input: AcceptAdminInvitationInput,
): Promise<{ adminId: string; email: string; fullName: string }> {
  if (isWeakPassword(input.password)) {
    throw badRequest(MSG.weakPassword, 'password');
  }
  const now = deps.clock.now();
  // Checked before the slow hash so that a dead link answers at once.
  await findInvitationAt(deps.db, now, input.token);
  const passwordHash = await hashPassword(input.password);
  return deps.transact(async (tx) => {
    const invitation = await findInvitationAt(tx, now, input.token);
    const spent = await tx
      .updateTable('admin_invitations')
      .set({ used_at: iso(now) })
      .where('admin_id', '=', invitation.adminId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    const completed = await tx
      .updateTable('admins')
      .set({ full_name: input.fullName, password_hash: passwordHash, updated_at: iso(now) })
      .where('id', '=', invitation.adminId)
      .where('full_name', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) < 1 || Number(completed.numUpdatedRows) !== 1) {
      throw notFound(MSG.invalidToken);
    }
    await forgetSentSecrets(tx, 'admin-invitation', invitation.email);
    await recordAudit(tx, { role: 'system', email: invitation.email }, now, {
      action: 'admin.registered',
      entityType: 'admin',
      entityId: invitation.adminId,
      details: { fullName: input.fullName },
    });
    return { adminId: invitation.adminId, email: invitation.email, fullName: input.fullName };
  });
}

/**
 * Every administrator, oldest first, with what the administrators page shows; `self` marks the
 * signed-in one (none from the command line).
 */
export async function listAdmins(
  db: Db,
  { admin }: { admin: Pick<SignedInAdmin, 'adminId'> | null },
): Promise<AdminRow[]> {
  const rows = await db
    .selectFrom('admins')
    .select([
      'id',
      'email',
      'full_name',
      'revoked_at',
      'last_signed_in_at',
      'mfa_enabled_at',
      'created_at',
    ])
    .orderBy('created_at')
    .orderBy('email')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    fullName: row.full_name,
    email: row.email,
    status: row.revoked_at ? 'revoked' : row.full_name === null ? 'pending' : 'active',
    lastSignedInAt: row.last_signed_in_at,
    mfaEnabled: row.mfa_enabled_at !== null,
    self: row.id === admin?.adminId,
  }));
}

/**
 * "Reenviar invitación" of the administrators page: a fresh registration link for a pending
 * administrator, with the same spacing and hourly ceiling as when they ask for it at /signin.
 */
export async function resendInvitationOf(deps: AppDeps, { adminId }: AdminRef): Promise<void> {
  const admin = await deps.db
    .selectFrom('admins')
    .select(['id', 'email', 'full_name', 'revoked_at'])
    .where('id', '=', adminId)
    .executeTakeFirst();
  if (!admin) throw notFound();
  if (admin.revoked_at) throw new AppError('conflict', { message: MSG.adminAlreadyRevoked });
  if (admin.full_name !== null) throw new AppError('conflict', { message: MSG.adminNotPending });
  await resendAdminInvitation(deps, admin);
}

export interface RevokeAdminInput extends AdminRef {
  /** Who revokes; `null` from the command line. */
  admin: SignedInAdmin | null;
}

/**
 * Takes an administrator's access away: their sessions and pending second-factor sign-ins end at
 * once, their registration and reset links stop working, and the change is audited. Nobody revokes
 * themselves, and the last active administrator stays. Every active administrator's row is locked
 * first (PostgreSQL; SQLite has one writer), so two revocations in parallel cannot both pass the
 * "someone else stays active" check.
 */
export async function revokeAdmin(
  deps: AppDeps,
  { adminId, admin: actor }: RevokeAdminInput,
): Promise<{ email: string }> {
  if (actor?.adminId === adminId) throw new AppError('self_revoke');
  const now = deps.clock.now();
  return deps.transact(async (tx) => {
    const activeQuery = tx
      .selectFrom('admins')
      .select('id')
      .where('revoked_at', 'is', null)
      .where('full_name', 'is not', null)
      .orderBy('id');
    const active = await (
      deps.engine === 'postgres' ? activeQuery.forUpdate() : activeQuery
    ).execute();
    const target = await tx
      .selectFrom('admins')
      .select(['id', 'email', 'full_name', 'revoked_at'])
      .where('id', '=', adminId)
      .executeTakeFirst();
    if (!target) throw notFound();
    if (target.revoked_at) throw new AppError('conflict', { message: MSG.adminAlreadyRevoked });
    const targetActive = active.some((row) => row.id === adminId);
    if (targetActive && active.length <= 1) throw new AppError('last_admin');
    // Whoever asks must still be active themselves (their access may have just been revoked).
    if (actor && !active.some((row) => row.id === actor.adminId)) {
      throw new AppError('not_signed_in');
    }
    await tx
      .updateTable('admins')
      .set({ revoked_at: iso(now), updated_at: iso(now) })
      .where('id', '=', adminId)
      .execute();
    await voidAdminInvitations(tx, now, adminId);
    await tx
      .updateTable('password_reset_tokens')
      .set({ used_at: iso(now) })
      .where('admin_id', '=', adminId)
      .where('used_at', 'is', null)
      .execute();
    await tx.deleteFrom('sessions').where('admin_id', '=', adminId).execute();
    await tx.deleteFrom('mfa_challenges').where('admin_id', '=', adminId).execute();
    await forgetSentSecrets(tx, 'admin-invitation', target.email);
    await forgetSentSecrets(tx, 'password-reset', target.email);
    const by: Actor = actor ?? { role: 'system', email: null };
    await recordAudit(tx, by, now, {
      action: 'admin.revoked',
      entityType: 'admin',
      entityId: adminId,
      details: { email: target.email, wasPending: target.full_name === null },
    });
    return { email: target.email };
  });
}
