import * as api from '../../../shared/api/integrity.ts';
import { implement, type Route } from '../../http/route.ts';
import { integrityAlerts } from './service.ts';

/** "Integridad": signs of coordinated voting, for an administrator to review. */
export const integrityRoutes: Route[] = [
  implement(api.integrityAlerts, async ({ deps, params }) => integrityAlerts(deps.db, params)),
];
