import { describe, expect, it } from 'vitest';
import { rebuildNomineeTotals } from '../../src/server/modules/ranking/nominee-totals.ts';
import {
  createCategory,
  deleteCategory,
  listCategories,
  moveCategory,
  updateCategory,
} from '../../src/shared/api/categories.ts';
import { createEvent, getEvent } from '../../src/shared/api/events.ts';
import { addNominee, myEvent, removeNominee } from '../../src/shared/api/nominations.ts';
import { history } from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { CategoryInput } from '../../src/shared/schemas/categories.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { DEFAULT_CATEGORY_VIEWS } from '../helpers/categories.ts';
import { answered, errorOf, failureOf, refused } from '../helpers/client.ts';
import { nomineeInput as nominee } from '../helpers/nominee.ts';
import { raceInOrder } from '../helpers/race-order.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

/**
 * "Categorías" of an event (issue 26 item 1, docs/decisions/0034): every rule and every refusal,
 * each refusal changing nothing.
 */

const cloud: CategoryInput = {
  name: 'INNOVACIÓN CLOUD',
  description: 'Partners con servicios cloud propios',
  nomineeLimit: 3,
  scoring: 'one',
};

describe('categories of an event', () => {
  const app = useTestApp();

  const list = async (eventId: string) =>
    answered(await app.api.send(listCategories, { params: { eventId } })).data.categories;
  const create = (eventId: string, body: CategoryInput) =>
    app.api.send(createCategory, { params: { eventId }, body });
  const update = (eventId: string, category: string, body: CategoryInput) =>
    app.api.send(updateCategory, { params: { eventId, category }, body });
  const addresses = async (eventId: string) => (await list(eventId)).map((c) => c.address);

  it('a new event starts with CONSUMO and VALOR AGREGADO, 5 nominees, by place', async () => {
    const created = answered(
      await app.api.send(createEvent, {
        body: { name: 'Premios 2027', eventDate: '2026-09-10', voteDeadline: '2026-09-01' },
      }),
    ).data;
    expect(created.categories).toEqual(DEFAULT_CATEGORY_VIEWS);
    expect(await list(created.id)).toEqual(
      DEFAULT_CATEGORY_VIEWS.map((category) => ({ ...category, nominations: 0 })),
    );
  });

  it('creates a category at the end, its address made from its name, recorded in the history', async () => {
    const { id: eventId } = await seedEvent(app.db);
    const outcome = await create(eventId, cloud);
    expect(outcome.status).toBe(201);
    expect(answered(outcome).data).toEqual({
      address: 'innovacion-cloud',
      name: 'INNOVACIÓN CLOUD',
      description: 'Partners con servicios cloud propios',
      nomineeLimit: 3,
      scoring: 'one',
      nominations: 0,
    });
    expect(await addresses(eventId)).toEqual(['consumption', 'value', 'innovacion-cloud']);
    const event = answered(await app.api.send(getEvent, { params: { eventId } })).data;
    expect(event.categories.map((c) => c.name)).toEqual([
      'CONSUMO',
      'VALOR AGREGADO',
      'INNOVACIÓN CLOUD',
    ]);
    const entries = answered(await app.api.send(history, { params: { eventId }, query: {} })).data
      .entries;
    expect(entries.map((e) => [e.actionLabel, e.detail])).toContainEqual([
      'Categoría creada',
      'INNOVACIÓN CLOUD: 3 nominaciones por expositor, Un punto por nominación',
    ]);
  });

  it("never takes one of the event page's own addresses, nor one the event has: a suffix", async () => {
    const { id: eventId } = await seedEvent(app.db);
    const made = [];
    for (const name of ['History', 'Participación', 'Cloud', 'Cloud!', 'Consumption']) {
      made.push(answered(await create(eventId, { ...cloud, name })).data.address);
    }
    expect(made).toEqual(['history-2', 'participacion', 'cloud', 'cloud-2', 'consumption-2']);
  });

  it('refuses a name the event has, ignoring case and accents, changing nothing', async () => {
    const { id: eventId } = await seedEvent(app.db);
    answered(await create(eventId, cloud));
    for (const name of ['innovacion cloud', '  Innovación  Cloud ', 'consumo']) {
      const clash = refused(await create(eventId, { ...cloud, name }));
      expect(clash.status).toBe(409);
      expect(errorOf(clash)).toEqual({
        code: 'category_name_taken',
        message: MSG.categoryNameTaken,
        fields: { name: MSG.categoryNameTaken },
      });
    }
    expect(await addresses(eventId)).toEqual(['consumption', 'value', 'innovacion-cloud']);
  });

  it('refuses a bad name, description, limit or scoring with its Spanish message', async () => {
    const { id: eventId } = await seedEvent(app.db);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '   ' }, 'name', MSG.categoryNameRequired],
      [{ name: 'N'.repeat(41) }, 'name', MSG.categoryNameTooLong],
      [{ description: 'd'.repeat(501) }, 'description', MSG.categoryDescriptionTooLong],
      [{ nomineeLimit: 0 }, 'nomineeLimit', MSG.categoryLimitRange],
      [{ nomineeLimit: 11 }, 'nomineeLimit', MSG.categoryLimitRange],
      [{ nomineeLimit: 2.5 }, 'nomineeLimit', MSG.categoryLimitRange],
      [{ scoring: 'doble' }, 'scoring', MSG.categoryScoringInvalid],
    ];
    for (const [change, field, message] of cases) {
      const response = await app.t.request({
        method: 'POST',
        url: `/api/events/${eventId}/categories`,
        payload: { ...cloud, ...change },
        as: app.as,
      });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(failureOf(response).fields?.[field]).toBe(message);
    }
    // The limits themselves are accepted: 40 characters, 500 of description, 1 and 10.
    answered(await create(eventId, { ...cloud, name: 'N'.repeat(40), nomineeLimit: 1 }));
    answered(
      await create(eventId, {
        ...cloud,
        name: 'Diez',
        description: 'd'.repeat(500),
        nomineeLimit: 10,
      }),
    );
    expect(await addresses(eventId)).toEqual(['consumption', 'value', 'n'.repeat(40), 'diez']);
  });

  it('holds 1 to 10 categories: the eleventh and the removal of the last are refused', async () => {
    const { id: eventId } = await seedEvent(app.db);
    for (let i = 3; i <= 10; i++)
      answered(await create(eventId, { ...cloud, name: `Categoría ${i}` }));
    const eleventh = refused(await create(eventId, { ...cloud, name: 'Categoría 11' }));
    expect(eleventh.status).toBe(409);
    expect(errorOf(eleventh).message).toBe(MSG.categoriesFull);
    expect(await addresses(eventId)).toHaveLength(10);

    const { id: small } = await seedEvent(app.db);
    answered(await app.api.send(deleteCategory, { params: { eventId: small, category: 'value' } }));
    const last = refused(
      await app.api.send(deleteCategory, { params: { eventId: small, category: 'consumption' } }),
    );
    expect(last.status).toBe(409);
    expect(errorOf(last).message).toBe(MSG.categoryLastOne);
    expect(await addresses(small)).toEqual(['consumption']);
  });

  it('changes name and description at any time, limit and scoring only without nominations', async () => {
    const { id: eventId } = await seedEvent(app.db);
    const exhibitor = await seedExhibitor(app.db);
    await seedMembership(app.db, eventId, exhibitor.id);
    await seedNominations(app.db, {
      eventId,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '20111111111' }],
    });
    const renamed = answered(
      await update(eventId, 'consumption', {
        name: 'CONSUMO CLOUD',
        description: 'Partners por consumo',
        nomineeLimit: 5,
        scoring: 'place',
      }),
    ).data;
    expect(renamed).toEqual({
      address: 'consumption',
      name: 'CONSUMO CLOUD',
      description: 'Partners por consumo',
      nomineeLimit: 5,
      scoring: 'place',
      nominations: 1,
    });
    for (const change of [{ nomineeLimit: 4 }, { scoring: 'one' as const }]) {
      const frozen = refused(
        await update(eventId, 'consumption', {
          name: 'CONSUMO CLOUD',
          description: 'Partners por consumo',
          nomineeLimit: 5,
          scoring: 'place',
          ...change,
        }),
      );
      expect(frozen.status).toBe(409);
      expect(errorOf(frozen).message).toBe(MSG.categoryShapeFrozen);
    }
    // An annulled list's nominations count too: the totals were computed with these settings.
    await app.db
      .updateTable('nominations')
      .set({ annulled: 1 })
      .where('event_id', '=', eventId)
      .execute();
    expect(
      refused(await update(eventId, 'consumption', { ...renamed, nomineeLimit: 4 })).status,
    ).toBe(409);
    // The category without nominations changes freely; its address stays.
    const value = answered(
      await update(eventId, 'value', { name: 'Innovación', nomineeLimit: 1, scoring: 'one' }),
    ).data;
    expect(value).toMatchObject({
      address: 'value',
      name: 'Innovación',
      nomineeLimit: 1,
      scoring: 'one',
    });
    const stored = await app.db
      .selectFrom('event_categories')
      .select(['address', 'name', 'nominee_limit', 'scoring'])
      .where('event_id', '=', eventId)
      .orderBy('position')
      .execute();
    expect(stored.map((row) => ({ ...row, nominee_limit: Number(row.nominee_limit) }))).toEqual([
      { address: 'consumption', name: 'CONSUMO CLOUD', nominee_limit: 5, scoring: 'place' },
      { address: 'value', name: 'Innovación', nominee_limit: 1, scoring: 'one' },
    ]);
    const clash = refused(await update(eventId, 'value', { ...cloud, name: 'consumo cloud' }));
    expect(clash.status).toBe(409);
    expect(errorOf(clash).message).toBe(MSG.categoryNameTaken);
  });

  it('moves a category up and down, and refuses to move past either end', async () => {
    const { id: eventId } = await seedEvent(app.db);
    answered(await create(eventId, cloud));
    const move = (category: string, direction: 'up' | 'down') =>
      app.api.send(moveCategory, { params: { eventId, category }, body: { direction } });
    const up = answered(await move('innovacion-cloud', 'up')).data.categories;
    expect(up.map((c) => c.address)).toEqual(['consumption', 'innovacion-cloud', 'value']);
    answered(await move('consumption', 'down'));
    expect(await addresses(eventId)).toEqual(['innovacion-cloud', 'consumption', 'value']);
    for (const [category, direction] of [
      ['innovacion-cloud', 'up'],
      ['value', 'down'],
    ] as const) {
      const edge = refused(await move(category, direction));
      expect(edge.status).toBe(400);
      expect(errorOf(edge).message).toBe(MSG.categoryAtEdge);
    }
    expect(await addresses(eventId)).toEqual(['innovacion-cloud', 'consumption', 'value']);
    const exh = await seedExhibitor(app.db);
    await seedMembership(app.db, eventId, exh.id);
    const screen = answered(
      await (await app.exhibitor(exh.id)).send(myEvent, { params: { eventId } }),
    );
    expect(screen.data.categories.map((c) => c.address)).toEqual([
      'innovacion-cloud',
      'consumption',
      'value',
    ]);
  });

  it('deletes a category without nominations (its empty lists too), never one with them', async () => {
    const { id: eventId } = await seedEvent(app.db);
    const exhibitor = await seedExhibitor(app.db);
    await seedMembership(app.db, eventId, exhibitor.id);
    await seedNominations(app.db, {
      eventId,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '20111111111' }],
    });
    // An emptied list: the exhibitor added and removed.
    await seedNominations(app.db, {
      eventId,
      exhibitorId: exhibitor.id,
      category: 'value',
      nominees: [],
    });
    const inUse = refused(
      await app.api.send(deleteCategory, { params: { eventId, category: 'consumption' } }),
    );
    expect(inUse.status).toBe(409);
    expect(errorOf(inUse).message).toBe(MSG.categoryInUse);
    answered(await app.api.send(deleteCategory, { params: { eventId, category: 'value' } }));
    expect(await addresses(eventId)).toEqual(['consumption']);
    const lists = await app.db
      .selectFrom('nomination_lists')
      .select('category')
      .where('event_id', '=', eventId)
      .execute();
    expect(lists).toEqual([{ category: 'consumption' }]);
  });

  it('answers 404 for an address the event does not have', async () => {
    const { id: eventId } = await seedEvent(app.db);
    const params = { eventId, category: 'seguridad' };
    expect(refused(await app.api.send(updateCategory, { params, body: cloud })).status).toBe(404);
    expect(refused(await app.api.send(deleteCategory, { params })).status).toBe(404);
    expect(
      refused(await app.api.send(moveCategory, { params, body: { direction: 'up' } })).status,
    ).toBe(404);
  });

  it('changes nothing once the event is archived', async () => {
    const { id: eventId } = await seedEvent(app.db);
    await app.db
      .updateTable('events')
      .set({ archived_at: '2026-05-01T00:00:00.000Z' })
      .where('id', '=', eventId)
      .execute();
    const params = { eventId, category: 'value' };
    const refusals = [
      refused(await create(eventId, cloud)),
      refused(await app.api.send(updateCategory, { params, body: cloud })),
      refused(await app.api.send(moveCategory, { params, body: { direction: 'up' } })),
      refused(await app.api.send(deleteCategory, { params })),
    ];
    for (const failure of refusals) {
      expect(failure.status).toBe(409);
      expect(errorOf(failure).message).toBe(MSG.eventArchived);
    }
    expect(await list(eventId)).toEqual(
      DEFAULT_CATEGORY_VIEWS.map((category) => ({ ...category, nominations: 0 })),
    );
  });

  /**
   * The race of the limit: a new event and its exhibitor, CONSUMO changed from 5 "Por puesto" to
   * 1 "Un punto por nominación" by the administrator, and the exhibitor's first save into it.
   */
  /**
   * An exhibitor's first nomination in CONSUMO racing a change of its limit and scoring. With
   * `emptiedList`, the exhibitor's list already exists, emptied again (a nominee added and removed),
   * so the save inserts no list row and only the category's shape lock holds the two apart.
   */
  async function limitRace({ emptiedList = false } = {}) {
    const { id: eventId } = await seedEvent(app.db);
    const exhibitor = await seedExhibitor(app.db);
    await seedMembership(app.db, eventId, exhibitor.id);
    const exh = await app.exhibitor(exhibitor.id);
    const save = (fiscalId: string, version: number) =>
      exh.send(addNominee, {
        params: { eventId, category: 'consumption' },
        body: { ...nominee(fiscalId), version },
      });
    let version = 0;
    if (emptiedList) {
      answered(await save('20999999999', 0));
      answered(
        await exh.send(removeNominee, {
          params: { eventId, category: 'consumption', fiscalId: '20999999999' },
          query: { version: '1' },
        }),
      );
      version = 2;
    }
    const changeLimit = () =>
      update(eventId, 'consumption', { name: 'CONSUMO', nomineeLimit: 1, scoring: 'one' });
    const firstSave = () => save('20111111111', version);
    /** Which came first, checked against the stored rows: never a list past its limit. */
    const outcome = async (
      change: Awaited<ReturnType<typeof changeLimit>>,
      first: Awaited<ReturnType<typeof firstSave>>,
    ): Promise<'change first' | 'save first'> => {
      expect(first.status).toBe(200);
      const settings = await app.db
        .selectFrom('event_categories')
        .select(['nominee_limit', 'scoring'])
        .where('event_id', '=', eventId)
        .where('address', '=', 'consumption')
        .executeTakeFirstOrThrow();
      const totals = await app.db
        .selectFrom('nominee_totals')
        .select('points')
        .where('event_id', '=', eventId)
        .executeTakeFirstOrThrow();
      const longest = await app.db
        .selectFrom('nominations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('event_id', '=', eventId)
        .executeTakeFirstOrThrow();
      expect(Number(longest.n)).toBeLessThanOrEqual(Number(settings.nominee_limit));
      if (change.status === 200) {
        // The change came first: the save met the new limit and scoring.
        expect({ limit: Number(settings.nominee_limit), scoring: settings.scoring }).toEqual({
          limit: 1,
          scoring: 'one',
        });
        expect(Number(totals.points)).toBe(1);
        const second = refused(await save('20222222222', version + 1));
        expect(second.status).toBe(409);
        expect(errorOf(second).message).toBe(MSG.nominationLimit);
        expect(Number(longest.n)).toBe(1);
        return 'change first';
      }
      // The save came first: the change found a nomination and changed nothing.
      expect(errorOf(refused(change)).message).toBe(MSG.categoryShapeFrozen);
      expect({ limit: Number(settings.nominee_limit), scoring: settings.scoring }).toEqual({
        limit: 5,
        scoring: 'place',
      });
      expect(Number(totals.points)).toBe(5);
      return 'save first';
    };
    return { changeLimit, firstSave, outcome };
  }

  /** The triggers' totals always equal a rebuild with the settings that stand. */
  async function expectTotalsAsRebuilt() {
    const before = await app.db
      .selectFrom('nominee_totals')
      .selectAll()
      .orderBy('event_id')
      .orderBy('fiscal_id')
      .execute();
    await app.t.deps.transact((tx) => rebuildNomineeTotals(tx));
    const after = await app.db
      .selectFrom('nominee_totals')
      .selectAll()
      .orderBy('event_id')
      .orderBy('fiscal_id')
      .execute();
    expect(after).toEqual(before);
  }

  it("an administrator changing a limit races an exhibitor's first save: one order or the other, never a list past its limit", async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 8; round++) {
      const { changeLimit, firstSave, outcome } = await limitRace();
      // Started in one order or the other, alternately, and awaited together: whichever order the
      // engine takes.
      const [changing, saving] =
        round % 2 === 0
          ? [changeLimit(), firstSave()]
          : ((saved) => [changeLimit(), saved] as const)(firstSave());
      outcomes.push(await outcome(await changing, await saving));
    }
    await expectTotalsAsRebuilt();
    expect(outcomes).toHaveLength(8);
  });

  it("the race of a limit and a first save, each order made to happen: the loser waits for the winner's commit and sees it", async () => {
    // Both write the event's history last, holding the category's row (the change for update, the
    // save for share): the winner is held there while the loser starts and waits behind it.
    const outcomes: string[] = [];
    {
      const { changeLimit, firstSave, outcome } = await limitRace();
      const [change, save] = await raceInOrder(app.t, 'audit_log', changeLimit, firstSave);
      outcomes.push(await outcome(change, save));
    }
    {
      const { changeLimit, firstSave, outcome } = await limitRace();
      const [save, change] = await raceInOrder(app.t, 'audit_log', firstSave, changeLimit);
      outcomes.push(await outcome(change, save));
    }
    expect(outcomes).toEqual(['change first', 'save first']);
    await expectTotalsAsRebuilt();
  });

  it('the same race on a list that exists and is empty again, each order made to happen', async () => {
    const outcomes: string[] = [];
    {
      const { changeLimit, firstSave, outcome } = await limitRace({ emptiedList: true });
      const [change, save] = await raceInOrder(app.t, 'audit_log', changeLimit, firstSave);
      outcomes.push(await outcome(change, save));
    }
    {
      const { changeLimit, firstSave, outcome } = await limitRace({ emptiedList: true });
      const [save, change] = await raceInOrder(app.t, 'audit_log', firstSave, changeLimit);
      outcomes.push(await outcome(change, save));
    }
    expect(outcomes).toEqual(['change first', 'save first']);
    await expectTotalsAsRebuilt();
  });
});
