import * as api from '../../../shared/api/exhibitors.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { implement, type Route } from '../../http/route.ts';
import {
  addExhibitor,
  countNominations,
  listEventExhibitors,
  removeExhibitor,
  resendInvitation,
} from './service.ts';

export const exhibitorsRoutes: Route[] = [
  implement(api.listEventExhibitors, async ({ deps, params }) => ({
    exhibitors: await listEventExhibitors(deps, params.eventId),
  })),
  implement(api.addExhibitor, async ({ deps, user, params, body }) =>
    addExhibitor(deps, user, params.eventId, body),
  ),
  implement(api.removeExhibitor, async ({ deps, user, params }) => {
    await removeExhibitor(deps, user, params.eventId, params.exhibitorId);
    return OK;
  }),
  implement(api.removalImpact, async ({ deps, params }) => ({
    nominations: await countNominations(deps, params.eventId, params.exhibitorId),
  })),
  implement(api.resendInvitation, async ({ deps, user, params }) =>
    resendInvitation(deps, user, params.eventId, params.exhibitorId),
  ),
];
