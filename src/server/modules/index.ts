import type { Route } from '../http/route.ts';
import { adminsRoutes } from './admins/routes.ts';
import { annulmentRoutes } from './annulment/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { brandingRoutes } from './branding/routes.ts';
import { categoriesRoutes } from './categories/routes.ts';
import { correctionsRoutes } from './corrections/routes.ts';
import { eventsRoutes } from './events/routes.ts';
import { exhibitorsRoutes } from './exhibitors/routes.ts';
import { historyRoutes } from './history/routes.ts';
import { manualRoutes } from './manual/routes.ts';
import { mergeRoutes } from './merge/routes.ts';
import { nominationsRoutes } from './nominations/routes.ts';
import { participationRoutes } from './participation/routes.ts';
import { rankingRoutes } from './ranking/routes.ts';
import { registryRoutes } from './registry/routes.ts';
import { registrySearchRoutes } from './registry-search/routes.ts';
import { sessionRoutes } from './session/routes.ts';

/** The route table: every API operation, with who may call it. */
export const apiRoutes: Route[] = [
  ...sessionRoutes,
  ...authRoutes,
  ...adminsRoutes,
  ...eventsRoutes,
  ...categoriesRoutes,
  ...exhibitorsRoutes,
  ...registryRoutes,
  ...participationRoutes,
  ...nominationsRoutes,
  ...rankingRoutes,
  ...correctionsRoutes,
  ...annulmentRoutes,
  ...mergeRoutes,
  ...historyRoutes,
  ...manualRoutes,
  ...brandingRoutes,
  ...registrySearchRoutes,
];
