import {
  CATEGORIES,
  CATEGORY_LABELS,
  MAX_NOMINEES_PER_CATEGORY,
  type CategoryAddress,
} from '../../shared/constants.ts';
import type { EventCategoryView } from '../../shared/schemas/categories.ts';
import { sql } from 'kysely';
import { engineOf, type Db } from '../db/connection.ts';
import type { Tx } from '../db/transact.ts';
import type { EventCategory } from '../db/schema.ts';
import { prepared } from '../db/prepared.ts';
import { notFound } from './errors.ts';

/**
 * A category's name as uniqueness sees it: without accents, case or repeated spaces, so that
 * "Innovación" and "INNOVACION " are the same name in one event.
 */
export function categoryNameKey(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/\s+/g, ' ');
}

/** The specification's two categories, as a new event gets them (docs/decisions/0034). */
export function defaultCategoryRows(eventId: string, createdAt: string): EventCategory[] {
  return CATEGORIES.map((address, index) => ({
    event_id: eventId,
    address,
    name: CATEGORY_LABELS[address],
    name_key: categoryNameKey(CATEGORY_LABELS[address]),
    description: '',
    nominee_limit: MAX_NOMINEES_PER_CATEGORY,
    scoring: 'place',
    position: index + 1,
    created_at: createdAt,
  }));
}

const selectCategories = prepared<{ eventId: string }, EventCategory>((db, arg) =>
  db
    .selectFrom('event_categories')
    .selectAll()
    .where('event_id', '=', arg('eventId'))
    .orderBy('position')
    .orderBy('created_at'),
);

/** An event's categories in their order (empty for an event that does not exist). */
export async function readEventCategories(db: Db, eventId: string): Promise<EventCategory[]> {
  return (await selectCategories(db, { eventId })).rows;
}

/** The categories of several events (the event list), each event's in their order. */
export async function categoriesOfEvents(
  db: Db,
  eventIds: readonly string[],
): Promise<Map<string, EventCategory[]>> {
  const byEvent = new Map<string, EventCategory[]>();
  if (eventIds.length === 0) return byEvent;
  const rows = await db
    .selectFrom('event_categories')
    .selectAll()
    .where('event_id', 'in', eventIds)
    .orderBy('event_id')
    .orderBy('position')
    .orderBy('created_at')
    .execute();
  for (const row of rows) {
    const own = byEvent.get(row.event_id) ?? [];
    own.push(row);
    byEvent.set(row.event_id, own);
  }
  return byEvent;
}

/** "Duplicar evento": the source's categories, with their settings, for the new event. */
export async function copyEventCategories(
  db: Db,
  sourceId: string,
  targetId: string,
  createdAt: string,
): Promise<void> {
  const rows = await readEventCategories(db, sourceId);
  const copies = rows.map((row) => ({ ...row, event_id: targetId, created_at: createdAt }));
  await db.insertInto('event_categories').values(copies).execute();
}

const selectCategory = prepared<{ eventId: string; address: string }, EventCategory>((db, arg) =>
  db
    .selectFrom('event_categories')
    .selectAll()
    .where('event_id', '=', arg('eventId'))
    .where('address', '=', arg('address')),
);

/**
 * The key of a category's shape lock on PostgreSQL (docs/decisions/0038): every save holds it
 * shared for its transaction, a change of the category's limit or scoring (or its deletion) holds
 * it exclusively, so the change waits for the saves in flight and every later save sees it. An
 * advisory lock rather than a lock on the category's row: at the deadline every save of a category
 * shares that one row, and PostgreSQL writes each share lock of a row into the row itself.
 */
export const CATEGORY_SHAPE_LOCK_CLASS = 0x50524e; // "PRN"

const categoryShapeKey = (eventId: string, address: string) => `${eventId}/${address}`;

/**
 * The category's shape lock, for the transaction: `shared` by every save before it reads the
 * category's limit, `exclusive` by a change of the limit or the scoring and by a deletion.
 */
export async function lockCategoryShape(
  tx: Tx,
  eventId: string,
  address: string,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  if (engineOf(tx) !== 'postgres') return;
  const key = categoryShapeKey(eventId, address);
  await (
    mode === 'shared'
      ? sql`select pg_advisory_xact_lock_shared(${CATEGORY_SHAPE_LOCK_CLASS}, hashtext(${key}))`
      : sql`select pg_advisory_xact_lock(${CATEGORY_SHAPE_LOCK_CLASS}, hashtext(${key}))`
  ).execute(tx);
}

/** One category of the event, or 404 as for any address the event does not have. */
export async function findEventCategoryOr404(
  db: Db,
  eventId: string,
  address: CategoryAddress,
): Promise<EventCategory> {
  const row = (await selectCategory(db, { eventId, address })).rows[0];
  if (!row) throw notFound();
  return row;
}

const selectKnown = prepared<
  { eventId: string; address: string },
  { event_exists: number; category_exists: number }
>((db, arg) =>
  db
    .selectFrom('events as e')
    .select((eb) => [
      eb.lit(1).as('event_exists'),
      eb
        .exists(
          eb
            .selectFrom('event_categories as c')
            .select('c.address')
            .whereRef('c.event_id', '=', 'e.id')
            .where('c.address', '=', arg('address')),
        )
        .as('category_exists'),
    ])
    .where('e.id', '=', arg('eventId')),
);

/**
 * A route's `category` names one of its event's categories: any other address is the same 404 as
 * an unknown category always was. A missing event is left to the handler's own answer.
 */
export async function refuseUnknownCategory(
  db: Db,
  eventId: string,
  address: CategoryAddress,
): Promise<void> {
  const row = (await selectKnown(db, { eventId, address })).rows[0];
  if (row && !row.category_exists) throw notFound();
}

export const toCategoryView = (row: EventCategory): EventCategoryView => ({
  address: row.address,
  name: row.name,
  description: row.description,
  nomineeLimit: Number(row.nominee_limit),
  scoring: row.scoring,
});
