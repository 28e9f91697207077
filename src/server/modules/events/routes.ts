import * as api from '../../../shared/api/events.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { implement, type Route } from '../../http/route.ts';
import {
  closeVotingNow,
  createEvent,
  deleteEvent,
  getEventOr404,
  listEvents,
  clockOf,
  toEventView,
  updateEvent,
  viewResultsEarly,
} from './service.ts';
import { anonymiseEvent } from './anonymise.ts';
import { readEventCategories } from '../../lib/event-categories.ts';
import { archiveEvent, duplicateEvent, unarchiveEvent } from './lifecycle.ts';

export const eventsRoutes: Route[] = [
  implement(api.listEvents, async ({ deps, query }) => ({
    events: await listEvents(deps, query.q, query.archived),
    timeZone: deps.config.timeZone,
  })),
  implement(api.createEvent, async ({ deps, user, body }) => createEvent(deps, user, body)),
  implement(api.getEvent, async ({ deps, params }) =>
    toEventView(
      await getEventOr404(deps.db, params.eventId),
      clockOf(deps),
      await readEventCategories(deps.db, params.eventId),
    ),
  ),
  implement(api.updateEvent, async ({ deps, user, params, body }) =>
    updateEvent(deps, user, params.eventId, body),
  ),
  implement(api.deleteEvent, async ({ deps, user, params }) => {
    await deleteEvent(deps, user, params.eventId);
    return OK;
  }),
  implement(api.duplicateEvent, async ({ deps, user, params, body }) =>
    duplicateEvent(deps, user, params.eventId, body),
  ),
  implement(api.archiveEvent, async ({ deps, user, params }) =>
    archiveEvent(deps, user, params.eventId),
  ),
  implement(api.unarchiveEvent, async ({ deps, user, params }) =>
    unarchiveEvent(deps, user, params.eventId),
  ),
  implement(api.anonymiseEvent, async ({ deps, user, params }) =>
    anonymiseEvent(deps, user, params.eventId),
  ),
  implement(api.closeVoting, async ({ deps, user, params }) =>
    closeVotingNow(deps, user, params.eventId),
  ),
  implement(api.viewResultsEarly, async ({ deps, user, params, body }) =>
    viewResultsEarly(deps, { admin: user, eventId: params.eventId, reason: body.reason }),
  ),
];
