import type { Db } from '../../src/server/db/connection.ts';
import { categoryNameKey } from '../../src/server/lib/event-categories.ts';
import type { CategoryScoring } from '../../src/shared/constants.ts';
import type { EventCategoryView } from '../../src/shared/schemas/categories.ts';

/** The specification's two categories as every event response lists them (docs/decisions/0034). */
export const DEFAULT_CATEGORY_VIEWS: EventCategoryView[] = [
  { address: 'consumption', name: 'CONSUMO', description: '', nomineeLimit: 5, scoring: 'place' },
  { address: 'value', name: 'VALOR AGREGADO', description: '', nomineeLimit: 5, scoring: 'place' },
];

/** One more category of an event, stored as the categories' API stores one. */
export async function seedCategory(
  db: Db,
  eventId: string,
  category: {
    address: string;
    name: string;
    nomineeLimit: number;
    scoring: CategoryScoring;
    position: number;
    description?: string;
  },
): Promise<void> {
  await db
    .insertInto('event_categories')
    .values({
      event_id: eventId,
      address: category.address,
      name: category.name,
      name_key: categoryNameKey(category.name),
      description: category.description ?? '',
      nominee_limit: category.nomineeLimit,
      scoring: category.scoring,
      position: category.position,
      created_at: '2026-01-01T00:00:00.000Z',
    })
    .execute();
}

/** Renames one of an event's categories, as "Editar categoría" does. */
export async function renameCategory(
  db: Db,
  eventId: string,
  address: string,
  name: string,
): Promise<void> {
  await db
    .updateTable('event_categories')
    .set({ name, name_key: categoryNameKey(name) })
    .where('event_id', '=', eventId)
    .where('address', '=', address)
    .execute();
}
