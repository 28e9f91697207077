import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Category } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import { DEFAULT_NOMINEE_FIELDS } from '../../src/shared/nominee-fields.ts';
import type { NomineeInput } from '../../src/shared/schemas/nominee.ts';
import type { NominationList } from '../../src/shared/schemas/nominations.ts';
import { createTestApp, TEST_TIMEZONE, type Session, type TestApp } from '../helpers/app.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';
import { nomineeInput } from '../helpers/nominee.ts';

describe('exhibitor nominations API', () => {
  let t: TestApp;
  let exh: Session;
  let other: Session;
  let outsider: Session;
  let admin: Session;
  let exhibitorId: string;
  let otherExhibitorId: string;
  let outsiderId: string;
  let adminId: string;
  let eventId: string;
  let foreignEventId: string;

  const listUrl = (category: Category, event = eventId) =>
    `/api/exh/events/${event}/${category}/nominees`;

  async function getEvent(as: Session = exh, event = eventId) {
    return t.request({ method: 'GET', url: `/api/exh/events/${event}`, as });
  }
  async function version(category: Category, as: Session = exh): Promise<number> {
    return (await getEvent(as)).json().lists[category].version;
  }
  async function add(category: Category, input: NomineeInput, as: Session = exh) {
    return t.request({
      method: 'POST',
      url: listUrl(category),
      payload: { ...input, version: await version(category, as) },
      as,
    });
  }
  async function storedRows(category: Category, exhibitor = exhibitorId) {
    return t.deps.db
      .selectFrom('nominations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitor)
      .where('category', '=', category)
      .orderBy('list_order')
      .execute();
  }
  async function storedVersion(category: Category, exhibitor = exhibitorId) {
    const row = await t.deps.db
      .selectFrom('nomination_lists')
      .select('version')
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitor)
      .where('category', '=', category)
      .executeTakeFirst();
    return row ? Number(row.version) : undefined;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.deps.db;
    const adminRow = await seedAdmin(db);
    const e1 = await seedExhibitor(db, { fullName: 'Esteban Uno' });
    const e2 = await seedExhibitor(db, { fullName: 'Elena Dos' });
    const e3 = await seedExhibitor(db, { fullName: 'Ernesto Tres' });
    exhibitorId = e1.id;
    otherExhibitorId = e2.id;
    outsiderId = e3.id;
    adminId = adminRow.id;
    foreignEventId = (await seedEvent(db, { name: 'Evento Ajeno', eventDate: '2026-08-01' })).id;
    await seedMembership(db, foreignEventId, e3.id);
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    t.clock.set('2026-06-01T12:00:00.000Z');
    // Sessions are opened at this test's "now": a test that moves the clock past the deadline
    // idles out the sessions it used.
    exh = await t.signIn({ role: 'exh', exhibitorId });
    other = await t.signIn({ role: 'exh', exhibitorId: otherExhibitorId });
    outsider = await t.signIn({ role: 'exh', exhibitorId: outsiderId });
    admin = await t.signIn({ role: 'admin', adminId });
    // Each test gets its own event, both exhibitors invited, deadline 2026-07-01.
    eventId = (await seedEvent(t.deps.db, { name: 'Premios Partners 2026' })).id;
    await seedMembership(t.deps.db, eventId, exhibitorId);
    await seedMembership(t.deps.db, eventId, otherExhibitorId);
  });

  describe('reading', () => {
    it('lists only the events the exhibitor is invited to', async () => {
      const response = await t.request({ method: 'GET', url: '/api/exh/events', as: outsider });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        events: [
          {
            id: foreignEventId,
            name: 'Evento Ajeno',
            eventDate: '2026-08-01',
            voteDeadline: '2026-07-01',
          },
        ],
      });
      const mine = (await t.request({ method: 'GET', url: '/api/exh/events', as: exh })).json();
      expect(mine.events.map((e: { id: string }) => e.id)).toContain(eventId);
      expect(mine.events.map((e: { id: string }) => e.id)).not.toContain(foreignEventId);
    });

    it('returns the event with votingOpen, the programme zone and two empty lists at version 0', async () => {
      const response = await getEvent();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: eventId,
        name: 'Premios Partners 2026',
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        votingOpen: true,
        timeZone: TEST_TIMEZONE,
        nomineeFields: DEFAULT_NOMINEE_FIELDS,
        closeTime: '23:59',
        lists: {
          consumption: { category: 'consumption', version: 0, savedAt: null, nominees: [] },
          value: { category: 'value', version: 0, savedAt: null, nominees: [] },
        },
      });
    });

    it('answers another event, a missing event and a bad id with the same 404', async () => {
      const notFoundBody = { error: { code: 'not_found', message: MSG.eventNotFound } };
      const foreign = await getEvent(exh, foreignEventId);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(notFoundBody);
      const missing = await getEvent(exh, '00000000-0000-4000-8000-000000000000');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual(notFoundBody);
      expect((await getEvent(exh, 'not-an-id')).statusCode).toBe(404);
    });

    it('refuses anonymous visitors (401) and administrators (403)', async () => {
      const anonymous = await t.request({ method: 'GET', url: `/api/exh/events/${eventId}` });
      expect(anonymous.statusCode).toBe(401);
      expect((await getEvent(admin)).statusCode).toBe(403);
      const write = await t.request({
        method: 'POST',
        url: listUrl('consumption'),
        payload: { ...nomineeInput('1'), version: 0 },
        as: admin,
      });
      expect(write.statusCode).toBe(403);
      expect(await storedRows('consumption')).toHaveLength(0);
    });
  });

  describe('nominating', () => {
    it('appends with order = count + 1 and returns the stored list and its version', async () => {
      const first = await add('consumption', nomineeInput('30111111118'));
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        category: 'consumption',
        version: 1,
        savedAt: '2026-06-01T12:00:00.000Z',
        nominees: [{ ...nomineeInput('30111111118'), order: 1 }],
      });
      const second = await add('consumption', nomineeInput('0020'));
      expect(second.json().version).toBe(2);
      expect(second.json().nominees.map((n: { fiscalId: string; order: number }) => n)).toEqual([
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
      expect((await getEvent()).json().lists.consumption).toEqual(second.json());
    });

    it('refuses a sixth nominee with the limit message', async () => {
      for (const id of ['1', '2', '3', '4', '5']) {
        expect((await add('consumption', nomineeInput(id))).statusCode).toBe(200);
      }
      const sixth = await add('consumption', nomineeInput('6'));
      expect(sixth.statusCode).toBe(409);
      expect(sixth.json()).toEqual({
        error: { code: 'nomination_limit', message: MSG.nominationLimit },
      });
      expect(await storedRows('consumption')).toHaveLength(5);
      expect(await storedVersion('consumption')).toBe(5);
      // The other category has its own five.
      expect((await add('value', nomineeInput('6'))).statusCode).toBe(200);
    });

    it('refuses a fiscal id already in this list, but not one in the other list', async () => {
      await add('consumption', nomineeInput('30111111118'));
      const again = await add('consumption', nomineeInput('30111111118', { name: 'Otro nombre' }));
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        error: {
          code: 'duplicate_fiscal_id',
          message: MSG.duplicateFiscalId,
          fields: { fiscalId: MSG.duplicateFiscalId },
        },
      });
      expect(await storedRows('consumption')).toHaveLength(1);
      expect((await add('value', nomineeInput('30111111118'))).statusCode).toBe(200);
      // Another exhibitor may nominate the same reseller in their own list.
      expect((await add('consumption', nomineeInput('30111111118'), other)).statusCode).toBe(200);
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
        const response = await add('consumption', nomineeInput('1', override));
        expect(response.statusCode, field).toBe(400);
        expect(response.json().error.fields[field]).toBe(message);
      }
      const missing: Record<string, unknown> = { ...nomineeInput('1'), version: 0 };
      delete missing.registeredName;
      const noField = await t.request({
        method: 'POST',
        url: listUrl('consumption'),
        payload: missing,
        as: exh,
      });
      expect(noField.statusCode).toBe(400);
      expect(noField.json().error.fields.registeredName).toBe(MSG.requiredField);
      expect(await storedRows('consumption')).toHaveLength(0);
      expect(await storedVersion('consumption')).toBeUndefined();
    });
  });

  describe('editing, removing and moving', () => {
    beforeEach(async () => {
      await seedNominations(t.deps.db, {
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

    it('edits in place, keeping position and nominated_at', async () => {
      const response = await t.request({
        method: 'PUT',
        url: `${listUrl('consumption')}/102`,
        payload: { ...nomineeInput('102', { name: 'Nuevo Nombre', phone: '0114444' }), version: 1 },
        as: exh,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().version).toBe(2);
      expect(response.json().nominees[1]).toEqual({
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
      const changed = await t.request({
        method: 'PUT',
        url: `${listUrl('consumption')}/102`,
        payload: { ...nomineeInput('999'), version: 1 },
        as: exh,
      });
      expect(changed.statusCode).toBe(400);
      expect(changed.json().error.fields).toEqual({ fiscalId: MSG.fiscalIdReadOnly });
      const unknown = await t.request({
        method: 'PUT',
        url: `${listUrl('consumption')}/999`,
        payload: { ...nomineeInput('999'), version: 1 },
        as: exh,
      });
      expect(unknown.statusCode).toBe(404);
      expect(await order()).toEqual([
        [1, '101', '2026-05-01T00:00:00.000Z'],
        [2, '102', '2026-05-02T00:00:00.000Z'],
        [3, '103', '2026-05-03T00:00:00.000Z'],
        [4, '104', '2026-05-04T00:00:00.000Z'],
      ]);
      expect(await storedVersion('consumption')).toBe(1);
    });

    it('removes and renumbers the rest from 1, keeping nominated_at', async () => {
      const response = await t.request({
        method: 'DELETE',
        url: `${listUrl('consumption')}/102?version=1`,
        as: exh,
      });
      expect(response.statusCode).toBe(200);
      expect(
        response
          .json()
          .nominees.map((n: { order: number; fiscalId: string }) => [n.order, n.fiscalId]),
      ).toEqual([
        [1, '101'],
        [2, '103'],
        [3, '104'],
      ]);
      expect(await order()).toEqual([
        [1, '101', '2026-05-01T00:00:00.000Z'],
        [2, '103', '2026-05-03T00:00:00.000Z'],
        [3, '104', '2026-05-04T00:00:00.000Z'],
      ]);
      const first = await t.request({
        method: 'DELETE',
        url: `${listUrl('consumption')}/101?version=2`,
        as: exh,
      });
      expect(first.statusCode).toBe(200);
      expect(await order()).toEqual([
        [1, '103', '2026-05-03T00:00:00.000Z'],
        [2, '104', '2026-05-04T00:00:00.000Z'],
      ]);
      // After a removal there is room again, and the newcomer goes last.
      const added = await add('consumption', nomineeInput('105'));
      expect(added.json().nominees.at(-1)).toMatchObject({ fiscalId: '105', order: 3 });
    });

    it('moves up and down by swapping neighbours', async () => {
      const move = (fiscalId: string, direction: string, version: number) =>
        t.request({
          method: 'POST',
          url: `${listUrl('consumption')}/${fiscalId}/move`,
          payload: { direction, version },
          as: exh,
        });
      const up = await move('103', 'up', 1);
      expect(up.statusCode).toBe(200);
      expect(up.json().nominees.map((n: { fiscalId: string }) => n.fiscalId)).toEqual([
        '101',
        '103',
        '102',
        '104',
      ]);
      expect((await move('101', 'down', 2)).statusCode).toBe(200);
      expect(await order()).toEqual([
        [1, '103', '2026-05-03T00:00:00.000Z'],
        [2, '101', '2026-05-01T00:00:00.000Z'],
        [3, '102', '2026-05-02T00:00:00.000Z'],
        [4, '104', '2026-05-04T00:00:00.000Z'],
      ]);
      const top = await move('103', 'up', 3);
      expect(top.statusCode).toBe(400);
      const bottom = await move('104', 'down', 3);
      expect(bottom.statusCode).toBe(400);
      expect((await move('104', 'sideways', 3)).statusCode).toBe(400);
      expect(await storedVersion('consumption')).toBe(3);
    });
  });

  describe('deadline', () => {
    beforeEach(async () => {
      await seedNominations(t.deps.db, {
        eventId,
        exhibitorId,
        category: 'value',
        nominees: [{ fiscalId: '201' }, { fiscalId: '202' }],
      });
    });

    const everyWrite = () => [
      t.request({
        method: 'POST',
        url: listUrl('value'),
        payload: { ...nomineeInput('203'), version: 1 },
        as: exh,
      }),
      t.request({
        method: 'PUT',
        url: `${listUrl('value')}/201`,
        payload: { ...nomineeInput('201'), version: 1 },
        as: exh,
      }),
      t.request({ method: 'DELETE', url: `${listUrl('value')}/201?version=1`, as: exh }),
      t.request({
        method: 'POST',
        url: `${listUrl('value')}/202/move`,
        payload: { direction: 'up', version: 1 },
        as: exh,
      }),
    ];

    it('stays open through 23:59:59 of the deadline day in APP_TIMEZONE', async () => {
      // 2026-07-01 23:59:59 in Buenos Aires (UTC-3).
      t.clock.set('2026-07-02T02:59:59.000Z');
      exh = await t.signIn({ role: 'exh', exhibitorId });
      expect((await getEvent()).json().votingOpen).toBe(true);
      const response = await t.request({
        method: 'POST',
        url: `${listUrl('value')}/202/move`,
        payload: { direction: 'up', version: 1 },
        as: exh,
      });
      expect(response.statusCode).toBe(200);
    });

    it('refuses every exhibitor write after it with 409 and changes nothing', async () => {
      t.clock.set('2026-07-02T03:00:00.000Z');
      exh = await t.signIn({ role: 'exh', exhibitorId });
      expect((await getEvent()).json().votingOpen).toBe(false);
      for (const response of await Promise.all(everyWrite())) {
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({
          error: { code: 'voting_closed', message: MSG.votingClosed },
        });
      }
      expect((await storedRows('value')).map((r) => r.fiscal_id)).toEqual(['201', '202']);
      expect(await storedVersion('value')).toBe(1);
    });
  });

  describe('isolation', () => {
    it("never reaches another exhibitor's list or another event", async () => {
      await seedNominations(t.deps.db, {
        eventId,
        exhibitorId: otherExhibitorId,
        category: 'consumption',
        nominees: [{ fiscalId: '301' }],
      });
      // The same URLs act on the caller's own list: the other exhibitor's is untouched.
      const mine = await t.request({
        method: 'DELETE',
        url: `${listUrl('consumption')}/301?version=1`,
        as: exh,
      });
      expect(mine.statusCode).toBe(409);
      expect(mine.json().error.code).toBe('stale_list');
      const edit = await t.request({
        method: 'PUT',
        url: `${listUrl('consumption')}/301`,
        payload: { ...nomineeInput('301'), version: 0 },
        as: exh,
      });
      expect(edit.statusCode).toBe(404);
      expect(await storedRows('consumption', otherExhibitorId)).toHaveLength(1);
      expect((await getEvent()).json().lists.consumption.nominees).toEqual([]);

      // An event the exhibitor is not invited to: 404 for every write, nothing stored.
      const writes = await Promise.all([
        t.request({
          method: 'POST',
          url: listUrl('consumption', foreignEventId),
          payload: { ...nomineeInput('1'), version: 0 },
          as: exh,
        }),
        t.request({
          method: 'PUT',
          url: `${listUrl('consumption', foreignEventId)}/1`,
          payload: { ...nomineeInput('1'), version: 0 },
          as: exh,
        }),
        t.request({
          method: 'DELETE',
          url: `${listUrl('consumption', foreignEventId)}/1?version=0`,
          as: exh,
        }),
        t.request({
          method: 'POST',
          url: `${listUrl('consumption', foreignEventId)}/1/move`,
          payload: { direction: 'up', version: 0 },
          as: exh,
        }),
      ]);
      for (const response of writes) {
        expect(response.statusCode).toBe(404);
        expect(response.json().error.message).toBe(MSG.eventNotFound);
      }
      const foreignRows = await t.deps.db
        .selectFrom('nomination_lists')
        .select('exhibitor_id')
        .where('event_id', '=', foreignEventId)
        .execute();
      expect(foreignRows).toEqual([]);
    });

    it('loses access when removed from the event', async () => {
      await add('consumption', nomineeInput('1'));
      await t.deps.db
        .deleteFrom('event_exhibitors')
        .where('event_id', '=', eventId)
        .where('exhibitor_id', '=', exhibitorId)
        .execute();
      expect((await getEvent()).statusCode).toBe(404);
      const write = await t.request({
        method: 'POST',
        url: listUrl('consumption'),
        payload: { ...nomineeInput('2'), version: 1 },
        as: exh,
      });
      expect(write.statusCode).toBe(404);
    });
  });

  describe('concurrent edits', () => {
    it('refuses a write based on a stale version and changes nothing', async () => {
      const tabA = await getEvent();
      const tabB = await getEvent();
      const fromA = await t.request({
        method: 'POST',
        url: listUrl('consumption'),
        payload: { ...nomineeInput('1'), version: tabA.json().lists.consumption.version },
        as: exh,
      });
      expect(fromA.statusCode).toBe(200);
      const fromB = await t.request({
        method: 'POST',
        url: listUrl('consumption'),
        payload: { ...nomineeInput('2'), version: tabB.json().lists.consumption.version },
        as: exh,
      });
      expect(fromB.statusCode).toBe(409);
      expect(fromB.json()).toEqual({ error: { code: 'stale_list', message: MSG.staleList } });
      const staleMove = await t.request({
        method: 'DELETE',
        url: `${listUrl('consumption')}/1?version=0`,
        as: exh,
      });
      expect(staleMove.statusCode).toBe(409);
      expect((await storedRows('consumption')).map((r) => r.fiscal_id)).toEqual(['1']);
      expect(await storedVersion('consumption')).toBe(1);
      // A version from the future is just as stale.
      const future = await t.request({
        method: 'DELETE',
        url: `${listUrl('consumption')}/1?version=7`,
        as: exh,
      });
      expect(future.statusCode).toBe(409);
    });

    it('lets exactly one of many simultaneous writes on the same version win', async () => {
      // First on a list that has no row yet (created lazily), then on an existing one.
      for (const base of [0, 1]) {
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            t.request({
              method: 'POST',
              url: listUrl('value'),
              payload: { ...nomineeInput(`${base}0${i}`), version: base },
              as: exh,
            }),
          ),
        );
        const statuses = results.map((r) => r.statusCode).sort();
        expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
        for (const r of results.filter((r) => r.statusCode === 409)) {
          expect(r.json().error.code).toBe('stale_list');
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
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(await storedVersion('consumption')).toBe(1);
      expect(await storedVersion('consumption', otherExhibitorId)).toBe(1);
    });

    it('answers every save with the list that was stored', async () => {
      let last: NominationList | undefined;
      for (const id of ['1', '2', '3']) last = (await add('consumption', nomineeInput(id))).json();
      last = (
        await t.request({
          method: 'POST',
          url: `${listUrl('consumption')}/3/move`,
          payload: { direction: 'up', version: last?.version },
          as: exh,
        })
      ).json();
      expect((await getEvent()).json().lists.consumption).toEqual(last);
    });
  });
});
