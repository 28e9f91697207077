import { listAnnulParams, listAnnulRequest, listAnnulResponse } from '../schemas/results.ts';
import { defineEndpoint, json } from './define.ts';

/**
 * Annulling an exhibitor's list (issue 28 item 2): the list is kept as it was, counts for nothing
 * and cannot be changed until it is restored.
 */
export const annulList = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/exhibitors/:exhibitorId/votes/:category/annul',
  access: 'admin',
  summary:
    'Anula la lista de un expositor en una categoría, con su motivo: se conserva como está y no cuenta',
  params: listAnnulParams,
  body: listAnnulRequest,
  response: json(listAnnulResponse),
  errors: ['not_found', 'invalid_input', 'list_annulled'],
});

export const restoreList = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/exhibitors/:exhibitorId/votes/:category/restore',
  access: 'admin',
  summary: 'Restablece una lista anulada: vuelve a contar como estaba',
  params: listAnnulParams,
  response: json(listAnnulResponse),
  errors: ['not_found', 'list_not_annulled'],
});

export const annulmentEndpoints = [annulList, restoreList] as const;
