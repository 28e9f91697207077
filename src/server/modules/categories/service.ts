import { sql } from 'kysely';
import { MAX_CATEGORIES_PER_EVENT, MIN_CATEGORIES_PER_EVENT } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { CategoryFields, EventCategoryRow } from '../../../shared/schemas/categories.ts';
import type { SignedInAdmin } from '../../../shared/signed-in.ts';
import { engineOf, type Db } from '../../db/connection.ts';
import type { EventCategory } from '../../db/schema.ts';
import type { Tx } from '../../db/transact.ts';
import type { AppDeps } from '../../deps.ts';
import { recordAudit } from '../../lib/audit.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import {
  categoryNameKey,
  lockCategoryShape,
  readEventCategories,
  toCategoryView,
} from '../../lib/event-categories.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { iso } from '../../lib/time.ts';

/**
 * The event page's own path segments (and the API's under an event): a category's address is
 * never one of them, so `/admin/event/{id}/{address}` and its API paths always name the category.
 */
export const RESERVED_ADDRESSES: ReadonlySet<string> = new Set([
  'exhibitors',
  'participation',
  'categories',
  'history',
  'nominee',
  'nominees',
  'present',
  'integrity',
  'edit',
  'preview',
  'ranking',
  'duplicates',
  'votes',
  'export',
  'logo',
  'results',
  'settings',
  'new',
]);

/** The longest address made from a name (the name itself has at most 40 characters). */
const ADDRESS_MAX = 50;

/**
 * A new category's address, fixed at creation (docs/decisions/0034): its name without accents,
 * lowercase ASCII words joined by hyphens ("INNOVACIÓN CLOUD" → `innovacion-cloud`), with a
 * suffix (-2, -3 …) when the event already has it or it is one of the page's own addresses.
 */
export function addressFromName(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, ADDRESS_MAX)
      .replace(/-+$/, '') || 'categoria';
  const free = (address: string) => !taken.has(address) && !RESERVED_ADDRESSES.has(address);
  if (free(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const address = `${base}-${suffix}`;
    if (free(address)) return address;
  }
}

/** How many nominations each of the event's categories holds, annulled lists included. */
async function nominationCounts(db: Db, eventId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('nominations')
    .select(['category', sql<number>`count(*)`.as('n')])
    .where('event_id', '=', eventId)
    .groupBy('category')
    .execute();
  return new Map(rows.map((row) => [row.category, Number(row.n)]));
}

async function hasNominations(db: Db, eventId: string, address: string): Promise<boolean> {
  const row = await db
    .selectFrom('nominations')
    .select('list_order')
    .where('event_id', '=', eventId)
    .where('category', '=', address)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

const toRow = (category: EventCategory, nominations: number): EventCategoryRow => ({
  ...toCategoryView(category),
  nominations,
});

/** What the history keeps of a category. */
const facts = (category: EventCategory) => toCategoryView(category);

/** An event, as the input of a service that reads one. */
export interface EventRef {
  eventId: string;
}

/** An administrator's change to the event's categories. */
export interface CategoriesChange extends EventRef {
  admin: SignedInAdmin;
}

/** One category of the event, by its address. */
export interface CategoryChange extends CategoriesChange {
  category: string;
}

/** The "Categorías" tab: the event's categories in order, each with its nominations. */
export async function listCategories(
  deps: AppDeps,
  { eventId }: EventRef,
): Promise<EventCategoryRow[]> {
  await getEventOr404(deps.db, eventId);
  const [categories, counts] = await Promise.all([
    readEventCategories(deps.db, eventId),
    nominationCounts(deps.db, eventId),
  ]);
  return categories.map((category) => toRow(category, counts.get(category.address) ?? 0));
}

/**
 * Takes the event's row for the rest of a change to its categories (404 when it does not exist):
 * on PostgreSQL two administrators' changes to one event's categories run one after the other, so
 * the count, the names and the order each checks are the ones it writes over. `no key update`
 * leaves alone the key-share locks that saves take on the event through nominee_totals' foreign
 * key. SQLite has one writer.
 */
async function lockEvent(tx: Tx, eventId: string): Promise<void> {
  const query = tx.selectFrom('events').select('id').where('id', '=', eventId);
  const row = await (
    engineOf(tx) === 'postgres' ? query.forNoKeyUpdate() : query
  ).executeTakeFirst();
  if (!row) throw notFound(MSG.eventNotFound);
}

/**
 * The category's row, with its shape lock held exclusively on PostgreSQL: an exhibitor's save holds
 * that lock shared (premios_save_nominee, checkSaveTarget) until it commits, so a change of the
 * limit or the scoring waits for any save in flight and then sees its nomination, and a later save
 * sees the change.
 */
async function lockCategory(tx: Tx, eventId: string, address: string): Promise<EventCategory> {
  await lockCategoryShape(tx, eventId, address, 'exclusive');
  const query = tx
    .selectFrom('event_categories')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('address', '=', address);
  const row = await (engineOf(tx) === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

function refuseTakenName(categories: readonly EventCategory[], name: string, except?: string) {
  const key = categoryNameKey(name);
  if (categories.some((category) => category.address !== except && category.name_key === key)) {
    throw new AppError('category_name_taken', { fields: { name: MSG.categoryNameTaken } });
  }
}

/** "Nueva categoría": at the end of the list, with an address made from its name. */
export async function createCategory(
  deps: AppDeps,
  { admin, eventId, fields }: CategoriesChange & { fields: CategoryFields },
): Promise<EventCategoryRow> {
  return deps.transact(async (tx) => {
    const now = deps.clock.now();
    await lockEvent(tx, eventId);
    const categories = await readEventCategories(tx, eventId);
    if (categories.length >= MAX_CATEGORIES_PER_EVENT) throw new AppError('categories_full');
    refuseTakenName(categories, fields.name);
    const row: EventCategory = {
      event_id: eventId,
      address: addressFromName(fields.name, new Set(categories.map((c) => c.address))),
      name: fields.name,
      name_key: categoryNameKey(fields.name),
      description: fields.description,
      nominee_limit: fields.nomineeLimit,
      scoring: fields.scoring,
      position: Math.max(0, ...categories.map((c) => Number(c.position))) + 1,
      created_at: iso(now),
    };
    await tx.insertInto('event_categories').values(row).execute();
    await recordAudit(tx, admin, now, {
      action: 'category.created',
      entityType: 'event_category',
      entityId: `${eventId}/${row.address}`,
      eventId,
      details: { after: facts(row) },
    });
    return toRow(row, 0);
  });
}

/**
 * "Editar categoría": name and description at any time; "Nominaciones por expositor" and "Puntaje"
 * only while the category holds no nomination (annulled ones count): the totals were computed
 * with them and are never recomputed (docs/decisions/0034).
 */
export async function updateCategory(
  deps: AppDeps,
  { admin, eventId, category: address, fields }: CategoryChange & { fields: CategoryFields },
): Promise<EventCategoryRow> {
  return deps.transact(async (tx) => {
    const now = deps.clock.now();
    await lockEvent(tx, eventId);
    const before = await lockCategory(tx, eventId, address);
    const shapeChanged =
      Number(before.nominee_limit) !== fields.nomineeLimit || before.scoring !== fields.scoring;
    // Read after the lock: a save that committed before it is counted here.
    const counts = await nominationCounts(tx, eventId);
    const nominations = counts.get(address) ?? 0;
    if (shapeChanged && nominations > 0) throw new AppError('category_shape_frozen');
    refuseTakenName(await readEventCategories(tx, eventId), fields.name, address);
    const after: EventCategory = {
      ...before,
      name: fields.name,
      name_key: categoryNameKey(fields.name),
      description: fields.description,
      nominee_limit: fields.nomineeLimit,
      scoring: fields.scoring,
    };
    await tx
      .updateTable('event_categories')
      .set({
        name: after.name,
        name_key: after.name_key,
        description: after.description,
        nominee_limit: after.nominee_limit,
        scoring: after.scoring,
      })
      .where('event_id', '=', eventId)
      .where('address', '=', address)
      .execute();
    await recordAudit(tx, admin, now, {
      action: 'category.updated',
      entityType: 'event_category',
      entityId: `${eventId}/${address}`,
      eventId,
      details: { before: facts(before), after: facts(after) },
    });
    return toRow(after, nominations);
  });
}

/** "Subir" / "Bajar": swaps the category with its neighbour; positions run from 1 again. */
export async function moveCategory(
  deps: AppDeps,
  { admin, eventId, category: address, direction }: CategoryChange & { direction: 'up' | 'down' },
): Promise<EventCategoryRow[]> {
  await deps.transact(async (tx) => {
    const now = deps.clock.now();
    await lockEvent(tx, eventId);
    const categories = await readEventCategories(tx, eventId);
    const from = categories.findIndex((category) => category.address === address);
    if (from < 0) throw notFound();
    const to = direction === 'up' ? from - 1 : from + 1;
    const moving = categories[from];
    const other = categories[to];
    if (!moving || !other) throw badRequest(MSG.categoryAtEdge);
    const ordered = [...categories];
    ordered[to] = moving;
    ordered[from] = other;
    await renumber(tx, eventId, ordered);
    await recordAudit(tx, admin, now, {
      action: 'category.moved',
      entityType: 'event_category',
      entityId: `${eventId}/${address}`,
      eventId,
      details: { address, name: moving.name, from: from + 1, to: to + 1 },
    });
  });
  return listCategories(deps, { eventId });
}

/** Stores `ordered` as the event's order, 1 to n, writing only the rows whose place changed. */
async function renumber(
  tx: Tx,
  eventId: string,
  ordered: readonly Pick<EventCategory, 'address' | 'position'>[],
): Promise<void> {
  for (const [index, category] of ordered.entries()) {
    if (Number(category.position) === index + 1) continue;
    await tx
      .updateTable('event_categories')
      .set({ position: index + 1 })
      .where('event_id', '=', eventId)
      .where('address', '=', category.address)
      .execute();
  }
}

/**
 * "Eliminar categoría": only one without nominations (annulled ones count), and never the event's
 * last. Its empty lists (an exhibitor who added and removed) go with it.
 */
export async function deleteCategory(
  deps: AppDeps,
  { admin, eventId, category: address }: CategoryChange,
): Promise<void> {
  await deps.transact(async (tx) => {
    const now = deps.clock.now();
    await lockEvent(tx, eventId);
    const before = await lockCategory(tx, eventId, address);
    const categories = await readEventCategories(tx, eventId);
    if (categories.length <= MIN_CATEGORIES_PER_EVENT) throw new AppError('category_last_one');
    if (await hasNominations(tx, eventId, address)) throw new AppError('category_in_use');
    await tx
      .deleteFrom('nomination_lists')
      .where('event_id', '=', eventId)
      .where('category', '=', address)
      .execute();
    await tx
      .deleteFrom('event_categories')
      .where('event_id', '=', eventId)
      .where('address', '=', address)
      .execute();
    const rest = categories.filter((category) => category.address !== address);
    await renumber(tx, eventId, rest);
    await recordAudit(tx, admin, now, {
      action: 'category.deleted',
      entityType: 'event_category',
      entityId: `${eventId}/${address}`,
      eventId,
      details: { before: facts(before) },
    });
  });
}
