import * as api from '../../../shared/api/annulment.ts';
import { implement, type Route } from '../../http/route.ts';
import { annulList, restoreList } from './service.ts';

/** "Anular votos" and "Restablecer" on the exhibitor-votes page. */
export const annulmentRoutes: Route[] = [
  implement(api.annulList, async ({ deps, params, body, user }) => ({
    annulment: await annulList(deps, { admin: user, ...params, reason: body.reason }),
  })),
  implement(api.restoreList, async ({ deps, params, user }) => {
    await restoreList(deps, { admin: user, ...params });
    return { annulment: null };
  }),
];
