import {
  exhibitorVotesParams,
  exhibitorVotesResponse,
  nomineeVotesParams,
  nomineeVotesResponse,
  RANKING_PAGE_SIZE,
  rankingParams,
  rankingQuery,
  rankingResponse,
  voteEditParams,
  voteEditRequest,
  voteEditResponse,
  duplicatesParams,
  duplicatesResponse,
  mergeInput,
  mergePreviewResponse,
  mergeResponse,
  undoParams,
  undoResponse,
  historyParams,
  historyQuery,
  historyResponse,
} from '../schemas/results.ts';
import { defineEndpoint, file, json } from './define.ts';

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const categoryRanking = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/ranking/:category',
  access: 'admin',
  summary: `Ranking de una categoría: puntos por ID fiscal (por puesto: n + 1 − puesto; o uno por nominación), con desempates; ${RANKING_PAGE_SIZE} filas por página (?page=N)`,
  params: rankingParams,
  query: rankingQuery,
  response: json(rankingResponse),
  showsResults: true,
  errors: ['not_found'],
});

export const exportRanking = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/ranking/:category/export',
  access: 'admin',
  summary: 'Ranking completo de una categoría como planilla xlsx ({evento}-{categoría}.xlsx)',
  params: rankingParams,
  response: file(XLSX_MEDIA_TYPE),
  showsResults: true,
  errors: ['not_found'],
});

export const nomineeVotes = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/nominees/:category/:fiscalId',
  access: 'admin',
  summary: 'Votos de cada expositor para un ID fiscal en una categoría',
  params: nomineeVotesParams,
  response: json(nomineeVotesResponse),
  showsResults: true,
  errors: ['not_found'],
});

export const exportNomineeVotes = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/nominees/:category/:fiscalId/export',
  access: 'admin',
  summary: 'Votos para un ID fiscal como planilla xlsx ({idFiscal}-resultados.xlsx)',
  params: nomineeVotesParams,
  response: file(XLSX_MEDIA_TYPE),
  showsResults: true,
  errors: ['not_found'],
});

export const exhibitorVotes = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/exhibitors/:exhibitorId/votes',
  access: 'admin',
  summary: 'Las dos listas de nominaciones de un expositor del evento',
  params: exhibitorVotesParams,
  response: json(exhibitorVotesResponse),
  errors: ['not_found'],
});

export const editVote = defineEndpoint({
  method: 'PUT',
  path: '/api/events/:eventId/exhibitors/:exhibitorId/votes/:category/:order',
  access: 'admin',
  summary:
    'Corrige una nominación de un expositor (mismo puesto), también después del límite, con su motivo',
  params: voteEditParams,
  body: voteEditRequest,
  response: json(voteEditResponse),
  errors: ['not_found', 'duplicate_fiscal_id', 'stale_list', 'list_annulled'],
});

export const duplicates = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/duplicates/:category',
  access: 'admin',
  summary:
    'Posibles duplicados de una categoría: grupos de ID fiscales que probablemente son el mismo reseller',
  params: duplicatesParams,
  response: json(duplicatesResponse),
  showsResults: true,
  errors: ['not_found'],
});

export const mergePreview = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/duplicates/:category/preview',
  access: 'admin',
  summary: 'Cómo cambiaría el ranking al unificar ID fiscales (no guarda nada)',
  params: duplicatesParams,
  body: mergeInput,
  response: json(mergePreviewResponse),
  showsResults: true,
  errors: ['not_found', 'invalid_input', 'nothing_to_merge'],
});

export const merge = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/duplicates/:category/merge',
  access: 'admin',
  summary:
    'Unifica ID fiscales: sus votos pasan al que queda; en una lista con ambos queda el mejor puesto',
  params: duplicatesParams,
  body: mergeInput,
  response: json(mergeResponse),
  showsResults: true,
  errors: ['not_found', 'invalid_input', 'nothing_to_merge'],
});

export const undoMerge = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/history/:auditId/undo',
  access: 'admin',
  summary: 'Deshace una unificación del historial si sus votos no cambiaron desde entonces',
  params: undoParams,
  response: json(undoResponse),
  showsResults: true,
  errors: ['not_found', 'undo_stale'],
});

export const exportEvent = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/export',
  access: 'admin',
  summary:
    'El evento completo como planilla xlsx ({evento}-completo.xlsx): rankings, votos, participación y correcciones',
  params: historyParams,
  response: file(XLSX_MEDIA_TYPE),
  showsResults: true,
  errors: ['not_found'],
});

export const history = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/history',
  access: 'admin',
  summary:
    'Historial del evento, lo más reciente primero, de a 50 (?before=id), filtrable por acción y con búsqueda',
  params: historyParams,
  query: historyQuery,
  response: json(historyResponse),
  errors: ['not_found'],
});

export const manual = defineEndpoint({
  method: 'GET',
  path: '/api/manual',
  // The top bar offers it to both roles; it shows screens of the product, which there is no
  // reason to publish to anonymous visitors.
  access: 'signedIn',
  summary: 'Instructivo en PDF (administradores y expositores)',
  response: file('application/pdf'),
  errors: ['not_found'],
});

export const resultsEndpoints = [
  categoryRanking,
  exportRanking,
  nomineeVotes,
  exportNomineeVotes,
  exhibitorVotes,
  editVote,
  duplicates,
  mergePreview,
  merge,
  undoMerge,
  history,
  exportEvent,
  manual,
] as const;
