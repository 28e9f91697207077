import type { FastifyReply, FastifyRequest } from 'fastify';
import * as api from '../../../shared/api/auth.ts';
import { OK } from '../../../shared/schemas/common.ts';
import type { AppDeps } from '../../deps.ts';
import { keepDeviceCookie } from '../../http/device.ts';
import { signInStepLimit } from '../../http/rate-limits.ts';
import { implement, type Route } from '../../http/route.ts';
import {
  clearMfaChallengeCookie,
  mfaChallengeToken,
  setMfaChallengeCookie,
  setSessionCookies,
  startSession,
} from '../../http/session.ts';
import {
  disableMfa,
  enableMfa,
  mfaStatus,
  sendMfaEnrolCode,
  signInWithRecoveryCode,
  signInWithTotp,
  startMfaChallenge,
  startMfaSetup,
} from './mfa.ts';
import {
  changePassword,
  confirmPasswordReset,
  requestPasswordReset,
  signInWithCode,
  signInWithCodeInOneStatement,
  signInWithLink,
  signInWithPassword,
  startSignIn,
  type SignedIn,
} from './service.ts';

/**
 * The second step of an administrator's sign-in: the pending challenge (from its cookie) is spent
 * by `check`, which throws when the code is wrong; then the session starts.
 */
async function finishMfaChallenge(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  check: (challengeToken: string | undefined) => Promise<SignedIn>,
): Promise<{ user: SignedIn['display'] }> {
  const signedIn = await check(mfaChallengeToken(request, deps));
  clearMfaChallengeCookie(reply, deps);
  await startSession(deps, reply, signedIn.subject, signedIn.display);
  return { user: signedIn.display };
}

export const authRoutes: Route[] = [
  implement(
    api.startSignIn,
    async ({ body, deps, request }) => ({
      next: await startSignIn(deps, { ...body, client: request.ip }),
    }),
    signInStepLimit,
  ),
  implement(
    api.signInWithCode,
    async ({ body, deps, reply, request }) => {
      // PostgreSQL: the code's check and the session in one round trip (docs/decisions/0033).
      const opened =
        deps.engine === 'postgres'
          ? await signInWithCodeInOneStatement(deps, { ...body, client: request.ip })
          : null;
      if (opened) {
        setSessionCookies(reply, deps, opened.sessionToken, opened.signedIn.display);
        keepDeviceCookie(request, reply, deps);
        return { user: opened.signedIn.display };
      }
      const signedIn = await signInWithCode(deps, { ...body, client: request.ip });
      await startSession(deps, reply, signedIn.subject, signedIn.display);
      // "Mismo dispositivo" (docs/decisions/0035): the browser keeps, or gets, its device id.
      keepDeviceCookie(request, reply, deps);
      return { user: signedIn.display };
    },
    signInStepLimit,
  ),
  implement(
    api.signInWithLink,
    async ({ body, deps, reply, request }) => {
      const signedIn = await signInWithLink(deps, body);
      await startSession(deps, reply, signedIn.subject, signedIn.display);
      keepDeviceCookie(request, reply, deps);
      return { user: signedIn.display };
    },
    signInStepLimit,
  ),
  implement(
    api.signInWithPassword,
    async ({ body, deps, reply, request }) => {
      const signedIn = await signInWithPassword(deps, { ...body, client: request.ip });
      if (signedIn.secondFactor && signedIn.subject.role === 'admin') {
        // No session yet: only a short-lived pending state until the second factor.
        const token = await startMfaChallenge(deps, signedIn.subject);
        setMfaChallengeCookie(reply, deps, token);
        return { mfa: true as const };
      }
      await startSession(deps, reply, signedIn.subject, signedIn.display);
      return deps.config.requireAdminMfa
        ? { user: signedIn.display, mfaSetupRequired: true as const }
        : { user: signedIn.display };
    },
    signInStepLimit,
  ),
  implement(
    api.signInWithTotp,
    ({ body, deps, reply, request }) =>
      finishMfaChallenge(deps, request, reply, (token) =>
        signInWithTotp(deps, { ...body, challengeToken: token, client: request.ip }),
      ),
    signInStepLimit,
  ),
  implement(
    api.signInWithRecoveryCode,
    ({ body, deps, reply, request }) =>
      finishMfaChallenge(deps, request, reply, (token) =>
        signInWithRecoveryCode(deps, { ...body, challengeToken: token, client: request.ip }),
      ),
    signInStepLimit,
  ),
  implement(api.mfaStatus, async ({ deps, user }) => mfaStatus(deps, { admin: user })),
  implement(api.sendMfaEnrolCode, async ({ deps, user }) => {
    await sendMfaEnrolCode(deps, { admin: user });
    return OK;
  }),
  implement(api.startMfaSetup, async ({ body, deps, user, request }) =>
    startMfaSetup(deps, { ...body, admin: user, client: request.ip }),
  ),
  implement(api.enableMfa, async ({ body, deps, user, request }) => ({
    recoveryCodes: await enableMfa(deps, { ...body, admin: user, client: request.ip }),
  })),
  implement(api.disableMfa, async ({ body, deps, user, request }) => {
    await disableMfa(deps, { ...body, admin: user, client: request.ip });
    return OK;
  }),
  implement(api.changePassword, async ({ body, deps, user, request }) => {
    await changePassword(deps, { ...body, admin: user, client: request.ip });
    return OK;
  }),
  implement(
    api.requestPasswordReset,
    async ({ body, deps }) => {
      await requestPasswordReset(deps, body);
      return OK;
    },
    signInStepLimit,
  ),
  implement(
    api.confirmPasswordReset,
    async ({ body, deps }) => {
      await confirmPasswordReset(deps, {
        ...body,
        resetSecondFactor: body.resetSecondFactor === true,
      });
      return OK;
    },
    signInStepLimit,
  ),
];
