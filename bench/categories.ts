/**
 * The budgets of an event with the most categories (issue 26, design section 9): an event of 10
 * categories and 10,000 exhibitors, each with a full list in CONSUMO and in one of the nine others
 * (100,000 nominations, as the ranking line's event). Every category's ranking is timed against
 * the ranking budget, and a deadline rush saves into all ten categories of that event.
 */
import { MAX_CATEGORIES_PER_EVENT } from '../src/shared/constants.ts';
import type { EventCategory } from '../src/server/db/schema.ts';
import { categoryNameKey, defaultCategoryRows } from '../src/server/lib/event-categories.ts';
import { addressFromName } from '../src/server/modules/categories/service.ts';
import {
  close,
  EXHIBITORS,
  measureCategoryRanking,
  seedLargeEvent,
  type CategoryRankingFigures,
  type EventShape,
} from './ranking.ts';
import { benchRush, type RushFigures } from './rush.ts';

const STAMP = '2026-01-01T00:00:00.000Z';

/** The eight categories after the specification's two; half of them count one point a vote. */
const MORE_CATEGORIES = [
  'Mejor partner de seguridad',
  'INNOVACIÓN CLOUD',
  'Revelación del año',
  'Mejor integrador',
  'Servicios gestionados',
  'Sustentabilidad',
  'Mejor partner PyME',
  'Capacitación',
];

function tenCategories(eventId: string): EventCategory[] {
  const rows = defaultCategoryRows(eventId, STAMP);
  for (const [index, name] of MORE_CATEGORIES.entries()) {
    rows.push({
      event_id: eventId,
      address: addressFromName(name, new Set(rows.map((row) => row.address))),
      name,
      name_key: categoryNameKey(name),
      description: '',
      // The rush saves five nominees into every category.
      nominee_limit: 5,
      scoring: index % 2 === 0 ? 'one' : 'place',
      position: rows.length + 1,
      created_at: STAMP,
    });
  }
  if (rows.length !== MAX_CATEGORIES_PER_EVENT) throw new Error('not the most categories');
  return rows;
}

/** CONSUMO for everyone (the largest ranking, as large as the ranking line's), one other each. */
const TEN_CATEGORIES: EventShape = {
  categories: tenCategories,
  listsOf: (_e, [first, ...others], next) => {
    const other = others[Math.floor(next() * others.length)];
    return first && other ? [first, other] : [];
  },
  // Open while the rush saves into it.
  eventDate: '2099-12-31',
  voteDeadline: '2099-12-30',
};

export interface CategoryEventFigures {
  exhibitors: number;
  nominations: number;
  /** Every category's ranking, in the event's order. */
  rankings: (CategoryRankingFigures & { name: string })[];
  /** The category whose first page took longest. */
  slowest: CategoryRankingFigures & { name: string };
  /** Every category within the ranking budget. */
  rankingPass: boolean;
  rush: RushFigures;
}

/**
 * Seeds the event (a fresh SQLite file, or `shared.databaseUrl`'s PostgreSQL schema), times each
 * category's ranking in this process, then runs the rush of `rushExhibitors` on server(s) of that
 * database, exhibitor i saving into category i mod 10.
 */
export async function benchCategoryEvent(
  rushExhibitors: number,
  concurrency: number,
  shared?: { databaseUrl: string; instances: number },
): Promise<CategoryEventFigures> {
  const seeded = await seedLargeEvent(shared?.databaseUrl, TEN_CATEGORIES);
  try {
    const rankings = [];
    for (const category of seeded.categories) {
      const figures = await measureCategoryRanking(seeded.handle.db, seeded.eventId, category);
      rankings.push({ ...figures, name: category.name });
    }
    const slowest = rankings.reduce((a, b) => (b.rankingMs > a.rankingMs ? b : a));
    const rush = await benchRush(
      rushExhibitors,
      concurrency,
      { databaseUrl: seeded.databaseUrl, instances: shared?.instances ?? 1 },
      { eventId: seeded.eventId, categories: seeded.categories.map((c) => c.address) },
    );
    return {
      exhibitors: EXHIBITORS,
      nominations: seeded.nominations,
      rankings,
      slowest,
      rankingPass: rankings.every((r) => r.pass),
      rush,
    };
  } finally {
    await close(seeded);
  }
}
