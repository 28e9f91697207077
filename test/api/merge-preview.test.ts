/**
 * Issue 25, "one rule, one place": the merge's preview and its write run the same function
 * (`mergeBallots`). On generated ballots, the ranking the preview announces is the ranking stored
 * after the merge (and the one before is the stored one before), and a merge the preview refuses
 * is refused alike.
 */
import fc from 'fast-check';
import { answered, errorOf, refused } from '../helpers/client.ts';
import { describe, expect, it } from 'vitest';
import {
  categoryRanking,
  merge as mergeEndpoint,
  mergePreview,
} from '../../src/shared/api/results.ts';
import type { Category } from '../../src/shared/constants.ts';
import { MERGE_PREVIEW_TOP } from '../../src/shared/schemas/results.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

const RUNS = Number(process.env.MERGE_PREVIEW_RUNS ?? 25);
const CATEGORY: Category = 'consumption';
/** Few fiscal ids, of different lengths, so that lists collide, tie and sort numerically. */
const POOL = ['20111111111', '20111111112', '3', '27', '00000000005', '20333333333', '9'];
/** Few instants, so that the earliest-nomination tie-break ties too. */
const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 12, minute)).toISOString();

const ballotArb = fc.uniqueArray(
  fc.record({ fiscalId: fc.constantFrom(...POOL), minute: fc.integer({ min: 0, max: 2 }) }),
  { selector: (entry) => entry.fiscalId, minLength: 1, maxLength: 5 },
);
const mergeArb = fc.record({
  into: fc.constantFrom(...POOL),
  from: fc.uniqueArray(fc.constantFrom(...POOL), { minLength: 1, maxLength: 3 }),
});

type Row = { fiscalId: string; position: number; points: number };

describe('the merge preview and the merge', () => {
  const app = useTestApp();

  async function ranking(eventId: string): Promise<Row[]> {
    const { rows } = await app.api.call(categoryRanking, {
      params: { eventId, category: CATEGORY },
      query: {},
    });
    return rows.map(({ fiscalId, position, points }) => ({
      fiscalId,
      position,
      points,
    }));
  }

  it('announce the same ranking on generated ballots', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ballotArb, { minLength: 1, maxLength: 6 }),
        mergeArb,
        async (ballots, merge) => {
          const { db } = app;
          const eventId = (await seedEvent(db)).id;
          for (const ballot of ballots) {
            const exhibitorId = (await seedExhibitor(db)).id;
            await seedMembership(db, eventId, exhibitorId);
            await seedNominations(db, {
              eventId,
              exhibitorId,
              category: CATEGORY,
              nominees: ballot.map(({ fiscalId, minute }) => ({
                fiscalId,
                nominatedAt: at(minute),
              })),
            });
          }
          const input = { params: { eventId, category: CATEGORY }, body: merge };
          const before = await ranking(eventId);
          const preview = await app.api.send(mergePreview, input);
          const merged = await app.api.send(mergeEndpoint, input);
          // A merge the preview refuses (no votes for `into`, none left for `from`) is refused
          // alike, and changes nothing.
          expect(merged.status).toBe(preview.status);
          if (preview.status !== 200) {
            expect({ error: errorOf(refused(merged)) }).toEqual({
              error: errorOf(refused(preview)),
            });
            expect(await ranking(eventId)).toEqual(before);
            return;
          }
          const after = await ranking(eventId);
          const involved = new Set([merge.into, ...merge.from]);
          const shown = (rows: Row[]) =>
            rows.filter((row, index) => index < MERGE_PREVIEW_TOP || involved.has(row.fiscalId));
          const announced = answered(preview).data;
          expect(announced.before).toEqual(shown(before));
          expect(announced.after).toEqual(shown(after));
          // Nothing of the merged-away ids is left.
          const mergedAway = merge.from.filter((id) => id !== merge.into);
          expect(after.filter((row) => mergedAway.includes(row.fiscalId))).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
