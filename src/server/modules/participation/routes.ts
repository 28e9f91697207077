import * as api from '../../../shared/api/participation.ts';
import { filterParticipation } from '../../../shared/schemas/participation.ts';
import { sendDownload } from '../../http/download.ts';
import { implement, type Route } from '../../http/route.ts';
import { calendarOf } from '../../lib/event-calendar.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { participationWorkbook } from './export.ts';
import { participation, planReminder, sendReminder } from './service.ts';

export const participationRoutes: Route[] = [
  implement(api.participation, ({ deps, params }) => participation(deps, params)),
  implement(api.exportParticipation, async ({ deps, params, query, reply }) => {
    const event = await getEventOr404(deps.db, params.eventId);
    const { exhibitors, categories } = await participation(deps, params);
    const rows = filterParticipation(exhibitors, query.show, query.q);
    return sendDownload(
      reply,
      `${event.name}-participacion.xlsx`,
      api.exportParticipation.response.mediaType,
      await participationWorkbook(
        rows,
        categories,
        calendarOf(event, deps.config.timeZone).timeZone,
      ),
    );
  }),
  implement(api.reminderPlan, ({ deps, params, query }) =>
    planReminder(deps, { ...params, ...query }),
  ),
  implement(api.sendReminder, ({ deps, params, query, user }) =>
    sendReminder(deps, { admin: user, ...params, ...query }),
  ),
];
