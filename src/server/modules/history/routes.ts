import * as api from '../../../shared/api/results.ts';
import { implement, type Route } from '../../http/route.ts';
import { eventHistory } from './service.ts';

/** "Historial": the event's audit log, newest first, filtered and paged. */
export const historyRoutes: Route[] = [
  implement(api.history, async ({ deps, params, query }) =>
    eventHistory(deps.db, { ...params, ...query }),
  ),
];
