import fs from 'node:fs/promises';
import type { FastifyReply } from 'fastify';
import { nomineeInput } from '../../../shared/schemas/nominee.ts';
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
} from '../../../shared/schemas/results.ts';
import { defineRoute, type Route } from '../../http/route.ts';
import { notFound, unauthorized } from '../../lib/errors.ts';
import { contentDisposition, XLSX_CONTENT_TYPE } from '../../lib/xlsx.ts';
import { nomineeWorkbook, rankingWorkbook } from './export.ts';
import { projectFile } from '../../paths.ts';
import {
  categoryRanking,
  editVote,
  eventName,
  exhibitorVotes,
  fullRanking,
  nomineeVotes,
} from './service.ts';

/** The built manual, committed to the repository (`npm run manual` regenerates it). */
export const MANUAL_FILE = projectFile('docs/manual/instructivo.pdf');
export const MANUAL_FILE_NAME = 'Instructivo Premios.pdf';

function sendFile(
  reply: FastifyReply,
  fileName: string,
  type: string,
  body: Buffer,
  cacheControl = 'private, no-store',
) {
  return reply
    .header('content-type', type)
    .header('content-disposition', contentDisposition(fileName))
    .header('cache-control', cacheControl)
    .send(body);
}

export const resultsRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/ranking/:category',
    access: 'admin',
    summary: `Ranking de una categoría: puntos (6 − puesto) por ID fiscal, con desempates; ${RANKING_PAGE_SIZE} filas por página (?page=N)`,
    params: rankingParams,
    query: rankingQuery,
    response: rankingResponse,
    handler: async ({ deps, params, query }) => {
      const name = await eventName(deps.db, params.eventId);
      const ranking = await categoryRanking(deps.db, params.eventId, params.category, query.page);
      return { eventName: name, ...ranking, page: query.page, pageSize: RANKING_PAGE_SIZE };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/ranking/:category/export',
    access: 'admin',
    summary: 'Ranking completo de una categoría como planilla xlsx ({evento}-{categoría}.xlsx)',
    params: rankingParams,
    handler: async ({ deps, params, reply }) => {
      const name = await eventName(deps.db, params.eventId);
      const rows = await fullRanking(deps.db, params.eventId, params.category);
      return sendFile(
        reply,
        `${name}-${params.category}.xlsx`,
        XLSX_CONTENT_TYPE,
        await rankingWorkbook(rows),
      );
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/nominees/:category/:fiscalId',
    access: 'admin',
    summary: 'Votos de cada expositor para un ID fiscal en una categoría',
    params: nomineeVotesParams,
    response: nomineeVotesResponse,
    handler: async ({ deps, params }) => ({
      votes: await nomineeVotes(deps.db, params.eventId, params.category, params.fiscalId),
    }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/nominees/:category/:fiscalId/export',
    access: 'admin',
    summary: 'Votos para un ID fiscal como planilla xlsx ({idFiscal}-resultados.xlsx)',
    params: nomineeVotesParams,
    handler: async ({ deps, params, reply }) => {
      const votes = await nomineeVotes(deps.db, params.eventId, params.category, params.fiscalId);
      return sendFile(
        reply,
        `${params.fiscalId}-resultados.xlsx`,
        XLSX_CONTENT_TYPE,
        await nomineeWorkbook(votes),
      );
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/events/:eventId/exhibitors/:exhibitorId/votes',
    access: 'admin',
    summary: 'Las dos listas de nominaciones de un expositor del evento',
    params: exhibitorVotesParams,
    response: exhibitorVotesResponse,
    handler: async ({ deps, params }) =>
      exhibitorVotes(deps.db, params.eventId, params.exhibitorId),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/events/:eventId/exhibitors/:exhibitorId/votes/:category/:order',
    access: 'admin',
    summary: 'Corrige una nominación de un expositor (mismo puesto), también después del límite',
    params: voteEditParams,
    body: nomineeInput,
    response: voteEditResponse,
    handler: async ({ deps, params, body, user }) => editVote(deps, user, params, body),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/manual',
    // Any signed-in user: the top bar offers it to both roles; it shows screens of the product,
    // which there is no reason to publish to anonymous visitors.
    access: 'public',
    summary: 'Instructivo en PDF (administradores y expositores)',
    handler: async ({ user, reply }) => {
      if (!user) throw unauthorized();
      const pdf = await fs.readFile(MANUAL_FILE).catch(() => null);
      if (!pdf) throw notFound();
      return sendFile(reply, MANUAL_FILE_NAME, 'application/pdf', pdf, 'private, max-age=3600');
    },
  }),
];
