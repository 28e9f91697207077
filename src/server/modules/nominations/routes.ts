import * as api from '../../../shared/api/nominations.ts';
import { implement, type Route } from '../../http/route.ts';
import {
  addNominee,
  editNominee,
  getExhibitorEvent,
  listExhibitorEvents,
  moveNominee,
  removeNominee,
} from './service.ts';

export const nominationsRoutes: Route[] = [
  implement(api.myEvents, async ({ deps, user }) => ({
    events: await listExhibitorEvents(deps, user.exhibitorId),
  })),
  implement(api.myEvent, async ({ deps, user, params }) =>
    getExhibitorEvent(deps, user.exhibitorId, params.eventId),
  ),
  implement(api.addNominee, async ({ deps, user, params, body }) => {
    const { version, ...values } = body;
    return addNominee(deps, { ...params, exhibitorId: user.exhibitorId }, values, version);
  }),
  implement(api.editNominee, async ({ deps, user, params, body }) => {
    const { version, ...values } = body;
    const { fiscalId, ...list } = params;
    return editNominee(deps, { ...list, exhibitorId: user.exhibitorId }, fiscalId, values, version);
  }),
  implement(api.removeNominee, async ({ deps, user, params, query }) => {
    const { fiscalId, ...list } = params;
    return removeNominee(deps, { ...list, exhibitorId: user.exhibitorId }, fiscalId, query.version);
  }),
  implement(api.moveNominee, async ({ deps, user, params, body }) => {
    const { fiscalId, ...list } = params;
    return moveNominee(
      deps,
      { ...list, exhibitorId: user.exhibitorId },
      fiscalId,
      body.direction,
      body.version,
    );
  }),
];
