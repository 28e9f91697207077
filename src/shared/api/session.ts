import { okResponse } from '../schemas/common.ts';
import { sessionResponse } from '../schemas/session.ts';
import { defineEndpoint, json } from './define.ts';

export const getSession = defineEndpoint({
  method: 'GET',
  path: '/api/session',
  access: 'public',
  summary: 'Usuario de la sesión actual (o null)',
  response: json(sessionResponse),
  errors: [],
});

export const signOut = defineEndpoint({
  method: 'DELETE',
  path: '/api/session',
  access: 'public',
  summary: 'Salir: termina la sesión actual',
  response: json(okResponse),
  errors: [],
});

export const sessionEndpoints = [getSession, signOut] as const;
