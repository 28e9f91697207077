import { nomineeInput } from '../schemas/nominee.ts';
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
  voteEditResponse,
} from '../schemas/results.ts';
import { defineEndpoint, file, json } from './define.ts';

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const categoryRanking = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/ranking/:category',
  access: 'admin',
  summary: `Ranking de una categoría: puntos (6 − puesto) por ID fiscal, con desempates; ${RANKING_PAGE_SIZE} filas por página (?page=N)`,
  params: rankingParams,
  query: rankingQuery,
  response: json(rankingResponse),
  errors: ['not_found'],
});

export const exportRanking = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/ranking/:category/export',
  access: 'admin',
  summary: 'Ranking completo de una categoría como planilla xlsx ({evento}-{categoría}.xlsx)',
  params: rankingParams,
  response: file(XLSX_MEDIA_TYPE),
  errors: ['not_found'],
});

export const nomineeVotes = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/nominees/:category/:fiscalId',
  access: 'admin',
  summary: 'Votos de cada expositor para un ID fiscal en una categoría',
  params: nomineeVotesParams,
  response: json(nomineeVotesResponse),
  errors: ['not_found'],
});

export const exportNomineeVotes = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/nominees/:category/:fiscalId/export',
  access: 'admin',
  summary: 'Votos para un ID fiscal como planilla xlsx ({idFiscal}-resultados.xlsx)',
  params: nomineeVotesParams,
  response: file(XLSX_MEDIA_TYPE),
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
  summary: 'Corrige una nominación de un expositor (mismo puesto), también después del límite',
  params: voteEditParams,
  body: nomineeInput,
  response: json(voteEditResponse),
  errors: ['not_found', 'duplicate_fiscal_id', 'stale_list'],
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
  manual,
] as const;
