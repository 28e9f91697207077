import { okResponse } from '../schemas/common.ts';
import {
  passwordResetConfirmInput,
  passwordResetRequestInput,
  signedInResponse,
  signInCodeInput,
  signInLinkInput,
  signInPasswordInput,
  signInStartInput,
  signInStartResponse,
} from '../schemas/auth.ts';
import { defineEndpoint, json } from './define.ts';

export const startSignIn = defineEndpoint({
  method: 'POST',
  path: '/api/auth/start',
  access: 'public',
  summary: 'Paso del email: código para expositores, contraseña para administradores',
  body: signInStartInput,
  response: json(signInStartResponse),
  errors: ['not_found', 'rate_limited'],
});

export const signInWithCode = defineEndpoint({
  method: 'POST',
  path: '/api/auth/code',
  access: 'public',
  summary: 'Ingreso de un expositor con el código de 6 dígitos',
  body: signInCodeInput,
  response: json(signedInResponse),
  errors: ['invalid_code', 'code_tries_exhausted', 'rate_limited'],
});

export const signInWithLink = defineEndpoint({
  method: 'POST',
  path: '/api/auth/link',
  access: 'public',
  summary: 'Ingreso de un expositor con el enlace de un solo uso del correo del código',
  body: signInLinkInput,
  response: json(signedInResponse),
  errors: ['invalid_link', 'rate_limited'],
});

export const signInWithPassword = defineEndpoint({
  method: 'POST',
  path: '/api/auth/password',
  access: 'public',
  summary: 'Ingreso de un administrador con su contraseña',
  body: signInPasswordInput,
  response: json(signedInResponse),
  errors: ['sign_in_failed', 'wrong_password', 'rate_limited'],
});

export const requestPasswordReset = defineEndpoint({
  method: 'POST',
  path: '/api/auth/password-reset',
  access: 'public',
  summary: 'Envía el enlace para cambiar la contraseña (misma respuesta exista o no la cuenta)',
  body: passwordResetRequestInput,
  response: json(okResponse),
  errors: ['rate_limited'],
});

export const confirmPasswordReset = defineEndpoint({
  method: 'POST',
  path: '/api/auth/password-reset/confirm',
  access: 'public',
  summary: 'Cambia la contraseña con el código del enlace (oobCode) y cierra todas las sesiones',
  body: passwordResetConfirmInput,
  response: json(okResponse),
  errors: ['invalid_reset', 'rate_limited'],
});

export const authEndpoints = [
  startSignIn,
  signInWithCode,
  signInWithLink,
  signInWithPassword,
  requestPasswordReset,
  confirmPasswordReset,
] as const;
