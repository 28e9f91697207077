import { z } from 'zod';
import { idParam, okResponse } from '../schemas/common.ts';
import {
  eventExhibitorListResponse,
  eventExhibitorView,
  exhibitorInput,
  removalImpactResponse,
} from '../schemas/exhibitors.ts';
import { defineEndpoint, json } from './define.ts';

const eventParams = z.object({ eventId: idParam });
const memberParams = z.object({ eventId: idParam, exhibitorId: idParam });

export const listEventExhibitors = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/exhibitors',
  access: 'admin',
  summary: 'Expositores del evento con el estado de su invitación',
  params: eventParams,
  response: json(eventExhibitorListResponse),
  errors: ['not_found'],
});

export const addExhibitor = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/exhibitors',
  access: 'admin',
  summary: 'Agregar un expositor al evento: invitación y recordatorio por email',
  params: eventParams,
  body: exhibitorInput,
  response: json(eventExhibitorView, 201),
  errors: ['not_found', 'email_is_admin', 'already_in_event'],
});

export const removeExhibitor = defineEndpoint({
  method: 'DELETE',
  path: '/api/events/:eventId/exhibitors/:exhibitorId',
  access: 'admin',
  summary: 'Quitar un expositor del evento con sus nominaciones en él',
  params: memberParams,
  response: json(okResponse),
  errors: ['not_found'],
});

export const removalImpact = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/exhibitors/:exhibitorId/removal-impact',
  access: 'admin',
  summary: 'Cuántas nominaciones se descartarían al quitar al expositor del evento',
  params: memberParams,
  response: json(removalImpactResponse),
  errors: ['not_found'],
});

export const resendInvitation = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/exhibitors/:exhibitorId/invitation',
  access: 'admin',
  summary: 'Reenviar la invitación al expositor',
  params: memberParams,
  response: json(eventExhibitorView),
  errors: ['not_found'],
});

export const exhibitorsEndpoints = [
  listEventExhibitors,
  addExhibitor,
  removeExhibitor,
  removalImpact,
  resendInvitation,
] as const;
