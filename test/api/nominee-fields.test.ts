/**
 * "Datos del nominado" (issue 26, item 3): each event says which of the nominee form's six
 * contact fields it asks for ("Obligatorio", "Opcional", "No se pide"); the server holds the rule
 * on the exhibitor's saves and on the administrator's corrections, on both engines. Decision 0026:
 * a field that becomes required after nominations exist leaves those entries as they are until
 * they are edited.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Category } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import {
  DEFAULT_NOMINEE_FIELDS,
  type NomineeFieldSettings,
} from '../../src/shared/nominee-fields.ts';
import type { NomineeInput } from '../../src/shared/schemas/nominee.ts';
import { createTestApp, type Session, type TestApp } from '../helpers/app.ts';
import { seedAdmin, seedExhibitor, seedMembership } from '../helpers/seed.ts';

const nominee = (fiscalId: string, overrides: Partial<NomineeInput> = {}): NomineeInput => ({
  name: `Reseller ${fiscalId}`,
  registeredName: `Reseller ${fiscalId} S.A.`,
  fiscalId,
  contactName: 'Carla Contacto',
  contactPosition: 'Gerente Comercial',
  phone: '1155550000',
  email: `ventas${fiscalId}@reseller.test`,
  location: 'Palermo',
  city: 'Buenos Aires',
  ...overrides,
});

/** Phone optional, region not asked, the rest required. */
const SHORT_FORM: NomineeFieldSettings = {
  ...DEFAULT_NOMINEE_FIELDS,
  phone: 'optional',
  city: 'hidden',
};

describe('the nominee fields of an event', () => {
  let t: TestApp;
  let admin: Session;
  let exh: Session;
  let exhibitorId: string;

  beforeAll(async () => {
    t = await createTestApp();
    exhibitorId = (await seedExhibitor(t.deps.db, { fullName: 'Esteban Uno' })).id;
    const adminId = (await seedAdmin(t.deps.db)).id;
    t.clock.set('2026-06-01T12:00:00.000Z');
    admin = await t.signIn({ role: 'admin', adminId });
    exh = await t.signIn({ role: 'exh', exhibitorId });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set('2026-06-01T12:00:00.000Z'));

  async function createEvent(nomineeFields?: NomineeFieldSettings) {
    const response = await t.request({
      method: 'POST',
      url: '/api/events',
      payload: {
        name: 'Premios Cortos',
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        ...(nomineeFields ? { nomineeFields } : {}),
      },
      as: admin,
    });
    expect(response.statusCode).toBe(201);
    const id = response.json().id as string;
    await seedMembership(t.deps.db, id, exhibitorId);
    return id;
  }

  async function editEvent(eventId: string, nomineeFields: NomineeFieldSettings) {
    return t.request({
      method: 'PUT',
      url: `/api/events/${eventId}`,
      payload: {
        name: 'Premios Cortos',
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        nomineeFields,
      },
      as: admin,
    });
  }

  async function version(eventId: string, category: Category = 'consumption') {
    const response = await t.request({ method: 'GET', url: `/api/exh/events/${eventId}`, as: exh });
    return response.json().lists[category].version as number;
  }

  async function add(eventId: string, input: NomineeInput) {
    return t.request({
      method: 'POST',
      url: `/api/exh/events/${eventId}/consumption/nominees`,
      payload: { ...input, version: await version(eventId) },
      as: exh,
    });
  }

  async function edit(eventId: string, input: NomineeInput) {
    return t.request({
      method: 'PUT',
      url: `/api/exh/events/${eventId}/consumption/nominees/${input.fiscalId}`,
      payload: { ...input, version: await version(eventId) },
      as: exh,
    });
  }

  async function correct(eventId: string, order: number, input: NomineeInput) {
    return t.request({
      method: 'PUT',
      url: `/api/events/${eventId}/exhibitors/${exhibitorId}/votes/consumption/${order}`,
      payload: { ...input, reason: 'typo', version: await version(eventId) },
      as: admin,
    });
  }

  async function stored(eventId: string) {
    return t.deps.db
      .selectFrom('nominations')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('list_order')
      .execute();
  }

  async function history(eventId: string) {
    const response = await t.request({
      method: 'GET',
      url: `/api/events/${eventId}/history`,
      as: admin,
    });
    return (response.json().entries as { actionLabel: string; detail: string }[]).map((e) => [
      e.actionLabel,
      e.detail,
    ]);
  }

  describe('settings', () => {
    it('a new event asks for every field, as the specification; its exhibitors are told so', async () => {
      const eventId = await createEvent();
      const event = await t.request({ method: 'GET', url: `/api/events/${eventId}`, as: admin });
      expect(event.json().nomineeFields).toEqual(DEFAULT_NOMINEE_FIELDS);
      const mine = await t.request({ method: 'GET', url: `/api/exh/events/${eventId}`, as: exh });
      expect(mine.json().nomineeFields).toEqual(DEFAULT_NOMINEE_FIELDS);
      // With the default, an empty contact field is refused as it always was.
      const refused = await add(eventId, nominee('20111111111', { location: '' }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toEqual({
        code: 'invalid_input',
        message: MSG.requiredField,
        fields: { location: MSG.requiredField },
      });
      expect(await stored(eventId)).toEqual([]);
    });

    it('creates an event with its own settings and refuses an unknown requirement, creating nothing', async () => {
      const eventId = await createEvent(SHORT_FORM);
      const event = await t.request({ method: 'GET', url: `/api/events/${eventId}`, as: admin });
      expect(event.json().nomineeFields).toEqual(SHORT_FORM);
      const before = await t.deps.db.selectFrom('events').select('id').execute();
      const bad = await t.request({
        method: 'POST',
        url: '/api/events',
        payload: {
          name: 'Premios Raros',
          eventDate: '2026-07-15',
          voteDeadline: '2026-07-01',
          nomineeFields: { ...SHORT_FORM, email: 'a veces' },
        },
        as: admin,
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toBe(MSG.invalidInput);
      expect(bad.json().error.fields).toEqual({ 'nomineeFields.email': MSG.invalidInput });
      expect(await t.deps.db.selectFrom('events').select('id').execute()).toEqual(before);
    });

    it('an edit changes them and "Historial" says which, in words; an edit that leaves them out keeps them', async () => {
      const eventId = await createEvent();
      const changed = await editEvent(eventId, SHORT_FORM);
      expect(changed.statusCode).toBe(200);
      expect(changed.json().nomineeFields).toEqual(SHORT_FORM);
      const kept = await t.request({
        method: 'PUT',
        url: `/api/events/${eventId}`,
        payload: { name: 'Premios Cortos 2', eventDate: '2026-07-15', voteDeadline: '2026-07-01' },
        as: admin,
      });
      expect(kept.json().nomineeFields).toEqual(SHORT_FORM);
      expect(await history(eventId)).toEqual([
        ['Evento modificado', 'Nombre: Premios Cortos → Premios Cortos 2'],
        [
          'Datos del nominado modificados',
          'Teléfono: Obligatorio → Opcional; Región: Obligatorio → No se pide',
        ],
        ['Evento creado', 'Premios Cortos, fecha del evento 15-7-2026, fecha límite 1-7-2026'],
      ]);
    });

    it('"Duplicar evento" copies them, unless the dialog sends others', async () => {
      const source = await createEvent(SHORT_FORM);
      const duplicate = async (extra: object) =>
        t.request({
          method: 'POST',
          url: `/api/events/${source}/duplicate`,
          payload: {
            name: 'Premios Cortos 2027',
            eventDate: '2026-07-20',
            voteDeadline: '2026-07-10',
            copyExhibitors: false,
            sendInvitations: false,
            ...extra,
          },
          as: admin,
        });
      const copied = await duplicate({});
      expect(copied.statusCode).toBe(201);
      expect(copied.json().nomineeFields).toEqual(SHORT_FORM);
      const chosen = await duplicate({ nomineeFields: DEFAULT_NOMINEE_FIELDS });
      expect(chosen.json().nomineeFields).toEqual(DEFAULT_NOMINEE_FIELDS);
    });
  });

  describe("the exhibitor's saves", () => {
    it('saves an optional field empty, and a field not asked empty whatever was sent', async () => {
      const eventId = await createEvent(SHORT_FORM);
      const saved = await add(eventId, nominee('20111111111', { phone: '', city: 'Rosario' }));
      expect(saved.statusCode).toBe(200);
      expect(saved.json().nominees[0]).toMatchObject({ phone: '', city: '' });
      const [row] = await stored(eventId);
      expect(row).toMatchObject({ phone: '', city: '', location: 'Palermo' });
      // A field left out of the request altogether is empty too.
      const { phone: _phone, city: _city, ...rest } = nominee('20222222222');
      const without = await add(eventId, rest);
      expect(without.statusCode).toBe(200);
      expect((await stored(eventId))[1]).toMatchObject({ phone: '', city: '' });
    });

    it('refuses a required field left empty with its message, storing nothing', async () => {
      const eventId = await createEvent(SHORT_FORM);
      const refused = await add(eventId, nominee('20111111111', { email: '  ', contactName: '' }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toEqual({
        code: 'invalid_input',
        message: MSG.requiredField,
        fields: { contactName: MSG.requiredField, email: MSG.requiredField },
      });
      expect(await stored(eventId)).toEqual([]);
      expect(await version(eventId)).toBe(0);
    });

    it('checks a value whenever one is given: digits for the phone, an address for the email', async () => {
      const eventId = await createEvent({ ...SHORT_FORM, email: 'optional' });
      const phone = await add(eventId, nominee('20111111111', { phone: 'llamar a la tarde' }));
      expect(phone.statusCode).toBe(400);
      expect(phone.json().error.fields).toEqual({ phone: MSG.digitsOnly });
      const email = await add(eventId, nominee('20111111111', { email: 'ventas@' }));
      expect(email.statusCode).toBe(400);
      expect(email.json().error.fields).toEqual({ email: MSG.invalidEmail });
      expect(await stored(eventId)).toEqual([]);
      // Given well, they are stored as always: digits only, the address lower-cased.
      const ok = await add(
        eventId,
        nominee('20111111111', { phone: '+54 341 456-7890', email: 'Ventas@Rosario.test' }),
      );
      expect(ok.statusCode).toBe(200);
      expect((await stored(eventId))[0]).toMatchObject({
        phone: '543414567890',
        email: 'ventas@rosario.test',
      });
    });

    it('an edit keeps what an entry holds in a field no longer asked', async () => {
      const eventId = await createEvent();
      expect((await add(eventId, nominee('20111111111'))).statusCode).toBe(200);
      expect((await editEvent(eventId, SHORT_FORM)).statusCode).toBe(200);
      const edited = await edit(
        eventId,
        nominee('20111111111', { name: 'Reseller Nuevo', city: '' }),
      );
      expect(edited.statusCode).toBe(200);
      expect((await stored(eventId))[0]).toMatchObject({
        name: 'Reseller Nuevo',
        city: 'Buenos Aires',
      });
    });
  });

  describe('a field that becomes required after nominations exist (decision 0026)', () => {
    it('leaves the entries as they are: counted, movable and removable, and asks for it on their next edit', async () => {
      const eventId = await createEvent(SHORT_FORM);
      expect((await add(eventId, nominee('20111111111', { phone: '' }))).statusCode).toBe(200);
      expect((await add(eventId, nominee('20222222222', { phone: '' }))).statusCode).toBe(200);
      expect((await editEvent(eventId, DEFAULT_NOMINEE_FIELDS)).statusCode).toBe(200);

      // Still in the list and in the ranking, with their points.
      const mine = await t.request({ method: 'GET', url: `/api/exh/events/${eventId}`, as: exh });
      expect(
        mine
          .json()
          .lists.consumption.nominees.map((n: { phone: string; city: string }) => [
            n.phone,
            n.city,
          ]),
      ).toEqual([
        ['', ''],
        ['', ''],
      ]);
      const ranking = await t.request({
        method: 'GET',
        url: `/api/events/${eventId}/ranking/consumption`,
        as: admin,
      });
      expect(ranking.statusCode).toBe(200);
      expect(
        ranking
          .json()
          .rows.map((r: { fiscalId: string; points: number }) => [r.fiscalId, r.points]),
      ).toEqual([
        ['20111111111', 5],
        ['20222222222', 4],
      ]);

      // Moving does not touch the fields.
      const moved = await t.request({
        method: 'POST',
        url: `/api/exh/events/${eventId}/consumption/nominees/20222222222/move`,
        payload: { direction: 'up', version: await version(eventId) },
        as: exh,
      });
      expect(moved.statusCode).toBe(200);

      // Editing the entry asks for the fields now required; nothing changes until they are given.
      const refused = await edit(eventId, nominee('20111111111', { phone: '', city: '' }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toEqual({
        code: 'invalid_input',
        message: MSG.requiredField,
        fields: { phone: MSG.requiredField, city: MSG.requiredField },
      });
      expect((await stored(eventId)).map((r) => [r.fiscal_id, r.phone, r.city])).toEqual([
        ['20222222222', '', ''],
        ['20111111111', '', ''],
      ]);
      expect((await edit(eventId, nominee('20111111111'))).statusCode).toBe(200);

      // Removing one still needs nothing of it.
      const removed = await t.request({
        method: 'DELETE',
        url: `/api/exh/events/${eventId}/consumption/nominees/20222222222`,
        query: { version: String(await version(eventId)) },
        as: exh,
      });
      expect(removed.statusCode).toBe(200);
      expect((await stored(eventId)).map((r) => [r.fiscal_id, r.phone, r.city])).toEqual([
        ['20111111111', '1155550000', 'Buenos Aires'],
      ]);
    });
  });

  describe("the administrator's correction", () => {
    it('validates against the event: a required field empty is refused and nothing changes; an optional one may be emptied; one not asked keeps its value', async () => {
      const eventId = await createEvent();
      expect((await add(eventId, nominee('20111111111'))).statusCode).toBe(200);
      expect((await editEvent(eventId, SHORT_FORM)).statusCode).toBe(200);
      const versionBefore = await version(eventId);

      const refused = await correct(eventId, 1, nominee('20111111111', { contactPosition: '' }));
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toEqual({
        code: 'invalid_input',
        message: MSG.requiredField,
        fields: { contactPosition: MSG.requiredField },
      });
      expect(await version(eventId)).toBe(versionBefore);
      expect((await stored(eventId))[0]).toMatchObject({ contact_position: 'Gerente Comercial' });

      const badPhone = await correct(eventId, 1, nominee('20111111111', { phone: 'no tiene' }));
      expect(badPhone.statusCode).toBe(400);
      expect(badPhone.json().error.fields).toEqual({ phone: MSG.digitsOnly });

      const corrected = await correct(
        eventId,
        1,
        nominee('20111111111', { phone: '', city: 'Otra', name: 'Corregido' }),
      );
      expect(corrected.statusCode).toBe(200);
      expect(corrected.json().nominee).toMatchObject({
        name: 'Corregido',
        phone: '',
        city: 'Buenos Aires',
      });
      expect((await stored(eventId))[0]).toMatchObject({
        name: 'Corregido',
        phone: '',
        city: 'Buenos Aires',
      });
    });
  });

  describe('exports', () => {
    it('keep every column, empty where the field was not asked or left empty', async () => {
      const eventId = await createEvent(SHORT_FORM);
      expect((await add(eventId, nominee('20111111111', { phone: '' }))).statusCode).toBe(200);
      const response = await t.request({
        method: 'GET',
        url: `/api/events/${eventId}/nominees/consumption/20111111111/export`,
        as: admin,
      });
      expect(response.statusCode).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('data');
      const rowValues = (n: number) =>
        Array.from({ length: 8 }, (_, i) => sheet?.getRow(n).getCell(i + 1).text ?? '');
      expect(rowValues(1)).toEqual([
        'Nombre del reseller',
        'Razón social',
        'Nombre del contacto',
        'Cargo del contacto',
        'Teléfono',
        'Email',
        'Localidad',
        'Ciudad',
      ]);
      expect(rowValues(2)).toEqual([
        'Reseller 20111111111',
        'Reseller 20111111111 S.A.',
        'Carla Contacto',
        'Gerente Comercial',
        '',
        'ventas20111111111@reseller.test',
        'Palermo',
        '',
      ]);
    });
  });
});
