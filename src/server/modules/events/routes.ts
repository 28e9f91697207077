import * as api from '../../../shared/api/events.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { implement, type Route } from '../../http/route.ts';
import {
  closeVotingNow,
  createEvent,
  deleteEvent,
  getEvent,
  listEvents,
  updateEvent,
  viewResultsEarly,
} from './service.ts';
import { anonymiseEvent } from './anonymise.ts';
import { archiveEvent, duplicateEvent, unarchiveEvent } from './lifecycle.ts';

export const eventsRoutes: Route[] = [
  implement(api.listEvents, async ({ deps, query }) => ({
    events: await listEvents(deps, query),
    timeZone: deps.config.timeZone,
  })),
  implement(api.createEvent, async ({ deps, user, body }) =>
    createEvent(deps, { admin: user, fields: body }),
  ),
  implement(api.getEvent, async ({ deps, params }) => getEvent(deps, params)),
  implement(api.updateEvent, async ({ deps, user, params, body }) =>
    updateEvent(deps, { admin: user, ...params, fields: body }),
  ),
  implement(api.deleteEvent, async ({ deps, user, params }) => {
    await deleteEvent(deps, { admin: user, ...params });
    return OK;
  }),
  implement(api.duplicateEvent, async ({ deps, user, params, body }) =>
    duplicateEvent(deps, { admin: user, ...params, fields: body }),
  ),
  implement(api.archiveEvent, async ({ deps, user, params }) =>
    archiveEvent(deps, { admin: user, ...params }),
  ),
  implement(api.unarchiveEvent, async ({ deps, user, params }) =>
    unarchiveEvent(deps, { admin: user, ...params }),
  ),
  implement(api.anonymiseEvent, async ({ deps, user, params }) =>
    anonymiseEvent(deps, { admin: user, ...params }),
  ),
  implement(api.closeVoting, async ({ deps, user, params }) =>
    closeVotingNow(deps, { admin: user, ...params }),
  ),
  implement(api.viewResultsEarly, async ({ deps, user, params, body }) =>
    viewResultsEarly(deps, { admin: user, ...params, ...body }),
  ),
];
