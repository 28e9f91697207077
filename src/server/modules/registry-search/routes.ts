import * as api from '../../../shared/api/registry-search.ts';
import { implement, type Route } from '../../http/route.ts';
import { searchAsAdmin, searchAsExhibitor } from './service.ts';

export const registrySearchRoutes: Route[] = [
  implement(api.searchRegistryAsExhibitor, async ({ deps, user, params, query }) =>
    searchAsExhibitor(deps, { ...params, exhibitorId: user.exhibitorId, ...query }),
  ),
  implement(api.searchRegistryAsAdmin, async ({ deps, query }) => searchAsAdmin(deps, query)),
];
