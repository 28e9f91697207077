import { sql } from 'kysely';
import type { CategoryAddress } from '../../../shared/constants.ts';
import type { Db } from '../../db/connection.ts';
import { earliestNomination, RANKING_ORDER, SUMS } from '../../lib/ranking-sql.ts';

/** A fiscal id of the ranking as the duplicate finder compares it. */
export interface RankedName {
  fiscalId: string;
  name: string;
  registeredName: string;
  points: number;
  position: number;
}

/**
 * Every fiscal id of the ranking with its position, points and the names of its earliest
 * nomination, in no order: only what "Posibles duplicados" compares and shows, without the
 * per-place counts, tie-breaks and contact fields of the whole ranking.
 */
export async function rankedNames(
  db: Db,
  { eventId, category }: { eventId: string; category: CategoryAddress },
): Promise<RankedName[]> {
  const result = await sql<{
    fiscal_id: string;
    points: number;
    position: number;
    name: string;
    registered_name: string;
  }>`
    with s as (
      select
        fiscal_id,
        points,
        first_key,
        rank() over (order by ${RANKING_ORDER}) as position
      from (
        select fiscal_id, ${SUMS}, first_key, substr(first_key, 1, length(first_key) - 36) as first_at
        from nominee_totals
        where event_id = ${eventId} and category = ${category}
      ) t
    )
    select s.fiscal_id, s.points, cast(s.position as integer) as position, n.name, n.registered_name
    from s
    ${earliestNomination(db, eventId, category)}
  `.execute(db);
  return result.rows.map((row) => ({
    fiscalId: row.fiscal_id,
    name: row.name,
    registeredName: row.registered_name,
    points: Number(row.points),
    position: Number(row.position),
  }));
}
