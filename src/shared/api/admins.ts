import {
  acceptInvitationInput,
  invitationQuery,
  invitationResponse,
  registerAdminInput,
  registerAdminResponse,
  signedInResponse,
} from '../schemas/auth.ts';
import { adminListResponse, adminParams } from '../schemas/admins.ts';
import { okResponse } from '../schemas/common.ts';
import { defineEndpoint, json } from './define.ts';

export const inviteAdmin = defineEndpoint({
  method: 'POST',
  path: '/api/admins',
  access: 'admin',
  summary: 'Registrar nuevo administrador: le envía por email el enlace de registro',
  body: registerAdminInput,
  response: json(registerAdminResponse, 201),
  errors: ['email_in_use'],
});

export const getInvitation = defineEndpoint({
  method: 'GET',
  path: '/api/admins/invitation',
  access: 'public',
  summary: 'Email de la invitación pendiente de un enlace de registro',
  query: invitationQuery,
  response: json(invitationResponse),
  errors: ['not_found', 'rate_limited'],
});

export const acceptInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/admins/invitation',
  access: 'public',
  summary: 'Completa el registro de un administrador invitado e inicia su sesión',
  body: acceptInvitationInput,
  response: json(signedInResponse),
  errors: ['not_found', 'rate_limited'],
});

export const listAdmins = defineEndpoint({
  method: 'GET',
  path: '/api/admins',
  access: 'admin',
  summary: 'Administradores: estado, último ingreso y verificación en dos pasos',
  response: json(adminListResponse),
  errors: [],
});

export const resendAdminInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/admins/:adminId/invitation',
  access: 'admin',
  summary: 'Reenvía el enlace de registro a un administrador con la invitación pendiente',
  params: adminParams,
  response: json(okResponse),
  errors: ['not_found', 'conflict', 'rate_limited'],
});

export const revokeAdmin = defineEndpoint({
  method: 'POST',
  path: '/api/admins/:adminId/revoke',
  access: 'admin',
  summary: 'Revoca el acceso de un administrador: termina sus sesiones y anula su invitación',
  params: adminParams,
  response: json(okResponse),
  errors: ['not_found', 'conflict', 'self_revoke', 'last_admin'],
});

export const adminsEndpoints = [
  inviteAdmin,
  getInvitation,
  acceptInvitation,
  listAdmins,
  resendAdminInvitation,
  revokeAdmin,
] as const;
