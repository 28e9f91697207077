import * as api from '../../../shared/api/results.ts';
import { implement, type Route } from '../../http/route.ts';
import { duplicateGroups, mergeNominees, previewMerge, undoMerge } from './service.ts';

/** "Posibles duplicados": the groups, a merge's preview, the merge and its undo. */
export const mergeRoutes: Route[] = [
  implement(api.duplicates, async ({ deps, params }) => duplicateGroups(deps.db, params)),
  implement(api.mergePreview, async ({ deps, params, body }) =>
    previewMerge(deps.db, { ...params, ...body }),
  ),
  implement(api.merge, async ({ deps, params, body, user }) =>
    mergeNominees(deps, { admin: user, ...params, ...body }),
  ),
  implement(api.undoMerge, async ({ deps, params, user }) =>
    undoMerge(deps, { admin: user, ...params }),
  ),
];
