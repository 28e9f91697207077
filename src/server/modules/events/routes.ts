import * as api from '../../../shared/api/events.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { implement, type Route } from '../../http/route.ts';
import {
  createEvent,
  deleteEvent,
  getEventOr404,
  listEvents,
  toEventView,
  updateEvent,
} from './service.ts';

export const eventsRoutes: Route[] = [
  implement(api.listEvents, async ({ deps, query }) => ({
    events: await listEvents(deps, query.q),
  })),
  implement(api.createEvent, async ({ deps, user, body }) => createEvent(deps, user, body)),
  implement(api.getEvent, async ({ deps, params }) =>
    toEventView(await getEventOr404(deps.db, params.eventId)),
  ),
  implement(api.updateEvent, async ({ deps, user, params, body }) =>
    updateEvent(deps, user, params.eventId, body),
  ),
  implement(api.deleteEvent, async ({ deps, user, params }) => {
    await deleteEvent(deps, user, params.eventId);
    return OK;
  }),
];
