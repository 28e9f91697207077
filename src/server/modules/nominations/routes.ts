import {
  addNomineeRequest,
  editNomineeRequest,
  exhEventParams,
  exhEventResponse,
  exhEventsResponse,
  exhListParams,
  exhNomineeParams,
  moveNomineeRequest,
  nominationList,
  removeNomineeQuery,
} from '../../../shared/schemas/nominations.ts';
import { defineRoute, type Route } from '../../http/route.ts';
import {
  addNominee,
  editNominee,
  getExhibitorEvent,
  listExhibitorEvents,
  moveNominee,
  removeNominee,
} from './service.ts';

const nomineeUrl = '/api/exh/events/:eventId/:category/nominees/:fiscalId';

export const nominationsRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    url: '/api/exh/events',
    access: 'exh',
    summary: 'Eventos del expositor',
    response: exhEventsResponse,
    handler: async ({ deps, user }) => ({
      events: await listExhibitorEvents(deps, user.exhibitorId),
    }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/exh/events/:eventId',
    access: 'exh',
    summary: 'Evento del expositor: fecha límite, votación abierta y sus dos listas con versión',
    params: exhEventParams,
    response: exhEventResponse,
    handler: async ({ deps, user, params }) =>
      getExhibitorEvent(deps, user.exhibitorId, params.eventId),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/exh/events/:eventId/:category/nominees',
    access: 'exh',
    summary: 'Nominar un reseller (se agrega al final; máximo 5; 409 si la versión es vieja)',
    params: exhListParams,
    body: addNomineeRequest,
    response: nominationList,
    handler: async ({ deps, user, params, body }) => {
      const { version, ...values } = body;
      return addNominee(deps, { ...params, exhibitorId: user.exhibitorId }, values, version);
    },
  }),
  defineRoute({
    method: 'PUT',
    url: nomineeUrl,
    access: 'exh',
    summary: 'Editar un reseller nominado (el ID fiscal no cambia)',
    params: exhNomineeParams,
    body: editNomineeRequest,
    response: nominationList,
    handler: async ({ deps, user, params, body }) => {
      const { version, ...values } = body;
      const { fiscalId, ...list } = params;
      return editNominee(
        deps,
        { ...list, exhibitorId: user.exhibitorId },
        fiscalId,
        values,
        version,
      );
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: nomineeUrl,
    access: 'exh',
    summary: 'Quitar un reseller; los demás se renumeran desde 1 (?version=N)',
    params: exhNomineeParams,
    query: removeNomineeQuery,
    response: nominationList,
    handler: async ({ deps, user, params, query }) => {
      const { fiscalId, ...list } = params;
      return removeNominee(
        deps,
        { ...list, exhibitorId: user.exhibitorId },
        fiscalId,
        query.version,
      );
    },
  }),
  defineRoute({
    method: 'POST',
    url: `${nomineeUrl}/move`,
    access: 'exh',
    summary: 'Subir o bajar un reseller un puesto (intercambia con el vecino)',
    params: exhNomineeParams,
    body: moveNomineeRequest,
    response: nominationList,
    handler: async ({ deps, user, params, body }) => {
      const { fiscalId, ...list } = params;
      return moveNominee(
        deps,
        { ...list, exhibitorId: user.exhibitorId },
        fiscalId,
        body.direction,
        body.version,
      );
    },
  }),
];
