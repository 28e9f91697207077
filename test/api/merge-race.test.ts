/**
 * Issue 30, S1: an administrator's rewrites of exhibitors' lists (merge, undo, vote correction)
 * racing the exhibitors' own saves. Every save the server answered 200 must be in the stored list
 * afterwards (a merge may only have turned the merged-away id into the one that stays, an undo
 * turned it back), or the voter must have got 409 `stale_list` and, reading again, a fresh version;
 * and the ranking's totals must equal an aggregate computed from scratch from the nominations.
 */
import { sql, type RawBuilder } from 'kysely';
import { answered, errorOf, refused } from '../helpers/client.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { addNominee, myEvent, removeNominee } from '../../src/shared/api/nominations.ts';
import { editVote, exhibitorVotes, merge, undoMerge } from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { Category } from '../../src/shared/constants.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import type { TestClient } from '../helpers/client.ts';
import { nominee } from '../helpers/nomination-load.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { listIn } from '../helpers/exhibitor-votes.ts';

const EXHIBITORS = 20;
const ROUNDS = Number(process.env.MERGE_RACE_ROUNDS ?? 10);
const MERGED_AWAY = '30712345670';
const KEPT = '30712345679';
/** Successful merges an administrator runs while the voters of one round save. */
const MERGES_PER_ROUND = 10;
/**
 * Each merge and each undo refuses a voter's save at most once (409, it moves the list's version
 * on), so a voter who reads a fresh version and tries again gets through within this many tries.
 */
const MAX_ATTEMPTS = 2 * MERGES_PER_ROUND + 1;

interface Voter {
  exhibitorId: string;
  /** The voter's own client, signed in once for the file. */
  client: TestClient;
  /** The version of the voter's last answer, as their screen holds it. */
  version: number;
}

interface Totals {
  fiscal_id: string;
  points: number;
  p1: number;
  p2: number;
  p3: number;
  p4: number;
  p5: number;
  nominations: number;
  first_key: string;
}

const numeric = (row: Totals): Totals => ({
  fiscal_id: row.fiscal_id,
  points: Number(row.points),
  p1: Number(row.p1),
  p2: Number(row.p2),
  p3: Number(row.p3),
  p4: Number(row.p4),
  p5: Number(row.p5),
  nominations: Number(row.nominations),
  first_key: row.first_key,
});

describe('administrators rewriting lists while exhibitors save', () => {
  const app = useTestApp();
  let eventId: string;
  let voters: Voter[];

  beforeAll(async () => {
    const { db } = app;
    eventId = (await seedEvent(db, { name: 'Carrera 2026' })).id;
    // The id that stays has votes of its own, so every merge is valid.
    const anchor = (await seedExhibitor(db, { fullName: 'Ancla' })).id;
    await seedMembership(db, eventId, anchor);
    await seedNominations(db, {
      eventId,
      exhibitorId: anchor,
      category: 'consumption',
      nominees: [{ fiscalId: KEPT }],
    });
    voters = [];
    for (let index = 0; index < EXHIBITORS; index += 1) {
      const exhibitorId = (await seedExhibitor(db, { fullName: `Votante ${index}` })).id;
      await seedMembership(db, eventId, exhibitorId);
      voters.push({ exhibitorId, client: await app.exhibitor(exhibitorId), version: 0 });
    }
  });

  const consumption = () => ({ eventId, category: 'consumption' as const });
  /** Removes one of the voter's nominees with the version on their screen; it must succeed. */
  async function removeAsVoter(voter: Voter, fiscalId: string) {
    const list = await voter.client.call(removeNominee, {
      params: { ...consumption(), fiscalId },
      query: { version: String(voter.version) },
    });
    voter.version = list.version;
  }
  const mergeAway = () =>
    app.api.send(merge, {
      params: consumption(),
      body: { into: KEPT, from: [MERGED_AWAY] },
    });

  /** The voter's list as their screen reloads it after a 409. */
  async function freshList(voter: Voter, category: 'consumption' | 'value') {
    return (await voter.client.call(myEvent, { params: { eventId } })).lists[category];
  }

  /**
   * Adds `fiscalId` to the voter's CONSUMO list with the version on their screen; after 409
   * `stale_list` they read the list again and, with its fresh version, try again. Answers whether
   * a save was acknowledged (200), and the statuses seen.
   */
  async function addAsVoter(voter: Voter, fiscalId: string, statuses: number[]) {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const response = await voter.client.send(addNominee, {
        params: consumption(),
        body: { ...nominee(fiscalId), version: voter.version },
      });
      statuses.push(response.status);
      if (response.ok && response.status === 200) {
        voter.version = response.data.version;
        return;
      }
      expect(response.status).toBe(409);
      expect({ error: errorOf(refused(response)) }).toEqual({
        error: { code: 'stale_list', message: MSG.staleList },
      });
      const fresh = await freshList(voter, 'consumption');
      // A 409 always comes with a newer version to read.
      expect(fresh.version).toBeGreaterThan(voter.version);
      voter.version = fresh.version;
      // The save that was refused is not there: the voter sends it again.
      expect(fresh.nominees.map((n) => n.fiscalId)).not.toContain(fiscalId);
    }
    throw new Error(`${fiscalId}: still 409 after ${MAX_ATTEMPTS} attempts`);
  }

  async function storedList(exhibitorId: string, category: Category = 'consumption') {
    const rows = await app.db
      .selectFrom('nominations')
      .select(['list_order', 'fiscal_id'])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .where('category', '=', category)
      .orderBy('list_order')
      .execute();
    return rows.map((row) => row.fiscal_id);
  }

  async function storedVersion(exhibitorId: string, category: Category = 'consumption') {
    const row = await app.db
      .selectFrom('nomination_lists')
      .select('version')
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .where('category', '=', category)
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /** The stored totals and the same sums computed from scratch from the nominations. */
  async function totalsAndAggregate() {
    const stored = await app.db
      .selectFrom('nominee_totals')
      .select(['fiscal_id', 'points', 'p1', 'p2', 'p3', 'p4', 'p5', 'nominations', 'first_key'])
      .where('event_id', '=', eventId)
      .orderBy('category')
      .orderBy('fiscal_id')
      .execute();
    const fresh = await sql<Totals>`
      select fiscal_id,
        sum(6 - list_order) as points,
        sum(case when list_order = 1 then 1 else 0 end) as p1,
        sum(case when list_order = 2 then 1 else 0 end) as p2,
        sum(case when list_order = 3 then 1 else 0 end) as p3,
        sum(case when list_order = 4 then 1 else 0 end) as p4,
        sum(case when list_order = 5 then 1 else 0 end) as p5,
        count(*) as nominations,
        min(nominated_at || exhibitor_id) as first_key
      from nominations
      where event_id = ${eventId}
      group by category, fiscal_id
      order by category, fiscal_id`.execute(app.db);
    return { stored: stored.map(numeric), fresh: fresh.rows.map(numeric) };
  }

  /** Empties every voter's list through the API, between rounds, with nobody racing. */
  async function emptyLists() {
    const empty = async (voter: Voter) => {
      voter.version = (await freshList(voter, 'consumption')).version;
      for (const fiscalId of await storedList(voter.exhibitorId)) {
        await removeAsVoter(voter, fiscalId);
      }
    };
    await Promise.all(voters.map(empty));
  }

  it('keeps every acknowledged save while merges and undos run', { timeout: 120_000 }, async () => {
    const admin409: string[] = [];
    let merges = 0;
    let undos = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Each voter's own nominees of the round, ids nobody else types.
      const own = voters.map((_, index) =>
        [1, 2, 3].map((nth) =>
          `2${nth}${String(round).padStart(2, '0')}${String(index).padStart(2, '0')}`.padEnd(
            11,
            '5',
          ),
        ),
      );
      const statuses: number[] = [];
      let saving = true;
      const saves = voters.map(async (voter, index) => {
        await addAsVoter(voter, MERGED_AWAY, statuses);
        for (const fiscalId of own[index]!) await addAsVoter(voter, fiscalId, statuses);
      });
      const administrator = async () => {
        // Merges and undoes, one at a time, while the voters save.
        let mergesThisRound = 0;
        while (saving && mergesThisRound < MERGES_PER_ROUND) {
          const merged = await mergeAway();
          if (merged.status === 409) {
            expect(refused(merged).code).toBe('nothing_to_merge');
            admin409.push('nothing_to_merge');
            continue;
          }
          expect(merged.status).toBe(200);
          merges += 1;
          mergesThisRound += 1;
          const undone = await app.api.send(undoMerge, {
            params: { eventId, auditId: String(answered(merged).data.auditId) },
          });
          if (undone.status === 409) {
            expect(refused(undone).code).toBe('undo_stale');
            admin409.push('undo_stale');
            continue;
          }
          expect(undone.status).toBe(200);
          undos += 1;
        }
      };
      await Promise.all([
        Promise.all(saves).finally(() => {
          saving = false;
        }),
        administrator(),
      ]);
      expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);

      const lost: string[] = [];
      for (const [index, voter] of voters.entries()) {
        const list = await storedList(voter.exhibitorId);
        // Every save was answered 200: the merged-away id first, as it was typed (never merged, or
        // merged and undone) or as the id that stays, then the voter's own nominees in order.
        const [first, ...rest] = list;
        const firstKept = first === MERGED_AWAY || first === KEPT;
        if (!firstKept || JSON.stringify(rest) !== JSON.stringify(own[index])) {
          lost.push(`ronda ${round}, votante ${index}: ${list.join(', ')}`);
        }
        // The screen's last version is never ahead of the stored one.
        expect(await storedVersion(voter.exhibitorId)).toBeGreaterThanOrEqual(voter.version);
      }
      expect(lost).toEqual([]);
      const { stored, fresh } = await totalsAndAggregate();
      expect(stored).toEqual(fresh);
      await emptyLists();
    }
    // The race ran: merges happened while the voters saved.
    expect(merges).toBeGreaterThan(0);
    expect(undos + admin409.length).toBeGreaterThan(0);
  });

  it(
    'keeps every acknowledged save while an administrator corrects the same lists',
    {
      timeout: 120_000,
    },
    async () => {
      await emptyLists();
      // Each voter's list starts with a nominee whose contact the administrator corrects.
      const first = voters.map((_, index) => `27${String(index).padStart(2, '0')}`.padEnd(11, '7'));
      await Promise.all(voters.map((voter, index) => addAsVoter(voter, first[index]!, [])));
      const corrections = 3;
      for (let round = 0; round < ROUNDS; round += 1) {
        const own = voters.map((_, index) =>
          [1, 2, 3].map((nth) =>
            `2${nth}${String(round).padStart(2, '0')}${String(index).padStart(2, '0')}`.padEnd(
              11,
              '5',
            ),
          ),
        );
        const statuses: number[] = [];
        const correctionVersions = voters.map(() => [] as number[]);
        const saves = voters.map(async (voter, index) => {
          for (const fiscalId of own[index]!) await addAsVoter(voter, fiscalId, statuses);
        });
        const correct = voters.map(async (voter, index) => {
          for (let nth = 1; nth <= corrections; nth += 1) {
            // As the administrator's screen does: read the list, correct the entry it shows with
            // the version it read; a save that landed in between refuses it (409), so read again.
            // Each of the voter's saves refuses a correction at most once.
            let version: number | undefined;
            for (let attempt = 0; attempt <= own[index]!.length; attempt += 1) {
              const shown = await app.api.call(exhibitorVotes, {
                params: { eventId, exhibitorId: voter.exhibitorId },
              });
              expect(listIn(shown, 'consumption').nominees[0]?.fiscalId).toBe(first[index]);
              const response = await app.api.send(editVote, {
                params: { ...consumption(), exhibitorId: voter.exhibitorId, order: 1 },
                body: {
                  ...nominee(first[index]!),
                  contactName: `Corrección ${round}.${nth}`,
                  reason: 'typo',
                  version: listIn(shown, 'consumption').version,
                },
              });
              if (response.status !== 409) {
                expect(response.status).toBe(200);
                version = answered(response).data.version;
                break;
              }
              expect(refused(response)).toMatchObject({
                code: 'stale_list',
                message: MSG.staleList,
              });
            }
            expect(version).toBeDefined();
            correctionVersions[index]!.push(version ?? -1);
          }
        });
        await Promise.all([...saves, ...correct]);
        expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
        for (const [index, voter] of voters.entries()) {
          const rows = await app.db
            .selectFrom('nominations')
            .select(['fiscal_id', 'contact_name'])
            .where('event_id', '=', eventId)
            .where('exhibitor_id', '=', voter.exhibitorId)
            .where('category', '=', 'consumption')
            .orderBy('list_order')
            .execute();
          // Every save and the last correction are there, in order.
          expect(rows.map((row) => row.fiscal_id)).toEqual([first[index], ...own[index]!]);
          expect(rows[0]?.contact_name).toBe(`Corrección ${round}.${corrections}`);
          // Each correction moved the version on: every write has a version of its own.
          const versions = correctionVersions[index]!;
          expect(new Set(versions).size).toBe(corrections);
          expect(await storedVersion(voter.exhibitorId)).toBe(Math.max(voter.version, ...versions));
        }
        const { stored, fresh } = await totalsAndAggregate();
        expect(stored).toEqual(fresh);
        // The next round adds its own nominees after the first one again.
        for (const voter of voters) {
          voter.version = await storedVersion(voter.exhibitorId);
          for (const fiscalId of (await storedList(voter.exhibitorId)).slice(1)) {
            await removeAsVoter(voter, fiscalId);
          }
        }
      }
    },
  );

  /**
   * The interleaving that lost votes, forced with row locks held by the test (PostgreSQL only:
   * SQLite runs one write at a time, so nothing can commit inside a merge). A list that gains the
   * merged-away id while the merge waits for its locks, and then a nominee of its own while the
   * merge writes another list, keeps both; a list the merge rewrites has its version moved on.
   */
  it.runIf(process.env.TEST_DB_ENGINE === 'postgres')(
    'does not rewrite a list that gained the merged-away id while the merge waited',
    async () => {
      await emptyLists();
      const [holder, latecomer] = voters as [Voter, Voter];
      await addAsVoter(holder, MERGED_AWAY, []);
      const held = await holdLocks([
        sql`select 1 from nominations where exhibitor_id = ${holder.exhibitorId} for update`,
      ]);
      const listHeld = await holdLocks([
        sql`select 1 from nomination_lists where exhibitor_id = ${holder.exhibitorId} for update`,
      ]);
      const merging = mergeAway();
      // The merge waits for the holder's list; the latecomer types the merged-away id meanwhile.
      await waitForLockWait('%nomination_lists%');
      await addAsVoter(latecomer, MERGED_AWAY, []);
      const acknowledged = latecomer.version;
      await listHeld.release();
      // The merge now writes the holder's list and waits for its rows; the latecomer saves again.
      await waitForLockWait('delete from "nominations"%');
      await addAsVoter(latecomer, '20999999991', []);
      await held.release();
      const merged = await merging;
      expect(merged.status).toBe(200);
      // Both of the latecomer's saves are there, as answered, and nothing moved their version.
      expect(await storedList(latecomer.exhibitorId)).toEqual([MERGED_AWAY, '20999999991']);
      expect(answered(merged).data.lists).toBe(1);
      expect(await storedList(holder.exhibitorId)).toEqual([KEPT]);
      expect(await storedVersion(latecomer.exhibitorId)).toBe(latecomer.version);
      expect(latecomer.version).toBe(acknowledged + 1);
      const { stored, fresh } = await totalsAndAggregate();
      expect(stored).toEqual(fresh);
    },
  );

  /** Runs `statements` in a transaction of its own that stays open, holding their locks. */
  async function holdLocks(statements: RawBuilder<unknown>[]) {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let ready = () => {};
    const locked = new Promise<void>((resolve) => (ready = resolve));
    const done = app.db.transaction().execute(async (trx) => {
      for (const statement of statements) await statement.execute(trx);
      ready();
      await released;
    });
    await locked;
    return {
      async release() {
        release();
        await done;
      },
    };
  }

  /** Until a statement like `pattern` of this database waits for a lock another holds. */
  async function waitForLockWait(pattern: string) {
    for (let attempt = 0; attempt < 10_000; attempt += 1) {
      const waiting = await sql<{ count: number }>`
        select cast(count(*) as integer) as count from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike ${pattern}`.execute(
        app.db,
      );
      if (Number(waiting.rows[0]?.count) > 0) return;
    }
    throw new Error(`nothing waits on a lock for ${pattern}`);
  }
});
