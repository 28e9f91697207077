import { z } from 'zod';
import { idParam, okResponse } from '../schemas/common.ts';
import {
  duplicateEventInput,
  eventInput,
  eventListResponse,
  eventSearchQuery,
  eventUpdateInput,
  eventView,
  viewResultsEarlyInput,
} from '../schemas/events.ts';
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
  summary: 'Un evento, con sus categorías en orden',
  params: eventParams,
  response: json(eventView),
  errors: ['not_found'],
});

export const updateEvent = defineEndpoint({
  method: 'PUT',
  path: '/api/events/:eventId',
  access: 'admin',
  summary:
    'Editar un evento (mover la fecha límite mueve los recordatorios; notifyExhibitors avisa a los invitados de una extensión)',
  params: eventParams,
  body: eventUpdateInput,
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

export const duplicateEvent = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/duplicate',
  access: 'admin',
  summary:
    'Duplicar un evento (también archivado): un evento nuevo con sus expositores si se pide, nunca sus votos; invitaciones solo si se pide',
  params: eventParams,
  body: duplicateEventInput,
  response: json(eventView, 201),
  errors: ['not_found'],
  onArchivedEvent: 'allow',
});

export const archiveEvent = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/archive',
  access: 'admin',
  summary:
    'Archivar un evento después de su fecha: solo lectura para todos, oculto a los expositores',
  params: eventParams,
  response: json(eventView),
  errors: ['not_found', 'event_not_over', 'event_archived'],
  onArchivedEvent: 'allow',
});

export const unarchiveEvent = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/unarchive',
  access: 'admin',
  summary: 'Desarchivar un evento',
  params: eventParams,
  response: json(eventView),
  errors: ['not_found', 'event_not_archived'],
  onArchivedEvent: 'allow',
});

export const anonymiseEvent = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/anonymise',
  access: 'admin',
  summary:
    'Anonimizar los datos personales de un evento archivado (irreversible): conserva IDs fiscales, razones sociales y el ranking',
  params: eventParams,
  response: json(eventView),
  errors: ['not_found', 'event_not_archived', 'already_anonymised'],
  onArchivedEvent: 'allow',
});

export const closeVoting = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/close-voting',
  access: 'admin',
  summary:
    'Cerrar votación ahora: la fecha límite pasa a hoy y la votación termina en este instante; se retiran los recordatorios pendientes',
  params: eventParams,
  response: json(eventView),
  errors: ['not_found', 'voting_closed'],
});

export const viewResultsEarly = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/results/view-early',
  access: 'admin',
  summary:
    'Ver resultados ahora: abre antes del cierre los resultados de un evento que los oculta, para todos los administradores, con su motivo en el historial',
  params: eventParams,
  body: viewResultsEarlyInput,
  response: json(eventView),
  errors: ['not_found', 'results_not_sealed'],
});

export const eventsEndpoints = [
  listEvents,
  createEvent,
  getEvent,
  updateEvent,
  deleteEvent,
  duplicateEvent,
  archiveEvent,
  unarchiveEvent,
  anonymiseEvent,
  closeVoting,
  viewResultsEarly,
] as const;
