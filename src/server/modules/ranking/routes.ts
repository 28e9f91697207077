import * as api from '../../../shared/api/results.ts';
import { RANKING_PAGE_SIZE } from '../../../shared/schemas/results.ts';
import { implement, type Route } from '../../http/route.ts';
import { sendDownload } from '../../http/download.ts';
import { nomineeWorkbook, rankingWorkbook } from './export.ts';
import { eventWorkbook } from './event-workbook.ts';
import { annulledListCount } from '../../lib/annulled-lists.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { calendarOf } from '../../lib/event-calendar.ts';
import { categoryRanking, eventName, fullRanking, nomineeVotes, rankingEvent } from './service.ts';

/** The ranking of a category, one fiscal id's votes, and their exports with the whole event's. */
export const rankingRoutes: Route[] = [
  implement(api.categoryRanking, async ({ deps, params, query }) => {
    const event = await rankingEvent(deps, params);
    const ranking = await categoryRanking(deps.db, { ...params, page: query.page });
    const annulledLists = await annulledListCount(deps.db, params.eventId, params.category);
    return { ...event, ...ranking, page: query.page, pageSize: RANKING_PAGE_SIZE, annulledLists };
  }),
  implement(api.exportRanking, async ({ deps, params, reply }) => {
    const name = await eventName(deps.db, params);
    const rows = await fullRanking(deps.db, params);
    return sendDownload(
      reply,
      `${name}-${params.category}.xlsx`,
      api.exportRanking.response.mediaType,
      await rankingWorkbook(rows),
    );
  }),
  implement(api.nomineeVotes, async ({ deps, params }) => ({
    votes: await nomineeVotes(deps.db, params),
  })),
  implement(api.exportNomineeVotes, async ({ deps, params, reply }) => {
    const votes = await nomineeVotes(deps.db, params);
    return sendDownload(
      reply,
      `${params.fiscalId}-resultados.xlsx`,
      api.exportNomineeVotes.response.mediaType,
      await nomineeWorkbook(votes),
    );
  }),
  implement(api.exportEvent, async ({ deps, params, reply }) => {
    const event = await getEventOr404(deps.db, params.eventId);
    return sendDownload(
      reply,
      `${event.name}-completo.xlsx`,
      api.exportEvent.response.mediaType,
      await eventWorkbook(deps, {
        ...params,
        timeZone: calendarOf(event, deps.config.timeZone).timeZone,
      }),
    );
  }),
];
