import { z } from 'zod';
import { idParam, okResponse } from '../../../shared/schemas/common.ts';
import {
  eventExhibitorListResponse,
  eventExhibitorView,
  exhibitorInput,
  removalImpactResponse,
  rosterImportQuery,
  rosterImportResponse,
  rosterPreviewResponse,
} from '../../../shared/schemas/exhibitors.ts';
import { ROSTER_FILE_MESSAGES, ROSTER_MAX_BYTES } from '../../../shared/roster-messages.ts';
import { MSG } from '../../../shared/messages.ts';
import { readUploadedFile } from '../../http/upload.ts';
import { contentDisposition, XLSX_CONTENT_TYPE } from '../../lib/xlsx.ts';
import { rosterTemplateXlsx } from './roster-file.ts';
import { importRoster, previewRoster } from './roster-import.ts';
import type { Route } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import {
  addExhibitor,
  countNominations,
  editExhibitor,
  listEventExhibitors,
  removeExhibitor,
  resendInvitation,
} from './service.ts';

const eventParams = z.object({ eventId: idParam });
const memberParams = z.object({ eventId: idParam, exhibitorId: idParam });

const rosterUpload = {
  field: 'file',
  maxBytes: ROSTER_MAX_BYTES,
  noFile: MSG.noLogoFile,
  tooLarge: ROSTER_FILE_MESSAGES.tooLarge,
};

export const exhibitorsRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/exhibitors',
    access: 'admin',
    summary: 'Expositores del evento con el estado de su invitación',
    params: eventParams,
    response: eventExhibitorListResponse,
    handler: async ({ deps, params }) => ({
      exhibitors: await listEventExhibitors(deps, params.eventId),
    }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/events/:eventId/exhibitors',
    access: 'admin',
    summary: 'Agregar un expositor al evento: invitación y recordatorio por email',
    params: eventParams,
    body: exhibitorInput,
    response: eventExhibitorView,
    handler: async ({ deps, user, params, body, reply }) => {
      const view = await addExhibitor(deps, user, params.eventId, body);
      reply.status(201);
      return view;
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/events/:eventId/exhibitors/:exhibitorId',
    access: 'admin',
    summary:
      'Editar un expositor; un email nuevo conserva sus votos, cierra sus sesiones y le reenvía la invitación',
    params: memberParams,
    body: exhibitorInput,
    response: eventExhibitorView,
    handler: ({ deps, user, params, body }) =>
      editExhibitor(deps, user, params.eventId, params.exhibitorId, body),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/events/:eventId/exhibitors/:exhibitorId',
    access: 'admin',
    summary: 'Quitar un expositor del evento con sus nominaciones en él',
    params: memberParams,
    response: okResponse,
    handler: async ({ deps, user, params }) => {
      await removeExhibitor(deps, user, params.eventId, params.exhibitorId);
      return { ok: true };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/exhibitors/:exhibitorId/removal-impact',
    access: 'admin',
    summary: 'Cuántas nominaciones se descartarían al quitar al expositor del evento',
    params: memberParams,
    response: removalImpactResponse,
    handler: async ({ deps, params }) => ({
      nominations: await countNominations(deps, params.eventId, params.exhibitorId),
    }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/events/:eventId/exhibitors/:exhibitorId/invitation',
    access: 'admin',
    summary: 'Reenviar la invitación al expositor',
    params: memberParams,
    response: eventExhibitorView,
    handler: async ({ deps, user, params }) =>
      resendInvitation(deps, user, params.eventId, params.exhibitorId),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/events/:eventId/exhibitors/import/preview',
    access: 'admin',
    summary:
      'Vista previa de una importación: multipart con un CSV o xlsx ("file"); cada fila con su estado, sin guardar nada',
    params: eventParams,
    multipart: true,
    response: rosterPreviewResponse,
    handler: async ({ deps, params, request }) => {
      const preview = await previewRoster(
        deps,
        params.eventId,
        await readUploadedFile(request, rosterUpload),
      );
      return {
        rows: preview.rows.map(({ row, fullName, email, company, status }) => ({
          row,
          fullName,
          email,
          company,
          status,
        })),
        summary: preview.summary,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/events/:eventId/exhibitors/import',
    access: 'admin',
    summary:
      'Importar expositores: agrega las filas nuevas del archivo en una transacción, con invitación salvo sendInvitations=false',
    params: eventParams,
    query: rosterImportQuery,
    multipart: true,
    response: rosterImportResponse,
    handler: async ({ deps, user, params, query, request }) =>
      importRoster(deps, user, params.eventId, await readUploadedFile(request, rosterUpload), {
        sendInvitations: query.sendInvitations === 'true',
      }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/exhibitors/import-template',
    access: 'admin',
    summary: 'Plantilla xlsx para importar expositores (Nombre completo, Email, Empresa)',
    handler: async ({ reply }) =>
      reply
        .type(XLSX_CONTENT_TYPE)
        .header('content-disposition', contentDisposition('plantilla-expositores.xlsx'))
        .send(await rosterTemplateXlsx()),
  }),
];
