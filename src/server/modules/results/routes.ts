import type { Route } from '../../http/route.ts';

export const resultsRoutes: Route[] = [];
