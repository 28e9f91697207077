import { ADMIN_INVITATION_TTL_DAYS } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { Db } from '../../db/connection.ts';
import type { AppDeps } from '../../deps.ts';
import type { SessionUser } from '../../http/session.ts';
import { recordAudit } from '../../lib/audit.ts';
import { hashToken, newId, newToken } from '../../lib/crypto.ts';
import { conflict } from '../../lib/errors.ts';
import { addDays, iso } from '../../lib/time.ts';
import { enqueueMail } from '../../mail/outbox.ts';

export const registrationPath = (token: string) =>
  `/signin/newadmin?token=${encodeURIComponent(token)}`;

/** True when the address belongs to any administrator (pending or not) or exhibitor. */
export async function isEmailInUse(db: Db, email: string): Promise<boolean> {
  const [admin, exhibitor] = await Promise.all([
    db.selectFrom('admins').select('id').where('email', '=', email).executeTakeFirst(),
    db.selectFrom('exhibitors').select('id').where('email', '=', email).executeTakeFirst(),
  ]);
  return Boolean(admin || exhibitor);
}

/**
 * Issues a fresh single-use registration link to a pending administrator and queues its email,
 * voiding earlier links. Runs inside the caller's transaction.
 */
export async function issueAdminInvitation(
  trx: Db,
  now: Date,
  adminId: string,
  email: string,
  invitedBy: { id: string; name: string } | null,
): Promise<string> {
  await trx
    .updateTable('admin_invitations')
    .set({ used_at: iso(now) })
    .where('admin_id', '=', adminId)
    .where('used_at', 'is', null)
    .execute();
  const token = newToken();
  await trx
    .insertInto('admin_invitations')
    .values({
      id: newId(),
      admin_id: adminId,
      token_hash: hashToken(token),
      invited_by: invitedBy?.id ?? null,
      expires_at: iso(addDays(now, ADMIN_INVITATION_TTL_DAYS)),
      used_at: null,
      created_at: iso(now),
    })
    .execute();
  await enqueueMail(trx, now, {
    template: 'admin-invitation',
    to: email,
    params: { invitedBy: invitedBy?.name ?? null, linkPath: registrationPath(token) },
  });
  return token;
}

/**
 * Invites a new administrator: the address must not belong to any administrator or exhibitor.
 * Returns the registration link (the CLI prints it).
 */
export async function inviteAdmin(
  deps: AppDeps,
  email: string,
  invitedBy: Extract<SessionUser, { role: 'admin' }> | null,
): Promise<{ adminId: string; link: string }> {
  const now = deps.clock.now();
  const result = await deps.db.transaction().execute(async (trx) => {
    if (await isEmailInUse(trx, email)) {
      throw conflict('email_in_use', MSG.adminEmailInUse, { email: MSG.adminEmailInUse });
    }
    const adminId = newId();
    await trx
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
    const token = await issueAdminInvitation(
      trx,
      now,
      adminId,
      email,
      invitedBy ? { id: invitedBy.adminId, name: invitedBy.fullName } : null,
    );
    await recordAudit(trx, invitedBy ?? { role: 'system', email: null }, now, {
      action: 'admin.invited',
      entityType: 'admin',
      entityId: adminId,
      details: { email },
    });
    return { adminId, link: `${deps.config.appUrl}${registrationPath(token)}` };
  });
  deps.notifyMailQueued();
  return result;
}
