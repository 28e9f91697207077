import { sessionResponse } from '../../../shared/schemas/session.ts';
import { defineRoute } from '../../http/route.ts';
import { clearSessionCookies, deleteSession, toCurrentUser } from '../../http/session.ts';

export const sessionRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/session',
    access: 'public',
    summary: 'Usuario de la sesión actual (o null)',
    response: sessionResponse,
    handler: async ({ user }) => ({ user: user ? toCurrentUser(user) : null }),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/session',
    access: 'public',
    summary: 'Salir: termina la sesión actual',
    handler: async ({ user, deps, reply }) => {
      if (user) await deleteSession(deps, user.sessionId);
      clearSessionCookies(reply, deps);
      return { ok: true };
    },
  }),
];
