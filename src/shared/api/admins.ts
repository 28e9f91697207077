import {
  acceptInvitationInput,
  invitationQuery,
  invitationResponse,
  registerAdminInput,
  registerAdminResponse,
  signedInResponse,
} from '../schemas/auth.ts';
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

export const adminsEndpoints = [inviteAdmin, getInvitation, acceptInvitation] as const;
