import { getSession, signOut } from '../../../shared/api/session.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { implement } from '../../http/route.ts';
import { clearSessionCookies, deleteSession, toCurrentUser } from '../../http/session.ts';

export const sessionRoutes = [
  implement(getSession, async ({ user, deps }) => ({
    user: user ? toCurrentUser(user, deps) : null,
  })),
  implement(signOut, async ({ user, deps, reply }) => {
    if (user) await deleteSession(deps, user.sessionId);
    clearSessionCookies(reply, deps);
    return OK;
  }),
];
