import {
  MAX_NOMINEES_PER_CATEGORY,
  pointsOfVote,
  type CategoryAddress,
  type CategoryScoring,
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
  category: CategoryAddress;
  entries: Entry[];
}

/** "These fiscal ids are the same reseller as that one": every `from` becomes `into`. */
export interface NomineeMerge {
  category: CategoryAddress;
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

/** How many entries put a nominee at each place, 1st to n° (the category's limit). */
export type PlaceCounts = number[];

/** How a category counts its votes: its "Nominaciones por expositor" and "Puntaje". */
export interface CategoryScheme {
  nomineeLimit: number;
  scoring: CategoryScoring;
}

/** The specification's categories: 5 nominees, 6 − order points. */
export const DEFAULT_SCHEME: CategoryScheme = {
  nomineeLimit: MAX_NOMINEES_PER_CATEGORY,
  scoring: 'place',
};

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
 * (`RANKING_CRITERIA`): points (by the category's scheme: n + 1 − order per entry, or one each),
 * then more 1st, 2nd … n° places, then more nominations, then the earliest first nomination; rows equal on all of it share a
 * position and are listed by fiscal id in numeric order (shorter first).
 */
export function rankingOf(
  ballots: readonly Ballot[],
  scheme: CategoryScheme = DEFAULT_SCHEME,
): RankingEntry[] {
  const totals = new Map<string, Omit<RankingEntry, 'position'>>();
  for (const ballot of ballots) {
    ballot.entries.forEach((entry, index) => {
      const order = index + 1;
      const total = totals.get(entry.fiscalId) ?? {
        fiscalId: entry.fiscalId,
        points: 0,
        places: Array.from({ length: scheme.nomineeLimit }, () => 0),
        nominations: 0,
        firstNominatedAt: entry.nominatedAt,
      };
      total.points += pointsOfVote(order, scheme.nomineeLimit, scheme.scoring);
      const place = order - 1;
      if (order <= scheme.nomineeLimit) total.places[place] = (total.places[place] ?? 0) + 1;
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
  p1: places[0] ?? 0,
  p2: places[1] ?? 0,
  p3: places[2] ?? 0,
  p4: places[3] ?? 0,
  p5: places[4] ?? 0,
  p6: places[5] ?? 0,
  p7: places[6] ?? 0,
  p8: places[7] ?? 0,
  p9: places[8] ?? 0,
  p10: places[9] ?? 0,
  nominations,
  first_at: firstNominatedAt,
});

const byRank = (a: Ranked, b: Ranked) => compareRank(rankKey(a), rankKey(b));
