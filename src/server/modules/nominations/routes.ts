import * as api from '../../../shared/api/nominations.ts';
import { implement, type Route } from '../../http/route.ts';
import {
  addNominee,
  editNominee,
  getExhibitorEvent,
  listExhibitorEvents,
  moveNominee,
  previewExhibitorEvent,
  removeNominee,
} from './service.ts';

/** Each save refuses an archived event in its own transaction (service.ts, checkSaveTarget). */
const saves = { archiveCheckedInTransaction: true };

export const nominationsRoutes: Route[] = [
  implement(api.myEvents, async ({ deps, user }) => ({
    events: await listExhibitorEvents(deps, user.exhibitorId),
  })),
  // "Vista previa" for administrators: the same screen, nothing saved (service.ts).
  implement(api.previewEvent, async ({ deps, params }) =>
    previewExhibitorEvent(deps, params.eventId),
  ),
  implement(api.myEvent, async ({ deps, user, params }) =>
    getExhibitorEvent(deps, user.exhibitorId, params.eventId),
  ),
  implement(
    api.addNominee,
    async ({ deps, user, params, body }) => {
      const { version, ...values } = body;
      return addNominee(deps, { ...params, exhibitorId: user.exhibitorId }, values, version);
    },
    saves,
  ),
  implement(
    api.editNominee,
    async ({ deps, user, params, body }) => {
      const { version, ...values } = body;
      const { fiscalId, ...list } = params;
      return editNominee(
        deps,
        { ...list, exhibitorId: user.exhibitorId },
        fiscalId,
        values,
        version,
      );
    },
    saves,
  ),
  implement(
    api.removeNominee,
    async ({ deps, user, params, query }) => {
      const { fiscalId, ...list } = params;
      return removeNominee(
        deps,
        { ...list, exhibitorId: user.exhibitorId },
        fiscalId,
        query.version,
      );
    },
    saves,
  ),
  implement(
    api.moveNominee,
    async ({ deps, user, params, body }) => {
      const { fiscalId, ...list } = params;
      return moveNominee(
        deps,
        { ...list, exhibitorId: user.exhibitorId },
        fiscalId,
        body.direction,
        body.version,
      );
    },
    saves,
  ),
];
