import { z } from 'zod';
import { idParam } from '../schemas/common.ts';
import {
  participationExportQuery,
  participationResponse,
  reminderPlanResponse,
  reminderQuery,
} from '../schemas/participation.ts';
import { defineEndpoint, file, json } from './define.ts';
import { XLSX_MEDIA_TYPE } from './results.ts';

const eventParams = z.object({ eventId: idParam });

export const participation = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/participation',
  access: 'admin',
  summary: 'Participación: invitaciones, ingresos y votos de cada expositor, con los totales',
  params: eventParams,
  response: json(participationResponse),
  errors: ['not_found'],
});

export const exportParticipation = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/participation/export',
  access: 'admin',
  summary:
    'La tabla de participación como planilla xlsx ({evento}-participacion.xlsx), con el filtro (?show) y la búsqueda (?q) de la pantalla',
  params: eventParams,
  query: participationExportQuery,
  response: file(XLSX_MEDIA_TYPE),
  errors: ['not_found'],
});

export const reminderPlan = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/participation/reminder',
  access: 'admin',
  summary:
    'A cuántos expositores llegaría el recordatorio (?to=noVotes sin votos, ?to=incomplete con alguna lista incompleta), y cuántos se omiten',
  params: eventParams,
  query: reminderQuery,
  response: json(reminderPlanResponse),
  errors: ['not_found'],
});

export const sendReminder = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/participation/reminder',
  access: 'admin',
  summary:
    'Recordatorio por email a quienes no votaron, o (?to=incomplete) a quienes tienen alguna lista incompleta; a lo sumo uno cada 12 horas',
  params: eventParams,
  query: reminderQuery,
  response: json(reminderPlanResponse),
  errors: ['not_found', 'voting_closed'],
});

export const participationEndpoints = [
  participation,
  exportParticipation,
  reminderPlan,
  sendReminder,
] as const;
