import {
  eventInput,
  eventListResponse,
  eventSearchQuery,
  eventView,
} from '../../../shared/schemas/events.ts';
import { idParam, okResponse } from '../../../shared/schemas/common.ts';
import { z } from 'zod';
import type { Route } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import {
  createEvent,
  deleteEvent,
  getEventOr404,
  listEvents,
  toEventView,
  updateEvent,
} from './service.ts';

const eventParams = z.object({ eventId: idParam });

export const eventsRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    url: '/api/events',
    access: 'admin',
    summary: 'Eventos por fecha del evento; q filtra por nombre (sin mayúsculas ni acentos)',
    query: eventSearchQuery,
    response: eventListResponse,
    handler: async ({ deps, query }) => ({ events: await listEvents(deps, query.q) }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/events',
    access: 'admin',
    summary: 'Crear un evento',
    body: eventInput,
    response: eventView,
    handler: async ({ deps, user, body, reply }) => {
      reply.status(201);
      return createEvent(deps, user, body);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId',
    access: 'admin',
    summary: 'Un evento',
    params: eventParams,
    response: eventView,
    handler: async ({ deps, params }) => toEventView(await getEventOr404(deps.db, params.eventId)),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/events/:eventId',
    access: 'admin',
    summary: 'Editar un evento (mover la fecha límite mueve los recordatorios)',
    params: eventParams,
    body: eventInput,
    response: eventView,
    handler: async ({ deps, user, params, body }) => updateEvent(deps, user, params.eventId, body),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/events/:eventId',
    access: 'admin',
    summary: 'Eliminar un evento con sus expositores, nominaciones y recordatorios pendientes',
    params: eventParams,
    response: okResponse,
    handler: async ({ deps, user, params }) => {
      await deleteEvent(deps, user, params.eventId);
      return { ok: true };
    },
  }),
];
