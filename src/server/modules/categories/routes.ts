import * as api from '../../../shared/api/categories.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { implement, type Route } from '../../http/route.ts';
import {
  createCategory,
  deleteCategory,
  listCategories,
  moveCategory,
  updateCategory,
} from './service.ts';

/** The "Categorías" tab of an event (issue 26 item 1, docs/decisions/0034). */
export const categoriesRoutes: Route[] = [
  implement(api.listCategories, async ({ deps, params }) => ({
    categories: await listCategories(deps, params),
  })),
  implement(api.createCategory, async ({ deps, user, params, body }) =>
    createCategory(deps, { admin: user, ...params, fields: body }),
  ),
  implement(api.updateCategory, async ({ deps, user, params, body }) =>
    updateCategory(deps, { admin: user, ...params, fields: body }),
  ),
  implement(api.moveCategory, async ({ deps, user, params, body }) => ({
    categories: await moveCategory(deps, { admin: user, ...params, ...body }),
  })),
  implement(api.deleteCategory, async ({ deps, user, params }) => {
    await deleteCategory(deps, { admin: user, ...params });
    return OK;
  }),
];
