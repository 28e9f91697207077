import { sql } from 'kysely';
import { MAX_NOMINEES_PER_CATEGORY, pointsForPlace } from '../../../shared/constants.ts';
import type { Tx } from '../../db/transact.ts';

const PLACES = Array.from({ length: MAX_NOMINEES_PER_CATEGORY }, (_, index) => index + 1);

/** The points of the nomination in the current row, from its place. */
const points = sql.join(
  PLACES.map((place) => sql`when ${sql.lit(place)} then ${sql.lit(pointsForPlace(place))}`),
  sql` `,
);

/** 1 when the nomination in the current row holds `place`, else 0. */
const atPlace = (place: number) => sql`case when list_order = ${sql.lit(place)} then 1 else 0 end`;

/**
 * Recomputes every nominee_totals row from the nominations that count (not of an annulled list): the from-scratch repair of what the
 * triggers on nominations keep exact, and the check that they agree with the points rule.
 */
export async function rebuildNomineeTotals(tx: Tx): Promise<void> {
  await tx.deleteFrom('nominee_totals').execute();
  await sql`
    insert into nominee_totals
      (event_id, category, fiscal_id, points, p1, p2, p3, p4, p5, nominations, first_key)
    select event_id, category, fiscal_id,
      sum(case list_order ${points} end),
      ${sql.join(PLACES.map((place) => sql`sum(${atPlace(place)})`))},
      count(*), min(nominated_at || exhibitor_id)
    from nominations
    where annulled = 0
    group by event_id, category, fiscal_id`.execute(tx);
}
