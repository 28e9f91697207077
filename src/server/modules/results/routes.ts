import fs from 'node:fs/promises';
import * as api from '../../../shared/api/results.ts';
import { RANKING_PAGE_SIZE } from '../../../shared/schemas/results.ts';
import { implement, type Route } from '../../http/route.ts';
import { notFound } from '../../lib/errors.ts';
import { sendDownload } from '../../http/download.ts';
import { nomineeWorkbook, rankingWorkbook } from './export.ts';
import { eventHistory } from './history.ts';
import { eventWorkbook } from './event-workbook.ts';
import { duplicateGroups, mergeNominees, previewMerge, undoMerge } from './merge.ts';
import { projectFile } from '../../paths.ts';
import {
  categoryRanking,
  editVote,
  eventName,
  exhibitorVotes,
  fullRanking,
  nomineeVotes,
  rankingEvent,
} from './service.ts';

/** The built manual, committed to the repository (`npm run manual` regenerates it). */
export const MANUAL_FILE = projectFile('docs/manual/instructivo.pdf');
export const MANUAL_FILE_NAME = 'Instructivo Premios.pdf';

export const resultsRoutes: Route[] = [
  implement(api.categoryRanking, async ({ deps, params, query }) => {
    const event = await rankingEvent(deps, params.eventId);
    const ranking = await categoryRanking(deps.db, params.eventId, params.category, query.page);
    return { ...event, ...ranking, page: query.page, pageSize: RANKING_PAGE_SIZE };
  }),
  implement(api.exportRanking, async ({ deps, params, reply }) => {
    const name = await eventName(deps.db, params.eventId);
    const rows = await fullRanking(deps.db, params.eventId, params.category);
    return sendDownload(
      reply,
      `${name}-${params.category}.xlsx`,
      api.exportRanking.response.mediaType,
      await rankingWorkbook(rows),
    );
  }),
  implement(api.nomineeVotes, async ({ deps, params }) => ({
    votes: await nomineeVotes(deps.db, params.eventId, params.category, params.fiscalId),
  })),
  implement(api.exportNomineeVotes, async ({ deps, params, reply }) => {
    const votes = await nomineeVotes(deps.db, params.eventId, params.category, params.fiscalId);
    return sendDownload(
      reply,
      `${params.fiscalId}-resultados.xlsx`,
      api.exportNomineeVotes.response.mediaType,
      await nomineeWorkbook(votes),
    );
  }),
  implement(api.exhibitorVotes, async ({ deps, params }) =>
    exhibitorVotes(deps.db, params.eventId, params.exhibitorId),
  ),
  implement(api.editVote, async ({ deps, params, body, user }) =>
    editVote(deps, user, params, body),
  ),
  implement(api.duplicates, async ({ deps, params }) =>
    duplicateGroups(deps.db, params.eventId, params.category),
  ),
  implement(api.mergePreview, async ({ deps, params, body }) =>
    previewMerge(deps.db, params.eventId, params.category, body),
  ),
  implement(api.merge, async ({ deps, params, body, user }) =>
    mergeNominees(deps, user, params.eventId, params.category, body),
  ),
  implement(api.undoMerge, async ({ deps, params, user }) =>
    undoMerge(deps, user, params.eventId, params.auditId),
  ),
  implement(api.history, async ({ deps, params, query }) =>
    eventHistory(deps.db, params.eventId, query),
  ),
  implement(api.exportEvent, async ({ deps, params, reply }) => {
    const name = await eventName(deps.db, params.eventId);
    return sendDownload(
      reply,
      `${name}-completo.xlsx`,
      api.exportEvent.response.mediaType,
      eventWorkbook(deps.db, params.eventId, deps.config.timeZone),
    );
  }),
  implement(api.manual, async ({ reply }) => {
    const pdf = await fs.readFile(MANUAL_FILE).catch(() => null);
    if (!pdf) throw notFound();
    return sendDownload(
      reply,
      MANUAL_FILE_NAME,
      api.manual.response.mediaType,
      pdf,
      'private, max-age=3600',
    );
  }),
];
