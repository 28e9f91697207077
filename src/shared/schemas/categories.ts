import { z } from 'zod';
import { CATEGORY_SCORINGS, MAX_CATEGORY_NOMINEE_LIMIT } from '../constants.ts';
import { MSG } from '../messages.ts';
import { categoryField, idParam, whenMissing } from './common.ts';

/**
 * One category of an event as every screen reads it, in the event's order: its address (routes,
 * export file names), name, description (shown to exhibitors above their list), "Nominaciones por
 * expositor" and "Puntaje" ('place': "Por puesto"; 'one': "Un punto por nominación").
 */
export const eventCategoryView = z.object({
  address: z.string(),
  name: z.string(),
  description: z.string(),
  nomineeLimit: z.number().int(),
  scoring: z.enum(CATEGORY_SCORINGS),
});
export type EventCategoryView = z.output<typeof eventCategoryView>;

/** "Nombre": 1 to 40 characters, spaces trimmed. */
export const CATEGORY_NAME_MAX = 40;
/** "Descripción": optional, up to 500 characters. */
export const CATEGORY_DESCRIPTION_MAX = 500;

/** A category of the list of "Categorías", with how many nominations it holds (annulled too). */
export const eventCategoryRow = eventCategoryView.extend({ nominations: z.number().int() });
export type EventCategoryRow = z.output<typeof eventCategoryRow>;

export const categoriesResponse = z.object({ categories: z.array(eventCategoryRow) });
export type CategoriesResponse = z.output<typeof categoriesResponse>;

/** "Nueva categoría" and "Editar categoría": the dialog's four fields. */
export const categoryInput = z.object({
  name: z
    .string({ error: whenMissing(MSG.categoryNameRequired) })
    .trim()
    .min(1, MSG.categoryNameRequired)
    .max(CATEGORY_NAME_MAX, MSG.categoryNameTooLong),
  description: z
    .string({ error: whenMissing(MSG.invalidInput) })
    .trim()
    .max(CATEGORY_DESCRIPTION_MAX, MSG.categoryDescriptionTooLong)
    .default(''),
  nomineeLimit: z
    .number({ error: whenMissing(MSG.categoryLimitRange) })
    .int(MSG.categoryLimitRange)
    .min(1, MSG.categoryLimitRange)
    .max(MAX_CATEGORY_NOMINEE_LIMIT, MSG.categoryLimitRange),
  // A text that is not one of the two: say which; a missing one or another kind: the usual words.
  scoring: z.enum(CATEGORY_SCORINGS, {
    error: (issue) => (typeof issue.input === 'string' ? MSG.categoryScoringInvalid : undefined),
  }),
});
export type CategoryInput = z.input<typeof categoryInput>;
export type CategoryFields = z.output<typeof categoryInput>;

export const categoryParams = z.object({ eventId: idParam, category: categoryField });

/** "Subir" and "Bajar". */
export const categoryMoveRequest = z.object({
  direction: z.enum(['up', 'down']),
});
export type CategoryMoveRequest = z.input<typeof categoryMoveRequest>;
