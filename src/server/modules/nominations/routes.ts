import * as api from '../../../shared/api/nominations.ts';
import { deviceOf } from '../../http/device.ts';
import { implement, type Route } from '../../http/route.ts';
import {
  addNominee,
  editNominee,
  getExhibitorEvent,
  listExhibitorEvents,
  moveNominee,
  previewExhibitorEvent,
  removeNominee,
  saveInOneStatement,
} from './service.ts';

/**
 * Each save refuses an archived event in its own transaction (service.ts, checkSaveTarget). On
 * PostgreSQL each save, its session included, is one statement (`saveInOneStatement`,
 * docs/decisions/0021); the handlers beside them are the path of SQLite and of a session the
 * statement leaves to the ordinary lookup.
 */
const saves = { archiveCheckedInTransaction: true };

export const nominationsRoutes: Route[] = [
  implement(api.myEvents, async ({ deps, user }) => ({
    events: await listExhibitorEvents(deps, { exhibitorId: user.exhibitorId }),
  })),
  // "Vista previa" for administrators: the same screen, nothing saved (service.ts).
  implement(api.previewEvent, async ({ deps, params }) => previewExhibitorEvent(deps, params)),
  implement(api.myEvent, async ({ deps, user, params, request }) =>
    getExhibitorEvent(deps, {
      exhibitorId: user.exhibitorId,
      eventId: params.eventId,
      sessionId: user.sessionId,
      device: deviceOf(request, deps),
    }),
  ),
  implement(
    api.addNominee,
    async ({ deps, user, params, body }) => {
      const { version, ...values } = body;
      return addNominee(deps, {
        list: { ...params, exhibitorId: user.exhibitorId },
        values,
        expectedVersion: version,
      });
    },
    saves,
    async ({ deps, sessionToken, params, body }) => {
      const { version, ...values } = body;
      return saveInOneStatement(deps, {
        sessionToken,
        list: params,
        save: { action: 'add', values },
        expectedVersion: version,
      });
    },
  ),
  implement(
    api.editNominee,
    async ({ deps, user, params, body }) => {
      const { version, ...values } = body;
      const { fiscalId, ...list } = params;
      return editNominee(deps, {
        list: { ...list, exhibitorId: user.exhibitorId },
        fiscalId,
        values,
        expectedVersion: version,
      });
    },
    saves,
    async ({ deps, sessionToken, params, body }) => {
      const { version, ...values } = body;
      const { fiscalId, ...list } = params;
      return saveInOneStatement(deps, {
        sessionToken,
        list,
        save: { action: 'edit', fiscalId, values },
        expectedVersion: version,
      });
    },
  ),
  implement(
    api.removeNominee,
    async ({ deps, user, params, query }) => {
      const { fiscalId, ...list } = params;
      return removeNominee(deps, {
        list: { ...list, exhibitorId: user.exhibitorId },
        fiscalId,
        expectedVersion: query.version,
      });
    },
    saves,
    async ({ deps, sessionToken, params, query }) => {
      const { fiscalId, ...list } = params;
      return saveInOneStatement(deps, {
        sessionToken,
        list,
        save: { action: 'remove', fiscalId },
        expectedVersion: query.version,
      });
    },
  ),
  implement(
    api.moveNominee,
    async ({ deps, user, params, body }) => {
      const { fiscalId, ...list } = params;
      return moveNominee(deps, {
        list: { ...list, exhibitorId: user.exhibitorId },
        fiscalId,
        direction: body.direction,
        expectedVersion: body.version,
      });
    },
    saves,
    async ({ deps, sessionToken, params, body }) => {
      const { fiscalId, ...list } = params;
      const save = { action: 'move' as const, fiscalId, direction: body.direction };
      return saveInOneStatement(deps, { sessionToken, list, save, expectedVersion: body.version });
    },
  ),
];
