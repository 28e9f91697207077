import * as api from '../../../shared/api/auth.ts';
import { signInRateLimitPerMinute } from '../../config.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { implement, type Route } from '../../http/route.ts';
import { startSession } from '../../http/session.ts';
import {
  confirmPasswordReset,
  requestPasswordReset,
  signInWithCode,
  signInWithLink,
  signInWithPassword,
  startSignIn,
} from './service.ts';

/**
 * Per-client limit of every sign-in step, against guessing from one machine; the per-address
 * limits live in the service. Read when the route table is built: see README's configuration.
 */
export const signInRateLimit = { max: signInRateLimitPerMinute(), timeWindow: '1 minute' };
const limited = { rateLimit: signInRateLimit };

export const authRoutes: Route[] = [
  implement(
    api.startSignIn,
    async ({ body, deps, request }) => ({
      next: await startSignIn(deps, body.email, request.ip),
    }),
    limited,
  ),
  implement(
    api.signInWithCode,
    async ({ body, deps, reply, request }) => {
      const signedIn = await signInWithCode(deps, body.email, body.code, request.ip);
      await startSession(deps, reply, signedIn.subject, signedIn.display);
      return { user: signedIn.display };
    },
    limited,
  ),
  implement(
    api.signInWithLink,
    async ({ body, deps, reply }) => {
      const signedIn = await signInWithLink(deps, body.token);
      await startSession(deps, reply, signedIn.subject, signedIn.display);
      return { user: signedIn.display };
    },
    limited,
  ),
  implement(
    api.signInWithPassword,
    async ({ body, deps, reply, request }) => {
      const signedIn = await signInWithPassword(deps, body.email, body.password, request.ip);
      await startSession(deps, reply, signedIn.subject, signedIn.display);
      return { user: signedIn.display };
    },
    limited,
  ),
  implement(
    api.requestPasswordReset,
    async ({ body, deps }) => {
      await requestPasswordReset(deps, body.email);
      return OK;
    },
    limited,
  ),
  implement(
    api.confirmPasswordReset,
    async ({ body, deps }) => {
      await confirmPasswordReset(deps, body.oobCode, body.password);
      return OK;
    },
    limited,
  ),
];
