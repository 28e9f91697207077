import {
  passwordResetConfirmInput,
  passwordResetRequestInput,
  signedInResponse,
  signInCodeInput,
  signInLinkInput,
  signInPasswordInput,
  signInStartInput,
  signInStartResponse,
} from '../../../shared/schemas/auth.ts';
import { okResponse } from '../../../shared/schemas/common.ts';
import { signInRateLimitPerMinute } from '../../config.ts';
import { defineRoute, type Route } from '../../http/route.ts';
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

export const authRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    url: '/api/auth/start',
    access: 'public',
    summary: 'Paso del email: código para expositores, contraseña para administradores',
    body: signInStartInput,
    response: signInStartResponse,
    rateLimit: signInRateLimit,
    handler: async ({ body, deps, request }) => ({
      next: await startSignIn(deps, body.email, request.ip),
    }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/code',
    access: 'public',
    summary: 'Ingreso de un expositor con el código de 6 dígitos',
    body: signInCodeInput,
    response: signedInResponse,
    rateLimit: signInRateLimit,
    handler: async ({ body, deps, reply, request }) => {
      const signedIn = await signInWithCode(deps, body.email, body.code, request.ip);
      await startSession(deps, reply, signedIn.subject, signedIn.display);
      return { user: signedIn.display };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/link',
    access: 'public',
    summary: 'Ingreso de un expositor con el enlace de un solo uso del correo del código',
    body: signInLinkInput,
    response: signedInResponse,
    rateLimit: signInRateLimit,
    handler: async ({ body, deps, reply }) => {
      const signedIn = await signInWithLink(deps, body.token);
      await startSession(deps, reply, signedIn.subject, signedIn.display);
      return { user: signedIn.display };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/password',
    access: 'public',
    summary: 'Ingreso de un administrador con su contraseña',
    body: signInPasswordInput,
    response: signedInResponse,
    rateLimit: signInRateLimit,
    handler: async ({ body, deps, reply, request }) => {
      const signedIn = await signInWithPassword(deps, body.email, body.password, request.ip);
      await startSession(deps, reply, signedIn.subject, signedIn.display);
      return { user: signedIn.display };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/password-reset',
    access: 'public',
    summary: 'Envía el enlace para cambiar la contraseña (misma respuesta exista o no la cuenta)',
    body: passwordResetRequestInput,
    response: okResponse,
    rateLimit: signInRateLimit,
    handler: async ({ body, deps }) => {
      await requestPasswordReset(deps, body.email);
      return { ok: true };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/auth/password-reset/confirm',
    access: 'public',
    summary: 'Cambia la contraseña con el código del enlace (oobCode) y cierra todas las sesiones',
    body: passwordResetConfirmInput,
    response: okResponse,
    rateLimit: signInRateLimit,
    handler: async ({ body, deps }) => {
      await confirmPasswordReset(deps, body.oobCode, body.password);
      return { ok: true };
    },
  }),
];
