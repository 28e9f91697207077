/**
 * nominee_totals (migration 0003), kept by triggers on nominations, and the paginated ranking read
 * from it. Every write goes through the real API (or a foreign-key cascade behind it); after each
 * generated sequence the stored totals must equal an aggregate computed here, in JavaScript, from
 * the nominations themselves, and the ranking must equal one ranked here from the same rows.
 */
import ExcelJS from 'exceljs';
import { answered, failureOf, refused } from '../helpers/client.ts';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backfill } from '../../src/server/db/migrations/0003-nominee-totals.ts';
import { rebuildNomineeTotals } from '../../src/server/modules/ranking/nominee-totals.ts';
import type { Nomination } from '../../src/server/db/schema.ts';
import { deleteEvent } from '../../src/shared/api/events.ts';
import { removeExhibitor } from '../../src/shared/api/exhibitors.ts';
import {
  addNominee,
  editNominee,
  moveNominee,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import { categoryRanking, editVote, exportRanking } from '../../src/shared/api/results.ts';
import type { Category } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { NominationList } from '../../src/shared/schemas/nominations.ts';
import { RANKING_PAGE_SIZE, type RankingResponse } from '../../src/shared/schemas/results.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import type { TestApp } from '../helpers/app.ts';
import type { TestClient } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

/** A save's outcome: the list the API stored, or a refusal. */
type ListOutcome =
  { ok: true; status: number; data: NominationList } | { ok: false; status: number };

const RUNS = Number(process.env.TOTALS_RUNS ?? 30);
const CATEGORIES: Category[] = ['consumption', 'value'];
/** Few fiscal ids, of different lengths, so lists collide, tie and sort numerically. */
const POOL = ['20111111111', '20222222222', '3', '27', '00000000005', '20333333333', '9'];

interface Totals {
  event_id: string;
  category: string;
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

const byKey = (a: Totals, b: Totals) =>
  `${a.event_id}|${a.category}|${a.fiscal_id}`.localeCompare(
    `${b.event_id}|${b.category}|${b.fiscal_id}`,
  );

/** Every stored totals row, or those of some events. */
async function storedTotals(t: TestApp, eventIds?: string[]): Promise<Totals[]> {
  let query = t.deps.db.selectFrom('nominee_totals').selectAll();
  if (eventIds) query = query.where('event_id', 'in', eventIds);
  const rows = await query.execute();
  return rows
    .map((row) => ({
      ...row,
      points: Number(row.points),
      p1: Number(row.p1),
      p2: Number(row.p2),
      p3: Number(row.p3),
      p4: Number(row.p4),
      p5: Number(row.p5),
      p6: Number(row.p6),
      p7: Number(row.p7),
      p8: Number(row.p8),
      p9: Number(row.p9),
      p10: Number(row.p10),
      nominations: Number(row.nominations),
    }))
    .sort(byKey);
}

/** The ranking's totals computed from scratch, in JavaScript, from every nomination. */
function aggregate(nominations: Nomination[]): Totals[] {
  const groups = new Map<string, Totals>();
  for (const n of nominations) {
    const id = `${n.event_id}|${n.category}|${n.fiscal_id}`;
    const order = Number(n.list_order);
    const key = n.nominated_at + n.exhibitor_id;
    const group = groups.get(id) ?? {
      event_id: n.event_id,
      category: n.category,
      fiscal_id: n.fiscal_id,
      points: 0,
      p1: 0,
      p2: 0,
      p3: 0,
      p4: 0,
      p5: 0,
      // Places past 5th (migration 0028): none in a category of the specification's 5 nominees.
      p6: 0,
      p7: 0,
      p8: 0,
      p9: 0,
      p10: 0,
      nominations: 0,
      first_key: key,
    };
    group.points += 6 - order;
    const place = `p${order}` as 'p1' | 'p2' | 'p3' | 'p4' | 'p5';
    group[place] += 1;
    group.nominations += 1;
    if (key < group.first_key) group.first_key = key;
    groups.set(id, group);
  }
  return [...groups.values()].sort(byKey);
}

/** Every nomination, or those of some events. */
function allNominations(t: TestApp, eventIds?: string[]): Promise<Nomination[]> {
  let query = t.deps.db.selectFrom('nominations').selectAll();
  if (eventIds) query = query.where('event_id', 'in', eventIds);
  return query.execute();
}

interface ExpectedRow {
  position: number;
  fiscalId: string;
  name: string;
  email: string;
  points: number;
  nominations: number;
}

/**
 * The ranking ranked here: by points, then 1st…5th places, nominations and earliest first
 * nomination; rows tied on all of it share a position, within a position by fiscal id in numeric
 * order; each row shows its earliest nomination's data.
 */
function expectedRanking(
  nominations: Nomination[],
  eventId: string,
  category: Category,
): ExpectedRow[] {
  const own = nominations.filter((n) => n.event_id === eventId && n.category === category);
  const totals = aggregate(own);
  const tieKey = (t: Totals) => [
    -t.points,
    -t.p1,
    -t.p2,
    -t.p3,
    -t.p4,
    -t.p5,
    -t.nominations,
    t.first_key.slice(0, -36),
  ];
  const compareTie = (a: Totals, b: Totals) => {
    const [x, y] = [tieKey(a), tieKey(b)];
    for (let i = 0; i < x.length; i++) {
      if (x[i]! < y[i]!) return -1;
      if (x[i]! > y[i]!) return 1;
    }
    return 0;
  };
  const numeric = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...totals].sort((a, b) => compareTie(a, b) || numeric(a.fiscal_id, b.fiscal_id));
  return sorted.map((t) => {
    const earliest = own.find(
      (n) => n.fiscal_id === t.fiscal_id && n.nominated_at + n.exhibitor_id === t.first_key,
    )!;
    return {
      position: 1 + sorted.filter((other) => compareTie(other, t) < 0).length,
      fiscalId: t.fiscal_id,
      name: earliest.name,
      email: earliest.email,
      points: t.points,
      nominations: t.nominations,
    };
  });
}

const nominee = (fiscalId: string, name = `Reseller ${fiscalId}`) => ({
  name,
  registeredName: `${name} S.A.`,
  fiscalId,
  contactName: 'Carla Contacto',
  contactPosition: 'Gerente',
  phone: '1155550000',
  email: `${name.replace(/\W/g, '').toLowerCase()}@reseller.test`,
  location: 'Palermo',
  city: 'Buenos Aires',
});

describe('nominee totals', () => {
  const app = useTestApp();

  const ranking = (eventId: string, category: Category, page?: string) =>
    app.api.send(categoryRanking, {
      params: { eventId, category },
      query: page === undefined ? {} : { page },
    });

  const shown = (body: RankingResponse) =>
    body.rows.map((r) => ({
      position: r.position,
      fiscalId: r.fiscalId,
      name: r.name,
      email: r.email,
      points: r.points,
      nominations: r.nominations,
    }));

  const listArb = { event: fc.nat(1), exh: fc.nat(3), category: fc.constantFrom(...CATEGORIES) };
  const operation = fc.oneof(
    {
      weight: 30,
      arbitrary: fc.record({
        kind: fc.constant('add' as const),
        ...listArb,
        fiscal: fc.nat(POOL.length - 1),
      }),
    },
    {
      weight: 15,
      arbitrary: fc.record({
        kind: fc.constant('move' as const),
        ...listArb,
        index: fc.nat(4),
        direction: fc.constantFrom('up' as const, 'down' as const),
      }),
    },
    {
      weight: 10,
      arbitrary: fc.record({ kind: fc.constant('remove' as const), ...listArb, index: fc.nat(4) }),
    },
    {
      weight: 5,
      arbitrary: fc.record({ kind: fc.constant('edit' as const), ...listArb, index: fc.nat(4) }),
    },
    {
      weight: 10,
      arbitrary: fc.record({
        kind: fc.constant('adminEdit' as const),
        ...listArb,
        index: fc.nat(4),
        fiscal: fc.nat(POOL.length - 1),
      }),
    },
    {
      weight: 10,
      arbitrary: fc.record({
        kind: fc.constant('tick' as const),
        seconds: fc.constantFrom(0, 1, 60),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('removeExhibitor' as const),
        event: fc.nat(1),
        exh: fc.nat(3),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('deleteEvent' as const), event: fc.nat(1) }),
    },
  );
  type Operation = typeof operation extends fc.Arbitrary<infer O> ? O : never;

  it('equal a from-scratch aggregate after any sequence of writes through the API', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { minLength: 1, maxLength: 60, size: 'max' }),
        async (operations) => {
          const { t, db } = app;
          const events = [(await seedEvent(db)).id, (await seedEvent(db)).id];
          const exhibitors: { id: string; client: TestClient }[] = [];
          for (let i = 0; i < 4; i++) {
            const { id } = await seedExhibitor(db);
            for (const eventId of events) await seedMembership(db, eventId, id);
            exhibitors.push({ id, client: await app.exhibitor(id) });
          }
          /** What each list holds and its version, as the API last answered. */
          const lists = new Map<string, { version: number; fiscalIds: string[] }>();
          const listOf = (event: number, exh: number, category: Category) => {
            const key = `${event}|${exh}|${category}`;
            if (!lists.has(key)) lists.set(key, { version: 0, fiscalIds: [] });
            return lists.get(key)!;
          };

          /** Sends the operation; answers its status, or undefined for one that sends nothing. */
          const apply = async (op: Operation): Promise<number | undefined> => {
            if (op.kind === 'tick') {
              t.clock.advance(op.seconds * 1000);
              return undefined;
            }
            const eventId = events[op.event]!;
            const exhibitor = exhibitors[op.kind === 'deleteEvent' ? 0 : op.exh]!;
            if (op.kind === 'removeExhibitor') {
              const { status } = await app.api.send(removeExhibitor, {
                params: { eventId, exhibitorId: exhibitor.id },
              });
              if (status === 200) {
                for (const category of CATEGORIES)
                  lists.delete(`${op.event}|${op.exh}|${category}`);
              }
              return status;
            }
            if (op.kind === 'deleteEvent') {
              return (await app.api.send(deleteEvent, { params: { eventId } })).status;
            }
            const list = listOf(op.event, op.exh, op.category);
            /** The list as the API answered a save of it. */
            const stored = (outcome: ListOutcome) => {
              if (outcome.ok && outcome.status === 200) {
                list.version = outcome.data.version;
                list.fiscalIds = outcome.data.nominees.map((n) => n.fiscalId);
              }
              return outcome.status;
            };
            const params = { eventId, category: op.category };
            const client = exhibitor.client;
            if (op.kind === 'add') {
              const body = { ...nominee(POOL[op.fiscal]!), version: list.version };
              return stored(await client.send(addNominee, { params, body }));
            }
            if (list.fiscalIds.length === 0) return undefined;
            const index = op.index % list.fiscalIds.length;
            const fiscalId = list.fiscalIds[index]!;
            if (op.kind === 'move') {
              if (list.fiscalIds.length < 2) return undefined;
              // The upper of two neighbours moves down, or the lower one up.
              const upper = op.index % (list.fiscalIds.length - 1);
              const moved = list.fiscalIds[op.direction === 'down' ? upper : upper + 1]!;
              return stored(
                await client.send(moveNominee, {
                  params: { ...params, fiscalId: moved },
                  body: { direction: op.direction, version: list.version },
                }),
              );
            }
            if (op.kind === 'remove') {
              return stored(
                await client.send(removeNominee, {
                  params: { ...params, fiscalId },
                  query: { version: String(list.version) },
                }),
              );
            }
            if (op.kind === 'edit') {
              return stored(
                await client.send(editNominee, {
                  params: { ...params, fiscalId },
                  body: { ...nominee(fiscalId, `Editado ${fiscalId}`), version: list.version },
                }),
              );
            }
            const newFiscalId = POOL[op.fiscal]!;
            const response = await app.api.send(editVote, {
              params: { ...params, exhibitorId: exhibitor.id, order: index + 1 },
              body: {
                ...nominee(newFiscalId, `Corregido ${newFiscalId}`),
                reason: 'typo',
                version: list.version,
              },
            });
            if (response.ok && response.status === 200) {
              list.fiscalIds[index] = newFiscalId;
              list.version = response.data.version;
            }
            return response.status;
          };

          for (const op of operations) {
            const status = await apply(op);
            if (status === undefined) continue;
            // Refusals (duplicate, full list, first place moving up, a removed member) are expected.
            expect([200, 400, 404, 409]).toContain(status);
          }

          // This sequence's events only, so that a failure shrinks to the operations causing it.
          const nominations = await allNominations(t, events);
          expect(await storedTotals(t, events)).toEqual(aggregate(nominations));
          for (const eventId of events) {
            for (const category of CATEGORIES) {
              const response = await ranking(eventId, category);
              if (response.status === 404) {
                expect(nominations.some((n) => n.event_id === eventId)).toBe(false);
                continue;
              }
              const body = answered(response).data;
              const expected = expectedRanking(nominations, eventId, category);
              expect(shown(body)).toEqual(expected);
              expect(body).toMatchObject({ total: expected.length, page: 1, pageSize: 100 });
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);

  it('stay exact, without deadlocks, when exhibitors write the same fiscal ids at once', async () => {
    const { t, db } = app;
    const eventId = (await seedEvent(db)).id;
    const writers: { client: TestClient; version: number; fiscalIds: string[] }[] = [];
    for (let i = 0; i < 8; i++) {
      const { id } = await seedExhibitor(db);
      await seedMembership(db, eventId, id);
      writers.push({ client: await app.exhibitor(id), version: 0, fiscalIds: [] });
    }
    const params = { eventId, category: 'consumption' as const };
    type Writer = (typeof writers)[number];
    /** One write per exhibitor (or none), all sent at once; every one must succeed. */
    const together = async (
      write: (writer: Writer, index: number) => Promise<NominationList> | null,
    ) => {
      await Promise.all(
        writers.map(async (writer, index) => {
          const list = await write(writer, index);
          if (!list) return;
          writer.version = list.version;
          writer.fiscalIds = list.nominees.map((n) => n.fiscalId);
        }),
      );
      expect(await storedTotals(t, [eventId])).toEqual(
        aggregate(await allNominations(t, [eventId])),
      );
    };
    const add = (fiscalId: string, { client, version }: Writer) =>
      client.call(addNominee, { params, body: { ...nominee(fiscalId), version } });
    const moveDown = ({ client, version, fiscalIds }: Writer) =>
      client.call(moveNominee, {
        params: { ...params, fiscalId: fiscalIds[0] ?? '' },
        body: { direction: 'down', version },
      });
    const remove = (fiscalId: string | undefined, { client, version }: Writer) =>
      fiscalId
        ? client.call(removeNominee, {
            params: { ...params, fiscalId },
            query: { version: String(version) },
          })
        : null;
    const [A, B] = ['20111111111', '3'];
    for (let round = 0; round < 3; round++) {
      // Half the lists hold A then B, the other half B then A, all nominated at the same instant:
      // the earliest nomination is decided by the exhibitor id, and every move below rewrites both
      // rows, touching the two fiscal ids in opposite orders in the two halves.
      await together((w, i) => add(i % 2 ? B : A, w));
      await together((w, i) => add(i % 2 ? A : B, w));
      await together(moveDown);
      await together(moveDown);
      t.clock.advance(1000);
      await together((w, i) => remove(w.fiscalIds[i % 2], w));
      await together((w) => remove(w.fiscalIds[0], w));
    }
  });

  describe('pagination', () => {
    let eventId: string;
    const T0 = Date.parse('2026-01-01T10:00:00.000Z');

    beforeAll(async () => {
      // 60 exhibitors name 5 resellers each (300 fiscal ids, one nomination each). Exhibitors 0-19
      // nominated at distinct instants, 20-59 all at the same instant: at every place, 20 rows with
      // their own positions, then 40 tied on everything. The 2nd-place tie group spans offsets
      // 80-119, across the boundary between pages 1 and 2.
      const { db } = app;
      eventId = (await seedEvent(db, { name: 'Premios Paginados' })).id;
      for (let i = 0; i < 60; i++) {
        const { id } = await seedExhibitor(db);
        await seedMembership(db, eventId, id);
        const at = new Date(T0 + Math.min(i, 20) * 1000).toISOString();
        await db
          .insertInto('nomination_lists')
          .values({
            event_id: eventId,
            exhibitor_id: id,
            category: 'consumption',
            version: 1,
            updated_at: at,
          })
          .execute();
        for (let order = 1; order <= 5; order++) {
          // Even exhibitors get 6-digit ids, odd ones 4-digit ids: numeric order is not text order.
          const fiscalId =
            i % 2 === 0
              ? `1${order}${String(i).padStart(4, '0')}`
              : `9${order}${String(i).padStart(2, '0')}`;
          await db
            .insertInto('nominations')
            .values({
              event_id: eventId,
              exhibitor_id: id,
              category: 'consumption',
              list_order: order,
              fiscal_id: fiscalId,
              name: `Reseller ${fiscalId}`,
              registered_name: `Razón ${fiscalId}`,
              contact_name: 'Carla',
              contact_position: 'Gerente',
              phone: '1155550000',
              email: `r${fiscalId}@reseller.test`,
              location: 'Palermo',
              city: 'Buenos Aires',
              nominated_at: at,
              updated_at: at,
            })
            .execute();
        }
      }
    });

    it('continues positions on page 2, a tie across the boundary sharing its position', async () => {
      const pages: RankingResponse[] = [];
      for (const page of [1, 2, 3]) {
        const response = await ranking(eventId, 'consumption', String(page));
        expect(response.status).toBe(200);
        pages.push(answered(response).data);
      }
      expect(pages.map((p) => [p.page, p.pageSize, p.total, p.rows.length])).toEqual([
        [1, RANKING_PAGE_SIZE, 300, 100],
        [2, RANKING_PAGE_SIZE, 300, 100],
        [3, RANKING_PAGE_SIZE, 300, 100],
      ]);
      const [first, second] = pages as [RankingResponse, RankingResponse];
      // Page 1 ends and page 2 starts inside the 2nd-place tie group (offsets 80-119): 81°.
      expect(first.rows.slice(78, 81).map((r) => r.position)).toEqual([79, 80, 81]);
      expect(first.rows.at(-1)?.position).toBe(81);
      expect(second.rows.slice(0, 20).every((r) => r.position === 81)).toBe(true);
      expect(second.rows.slice(19, 22).map((r) => [r.position, r.points])).toEqual([
        [81, 4],
        [121, 3],
        [122, 3],
      ]);
      // Within the tie group, fiscal ids in numeric order: all 4-digit ones before 6-digit ones.
      const group = [...first.rows.slice(80), ...second.rows.slice(0, 20)].map((r) => r.fiscalId);
      expect(group).toEqual([...group].sort((a, b) => a.length - b.length || a.localeCompare(b)));
      expect(group[0]).toHaveLength(4);
      expect(group.at(-1)).toHaveLength(6);

      const everything = pages.flatMap((p) => shown(p));
      expect(everything).toEqual(
        expectedRanking(await allNominations(app.t), eventId, 'consumption'),
      );
    });

    it('answers a page past the end with no rows and the total, and refuses a bad page', async () => {
      const past = await ranking(eventId, 'consumption', '4');
      expect(past.status).toBe(200);
      expect(answered(past).data).toMatchObject({ rows: [], total: 300, page: 4 });
      for (const bad of ['0', '-1', 'abc', '1.5']) {
        const response = refused(await ranking(eventId, 'consumption', bad));
        expect(response.status).toBe(400);
        expect(response.message).toBe(MSG.invalidInput);
      }
      // An empty page, which the typed client would leave out of the URL, sent as is.
      const empty = await app.t.request({
        method: 'GET',
        url: `/api/events/${eventId}/ranking/consumption?page=`,
        as: app.as,
      });
      expect(empty.statusCode).toBe(400);
      expect(failureOf(empty).message).toBe(MSG.invalidInput);
    });

    it('exports every row of the ranking, in the order of the pages', async () => {
      const file = await app.api.call(exportRanking, {
        params: { eventId, category: 'consumption' },
      });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file as unknown as ArrayBuffer);
      const exported: [string, number][] = [];
      workbook.getWorksheet('data')?.eachRow((row, index) => {
        if (index > 1) exported.push([String(row.getCell(3).value), Number(row.getCell(10).value)]);
      });
      const expected = expectedRanking(await allNominations(app.t), eventId, 'consumption');
      expect(exported).toEqual(expected.map((r) => [r.fiscalId, r.points]));
    });
  });

  describe('rebuilt from scratch, totals equal the ones the triggers kept', () => {
    /** Spoils the stored totals, so that only a real recomputation gets them back. */
    async function spoilTotals() {
      await app.db.updateTable('nominee_totals').set({ points: 0, first_key: 'x' }).execute();
      await app.db.deleteFrom('nominee_totals').where('fiscal_id', '=', '3').execute();
    }

    it("by migration 0003's backfill", async () => {
      const { t } = app;
      const kept = await storedTotals(t);
      expect(kept.length).toBeGreaterThan(300);
      await spoilTotals();
      await t.deps.transact(async (tx) => {
        for (const statement of backfill) await sql.raw(statement).execute(tx);
      });
      expect(await storedTotals(t)).toEqual(kept);
      expect(kept).toEqual(aggregate(await allNominations(t)));
    });

    it('by rebuildNomineeTotals, which takes the points of each place from pointsForPlace', async () => {
      const { t } = app;
      const kept = await storedTotals(t);
      expect(kept.length).toBeGreaterThan(300);
      await spoilTotals();
      await t.deps.transact((tx) => rebuildNomineeTotals(tx));
      expect(await storedTotals(t)).toEqual(kept);
    });
  });
});
