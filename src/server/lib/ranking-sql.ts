import { sql } from 'kysely';
import type { CategoryAddress } from '../../shared/constants.ts';
import { engineOf, type Db } from '../db/connection.ts';
import type { NomineeTotalsTable } from '../db/schema.ts';
import { RANKING_ORDER_SQL } from './ranking-order.ts';

/** nominee_totals' per-place counts, 1st to 10th (migration 0028). */
export const PLACE_COLUMNS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10'] as const;

/**
 * The pieces of SQL every ranking query shares: the ranking (modules/ranking) and "Posibles
 * duplicados" (modules/merge) read the same order of the same `nominee_totals` rows.
 */

/** What the ranking order compares of a `nominee_totals` row (`first_at`: its first instant). */
export type RankingSums = Pick<
  NomineeTotalsTable,
  'points' | 'p1' | 'p2' | 'p3' | 'p4' | 'p5' | 'p6' | 'p7' | 'p8' | 'p9' | 'p10' | 'nominations'
> & { first_at: string };

/** The ranking order and its tie-break, from `RANKING_CRITERIA` (ranking-order.ts). */
export const RANKING_ORDER = sql.raw(RANKING_ORDER_SQL);
const SUM_COLUMNS = ['points', ...PLACE_COLUMNS, 'nominations'];
export const SUMS = sql.raw(SUM_COLUMNS.join(', '));
/** The same sums as a row value of the table alias `alias`, to compare two rows in order. */
export const sumsOf = (alias: string) =>
  sql.raw(`(${SUM_COLUMNS.map((column) => `${alias}.${column}`).join(', ')})`);

/**
 * Joins each ranking row `s` to its earliest nomination `n`, looked up by index. On PostgreSQL
 * the join is lateral (and `limit 1` keeps it from being flattened into a plain join), so the
 * nominations are looked up for the ranking's rows and never the other way round: without
 * statistics (a large event just loaded, before autovacuum analyses it) the planner estimated one
 * row on each side, started from the event's nominations and ran the ranking's window functions
 * once per nomination (15 s for one page of 3,000 fiscal ids). SQLite has no lateral joins and its
 * planner starts from the ranking's rows on its own.
 */
export function earliestNomination(db: Db, eventId: string, category: CategoryAddress) {
  const matches = sql`n.event_id = ${eventId}
      and n.category = ${category}
      and n.exhibitor_id = substr(s.first_key, length(s.first_key) - 35)
      and n.fiscal_id = s.fiscal_id`;
  return engineOf(db) === 'postgres'
    ? sql`cross join lateral (select n.* from nominations n where ${matches} limit 1) n`
    : sql`join nominations n on ${matches}`;
}
