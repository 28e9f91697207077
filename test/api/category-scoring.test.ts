import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.ts';
import { migrationProvider } from '../../src/server/db/migrations/index.ts';
import { rebuildNomineeTotals } from '../../src/server/modules/ranking/nominee-totals.ts';
import { addNominee, myEvent } from '../../src/shared/api/nominations.ts';
import { categoryRanking } from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { DEFAULT_CATEGORY_VIEWS, seedCategory } from '../helpers/categories.ts';
import { answered, errorOf, refused, type TestClient } from '../helpers/client.ts';
import { freshTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { nomineeInput as nominee } from '../helpers/nominee.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

/**
 * Categories as data (issue 26, docs/decisions/0034): each category's limit and scoring decide
 * what an exhibitor may save and what each vote is worth. The totals below are computed by hand.
 */

const [A, B, C, D, E] = ['20000000001', '20000000002', '20000000003', '20000000004', '20000000005'];
const TEN = Array.from({ length: 10 }, (_, i) => `2700000000${i}`);

describe('categories decide limits and points', () => {
  const app = useTestApp();
  let eventId: string;
  const exhibitors: TestClient[] = [];
  const versions = new Map<string, number>();
  let minute = 0;

  /** One exhibitor's save, a minute after the one before (the earliest nomination wins a tie). */
  async function add(who: number, category: string, fiscalId: string) {
    minute += 1;
    app.t.clock.set(
      new Date(Date.parse('2026-06-01T12:00:00.000Z') + minute * 60_000).toISOString(),
    );
    const key = `${who}|${category}`;
    const version = versions.get(key) ?? 0;
    const client = exhibitors[who];
    if (!client) throw new Error(`no exhibitor ${who}`);
    const outcome = await client.send(addNominee, {
      params: { eventId, category },
      body: { ...nominee(fiscalId), version },
    });
    if (outcome.status === 200) versions.set(key, version + 1);
    return outcome;
  }

  async function ranking(category: string) {
    const rows = answered(await app.api.send(categoryRanking, { params: { eventId, category } }))
      .data.rows;
    return rows.map((row) => ({
      fiscalId: row.fiscalId,
      position: row.position,
      points: row.points,
      places: row.places,
      nominations: row.nominations,
      tieBreak: row.tieBreak,
    }));
  }

  beforeAll(async () => {
    eventId = (await seedEvent(app.db, { name: 'Premios Forma' })).id;
    await seedCategory(app.db, eventId, {
      address: 'innovacion-cloud',
      name: 'INNOVACIÓN CLOUD',
      nomineeLimit: 3,
      scoring: 'place',
      position: 3,
      description: 'Partners con servicios cloud propios',
    });
    await seedCategory(app.db, eventId, {
      address: 'un-punto',
      name: 'UN PUNTO',
      nomineeLimit: 3,
      scoring: 'one',
      position: 4,
    });
    await seedCategory(app.db, eventId, {
      address: 'uno-solo',
      name: 'UNO SOLO',
      nomineeLimit: 1,
      scoring: 'place',
      position: 5,
    });
    await seedCategory(app.db, eventId, {
      address: 'diez',
      name: 'DIEZ',
      nomineeLimit: 10,
      scoring: 'place',
      position: 6,
    });
    for (let i = 0; i < 4; i++) {
      const id = (await seedExhibitor(app.db, { fullName: `Expositor ${i}` })).id;
      await seedMembership(app.db, eventId, id);
      exhibitors.push(await app.exhibitor(id));
    }
  });

  it("lists the event's categories in order on the exhibitor's screen", async () => {
    const event = answered(
      await (exhibitors[0] as TestClient).send(myEvent, { params: { eventId } }),
    );
    expect(event.data.categories).toEqual([
      ...DEFAULT_CATEGORY_VIEWS,
      {
        address: 'innovacion-cloud',
        name: 'INNOVACIÓN CLOUD',
        description: 'Partners con servicios cloud propios',
        nomineeLimit: 3,
        scoring: 'place',
      },
      { address: 'un-punto', name: 'UN PUNTO', description: '', nomineeLimit: 3, scoring: 'one' },
      { address: 'uno-solo', name: 'UNO SOLO', description: '', nomineeLimit: 1, scoring: 'place' },
      { address: 'diez', name: 'DIEZ', description: '', nomineeLimit: 10, scoring: 'place' },
    ]);
  });

  it('"Por puesto" with 3 nominees: 3, 2 and 1 points, ties broken by places then the earliest', async () => {
    // e0: A B C · e1: B A · e2: C
    for (const fiscalId of [A, B, C])
      expect((await add(0, 'innovacion-cloud', fiscalId)).status).toBe(200);
    for (const fiscalId of [B, A])
      expect((await add(1, 'innovacion-cloud', fiscalId)).status).toBe(200);
    expect((await add(2, 'innovacion-cloud', C)).status).toBe(200);
    // A: 3 + 2 = 5 (first at minute 1) · B: 2 + 3 = 5 (minute 2) · C: 1 + 3 = 4.
    expect(await ranking('innovacion-cloud')).toEqual([
      { fiscalId: A, position: 1, points: 5, places: [1, 1, 0], nominations: 2, tieBreak: null },
      {
        fiscalId: B,
        position: 2,
        points: 5,
        places: [1, 1, 0],
        nominations: 2,
        tieBreak: 'earliest',
      },
      {
        fiscalId: C,
        position: 3,
        points: 4,
        places: [1, 0, 1],
        nominations: 2,
        tieBreak: 'points',
      },
    ]);
    const fourth = refused(await add(0, 'innovacion-cloud', D));
    expect(fourth.status).toBe(409);
    expect(errorOf(fourth).message).toBe(MSG.nominationLimit);
    expect(errorOf(fourth).message).toBe('Ya has alcanzado el limite de nominaciones');
  });

  it('"Un punto por nominación": one point per list, whatever the place', async () => {
    // e0: A B C · e1: B D · e2: D B · e3: E
    for (const fiscalId of [A, B, C]) expect((await add(0, 'un-punto', fiscalId)).status).toBe(200);
    for (const fiscalId of [B, D]) expect((await add(1, 'un-punto', fiscalId)).status).toBe(200);
    for (const fiscalId of [D, B]) expect((await add(2, 'un-punto', fiscalId)).status).toBe(200);
    expect((await add(3, 'un-punto', E)).status).toBe(200);
    // B: 3 · D: 2 · A: 1 (one 1st, earlier than E) · E: 1 (one 1st) · C: 1 (no 1st).
    expect(await ranking('un-punto')).toEqual([
      { fiscalId: B, position: 1, points: 3, places: [1, 2, 0], nominations: 3, tieBreak: null },
      {
        fiscalId: D,
        position: 2,
        points: 2,
        places: [1, 1, 0],
        nominations: 2,
        tieBreak: 'points',
      },
      {
        fiscalId: A,
        position: 3,
        points: 1,
        places: [1, 0, 0],
        nominations: 1,
        tieBreak: 'points',
      },
      {
        fiscalId: E,
        position: 4,
        points: 1,
        places: [1, 0, 0],
        nominations: 1,
        tieBreak: 'earliest',
      },
      {
        fiscalId: C,
        position: 5,
        points: 1,
        places: [0, 0, 1],
        nominations: 1,
        tieBreak: 'places',
      },
    ]);
  });

  it('a limit of 1: one nominee, worth 1 point, and no second', async () => {
    expect((await add(0, 'uno-solo', A)).status).toBe(200);
    const second = refused(await add(0, 'uno-solo', B));
    expect(second.status).toBe(409);
    expect(errorOf(second).message).toBe(MSG.nominationLimit);
    expect(await ranking('uno-solo')).toEqual([
      { fiscalId: A, position: 1, points: 1, places: [1], nominations: 1, tieBreak: null },
    ]);
  });

  it('a limit of 10: ten nominees worth 10 down to 1 point, and no eleventh', async () => {
    for (const fiscalId of TEN) expect((await add(1, 'diez', fiscalId)).status).toBe(200);
    const eleventh = refused(await add(1, 'diez', A));
    expect(eleventh.status).toBe(409);
    expect(errorOf(eleventh).message).toBe(MSG.nominationLimit);
    const rows = await ranking('diez');
    expect(rows.map((row) => [row.fiscalId, row.points])).toEqual(
      TEN.map((fiscalId, index) => [fiscalId, 10 - index]),
    );
    expect(rows[9]?.places).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    const stored = await app.db
      .selectFrom('nominations')
      .select(sql<number>`max(list_order)`.as('last'))
      .where('event_id', '=', eventId)
      .where('category', '=', 'diez')
      .executeTakeFirstOrThrow();
    expect(Number(stored.last)).toBe(10);
  });

  it('keeps the totals the triggers wrote equal to a rebuild from scratch', async () => {
    const read = () =>
      app.db
        .selectFrom('nominee_totals')
        .selectAll()
        .where('event_id', '=', eventId)
        .orderBy('category')
        .orderBy('fiscal_id')
        .execute();
    const kept = (await read()).map((row) => ({ ...row }));
    await app.t.deps.transact((tx) => rebuildNomineeTotals(tx));
    expect((await read()).map((row) => ({ ...row }))).toEqual(kept);
  });

  it('answers an address the event does not have with 404, saving and reading alike', async () => {
    const save = refused(await add(0, 'seguridad', A));
    expect(save.status).toBe(404);
    const read = refused(
      await app.api.send(categoryRanking, { params: { eventId, category: 'seguridad' } }),
    );
    expect(read.status).toBe(404);
    const lists = await app.db
      .selectFrom('nomination_lists')
      .select('category')
      .where('event_id', '=', eventId)
      .where('category', '=', 'seguridad')
      .execute();
    expect(lists).toEqual([]);
  });
});

describe('migration 0028 on an event that already has votes', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await freshTestDatabase();
    handle = openDatabase(database.url);
  });
  afterAll(async () => {
    await handle.close();
    await database.drop();
  });

  it('gives it CONSUMO and VALOR AGREGADO and keeps every total exactly as it was', async () => {
    const { db, engine } = handle;
    const migrationTableSchema =
      engine === 'postgres'
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
            ?.schema
        : undefined;
    const migrator = new Migrator({
      db,
      provider: migrationProvider(engine),
      ...(migrationTableSchema ? { migrationTableSchema } : {}),
    });
    const before = await migrator.migrateTo('0027_save_follows_registry_and_annulment');
    expect(before.error).toBeUndefined();

    const eventId = '00000000-0000-4000-8000-000000000001';
    await sql`insert into events (id, name, name_search, event_date, vote_deadline, created_by, created_at, updated_at)
      values (${eventId}, 'Premios 2026', 'premios 2026', '2026-07-15', '2026-07-01', null,
        '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(db);
    const lists: [string, string[]][] = [
      ['consumption', [A, B, C, D, E]],
      ['consumption', [B, A, E]],
      ['consumption', [E, D, C, B, A]],
      ['value', [C, A]],
      ['value', [A, C, B, D]],
    ];
    for (const [index, [category, fiscalIds]] of lists.entries()) {
      const exhibitorId = (await seedExhibitor(db, { fullName: `Votante ${index}` })).id;
      await seedMembership(db, eventId, exhibitorId);
      await seedNominations(db, {
        eventId,
        exhibitorId,
        category,
        nominees: fiscalIds.map((fiscalId, order) => ({
          fiscalId,
          nominatedAt: `2026-02-0${index + 1}T10:0${order}:00.000Z`,
        })),
      });
    }
    const totals = async () =>
      (
        await sql<{
          category: string;
          fiscal_id: string;
          points: number | string;
          nominations: number | string;
        }>`select event_id, category, fiscal_id, points, p1, p2, p3, p4, p5, nominations, first_key
          from nominee_totals order by category, fiscal_id`.execute(db)
      ).rows.map((row) => ({
        ...row,
        points: Number(row.points),
        nominations: Number(row.nominations),
      }));
    const kept = await totals();
    // Hand-computed, 6 − place: A in consumption = 5 + 4 + 1 = 10, in value = 4 + 5 = 9.
    expect(kept.find((row) => row.category === 'consumption' && row.fiscal_id === A)?.points).toBe(
      10,
    );
    expect(kept.find((row) => row.category === 'value' && row.fiscal_id === A)?.points).toBe(9);

    const after = await migrator.migrateToLatest();
    expect(after.error).toBeUndefined();
    expect(await totals()).toEqual(kept);
    const rebuilt = await handle.transact(async (tx) => {
      await rebuildNomineeTotals(tx);
      return true;
    });
    expect(rebuilt).toBe(true);
    expect(await totals()).toEqual(kept);
    const places = await db
      .selectFrom('nominee_totals')
      .select(['p6', 'p7', 'p8', 'p9', 'p10'])
      .execute();
    expect(places.every((row) => Object.values(row).every((value) => Number(value) === 0))).toBe(
      true,
    );
    const categories = await db
      .selectFrom('event_categories')
      .select(['address', 'name', 'description', 'nominee_limit', 'scoring', 'position'])
      .where('event_id', '=', eventId)
      .orderBy('position')
      .execute();
    expect(
      categories.map((row) => ({
        ...row,
        nominee_limit: Number(row.nominee_limit),
        position: Number(row.position),
      })),
    ).toEqual([
      {
        address: 'consumption',
        name: 'CONSUMO',
        description: '',
        nominee_limit: 5,
        scoring: 'place',
        position: 1,
      },
      {
        address: 'value',
        name: 'VALOR AGREGADO',
        description: '',
        nominee_limit: 5,
        scoring: 'place',
        position: 2,
      },
    ]);
    // Every nomination came through the rebuilt tables on SQLite, none lost.
    const count = await db
      .selectFrom('nominations')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(lists.reduce((sum, [, ids]) => sum + ids.length, 0));
  });
});
