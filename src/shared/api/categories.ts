import { okResponse } from '../schemas/common.ts';
import {
  categoriesResponse,
  categoryInput,
  categoryMoveRequest,
  categoryParams,
  eventCategoryRow,
} from '../schemas/categories.ts';
import { defineEndpoint, json } from './define.ts';
import { eventParams } from './events.ts';

/** An event's categories (issue 26 item 1, docs/decisions/0034): the "Categorías" tab. */
export const listCategories = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/categories',
  access: 'admin',
  summary: 'Las categorías del evento en orden, con sus nominaciones',
  params: eventParams,
  response: json(categoriesResponse),
  errors: ['not_found'],
});

export const createCategory = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/categories',
  access: 'admin',
  summary: 'Nueva categoría (hasta 10 por evento): su dirección sale del nombre y no cambia más',
  params: eventParams,
  body: categoryInput,
  response: json(eventCategoryRow, 201),
  errors: ['not_found', 'invalid_input', 'category_name_taken', 'categories_full'],
});

export const updateCategory = defineEndpoint({
  method: 'PUT',
  path: '/api/events/:eventId/categories/:category',
  access: 'admin',
  summary:
    'Editar una categoría: nombre y descripción siempre; nominaciones por expositor y puntaje solo sin nominaciones',
  params: categoryParams,
  body: categoryInput,
  response: json(eventCategoryRow),
  errors: ['not_found', 'invalid_input', 'category_name_taken', 'category_shape_frozen'],
});

export const moveCategory = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/categories/:category/move',
  access: 'admin',
  summary: 'Subir o bajar una categoría (el orden de las pestañas)',
  params: categoryParams,
  body: categoryMoveRequest,
  response: json(categoriesResponse),
  errors: ['not_found', 'invalid_input'],
});

export const deleteCategory = defineEndpoint({
  method: 'DELETE',
  path: '/api/events/:eventId/categories/:category',
  access: 'admin',
  summary: 'Eliminar una categoría sin nominaciones (el evento conserva al menos una)',
  params: categoryParams,
  response: json(okResponse),
  errors: ['not_found', 'category_in_use', 'category_last_one'],
});

export const categoriesEndpoints = [
  listCategories,
  createCategory,
  updateCategory,
  moveCategory,
  deleteCategory,
] as const;
