import { ADMIN_INVITATION_TTL_DAYS } from '../../shared/constants.ts';
import type { Tx } from '../db/transact.ts';
import type { AppDeps } from '../deps.ts';
import { hashToken, newId, newToken } from '../lib/crypto.ts';
import { tooManyRequests } from '../lib/errors.ts';
import { addDays, addMinutes, iso } from '../lib/time.ts';
import { enqueueMail } from './outbox.ts';

/*
 * An administrator's registration link and its email. Both the administrators feature (inviting,
 * re-sending from the list) and sign-in (a pending administrator who types their address) send it.
 */

export const registrationPath = (token: string) =>
  `/signin/newadmin?token=${encodeURIComponent(token)}`;

/** Voids every registration link of this administrator not yet used. */
export async function voidAdminInvitations(tx: Tx, now: Date, adminId: string): Promise<void> {
  await tx
    .updateTable('admin_invitations')
    .set({ used_at: iso(now) })
    .where('admin_id', '=', adminId)
    .where('used_at', 'is', null)
    .execute();
}

/**
 * Issues a fresh single-use registration link to a pending administrator and queues its email,
 * voiding earlier links. Runs inside the caller's transaction.
 */
export async function issueAdminInvitation(
  tx: Tx,
  now: Date,
  adminId: string,
  email: string,
  invitedBy: { id: string; name: string } | null,
): Promise<string> {
  await voidAdminInvitations(tx, now, adminId);
  const token = newToken();
  await tx
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
  await enqueueMail(tx, now, {
    template: 'admin-invitation',
    to: email,
    params: { invitedBy: invitedBy?.name ?? null, linkPath: registrationPath(token) },
  });
  return token;
}

/** Registration links a pending administrator may ask for: one per 30 s, ten per hour. */
const RESEND_MIN_INTERVAL_SECONDS = 30;
const RESEND_MAX_PER_HOUR = 10;

/**
 * Sends a pending administrator a fresh registration link (they typed their address at /signin).
 * Asking again within 30 s keeps the link just sent; more than ten an hour is refused.
 */
export async function resendAdminInvitation(
  deps: AppDeps,
  admin: { id: string; email: string },
): Promise<void> {
  const now = deps.clock.now();
  await deps.transact(async (tx) => {
    const recent = await tx
      .selectFrom('admin_invitations')
      .leftJoin('admins as inviter', 'inviter.id', 'admin_invitations.invited_by')
      .select([
        'admin_invitations.created_at',
        'admin_invitations.invited_by',
        'inviter.full_name as inviterName',
      ])
      .where('admin_invitations.admin_id', '=', admin.id)
      .orderBy('admin_invitations.created_at', 'desc')
      .limit(RESEND_MAX_PER_HOUR + 1)
      .execute();
    const lastHour = recent.filter((row) => row.created_at > iso(addMinutes(now, -60)));
    const latest = recent[0];
    if (
      latest &&
      now.getTime() - new Date(latest.created_at).getTime() < RESEND_MIN_INTERVAL_SECONDS * 1000
    ) {
      return;
    }
    if (lastHour.length >= RESEND_MAX_PER_HOUR) throw tooManyRequests();
    // The new email names whoever sent the first invitation.
    const inviter =
      latest?.invited_by && latest.inviterName
        ? { id: latest.invited_by, name: latest.inviterName }
        : null;
    await issueAdminInvitation(tx, now, admin.id, admin.email, inviter);
  });
}
