import {
  MAX_NOMINEES_PER_CATEGORY,
  POINTS_BASE,
  type Category,
} from '../../../shared/constants.ts';
import { compareFiscalIds, compareRank, type RankingKey } from '../../lib/ranking-order.ts';

export interface BallotEntry {
  fiscalId: string;
  /** When it was first nominated, ISO-8601 UTC: the ranking's last tie-break. */
  nominatedAt: string;
}

/**
 * One exhibitor's list in one category; `entries[0]` is order 1. An entry may carry more than the
 * ranking needs (the merge's write carries each stored row): the merge keeps it as it is.
 */
export interface Ballot<Entry extends BallotEntry = BallotEntry> {
  exhibitorId: string;
  category: Category;
  entries: Entry[];
}

/** "These fiscal ids are the same reseller as that one": every `from` becomes `into`. */
export interface NomineeMerge {
  category: Category;
  from: readonly string[];
  into: string;
}

export interface MergeResult<Entry extends BallotEntry = BallotEntry> {
  /** Every ballot, in the order given, rewritten where the merge touched it. */
  ballots: Ballot<Entry>[];
  /** The ballots the merge changed, before and after, for the audit entry and its undo. */
  touched: { before: Ballot<Entry>; after: Ballot<Entry> }[];
}

/**
 * Rewrites the ballots of the merge's category as if the voters had typed `into` where they typed
 * any of `from`. A list that held the reseller more than once keeps its better-ranked entry, with
 * that entry's nomination instant, drops the others and closes the gaps, so its orders run from 1
 * again. Ballots of other categories and ballots without those ids come back as they were. The
 * one rule of the merge: its preview and its write both run it.
 */
export function mergeBallots<Entry extends BallotEntry>(
  ballots: readonly Ballot<Entry>[],
  merge: NomineeMerge,
): MergeResult<Entry> {
  const merged = new Set(merge.from.filter((fiscalId) => fiscalId !== merge.into));
  const touched: MergeResult<Entry>['touched'] = [];
  const result = ballots.map((ballot) => {
    if (ballot.category !== merge.category) return ballot;
    if (!ballot.entries.some((entry) => merged.has(entry.fiscalId))) return ballot;
    let keptInto = false;
    const entries: Entry[] = [];
    for (const entry of ballot.entries) {
      const isReseller = entry.fiscalId === merge.into || merged.has(entry.fiscalId);
      if (!isReseller) {
        entries.push(entry);
      } else if (!keptInto) {
        entries.push({ ...entry, fiscalId: merge.into });
        keptInto = true;
      }
    }
    const after = { ...ballot, entries };
    touched.push({ before: ballot, after });
    return after;
  });
  return { ballots: result, touched };
}

/** How many entries put a nominee at each place, 1st to 5th. */
export type PlaceCounts = [number, number, number, number, number];

export interface RankingEntry {
  fiscalId: string;
  /** Shared by rows equal on every criterion: 1, 1, 3… */
  position: number;
  points: number;
  places: PlaceCounts;
  nominations: number;
  firstNominatedAt: string;
}

/**
 * The ranking of the given ballots (pass one category's), by the rule the results screen uses
 * (`RANKING_CRITERIA`): points (6 − order per entry), then more 1st, 2nd, 3rd, 4th and 5th places,
 * then more nominations, then the earliest first nomination; rows equal on all of it share a
 * position and are listed by fiscal id in numeric order (shorter first).
 */
export function rankingOf(ballots: readonly Ballot[]): RankingEntry[] {
  const totals = new Map<string, Omit<RankingEntry, 'position'>>();
  for (const ballot of ballots) {
    ballot.entries.forEach((entry, index) => {
      const order = index + 1;
      const total = totals.get(entry.fiscalId) ?? {
        fiscalId: entry.fiscalId,
        points: 0,
        places: [0, 0, 0, 0, 0],
        nominations: 0,
        firstNominatedAt: entry.nominatedAt,
      };
      total.points += POINTS_BASE - order;
      const place = order - 1;
      if (order <= MAX_NOMINEES_PER_CATEGORY) total.places[place] = (total.places[place] ?? 0) + 1;
      total.nominations += 1;
      if (entry.nominatedAt < total.firstNominatedAt) total.firstNominatedAt = entry.nominatedAt;
      totals.set(entry.fiscalId, total);
    });
  }
  const rows = [...totals.values()].sort(
    (a, b) => byRank(a, b) || compareFiscalIds(a.fiscalId, b.fiscalId),
  );
  let position = 0;
  return rows.map((row, index) => {
    const previous = rows[index - 1];
    if (!previous || byRank(previous, row) !== 0) position = index + 1;
    return { ...row, position };
  });
}

type Ranked = Omit<RankingEntry, 'position'>;

/** What the ranking order (`RANKING_CRITERIA`) compares of an in-memory row. */
const rankKey = ({ points, places, nominations, firstNominatedAt }: Ranked): RankingKey => ({
  points,
  p1: places[0],
  p2: places[1],
  p3: places[2],
  p4: places[3],
  p5: places[4],
  nominations,
  first_at: firstNominatedAt,
});

const byRank = (a: Ranked, b: Ranked) => compareRank(rankKey(a), rankKey(b));
