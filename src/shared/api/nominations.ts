import {
  addNomineeRequest,
  editNomineeRequest,
  exhEventParams,
  exhEventResponse,
  exhListParams,
  exhNomineeParams,
  moveNomineeRequest,
  nominationList,
  removeNomineeQuery,
} from '../schemas/nominations.ts';
import { defineEndpoint, json } from './define.ts';
import { myEvents } from './exh-events.ts';

// "Mis eventos" has a module of its own (./exh-events.ts): that screen loads without the others'.
export { myEvents };

const nomineePath = '/api/exh/events/:eventId/:category/nominees/:fiscalId';
/** Every write to a list: it may be stale, closed, or the event not the exhibitor's. */
const listWriteErrors = ['not_found', 'stale_list', 'voting_closed', 'list_annulled'] as const;

export const myEvent = defineEndpoint({
  method: 'GET',
  path: '/api/exh/events/:eventId',
  access: 'exhibitor',
  summary: 'Evento del expositor: fecha límite, votación abierta y sus dos listas con versión',
  params: exhEventParams,
  response: json(exhEventResponse),
  errors: ['not_found'],
});

export const addNominee = defineEndpoint({
  method: 'POST',
  path: '/api/exh/events/:eventId/:category/nominees',
  access: 'exhibitor',
  summary: 'Nominar un reseller (se agrega al final; máximo 5; 409 si la versión es vieja)',
  params: exhListParams,
  body: addNomineeRequest,
  response: json(nominationList),
  errors: [...listWriteErrors, 'duplicate_fiscal_id', 'nomination_limit'],
});

export const editNominee = defineEndpoint({
  method: 'PUT',
  path: nomineePath,
  access: 'exhibitor',
  summary: 'Editar un reseller nominado (el ID fiscal no cambia)',
  params: exhNomineeParams,
  body: editNomineeRequest,
  response: json(nominationList),
  errors: listWriteErrors,
});

export const removeNominee = defineEndpoint({
  method: 'DELETE',
  path: nomineePath,
  access: 'exhibitor',
  summary: 'Quitar un reseller; los demás se renumeran desde 1 (?version=N)',
  params: exhNomineeParams,
  query: removeNomineeQuery,
  response: json(nominationList),
  errors: listWriteErrors,
});

export const moveNominee = defineEndpoint({
  method: 'POST',
  path: `${nomineePath}/move`,
  access: 'exhibitor',
  summary: 'Subir o bajar un reseller un puesto (intercambia con el vecino)',
  params: exhNomineeParams,
  body: moveNomineeRequest,
  response: json(nominationList),
  errors: listWriteErrors,
});

export const previewEvent = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/preview',
  access: 'admin',
  summary:
    'Vista previa: la pantalla del expositor de este evento (también un borrador), con listas vacías; nada se puede guardar',
  params: exhEventParams,
  response: json(exhEventResponse),
  errors: ['not_found'],
});

export const nominationsEndpoints = [
  myEvents,
  myEvent,
  addNominee,
  editNominee,
  removeNominee,
  moveNominee,
  previewEvent,
] as const;
