import { sql } from 'kysely';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { calendarOf, isVotingOpenNow } from '../../lib/event-calendar.ts';
import {
  RANKING_PAGE_SIZE,
  type NomineeVote,
  type RankingRow,
} from '../../../shared/schemas/results.ts';
import { engineOf, type Db } from '../../db/connection.ts';
import type { AppDeps } from '../../deps.ts';
import { getEventOr404 } from '../../lib/guards.ts';
import { memberField } from '../../lib/member-rows.ts';
import { toNominee, toNomineeView, type NomineeColumns } from '../../lib/nominee-rows.ts';
import { tieBreakBetween } from '../../lib/ranking-order.ts';
import {
  earliestNomination,
  PLACE_COLUMNS,
  RANKING_ORDER,
  SUMS,
  sumsOf,
  type RankingSums,
} from '../../lib/ranking-sql.ts';

/** An event, as the input of a service that reads one. */
export interface EventRef {
  eventId: string;
}

/** One category of an event. */
export interface CategoryRef extends EventRef {
  category: CategoryAddress;
}

/** The event's name (export file names), or 404 "No se econtró el evento". */
export async function eventName(db: Db, { eventId }: EventRef): Promise<string> {
  return (await getEventOr404(db, eventId)).name;
}

/**
 * What a ranking page says of its event: the name, and whether voting is still open by the
 * injected clock in the event's zone (the ceremony screen warns that results may change).
 */
export async function rankingEvent(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  { eventId }: EventRef,
): Promise<{ eventName: string; votingOpen: boolean }> {
  const event = await getEventOr404(deps.db, eventId);
  return {
    eventName: event.name,
    votingOpen: isVotingOpenNow(calendarOf(event, deps.config.timeZone), deps.clock.now()),
  };
}

interface RankingSqlRow extends NomineeColumns, RankingSums {
  position: number;
  /** The category's "Nominaciones por expositor": how many per-place counts its rows show. */
  nominee_limit: number;
  total: number;
}

export interface RankingPage {
  rows: RankingRow[];
  /** Rows of the whole ranking. */
  total: number;
}

/**
 * The ranking in that order, read from nominee_totals (kept by the triggers of migration
 * 0003) in one statement, so rows, positions and total come from one snapshot.
 *
 * The rows of the slice are read in ranking order from nominee_totals_ranking_idx, which stops
 * after the slice; only they are joined to their earliest nomination (through the (event,
 * exhibitor, category, fiscal id) unique index). Each position is what rank() over the whole
 * ranking gives, computed from the slice alone: a row that starts its tie group has only better
 * rows before it, so its position is its offset + 1; the rows tied with the slice's first row
 * (their group may begin on an earlier page) share 1 + the count of strictly better rows.
 *
 * `first_key` is the earliest nominated_at with its exhibitor id appended (ids are 36-character
 * UUIDs): its exhibitor part finds the row to show, its instant part is the last tie-break. Within
 * a shared position rows are listed by fiscal id in numeric order (length first), which both
 * engines sort alike and which makes page boundaries stable.
 */
function rankingQuery(
  db: Db,
  eventId: string,
  category: CategoryAddress,
  slice?: { limit: number; offset: number },
) {
  const offset = slice?.offset ?? 0;
  const window = slice ? sql`limit ${slice.limit} offset ${offset}` : sql``;
  const firstGroupPosition =
    offset === 0
      ? sql`1`
      : sql`(
          select count(*) + 1
          from nominee_totals t
          join numbered f on f.slice_index = 1
          where t.event_id = ${eventId} and t.category = ${category}
            and (${sumsOf('t')} > ${sumsOf('f')}
              or (${sumsOf('t')} = ${sumsOf('f')}
                and substr(t.first_key, 1, length(t.first_key) - 36) < f.first_at))
        )`;
  return sql<RankingSqlRow>`
    with selected as (
      select
        fiscal_id,
        ${SUMS},
        first_key,
        substr(first_key, 1, length(first_key) - 36) as first_at
      from nominee_totals
      where event_id = ${eventId} and category = ${category}
      order by ${RANKING_ORDER}, length(fiscal_id), fiscal_id
      ${window}
    ),
    numbered as (
      select
        selected.*,
        row_number() over (order by ${RANKING_ORDER}, length(fiscal_id), fiscal_id) as slice_index,
        rank() over (order by ${RANKING_ORDER}) as slice_rank
      from selected
    )
    select
      cast(
        case when s.slice_rank = 1 then ${firstGroupPosition} else ${offset} + s.slice_rank end
        as integer
      ) as position,
      s.points,
      s.p1,
      s.p2,
      s.p3,
      s.p4,
      s.p5,
      s.p6,
      s.p7,
      s.p8,
      s.p9,
      s.p10,
      s.nominations,
      s.first_at,
      cast((
        select nominee_limit from event_categories
        where event_id = ${eventId} and address = ${category}
      ) as integer) as nominee_limit,
      cast((
        select count(*) from nominee_totals where event_id = ${eventId} and category = ${category}
      ) as integer) as total,
      n.fiscal_id,
      n.name,
      n.registered_name,
      n.contact_name,
      n.contact_position,
      n.phone,
      n.email,
      n.location,
      n.city
    from numbered s
    ${earliestNomination(db, eventId, category)}
    order by s.slice_index
  `;
}

/** Turns the rows of rankingQuery, in their order, into ranking rows; `above` precedes the first. */
function rankingRowReader(above: RankingSums | undefined): (row: RankingSqlRow) => RankingRow {
  return (row) => {
    const tieBreak = tieBreakBetween(above, row);
    above = row;
    return {
      ...toNominee(row),
      position: Number(row.position),
      points: Number(row.points),
      nominations: Number(row.nominations),
      p1: Number(row.p1),
      p2: Number(row.p2),
      p3: Number(row.p3),
      p4: Number(row.p4),
      p5: Number(row.p5),
      places: PLACE_COLUMNS.slice(0, Number(row.nominee_limit)).map((column) =>
        Number(row[column]),
      ),
      tieBreak,
    };
  };
}

async function rankingRows(
  db: Db,
  eventId: string,
  category: CategoryAddress,
  slice?: { limit: number; offset: number },
): Promise<RankingPage> {
  const offset = slice?.offset ?? 0;
  const result = await rankingQuery(db, eventId, category, slice).execute(db);
  // The first row of a later page is compared with the last row of the page before.
  const above =
    offset > 0 && result.rows.length > 0
      ? await rowBefore(db, eventId, category, offset)
      : undefined;
  const rows = result.rows.map(rankingRowReader(above));
  const first = result.rows[0];
  return { rows, total: first ? Number(first.total) : await rankingSize(db, eventId, category) };
}

/** The sums of the ranking row just before `offset` (0-based), through the ranking index. */
async function rowBefore(
  db: Db,
  eventId: string,
  category: CategoryAddress,
  offset: number,
): Promise<RankingSums | undefined> {
  const result = await sql<RankingSums>`
    select ${SUMS}, substr(first_key, 1, length(first_key) - 36) as first_at
    from nominee_totals
    where event_id = ${eventId} and category = ${category}
    order by ${RANKING_ORDER}, length(fiscal_id), fiscal_id
    limit 1 offset ${offset - 1}
  `.execute(db);
  return result.rows[0];
}

/** How many fiscal ids the ranking has (asked only for a page past the end, which has no rows). */
async function rankingSize(db: Db, eventId: string, category: CategoryAddress): Promise<number> {
  const { count } = await db
    .selectFrom('nominee_totals')
    .select(sql<number>`cast(count(*) as integer)`.as('count'))
    .where('event_id', '=', eventId)
    .where('category', '=', category)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** One page (1-based) of RANKING_PAGE_SIZE rows, what the ranking screen shows. */
export function categoryRanking(
  db: Db,
  { eventId, category, page }: CategoryRef & { page: number },
): Promise<RankingPage> {
  return rankingRows(db, eventId, category, {
    limit: RANKING_PAGE_SIZE,
    offset: (page - 1) * RANKING_PAGE_SIZE,
  });
}

/** Every row of the ranking, in the same order (the export). */
export async function fullRanking(
  db: Db,
  { eventId, category }: CategoryRef,
): Promise<RankingRow[]> {
  return (await rankingRows(db, eventId, category)).rows;
}

/** Rows a streamed ranking reads from PostgreSQL at a time. */
const STREAM_CHUNK = 500;

/**
 * fullRanking's rows one at a time, from the same one statement (one snapshot), for the
 * whole-event workbook. PostgreSQL sends them through a cursor, STREAM_CHUNK at a time: read as
 * whole results, about 5 MB of pg's rows survived each young-generation collection of the heap
 * (under 1 MB through a cursor), so it grew to its largest and the workbook's server peaked at
 * 307 MB. SQLite reads them at once: its reads are in-process, and a statement streamed from it
 * would hold its one connection, and every other request with it, while a slow download is written.
 */
export async function* streamedRanking(
  db: Db,
  { eventId, category }: CategoryRef,
): AsyncGenerator<RankingRow> {
  const query = rankingQuery(db, eventId, category);
  const read = rankingRowReader(undefined);
  if (engineOf(db) === 'sqlite') {
    for (const row of (await query.execute(db)).rows) yield read(row);
    return;
  }
  for await (const chunk of db.getExecutor().stream(query.compile(db), STREAM_CHUNK)) {
    for (const row of chunk.rows) yield read(row);
  }
}

/**
 * Every exhibitor's entry for one fiscal id in one category, earliest nomination first, each with
 * its list's version. One statement, so each version is the one of the entry it comes with.
 */
export async function nomineeVotes(
  db: Db,
  { eventId, category, fiscalId }: CategoryRef & { fiscalId: string },
): Promise<NomineeVote[]> {
  await getEventOr404(db, eventId);
  const rows = await db
    .selectFrom('nominations as n')
    .innerJoin('event_exhibitors as m', (join) =>
      join.onRef('m.event_id', '=', 'n.event_id').onRef('m.exhibitor_id', '=', 'n.exhibitor_id'),
    )
    .innerJoin('exhibitors as e', 'e.id', 'n.exhibitor_id')
    .innerJoin('nomination_lists as l', (join) =>
      join
        .onRef('l.event_id', '=', 'n.event_id')
        .onRef('l.exhibitor_id', '=', 'n.exhibitor_id')
        .onRef('l.category', '=', 'n.category'),
    )
    .selectAll('n')
    .select([
      memberField('full_name', 'm', 'e').as('exhibitor_name'),
      memberField('company', 'm', 'e').as('exhibitor_company'),
      'l.version as list_version',
    ])
    .where('n.event_id', '=', eventId)
    .where('n.category', '=', category)
    .where('n.fiscal_id', '=', fiscalId)
    // An annulled list's votes count for nothing: the nominee's page does not show them.
    .where('n.annulled', '=', 0)
    .orderBy('n.nominated_at')
    .orderBy('n.exhibitor_id')
    .execute();
  return rows.map((row) => ({
    ...toNomineeView(row),
    exhibitorId: row.exhibitor_id,
    exhibitorName: row.exhibitor_name,
    listVersion: Number(row.list_version),
    exhibitorCompany: row.exhibitor_company,
  }));
}
