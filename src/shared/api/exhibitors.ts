import { z } from 'zod';
import { idParam, okResponse } from '../schemas/common.ts';
import {
  bulkRemovalImpactResponse,
  bulkRemoveResponse,
  bulkResendResponse,
  eventExhibitorListResponse,
  exhibitorSelection,
  eventExhibitorView,
  exhibitorInput,
  exhibitorSaveResponse,
  pendingInvitationsResponse,
  removalImpactResponse,
  rosterImportQuery,
  rosterListQuery,
  rosterImportResponse,
  rosterPreviewResponse,
  sentPendingInvitationsResponse,
} from '../schemas/exhibitors.ts';
import { ROSTER_PAGE_SIZE } from '../schemas/exhibitors.ts';
import { XLSX_MEDIA_TYPE } from './results.ts';
import { defineEndpoint, file, json } from './define.ts';

const eventParams = z.object({ eventId: idParam });
const memberParams = z.object({ eventId: idParam, exhibitorId: idParam });

export const listEventExhibitors = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/exhibitors',
  access: 'admin',
  summary: `Expositores del evento con el estado de su invitación, por nombre; ${ROSTER_PAGE_SIZE} por página (?page=N), búsqueda ?q= (nombre, email, empresa) y filtro ?invitation=all|pending|sent|failed`,
  params: eventParams,
  query: rosterListQuery,
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
  response: json(exhibitorSaveResponse, 201),
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
  summary:
    'Reenviar la invitación al expositor (a lo sumo 6 invitaciones por hora a una dirección)',
  params: memberParams,
  response: json(eventExhibitorView),
  errors: ['not_found', 'rate_limited'],
});

export const editExhibitor = defineEndpoint({
  method: 'PUT',
  path: '/api/events/:eventId/exhibitors/:exhibitorId',
  access: 'admin',
  summary:
    'Editar un expositor; un email nuevo conserva sus votos, cierra sus sesiones y le reenvía la invitación',
  params: memberParams,
  body: exhibitorInput,
  response: json(exhibitorSaveResponse),
  errors: ['not_found', 'email_is_admin', 'already_in_event', 'email_in_other_event'],
});

/** The file of an import: a CSV or an xlsx, read by its extension and checked by its content. */
const rosterUpload = { field: 'file', mediaType: 'text/csv' };

export const previewRoster = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/exhibitors/import/preview',
  access: 'admin',
  summary:
    'Vista previa de una importación: multipart con un CSV o xlsx ("file"); cada fila con su estado, sin guardar nada',
  params: eventParams,
  upload: rosterUpload,
  response: json(rosterPreviewResponse),
  errors: ['not_found', 'file_too_large', 'body_too_large', 'unsupported_media_type'],
});

export const importRoster = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/exhibitors/import',
  access: 'admin',
  summary:
    'Importar expositores: agrega las filas nuevas del archivo en una transacción, con invitación salvo sendInvitations=false',
  params: eventParams,
  query: rosterImportQuery,
  upload: rosterUpload,
  response: json(rosterImportResponse),
  errors: ['not_found', 'conflict', 'file_too_large', 'body_too_large', 'unsupported_media_type'],
});

export const rosterTemplate = defineEndpoint({
  method: 'GET',
  path: '/api/exhibitors/import-template',
  access: 'admin',
  summary: 'Plantilla xlsx para importar expositores (Nombre completo, Email, Empresa)',
  response: file(XLSX_MEDIA_TYPE),
  errors: [],
});

export const pendingInvitations = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/invitations/pending',
  access: 'admin',
  summary: 'Cuántos expositores del evento fueron agregados sin invitación y esperan la suya',
  params: eventParams,
  response: json(pendingInvitationsResponse),
  errors: ['not_found'],
});

export const sendPendingInvitations = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/invitations/pending',
  access: 'admin',
  summary:
    'Enviar invitaciones pendientes: invita a los expositores agregados sin invitación (dentro del límite por dirección) y programa sus recordatorios',
  params: eventParams,
  response: json(sentPendingInvitationsResponse),
  errors: ['not_found'],
});

export const resendInvitations = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/exhibitors/invitations',
  access: 'admin',
  summary:
    'Reenviar invitaciones a los expositores seleccionados (cada dirección dentro de su límite de 6 por hora)',
  params: eventParams,
  body: exhibitorSelection,
  response: json(bulkResendResponse),
  errors: ['not_found'],
});

export const bulkRemovalImpact = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/exhibitors/removal-impact',
  access: 'admin',
  summary:
    'Cuántos de los expositores seleccionados siguen en el evento y cuántas nominaciones se descartarían al quitarlos',
  params: eventParams,
  body: exhibitorSelection,
  response: json(bulkRemovalImpactResponse),
  errors: ['not_found'],
});

export const removeExhibitors = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/exhibitors/removal',
  access: 'admin',
  summary:
    'Eliminar expositores: quita del evento a los seleccionados con sus nominaciones en él, en una transacción',
  params: eventParams,
  body: exhibitorSelection,
  response: json(bulkRemoveResponse),
  errors: ['not_found'],
});

export const exhibitorsEndpoints = [
  listEventExhibitors,
  addExhibitor,
  removeExhibitor,
  removalImpact,
  resendInvitation,
  editExhibitor,
  previewRoster,
  importRoster,
  rosterTemplate,
  pendingInvitations,
  sendPendingInvitations,
  resendInvitations,
  bulkRemovalImpact,
  removeExhibitors,
] as const;
