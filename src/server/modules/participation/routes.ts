import { z } from 'zod';
import { idParam } from '../../../shared/schemas/common.ts';
import {
  filterParticipation,
  participationExportQuery,
  participationResponse,
  reminderPlanResponse,
} from '../../../shared/schemas/participation.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { contentDisposition, XLSX_CONTENT_TYPE } from '../../lib/xlsx.ts';
import { participationWorkbook } from './export.ts';
import type { Route } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { participation, planNonVoterReminder, sendNonVoterReminder } from './service.ts';

const eventParams = z.object({ eventId: idParam });

export const participationRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/participation',
    access: 'admin',
    summary: 'Participación: invitaciones, ingresos y votos de cada expositor, con los totales',
    params: eventParams,
    response: participationResponse,
    handler: ({ deps, params }) => participation(deps, params.eventId),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/participation/export',
    access: 'admin',
    summary:
      'La tabla de participación como planilla xlsx ({evento}-participacion.xlsx), con el filtro (?show) y la búsqueda (?q) de la pantalla',
    params: eventParams,
    query: participationExportQuery,
    handler: async ({ deps, params, query, reply }) => {
      const event = await getEventOr404(deps.db, params.eventId);
      const { exhibitors } = await participation(deps, params.eventId);
      const rows = filterParticipation(exhibitors, query.show, query.q);
      return reply
        .type(XLSX_CONTENT_TYPE)
        .header('content-disposition', contentDisposition(`${event.name}-participacion.xlsx`))
        .header('cache-control', 'private, no-store')
        .send(await participationWorkbook(rows, deps.config.timeZone));
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/participation/reminder',
    access: 'admin',
    summary: 'A cuántos expositores sin votos llegaría el recordatorio, y cuántos se omiten',
    params: eventParams,
    response: reminderPlanResponse,
    handler: ({ deps, params }) => planNonVoterReminder(deps, params.eventId),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/events/:eventId/participation/reminder',
    access: 'admin',
    summary: 'Recordatorio por email a quienes no votaron (a lo sumo uno cada 12 horas)',
    params: eventParams,
    response: reminderPlanResponse,
    handler: ({ deps, params, user }) => sendNonVoterReminder(deps, user, params.eventId),
  }),
];
