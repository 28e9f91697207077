import { okResponse } from '../schemas/common.ts';
import {
  changePasswordInput,
  passwordResetConfirmInput,
  passwordResetRequestInput,
  signedInResponse,
  signInCodeInput,
  signInLinkInput,
  signInPasswordInput,
  signInStartInput,
  signInStartResponse,
} from '../schemas/auth.ts';
import {
  mfaCodeInput,
  mfaRecoveryCodesResponse,
  mfaRecoveryInput,
  mfaSetupInput,
  mfaSetupResponse,
  mfaStatusResponse,
  signInPasswordResponse,
} from '../schemas/mfa.ts';
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
  summary:
    'Ingreso de un administrador con su contraseña (con verificación en dos pasos, el código sigue en /api/auth/mfa)',
  body: signInPasswordInput,
  response: json(signInPasswordResponse),
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
  summary:
    'Cambia la contraseña con el código del enlace (oobCode) y cierra todas las sesiones; con resetSecondFactor también desactiva la verificación en dos pasos',
  body: passwordResetConfirmInput,
  response: json(okResponse),
  errors: ['invalid_reset', 'rate_limited'],
});

export const signInWithTotp = defineEndpoint({
  method: 'POST',
  path: '/api/auth/mfa',
  access: 'public',
  summary: 'Segundo paso del ingreso de un administrador: el código de su aplicación',
  body: mfaCodeInput,
  response: json(signedInResponse),
  errors: ['mfa_expired', 'mfa_invalid_code', 'rate_limited'],
});

export const signInWithRecoveryCode = defineEndpoint({
  method: 'POST',
  path: '/api/auth/mfa/recovery',
  access: 'public',
  summary: 'Segundo paso del ingreso con un código de recuperación (cada uno sirve una vez)',
  body: mfaRecoveryInput,
  response: json(signedInResponse),
  errors: ['mfa_expired', 'mfa_invalid_code', 'rate_limited'],
});

export const mfaStatus = defineEndpoint({
  method: 'GET',
  path: '/api/security',
  access: 'admin',
  summary: 'Estado de la verificación en dos pasos del administrador',
  response: json(mfaStatusResponse),
  errors: [],
  beforeMfa: true,
});

export const startMfaSetup = defineEndpoint({
  method: 'POST',
  path: '/api/security/mfa/setup',
  access: 'admin',
  summary:
    'Con el código enviado por correo, genera el secreto de la verificación en dos pasos (texto y código QR) a confirmar',
  body: mfaSetupInput,
  response: json(mfaSetupResponse),
  errors: ['conflict', 'mfa_invalid_code', 'mfa_unavailable', 'rate_limited'],
  beforeMfa: true,
});

export const sendMfaEnrolCode = defineEndpoint({
  method: 'POST',
  path: '/api/security/mfa/email-code',
  access: 'admin',
  summary:
    'Envía al correo de la cuenta el código que pide la activación de la verificación en dos pasos',
  response: json(okResponse),
  errors: ['conflict', 'mfa_unavailable', 'rate_limited'],
  beforeMfa: true,
});

export const enableMfa = defineEndpoint({
  method: 'POST',
  path: '/api/security/mfa/enable',
  access: 'admin',
  summary:
    'Confirma el secreto con un código y activa la verificación; da diez códigos de recuperación',
  body: mfaCodeInput,
  response: json(mfaRecoveryCodesResponse),
  errors: ['conflict', 'mfa_invalid_code', 'mfa_unavailable', 'rate_limited'],
  beforeMfa: true,
});

export const disableMfa = defineEndpoint({
  method: 'POST',
  path: '/api/security/mfa/disable',
  access: 'admin',
  summary: 'Desactiva la verificación en dos pasos con un código vigente',
  body: mfaCodeInput,
  response: json(okResponse),
  errors: ['conflict', 'mfa_invalid_code', 'mfa_unavailable', 'rate_limited'],
  beforeMfa: true,
});

export const changePassword = defineEndpoint({
  method: 'POST',
  path: '/api/security/password',
  access: 'admin',
  summary:
    'Cambiar contraseña: con la actual; cierra las demás sesiones de la cuenta (la de este pedido sigue)',
  body: changePasswordInput,
  response: json(okResponse),
  errors: ['wrong_password', 'rate_limited'],
});

export const authEndpoints = [
  startSignIn,
  signInWithCode,
  signInWithLink,
  signInWithPassword,
  requestPasswordReset,
  confirmPasswordReset,
  signInWithTotp,
  signInWithRecoveryCode,
  mfaStatus,
  sendMfaEnrolCode,
  startMfaSetup,
  enableMfa,
  disableMfa,
  changePassword,
] as const;
