import * as api from '../../../shared/api/admins.ts';
import { implement, type Route } from '../../http/route.ts';
import { startSession } from '../../http/session.ts';
import { signInStepLimit } from '../../http/rate-limits.ts';
import { OK } from '../../../shared/schemas/common.ts';
import {
  acceptAdminInvitation,
  findInvitation,
  inviteAdmin,
  listAdmins,
  resendInvitationOf,
  revokeAdmin,
} from './service.ts';

export const adminsRoutes: Route[] = [
  implement(api.inviteAdmin, async ({ body, deps, user }) => {
    // The link goes only by email: whoever invites never sees it.
    const { adminId } = await inviteAdmin(deps, { ...body, admin: user });
    return { adminId };
  }),
  implement(
    api.getInvitation,
    async ({ query, deps }) => {
      const invitation = await findInvitation(deps, query);
      return { email: invitation.email };
    },
    signInStepLimit,
  ),
  implement(
    api.acceptInvitation,
    async ({ body, deps, reply }) => {
      const admin = await acceptAdminInvitation(deps, body);
      const display = { role: 'admin' as const, email: admin.email, fullName: admin.fullName };
      await startSession(deps, reply, { role: 'admin', adminId: admin.adminId }, display);
      return { user: display };
    },
    signInStepLimit,
  ),
  implement(api.listAdmins, async ({ deps, user }) => ({
    admins: await listAdmins(deps.db, { admin: user }),
  })),
  implement(api.resendAdminInvitation, async ({ deps, params }) => {
    await resendInvitationOf(deps, params);
    return OK;
  }),
  implement(api.revokeAdmin, async ({ deps, params, user }) => {
    await revokeAdmin(deps, { ...params, admin: user });
    return OK;
  }),
];
