import { sql } from 'kysely';
import { MAX_CATEGORY_NOMINEE_LIMIT } from '../../../shared/constants.ts';
import type { Tx } from '../../db/transact.ts';

const PLACES = Array.from({ length: MAX_CATEGORY_NOMINEE_LIMIT }, (_, index) => index + 1);

/** 1 when the nomination in the current row holds `place`, else 0. */
const atPlace = (place: number) =>
  sql`case when n.list_order = ${sql.lit(place)} then 1 else 0 end`;

/**
 * Recomputes every nominee_totals row from the nominations that count (not of an annulled list):
 * the from-scratch repair of what the triggers on nominations keep exact, and the check that they
 * agree with the points rule (`pointsOfVote`: n + 1 − place by place, or one per nomination, by
 * the nomination's category).
 */
export async function rebuildNomineeTotals(tx: Tx): Promise<void> {
  await tx.deleteFrom('nominee_totals').execute();
  await sql`
    insert into nominee_totals
      (event_id, category, fiscal_id, points, ${sql.raw(PLACES.map((place) => `p${place}`).join(', '))}, nominations, first_key)
    select n.event_id, n.category, n.fiscal_id,
      sum(case when c.scoring = 'one' then 1 else c.nominee_limit + 1 - n.list_order end),
      ${sql.join(PLACES.map((place) => sql`sum(${atPlace(place)})`))},
      count(*), min(n.nominated_at || n.exhibitor_id)
    from nominations n
    join event_categories c on c.event_id = n.event_id and c.address = n.category
    where n.annulled = 0
    group by n.event_id, n.category, n.fiscal_id`.execute(tx);
}
