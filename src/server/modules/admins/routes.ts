import {
  acceptInvitationInput,
  invitationQuery,
  invitationResponse,
  registerAdminInput,
  registerAdminResponse,
  signedInResponse,
} from '../../../shared/schemas/auth.ts';
import { defineRoute, type Route } from '../../http/route.ts';
import { startSession } from '../../http/session.ts';
import { signInRateLimit } from '../auth/routes.ts';
import { acceptAdminInvitation, findInvitation, inviteAdmin } from './service.ts';

export const adminsRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    url: '/api/admins',
    access: 'admin',
    summary: 'Registrar nuevo administrador: le envía por email el enlace de registro',
    body: registerAdminInput,
    response: registerAdminResponse,
    handler: async ({ body, deps, user, reply }) => {
      // The link goes only by email: whoever invites never sees it.
      const { adminId } = await inviteAdmin(deps, body.email, user);
      reply.status(201);
      return { adminId };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/admins/invitation',
    access: 'public',
    summary: 'Email de la invitación pendiente de un enlace de registro',
    query: invitationQuery,
    response: invitationResponse,
    rateLimit: signInRateLimit,
    handler: async ({ query, deps }) => {
      const invitation = await findInvitation(deps.db, deps.clock.now(), query.token);
      return { email: invitation.email };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/admins/invitation',
    access: 'public',
    summary: 'Completa el registro de un administrador invitado e inicia su sesión',
    body: acceptInvitationInput,
    response: signedInResponse,
    rateLimit: signInRateLimit,
    handler: async ({ body, deps, reply }) => {
      const admin = await acceptAdminInvitation(deps, body);
      const display = { role: 'admin' as const, email: admin.email, fullName: admin.fullName };
      await startSession(deps, reply, { role: 'admin', adminId: admin.adminId }, display);
      return { user: display };
    },
  }),
];
