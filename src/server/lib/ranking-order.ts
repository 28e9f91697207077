import type { TieBreak } from '../../shared/schemas/results.ts';

/**
 * The ranking order, written once: points, then more 1st, 2nd … 10th places (a category of n
 * nominees has none past n°), more nominations, the
 * earliest first nomination. Rows equal on all of it share a position. The SQL ranking orders by
 * `RANKING_ORDER_SQL`, the in-memory one (the merge's preview) by `compareRank`, and the "Desempate"
 * of a row is the `tieBreak` of the first criterion on which it differs from the row above; all
 * three come from this list. Each criterion names its column of `nominee_totals` (`first_at` is
 * the instant part of its `first_key`).
 */
export const RANKING_CRITERIA = [
  { column: 'points', better: 'more', tieBreak: 'points' },
  { column: 'p1', better: 'more', tieBreak: 'places' },
  { column: 'p2', better: 'more', tieBreak: 'places' },
  { column: 'p3', better: 'more', tieBreak: 'places' },
  { column: 'p4', better: 'more', tieBreak: 'places' },
  { column: 'p5', better: 'more', tieBreak: 'places' },
  { column: 'p6', better: 'more', tieBreak: 'places' },
  { column: 'p7', better: 'more', tieBreak: 'places' },
  { column: 'p8', better: 'more', tieBreak: 'places' },
  { column: 'p9', better: 'more', tieBreak: 'places' },
  { column: 'p10', better: 'more', tieBreak: 'places' },
  { column: 'nominations', better: 'more', tieBreak: 'nominations' },
  { column: 'first_at', better: 'earlier', tieBreak: 'earliest' },
] as const satisfies readonly {
  column: string;
  better: 'more' | 'earlier';
  tieBreak: Exclude<TieBreak, 'tied'>;
}[];

type Criterion = (typeof RANKING_CRITERIA)[number];

/**
 * What the order compares of one row. Counts may arrive as numbers or, from PostgreSQL's bigint
 * sums, as digit strings; `first_at` is an ISO-8601 UTC instant, whose text order is time order.
 */
export type RankingKey = {
  [C in Criterion as C['column']]: C extends { better: 'more' } ? number | string : string;
};

/** The `order by` list of the ranking (without its final order by fiscal id). */
export const RANKING_ORDER_SQL = RANKING_CRITERIA.map(({ column, better }) =>
  better === 'more' ? `${column} desc` : column,
).join(', ');

/** Negative when `a` comes first by this criterion, positive when `b` does, zero when equal. */
function compareBy(criterion: Criterion, a: RankingKey, b: RankingKey): number {
  if (criterion.better === 'more') {
    return Number(b[criterion.column]) - Number(a[criterion.column]);
  }
  const [x, y] = [a[criterion.column], b[criterion.column]];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Negative when `a` ranks better than `b`, zero when nothing separates them (same position). */
export function compareRank(a: RankingKey, b: RankingKey): number {
  for (const criterion of RANKING_CRITERIA) {
    const difference = compareBy(criterion, a, b);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The first criterion of the ranking order on which `row` differs from the row above it. */
export function tieBreakBetween(above: RankingKey | undefined, row: RankingKey): TieBreak | null {
  if (!above) return null;
  return (
    RANKING_CRITERIA.find((criterion) => compareBy(criterion, above, row) !== 0)?.tieBreak ?? 'tied'
  );
}

/** Digit strings in numeric order without losing leading zeros: shorter first, then by digit. */
export function compareFiscalIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
