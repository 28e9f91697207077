import { z } from 'zod';
import { CATEGORY_SCORINGS } from '../constants.ts';

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
