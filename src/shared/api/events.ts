import { z } from 'zod';
import { idParam, okResponse } from '../schemas/common.ts';
import { eventInput, eventListResponse, eventSearchQuery, eventView } from '../schemas/events.ts';
import { defineEndpoint, json } from './define.ts';

export const eventParams = z.object({ eventId: idParam });

export const listEvents = defineEndpoint({
  method: 'GET',
  path: '/api/events',
  access: 'admin',
  summary: 'Eventos por fecha del evento; q filtra por nombre (sin mayúsculas ni acentos)',
  query: eventSearchQuery,
  response: json(eventListResponse),
  errors: [],
});

export const createEvent = defineEndpoint({
  method: 'POST',
  path: '/api/events',
  access: 'admin',
  summary: 'Crear un evento',
  body: eventInput,
  response: json(eventView, 201),
  errors: [],
});

export const getEvent = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId',
  access: 'admin',
  summary: 'Un evento',
  params: eventParams,
  response: json(eventView),
  errors: ['not_found'],
});

export const updateEvent = defineEndpoint({
  method: 'PUT',
  path: '/api/events/:eventId',
  access: 'admin',
  summary: 'Editar un evento (mover la fecha límite mueve los recordatorios)',
  params: eventParams,
  body: eventInput,
  response: json(eventView),
  errors: ['not_found'],
});

export const deleteEvent = defineEndpoint({
  method: 'DELETE',
  path: '/api/events/:eventId',
  access: 'admin',
  summary: 'Eliminar un evento con sus expositores, nominaciones y recordatorios pendientes',
  params: eventParams,
  response: json(okResponse),
  errors: ['not_found'],
});

export const eventsEndpoints = [
  listEvents,
  createEvent,
  getEvent,
  updateEvent,
  deleteEvent,
] as const;
