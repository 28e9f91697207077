import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankingOf, type Ballot } from '../../src/server/modules/merge/merge-ballots.ts';
import { fullRanking } from '../../src/server/modules/ranking/service.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

/*
 * The ranking order has one definition (RANKING_CRITERIA in ranking-order.ts), used by the SQL
 * ranking (the results screen, the exports) and by the in-memory one (the merge's preview). On
 * generated ballots, stored in a real database, both give the same rows in the same order with the
 * same positions, ties included. Few fiscal ids (some differing only by leading zeros) and few
 * instants make ties on every criterion common.
 */

const FISCAL_IDS = ['7', '07', '70', '20111111111', '20222222222', '0030712345678'];
const INSTANTS = [
  '2026-01-01T10:00:00.000Z',
  '2026-01-01T10:00:00.001Z',
  '2026-01-02T09:00:00.000Z',
];

const ballotEntries = fc.uniqueArray(
  fc.record({
    fiscalId: fc.constantFrom(...FISCAL_IDS),
    nominatedAt: fc.constantFrom(...INSTANTS),
  }),
  { maxLength: 5, selector: (entry) => entry.fiscalId },
);
const ballots = fc.array(ballotEntries, { minLength: 1, maxLength: 6 });

describe('the ranking order, in SQL and in TypeScript', () => {
  // The database of the app on the chosen engine; the ranking is read from it directly.
  const app = useTestApp();

  it('ranks generated ballots alike, ties included', async () => {
    await fc.assert(
      fc.asyncProperty(ballots, async (lists) => {
        const { db } = app;
        const eventId = (await seedEvent(db)).id;
        const stored: Ballot[] = [];
        for (const entries of lists) {
          const exhibitorId = (await seedExhibitor(db)).id;
          await seedMembership(db, eventId, exhibitorId);
          await seedNominations(db, {
            eventId,
            exhibitorId,
            category: 'consumption',
            nominees: entries,
          });
          stored.push({ exhibitorId, category: 'consumption', entries });
        }
        const fromSql = (await fullRanking(db, { eventId, category: 'consumption' })).map(
          (row) => ({
            fiscalId: row.fiscalId,
            position: row.position,
            points: row.points,
            places: [row.p1, row.p2, row.p3, row.p4, row.p5],
            nominations: row.nominations,
          }),
        );
        const inMemory = rankingOf(stored).map(({ firstNominatedAt: _, ...row }) => row);
        expect(fromSql).toEqual(inMemory);
      }),
      { numRuns: 40 },
    );
  });

  it('shares a position only between rows equal on every criterion', async () => {
    // One example the property above must cover: a full tie, then a row the last criterion parts.
    const { db } = app;
    const eventId = (await seedEvent(db)).id;
    const lists = [
      [{ fiscalId: '70', nominatedAt: INSTANTS[0] }],
      [{ fiscalId: '7', nominatedAt: INSTANTS[0] }],
      [{ fiscalId: '07', nominatedAt: INSTANTS[1] }],
    ];
    for (const nominees of lists) {
      const exhibitorId = (await seedExhibitor(db)).id;
      await seedMembership(db, eventId, exhibitorId);
      await seedNominations(db, { eventId, exhibitorId, category: 'consumption', nominees });
    }
    const rows = await fullRanking(db, { eventId, category: 'consumption' });
    expect(rows.map((row) => [row.position, row.fiscalId, row.tieBreak])).toEqual([
      [1, '7', null],
      [1, '70', 'tied'],
      [3, '07', 'earliest'],
    ]);
  });
});
