import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeBallots, rankingOf, type Ballot } from './merge-ballots.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 12, minute)).toISOString();

/** A ballot from `[fiscalId, minute]` pairs, in list order. */
function ballot(
  exhibitorId: string,
  entries: [string, number][],
  category: Ballot['category'] = 'consumption',
): Ballot {
  return {
    exhibitorId,
    category,
    entries: entries.map(([fiscalId, minute]) => ({ fiscalId, nominatedAt: at(minute) })),
  };
}

const listOf = (b: Ballot | undefined) => b?.entries.map((entry) => entry.fiscalId);

describe('mergeBallots', () => {
  const merge = { category: 'consumption' as const, from: ['201', '0200'], into: '200' };

  it('turns a merged id into the one that stays, in its place and with its nomination instant', () => {
    const { ballots } = mergeBallots(
      [
        ballot('e1', [
          ['300', 1],
          ['201', 2],
          ['400', 3],
        ]),
      ],
      merge,
    );
    expect(ballots[0]?.entries).toEqual([
      { fiscalId: '300', nominatedAt: at(1) },
      { fiscalId: '200', nominatedAt: at(2) },
      { fiscalId: '400', nominatedAt: at(3) },
    ]);
  });

  it('keeps the better-ranked entry when a list held both, and renumbers the rest from 1', () => {
    const { ballots } = mergeBallots(
      [
        ballot('e1', [
          ['300', 1],
          ['201', 2],
          ['400', 3],
          ['200', 4],
          ['500', 5],
        ]),
        ballot('e2', [
          ['200', 6],
          ['300', 7],
          ['0200', 8],
          ['201', 9],
        ]),
      ],
      merge,
    );
    expect(ballots[0]?.entries).toEqual([
      { fiscalId: '300', nominatedAt: at(1) },
      { fiscalId: '200', nominatedAt: at(2) },
      { fiscalId: '400', nominatedAt: at(3) },
      { fiscalId: '500', nominatedAt: at(5) },
    ]);
    expect(ballots[1]?.entries).toEqual([
      { fiscalId: '200', nominatedAt: at(6) },
      { fiscalId: '300', nominatedAt: at(7) },
    ]);
  });

  it('leaves other categories and lists without a merged id as they were, and reports only what it changed', () => {
    const untouched = ballot('e1', [
      ['200', 1],
      ['300', 2],
    ]);
    const otherCategory = ballot('e1', [['201', 1]], 'value');
    const changed = ballot('e2', [['201', 3]]);
    const result = mergeBallots([untouched, otherCategory, changed], merge);
    expect(result.ballots[0]).toBe(untouched);
    expect(result.ballots[1]).toBe(otherCategory);
    expect(listOf(result.ballots[2])).toEqual(['200']);
    expect(result.touched).toEqual([{ before: changed, after: result.ballots[2] }]);
    expect(listOf(changed)).toEqual(['201']);
  });

  it('changes nothing when the only id to merge is the one that stays', () => {
    const ballots = [
      ballot('e1', [
        ['200', 1],
        ['300', 2],
      ]),
    ];
    const result = mergeBallots(ballots, { category: 'consumption', from: ['200'], into: '200' });
    expect(result).toEqual({ ballots, touched: [] });
  });
});

describe('rankingOf', () => {
  it('ranks by points, then 1st…5th places, then first nomination; full ties share a position', () => {
    const ranking = rankingOf([
      ballot('e1', [
        ['A', 1],
        ['B', 2],
        ['C', 3],
      ]),
      ballot('e2', [
        ['B', 4],
        ['A', 5],
        ['D', 6],
      ]),
      ballot('e3', [
        ['C', 7],
        ['D', 8],
      ]),
      ballot('e4', [['X', 9]]),
      ballot('e5', [
        ['H', 10],
        ['Z', 11],
        ['Y', 12],
      ]),
      ballot('e6', [
        ['M', 13],
        ['N', 14],
        ['K', 15],
        ['Y', 16],
        ['Z', 17],
      ]),
      ballot('e7', [['9', 20]]),
      ballot('e8', [['10', 20]]),
    ]);
    const rows = ranking.map((row) => [
      row.position,
      row.fiscalId,
      row.points,
      row.places.join(' '),
      row.nominations,
      row.firstNominatedAt,
    ]);
    expect(rows).toEqual([
      // Equal points and places: the earlier first nomination goes first.
      [1, 'A', 9, '1 1 0 0 0', 2, at(1)],
      [2, 'B', 9, '1 1 0 0 0', 2, at(2)],
      [3, 'C', 8, '1 0 1 0 0', 2, at(3)],
      [4, 'D', 7, '0 1 1 0 0', 2, at(6)],
      // Five points each: a 1st beats a 2nd and a 5th, which beats a 3rd and a 4th.
      [5, 'X', 5, '1 0 0 0 0', 1, at(9)],
      [6, 'H', 5, '1 0 0 0 0', 1, at(10)],
      [7, 'M', 5, '1 0 0 0 0', 1, at(13)],
      // Equal on everything: one position, listed by fiscal id in numeric order.
      [8, '9', 5, '1 0 0 0 0', 1, at(20)],
      [8, '10', 5, '1 0 0 0 0', 1, at(20)],
      [10, 'Z', 5, '0 1 0 0 1', 2, at(11)],
      [11, 'Y', 5, '0 0 1 1 0', 2, at(12)],
      [12, 'N', 4, '0 1 0 0 0', 1, at(14)],
      [13, 'K', 3, '0 0 1 0 0', 1, at(15)],
    ]);
  });

  it('is empty without ballots or entries', () => {
    expect(rankingOf([])).toEqual([]);
    expect(rankingOf([ballot('e1', [])])).toEqual([]);
  });
});

describe('merging A into B ranks as if every voter had typed B', () => {
  const B = '30712345678';
  const A1 = '30712345670';
  const A2 = '030712345678';
  const others = ['20111111111', '20222222222', '20333333333', '20444444444', '20555555555'];
  const spellings = [B, A1, A2];

  /** A list of the reseller ids a voter meant: distinct, B among them or not, up to 5. */
  const intendedList = fc
    .uniqueArray(fc.constantFrom(B, ...others), { maxLength: 5 })
    .chain((ids) =>
      fc.tuple(
        fc.constant(ids),
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: ids.length, maxLength: ids.length }),
      ),
    );

  /**
   * How the voter typed B: which spelling in B's place, and which other spellings they added
   * further down the same list by mistake (each with where it goes and when it was typed).
   */
  const typing = fc.record({
    spelling: fc.constantFrom(...spellings),
    extras: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 30 })), { maxLength: 2 }),
  });

  const voter = fc.tuple(intendedList, typing);

  it('holds for random ballots', () => {
    fc.assert(
      fc.property(fc.array(voter, { maxLength: 12 }), (voters) => {
        const intended: Ballot[] = [];
        const typed: Ballot[] = [];
        voters.forEach(([[ids, minutes], { spelling, extras }], index) => {
          const entries = ids.map((fiscalId, i) => ({
            fiscalId,
            nominatedAt: at(minutes[i] ?? 0),
          }));
          const exhibitorId = `e${index}`;
          intended.push({ exhibitorId, category: 'consumption', entries });
          const place = ids.indexOf(B);
          const typedEntries = entries.map((entry) =>
            entry.fiscalId === B ? { ...entry, fiscalId: spelling } : entry,
          );
          if (place !== -1) {
            const unused = spellings.filter((s) => s !== spelling);
            extras.slice(0, 5 - ids.length).forEach(([where, minute], i) => {
              const after = place + 1;
              const index = after + (where % (typedEntries.length - after + 1));
              typedEntries.splice(index, 0, { fiscalId: unused[i] ?? A1, nominatedAt: at(minute) });
            });
          }
          typed.push({ exhibitorId, category: 'consumption', entries: typedEntries });
          // Ballots of the other category carry the same ids and must not move.
          typed.push({ exhibitorId, category: 'value', entries: typedEntries });
        });
        const merged = mergeBallots(typed, { category: 'consumption', from: [A1, A2], into: B });
        const consumption = merged.ballots.filter((b) => b.category === 'consumption');
        expect(rankingOf(consumption)).toEqual(rankingOf(intended));
        expect(consumption.map((b) => b.entries)).toEqual(intended.map((b) => b.entries));
        expect(merged.ballots.filter((b) => b.category === 'value')).toEqual(
          typed.filter((b) => b.category === 'value'),
        );
      }),
      { numRuns: 500 },
    );
  });
});
