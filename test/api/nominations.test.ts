import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answered, errorOf, failureOf, refused } from '../helpers/client.ts';
import {
  addNominee,
  editNominee,
  moveNominee,
  myEvent,
  myEvents,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import type { Category } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { DEFAULT_NOMINEE_FIELDS } from '../../src/shared/nominee-fields.ts';
import type { NomineeInput } from '../../src/shared/schemas/nominee.ts';
import type { NominationList } from '../../src/shared/schemas/nominations.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { TEST_TIMEZONE, type Session } from '../helpers/app.ts';
import type { TestClient } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { nomineeInput } from '../helpers/nominee.ts';
import { DEFAULT_CATEGORY_VIEWS } from '../helpers/categories.ts';

describe('exhibitor nominations API', () => {
  const app = useTestApp();
  let exh: TestClient;
  let other: TestClient;
  let outsider: TestClient;
  let exhibitorId: string;
  let otherExhibitorId: string;
  let outsiderId: string;
  let eventId: string;
  let foreignEventId: string;

  const listParams = (category: Category, event = eventId) => ({ eventId: event, category });
  const entryParams = (category: Category, fiscalId: string, event = eventId) => ({
    eventId: event,
    category,
    fiscalId,
  });
  /** A write the contract forbids (a field left out, an unknown direction), sent as is. */
  const postRaw = (url: string, payload: Record<string, unknown>) =>
    app.t.request({
      method: 'POST',
      url: `/api/exh/events/${eventId}/consumption/nominees${url}`,
      payload,
      as: exhSession,
    });
  let exhSession: Session;

  function getEvent(as: TestClient = exh, event = eventId) {
    return as.send(myEvent, { params: { eventId: event } });
  }
  async function version(category: Category, as: TestClient = exh): Promise<number> {
    return (await as.call(myEvent, { params: { eventId } })).lists[category].version;
  }
  async function add(category: Category, input: NomineeInput, as: TestClient = exh) {
    return as.send(addNominee, {
      params: listParams(category),
      body: { ...input, version: await version(category, as) },
    });
  }
  async function storedRows(category: Category, exhibitor = exhibitorId) {
    return app.db
      .selectFrom('nominations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitor)
      .where('category', '=', category)
      .orderBy('list_order')
      .execute();
  }
  async function storedVersion(category: Category, exhibitor = exhibitorId) {
    const row = await app.db
      .selectFrom('nomination_lists')
      .select('version')
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitor)
      .where('category', '=', category)
      .executeTakeFirst();
    return row ? Number(row.version) : undefined;
  }

  beforeAll(async () => {
    const { db } = app;
    const e1 = await seedExhibitor(db, { fullName: 'Esteban Uno' });
    const e2 = await seedExhibitor(db, { fullName: 'Elena Dos' });
    const e3 = await seedExhibitor(db, { fullName: 'Ernesto Tres' });
    exhibitorId = e1.id;
    otherExhibitorId = e2.id;
    outsiderId = e3.id;
    foreignEventId = (await seedEvent(db, { name: 'Evento Ajeno', eventDate: '2026-08-01' })).id;
    await seedMembership(db, foreignEventId, e3.id);
  });

  /** Signs the exhibitor in at the clock's instant: moving it past the deadline idles out a session. */
  async function signInExhibitor() {
    exhSession = await app.t.signIn({ role: 'exh', exhibitorId });
    exh = app.client(exhSession);
  }

  beforeEach(async () => {
    // Sessions are opened at this test's "now" (the fixture's): a test that moves the clock past
    // the deadline idles out the sessions it used.
    await signInExhibitor();
    other = await app.exhibitor(otherExhibitorId);
    outsider = await app.exhibitor(outsiderId);
    // Each test gets its own event, both exhibitors invited, deadline 2026-07-01.
    eventId = (await seedEvent(app.db, { name: 'Premios Partners 2026' })).id;
    await seedMembership(app.db, eventId, exhibitorId);
    await seedMembership(app.db, eventId, otherExhibitorId);
  });

  describe('reading', () => {
    it('lists only the events the exhibitor is invited to', async () => {
      expect(await outsider.call(myEvents, {})).toEqual({
        events: [
          {
            id: foreignEventId,
            name: 'Evento Ajeno',
            eventDate: '2026-08-01',
            voteDeadline: '2026-07-01',
          },
        ],
      });
      const mine = await exh.call(myEvents, {});
      expect(mine.events.map((e) => e.id)).toContain(eventId);
      expect(mine.events.map((e) => e.id)).not.toContain(foreignEventId);
    });

    it('returns the event with votingOpen, the programme zone and two empty lists at version 0', async () => {
      expect(answered(await getEvent()).data).toEqual({
        id: eventId,
        name: 'Premios Partners 2026',
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        votingOpen: true,
        timeZone: TEST_TIMEZONE,
        nomineeFields: DEFAULT_NOMINEE_FIELDS,
        closeTime: '23:59',
        nominableResellers: 'any',
        lists: {
          consumption: { category: 'consumption', version: 0, savedAt: null, nominees: [] },
          value: { category: 'value', version: 0, savedAt: null, nominees: [] },
        },
        categories: DEFAULT_CATEGORY_VIEWS,
        instantTexts: {},
      });
    });

    it('answers another event, a missing event and a bad id with the same 404', async () => {
      const notFoundBody = { error: { code: 'not_found', message: MSG.eventNotFound } };
      const foreign = refused(await getEvent(exh, foreignEventId));
      expect(foreign.status).toBe(404);
      expect({ error: errorOf(foreign) }).toEqual(notFoundBody);
      const missing = refused(await getEvent(exh, '00000000-0000-4000-8000-000000000000'));
      expect(missing.status).toBe(404);
      expect({ error: errorOf(missing) }).toEqual(notFoundBody);
      expect((await getEvent(exh, 'not-an-id')).status).toBe(404);
    });

    it('refuses anonymous visitors (401) and administrators (403)', async () => {
      expect((await getEvent(app.signedOut)).status).toBe(401);
      expect((await getEvent(app.api)).status).toBe(403);
      const write = await app.api.fail(addNominee, {
        params: listParams('consumption'),
        body: { ...nomineeInput('1'), version: 0 },
      });
      expect(write.status).toBe(403);
      expect(await storedRows('consumption')).toHaveLength(0);
    });
  });

  describe('nominating', () => {
    it('appends with order = count + 1 and returns the stored list and its version', async () => {
      const first = answered(await add('consumption', nomineeInput('30111111118'))).data;
      expect(first).toEqual({
        category: 'consumption',
        version: 1,
        savedAt: '2026-06-01T12:00:00.000Z',
        nominees: [{ ...nomineeInput('30111111118'), order: 1 }],
      });
      const second = answered(await add('consumption', nomineeInput('0020'))).data;
      expect(second.version).toBe(2);
      expect(second.nominees).toEqual([
        { ...nomineeInput('30111111118'), order: 1 },
        { ...nomineeInput('0020'), order: 2 },
      ]);
      const rows = await storedRows('consumption');
      expect(rows.map((r) => [r.list_order, r.fiscal_id])).toEqual([
        [1, '30111111118'],
        [2, '0020'],
      ]);
      expect(rows[0]?.nominated_at).toBe('2026-06-01T12:00:00.000Z');
      expect(await storedVersion('consumption')).toBe(2);
      expect(await storedVersion('value')).toBeUndefined();
      expect(answered(await getEvent()).data.lists.consumption).toEqual(second);
    });

    it('refuses a sixth nominee with the limit message', async () => {
      for (const id of ['1', '2', '3', '4', '5']) {
        expect((await add('consumption', nomineeInput(id))).status).toBe(200);
      }
      const sixth = refused(await add('consumption', nomineeInput('6')));
      expect(sixth.status).toBe(409);
      expect({ error: errorOf(sixth) }).toEqual({
        error: { code: 'nomination_limit', message: MSG.nominationLimit },
      });
      expect(await storedRows('consumption')).toHaveLength(5);
      expect(await storedVersion('consumption')).toBe(5);
      // The other category has its own five.
      expect((await add('value', nomineeInput('6'))).status).toBe(200);
    });

    it('refuses a fiscal id already in this list, but not one in the other list', async () => {
      await add('consumption', nomineeInput('30111111118'));
      const again = refused(
        await add('consumption', nomineeInput('30111111118', { name: 'Otro nombre' })),
      );
      expect(again.status).toBe(409);
      expect({ error: errorOf(again) }).toEqual({
        error: {
          code: 'duplicate_fiscal_id',
          message: MSG.duplicateFiscalId,
          fields: { fiscalId: MSG.duplicateFiscalId },
        },
      });
      expect(await storedRows('consumption')).toHaveLength(1);
      expect((await add('value', nomineeInput('30111111118'))).status).toBe(200);
      // Another exhibitor may nominate the same reseller in their own list.
      expect((await add('consumption', nomineeInput('30111111118'), other)).status).toBe(200);
    });

    it('requires all nine fields, digits in fiscal id and phone, and a valid email', async () => {
      const cases: [Partial<NomineeInput>, string, string][] = [
        // Separators are accepted (test/api/pasted-digits.test.ts); letters are not.
        [{ fiscalId: 'CUIT 30-11111111-8' }, 'fiscalId', MSG.digitsOnly],
        [{ phone: 'once 5555' }, 'phone', MSG.digitsOnly],
        [{ phone: '- -' }, 'phone', MSG.digitsOnly],
        [{ email: 'no-es-un-email' }, 'email', MSG.invalidEmail],
        [{ name: '   ' }, 'name', MSG.requiredField],
        [{ city: '' }, 'city', MSG.requiredField],
      ];
      for (const [override, field, message] of cases) {
        const response = refused(await add('consumption', nomineeInput('1', override)));
        expect(response.status, field).toBe(400);
        expect(response.fields?.[field]).toBe(message);
      }
      // A field left out: what the contract forbids, sent as is.
      const { registeredName: _left, ...missing } = nomineeInput('1');
      const noField = await postRaw('', { ...missing, version: 0 });
      expect(noField.statusCode).toBe(400);
      expect(failureOf(noField).fields?.registeredName).toBe(MSG.requiredField);
      expect(await storedRows('consumption')).toHaveLength(0);
      expect(await storedVersion('consumption')).toBeUndefined();
    });
  });

  describe('editing, removing and moving', () => {
    beforeEach(async () => {
      await seedNominations(app.db, {
        eventId,
        exhibitorId,
        category: 'consumption',
        nominees: [
          { fiscalId: '101', nominatedAt: '2026-05-01T00:00:00.000Z' },
          { fiscalId: '102', nominatedAt: '2026-05-02T00:00:00.000Z' },
          { fiscalId: '103', nominatedAt: '2026-05-03T00:00:00.000Z' },
          { fiscalId: '104', nominatedAt: '2026-05-04T00:00:00.000Z' },
        ],
      });
    });
    const order = async () =>
      (await storedRows('consumption')).map((r) => [r.list_order, r.fiscal_id, r.nominated_at]);
    const remove = (fiscalId: string, version: number) =>
      exh.send(removeNominee, {
        params: entryParams('consumption', fiscalId),
        query: { version: String(version) },
      });

    it('edits in place, keeping position and nominated_at', async () => {
      const response = await exh.call(editNominee, {
        params: entryParams('consumption', '102'),
        body: { ...nomineeInput('102', { name: 'Nuevo Nombre', phone: '0114444' }), version: 1 },
      });
      expect(response.version).toBe(2);
      expect(response.nominees[1]).toEqual({
        ...nomineeInput('102', { name: 'Nuevo Nombre', phone: '0114444' }),
        order: 2,
      });
      const row = (await storedRows('consumption'))[1];
      expect(row).toMatchObject({
        list_order: 2,
        fiscal_id: '102',
        name: 'Nuevo Nombre',
        phone: '0114444',
        nominated_at: '2026-05-02T00:00:00.000Z',
        updated_at: '2026-06-01T12:00:00.000Z',
      });
    });

    it('refuses a fiscal id change and an unknown fiscal id', async () => {
      const changed = await exh.fail(editNominee, {
        params: entryParams('consumption', '102'),
        body: { ...nomineeInput('999'), version: 1 },
      });
      expect(changed.status).toBe(400);
      expect(changed.fields).toEqual({ fiscalId: MSG.fiscalIdReadOnly });
      const unknown = await exh.fail(editNominee, {
        params: entryParams('consumption', '999'),
        body: { ...nomineeInput('999'), version: 1 },
      });
      expect(unknown.status).toBe(404);
      expect(await order()).toEqual([
        [1, '101', '2026-05-01T00:00:00.000Z'],
        [2, '102', '2026-05-02T00:00:00.000Z'],
        [3, '103', '2026-05-03T00:00:00.000Z'],
        [4, '104', '2026-05-04T00:00:00.000Z'],
      ]);
      expect(await storedVersion('consumption')).toBe(1);
    });

    it('removes and renumbers the rest from 1, keeping nominated_at', async () => {
      const response = answered(await remove('102', 1)).data;
      expect(response.nominees.map((n) => [n.order, n.fiscalId])).toEqual([
        [1, '101'],
        [2, '103'],
        [3, '104'],
      ]);
      expect(await order()).toEqual([
        [1, '101', '2026-05-01T00:00:00.000Z'],
        [2, '103', '2026-05-03T00:00:00.000Z'],
        [3, '104', '2026-05-04T00:00:00.000Z'],
      ]);
      expect((await remove('101', 2)).status).toBe(200);
      expect(await order()).toEqual([
        [1, '103', '2026-05-03T00:00:00.000Z'],
        [2, '104', '2026-05-04T00:00:00.000Z'],
      ]);
      // After a removal there is room again, and the newcomer goes last.
      const added = answered(await add('consumption', nomineeInput('105'))).data;
      expect(added.nominees.at(-1)).toMatchObject({ fiscalId: '105', order: 3 });
    });

    it('moves up and down by swapping neighbours', async () => {
      const move = (fiscalId: string, direction: 'up' | 'down', version: number) =>
        exh.send(moveNominee, {
          params: entryParams('consumption', fiscalId),
          body: { direction, version },
        });
      const up = answered(await move('103', 'up', 1)).data;
      expect(up.nominees.map((n) => n.fiscalId)).toEqual(['101', '103', '102', '104']);
      expect((await move('101', 'down', 2)).status).toBe(200);
      expect(await order()).toEqual([
        [1, '103', '2026-05-03T00:00:00.000Z'],
        [2, '101', '2026-05-01T00:00:00.000Z'],
        [3, '102', '2026-05-02T00:00:00.000Z'],
        [4, '104', '2026-05-04T00:00:00.000Z'],
      ]);
      const top = await move('103', 'up', 3);
      expect(top.status).toBe(400);
      const bottom = await move('104', 'down', 3);
      expect(bottom.status).toBe(400);
      // A direction the contract does not name.
      expect((await postRaw('/104/move', { direction: 'sideways', version: 3 })).statusCode).toBe(
        400,
      );
      expect(await storedVersion('consumption')).toBe(3);
    });
  });

  describe('deadline', () => {
    beforeEach(async () => {
      await seedNominations(app.db, {
        eventId,
        exhibitorId,
        category: 'value',
        nominees: [{ fiscalId: '201' }, { fiscalId: '202' }],
      });
    });

    const moveUp = () =>
      exh.send(moveNominee, {
        params: entryParams('value', '202'),
        body: { direction: 'up', version: 1 },
      });
    const everyWrite = () => [
      exh.send(addNominee, {
        params: listParams('value'),
        body: { ...nomineeInput('203'), version: 1 },
      }),
      exh.send(editNominee, {
        params: entryParams('value', '201'),
        body: { ...nomineeInput('201'), version: 1 },
      }),
      exh.send(removeNominee, { params: entryParams('value', '201'), query: { version: '1' } }),
      moveUp(),
    ];

    it('stays open through 23:59:59 of the deadline day in APP_TIMEZONE', async () => {
      // 2026-07-01 23:59:59 in Buenos Aires (UTC-3).
      app.t.clock.set('2026-07-02T02:59:59.000Z');
      await signInExhibitor();
      expect(answered(await getEvent()).data.votingOpen).toBe(true);
      expect((await moveUp()).status).toBe(200);
    });

    it('refuses every exhibitor write after it with 409 and changes nothing', async () => {
      app.t.clock.set('2026-07-02T03:00:00.000Z');
      await signInExhibitor();
      expect(answered(await getEvent()).data.votingOpen).toBe(false);
      for (const outcome of await Promise.all(everyWrite())) {
        const response = refused(outcome);
        expect(response.status).toBe(409);
        expect({ error: errorOf(response) }).toEqual({
          error: { code: 'voting_closed', message: MSG.votingClosed },
        });
      }
      expect((await storedRows('value')).map((r) => r.fiscal_id)).toEqual(['201', '202']);
      expect(await storedVersion('value')).toBe(1);
    });
  });

  describe('isolation', () => {
    it("never reaches another exhibitor's list or another event", async () => {
      await seedNominations(app.db, {
        eventId,
        exhibitorId: otherExhibitorId,
        category: 'consumption',
        nominees: [{ fiscalId: '301' }],
      });
      // The same URLs act on the caller's own list: the other exhibitor's is untouched.
      const mine = await exh.fail(removeNominee, {
        params: entryParams('consumption', '301'),
        query: { version: '1' },
      });
      expect(mine.status).toBe(409);
      expect(mine.code).toBe('stale_list');
      const edit = await exh.fail(editNominee, {
        params: entryParams('consumption', '301'),
        body: { ...nomineeInput('301'), version: 0 },
      });
      expect(edit.status).toBe(404);
      expect(await storedRows('consumption', otherExhibitorId)).toHaveLength(1);
      expect(answered(await getEvent()).data.lists.consumption.nominees).toEqual([]);

      // An event the exhibitor is not invited to: 404 for every write, nothing stored.
      const foreignEntry = entryParams('consumption', '1', foreignEventId);
      const writes = await Promise.all([
        exh.send(addNominee, {
          params: listParams('consumption', foreignEventId),
          body: { ...nomineeInput('1'), version: 0 },
        }),
        exh.send(editNominee, {
          params: foreignEntry,
          body: { ...nomineeInput('1'), version: 0 },
        }),
        exh.send(removeNominee, { params: foreignEntry, query: { version: '0' } }),
        exh.send(moveNominee, { params: foreignEntry, body: { direction: 'up', version: 0 } }),
      ]);
      for (const outcome of writes) {
        const response = refused(outcome);
        expect(response.status).toBe(404);
        expect(response.message).toBe(MSG.eventNotFound);
      }
      const foreignRows = await app.db
        .selectFrom('nomination_lists')
        .select('exhibitor_id')
        .where('event_id', '=', foreignEventId)
        .execute();
      expect(foreignRows).toEqual([]);
    });

    it('loses access when removed from the event', async () => {
      await add('consumption', nomineeInput('1'));
      await app.db
        .deleteFrom('event_exhibitors')
        .where('event_id', '=', eventId)
        .where('exhibitor_id', '=', exhibitorId)
        .execute();
      expect((await getEvent()).status).toBe(404);
      const write = await exh.fail(addNominee, {
        params: listParams('consumption'),
        body: { ...nomineeInput('2'), version: 1 },
      });
      expect(write.status).toBe(404);
    });
  });

  describe('concurrent edits', () => {
    it('refuses a write based on a stale version and changes nothing', async () => {
      const tabA = answered(await getEvent()).data;
      const tabB = answered(await getEvent()).data;
      const fromA = await exh.send(addNominee, {
        params: listParams('consumption'),
        body: { ...nomineeInput('1'), version: tabA.lists.consumption.version },
      });
      expect(fromA.status).toBe(200);
      const fromB = await exh.fail(addNominee, {
        params: listParams('consumption'),
        body: { ...nomineeInput('2'), version: tabB.lists.consumption.version },
      });
      expect(fromB.status).toBe(409);
      expect({ error: errorOf(fromB) }).toEqual({
        error: { code: 'stale_list', message: MSG.staleList },
      });
      const removeAt = (version: string) =>
        exh.fail(removeNominee, { params: entryParams('consumption', '1'), query: { version } });
      const staleMove = await removeAt('0');
      expect(staleMove.status).toBe(409);
      expect((await storedRows('consumption')).map((r) => r.fiscal_id)).toEqual(['1']);
      expect(await storedVersion('consumption')).toBe(1);
      // A version from the future is just as stale.
      const future = await removeAt('7');
      expect(future.status).toBe(409);
    });

    it('lets exactly one of many simultaneous writes on the same version win', async () => {
      // First on a list that has no row yet (created lazily), then on an existing one.
      for (const base of [0, 1]) {
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            exh.send(addNominee, {
              params: listParams('value'),
              body: { ...nomineeInput(`${base}0${i}`), version: base },
            }),
          ),
        );
        const statuses = results.map((r) => r.status).sort();
        expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
        for (const r of results.filter((r) => r.status === 409)) {
          expect(refused(r).code).toBe('stale_list');
        }
      }
      expect(await storedRows('value')).toHaveLength(2);
      expect(await storedVersion('value')).toBe(2);
    });

    it('keeps both lists consistent when two exhibitors write at once', async () => {
      const [a, b] = await Promise.all([
        add('consumption', nomineeInput('1')),
        add('consumption', nomineeInput('1'), other),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(await storedVersion('consumption')).toBe(1);
      expect(await storedVersion('consumption', otherExhibitorId)).toBe(1);
    });

    it('answers every save with the list that was stored', async () => {
      let last: NominationList | undefined;
      for (const id of ['1', '2', '3'])
        last = answered(await add('consumption', nomineeInput(id))).data;
      last = await exh.call(moveNominee, {
        params: entryParams('consumption', '3'),
        body: { direction: 'up', version: last?.version ?? 0 },
      });
      expect(answered(await getEvent()).data.lists.consumption).toEqual(last);
    });
  });
});
