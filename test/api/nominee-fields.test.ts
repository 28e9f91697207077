/**
 * "Datos del nominado" (issue 26, item 3): each event says which of the nominee form's six
 * contact fields it asks for ("Obligatorio", "Opcional", "No se pide"); the server holds the rule
 * on the exhibitor's saves and on the administrator's corrections, on both engines. Decision 0026:
 * a field that becomes required after nominations exist leaves those entries as they are until
 * they are edited.
 */
import ExcelJS from 'exceljs';
import { answered, errorOf, failureOf, refused } from '../helpers/client.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createEvent as createEventEndpoint,
  duplicateEvent,
  getEvent,
  updateEvent,
} from '../../src/shared/api/events.ts';
import {
  addNominee,
  editNominee,
  moveNominee,
  myEvent,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import {
  categoryRanking,
  editVote,
  exportNomineeVotes,
  history as historyEndpoint,
} from '../../src/shared/api/results.ts';
import type { Category } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import {
  DEFAULT_NOMINEE_FIELDS,
  type NomineeFieldSettings,
} from '../../src/shared/nominee-fields.ts';
import type { DuplicateEventInput } from '../../src/shared/schemas/events.ts';
import type { NomineeInput } from '../../src/shared/schemas/nominee.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import type { TestClient } from '../helpers/client.ts';
import { nomineeInput as nominee } from '../helpers/nominee.ts';
import { seedExhibitor, seedMembership } from '../helpers/seed.ts';

/** Phone optional, region not asked, the rest required. */
const SHORT_FORM: NomineeFieldSettings = {
  ...DEFAULT_NOMINEE_FIELDS,
  phone: 'optional',
  city: 'hidden',
};

describe('the nominee fields of an event', () => {
  const app = useTestApp();
  let exhibitorId: string;

  beforeAll(async () => {
    exhibitorId = (await seedExhibitor(app.db, { fullName: 'Esteban Uno' })).id;
  });
  /** The exhibitor, signed in at the clock's current instant. */
  const exh = (): Promise<TestClient> => app.exhibitor(exhibitorId);

  async function createEvent(nomineeFields?: NomineeFieldSettings) {
    const { id } = await app.api.call(createEventEndpoint, {
      body: {
        name: 'Premios Cortos',
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        ...(nomineeFields ? { nomineeFields } : {}),
      },
    });
    await seedMembership(app.db, id, exhibitorId);
    return id;
  }

  async function editEvent(eventId: string, nomineeFields: NomineeFieldSettings) {
    return app.api.send(updateEvent, {
      params: { eventId },
      body: {
        name: 'Premios Cortos',
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        nomineeFields,
      },
    });
  }

  const listOf = (eventId: string) => ({ eventId, category: 'consumption' as const });

  async function version(eventId: string, category: Category = 'consumption') {
    return (await (await exh()).call(myEvent, { params: { eventId } })).lists[category].version;
  }

  async function add(eventId: string, input: NomineeInput) {
    return (await exh()).send(addNominee, {
      params: listOf(eventId),
      body: { ...input, version: await version(eventId) },
    });
  }

  async function edit(eventId: string, input: NomineeInput) {
    return (await exh()).send(editNominee, {
      params: { ...listOf(eventId), fiscalId: input.fiscalId },
      body: { ...input, version: await version(eventId) },
    });
  }

  async function correct(eventId: string, order: number, input: NomineeInput) {
    return app.api.send(editVote, {
      params: { ...listOf(eventId), exhibitorId, order },
      body: { ...input, reason: 'typo', version: await version(eventId) },
    });
  }

  async function stored(eventId: string) {
    return app.db
      .selectFrom('nominations')
      .selectAll()
      .where('event_id', '=', eventId)
      .orderBy('list_order')
      .execute();
  }

  async function history(eventId: string) {
    const { entries } = await app.api.call(historyEndpoint, { params: { eventId }, query: {} });
    return entries.map((e) => [e.actionLabel, e.detail]);
  }

  describe('settings', () => {
    it('a new event asks for every field, as the specification; its exhibitors are told so', async () => {
      const eventId = await createEvent();
      const event = await app.api.call(getEvent, { params: { eventId } });
      expect(event.nomineeFields).toEqual(DEFAULT_NOMINEE_FIELDS);
      const mine = await (await exh()).call(myEvent, { params: { eventId } });
      expect(mine.nomineeFields).toEqual(DEFAULT_NOMINEE_FIELDS);
      // With the default, an empty contact field is refused as it always was.
      const refusal = refused(await add(eventId, nominee('20111111111', { location: '' })));
      expect(refusal.status).toBe(400);
      expect({ error: errorOf(refusal) }.error).toEqual({
        code: 'invalid_input',
        message: MSG.requiredField,
        fields: { location: MSG.requiredField },
      });
      expect(await stored(eventId)).toEqual([]);
    });

    it('creates an event with its own settings and refuses an unknown requirement, creating nothing', async () => {
      const eventId = await createEvent(SHORT_FORM);
      const event = await app.api.call(getEvent, { params: { eventId } });
      expect(event.nomineeFields).toEqual(SHORT_FORM);
      const before = await app.db.selectFrom('events').select('id').execute();
      // A requirement the contract does not name, sent as is.
      const bad = await app.t.request({
        method: 'POST',
        url: '/api/events',
        payload: {
          name: 'Premios Raros',
          eventDate: '2026-07-15',
          voteDeadline: '2026-07-01',
          nomineeFields: { ...SHORT_FORM, email: 'a veces' },
        },
        as: app.as,
      });
      expect(bad.statusCode).toBe(400);
      expect(failureOf(bad).message).toBe(MSG.invalidInput);
      expect(failureOf(bad).fields).toEqual({ 'nomineeFields.email': MSG.invalidInput });
      expect(await app.db.selectFrom('events').select('id').execute()).toEqual(before);
    });

    it('an edit changes them and "Historial" says which, in words; an edit that leaves them out keeps them', async () => {
      const eventId = await createEvent();
      const changed = await editEvent(eventId, SHORT_FORM);
      expect(changed.status).toBe(200);
      expect(answered(changed).data.nomineeFields).toEqual(SHORT_FORM);
      const kept = await app.api.call(updateEvent, {
        params: { eventId },
        body: { name: 'Premios Cortos 2', eventDate: '2026-07-15', voteDeadline: '2026-07-01' },
      });
      expect(kept.nomineeFields).toEqual(SHORT_FORM);
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
      const duplicate = async (extra: Partial<DuplicateEventInput>) =>
        app.api.send(duplicateEvent, {
          params: { eventId: source },
          body: {
            name: 'Premios Cortos 2027',
            eventDate: '2026-07-20',
            voteDeadline: '2026-07-10',
            copyExhibitors: false,
            sendInvitations: false,
            ...extra,
          },
        });
      const copied = await duplicate({});
      expect(copied.status).toBe(201);
      expect(answered(copied).data.nomineeFields).toEqual(SHORT_FORM);
      const chosen = await duplicate({ nomineeFields: DEFAULT_NOMINEE_FIELDS });
      expect(answered(chosen).data.nomineeFields).toEqual(DEFAULT_NOMINEE_FIELDS);
    });
  });

  describe("the exhibitor's saves", () => {
    it('saves an optional field empty, and a field not asked empty whatever was sent', async () => {
      const eventId = await createEvent(SHORT_FORM);
      const saved = await add(eventId, nominee('20111111111', { phone: '', city: 'Rosario' }));
      expect(saved.status).toBe(200);
      expect(answered(saved).data.nominees[0]).toMatchObject({ phone: '', city: '' });
      const [row] = await stored(eventId);
      expect(row).toMatchObject({ phone: '', city: '', location: 'Palermo' });
      // A field left out of the request altogether is empty too.
      const { phone: _phone, city: _city, ...rest } = nominee('20222222222');
      const without = await add(eventId, rest);
      expect(without.status).toBe(200);
      expect((await stored(eventId))[1]).toMatchObject({ phone: '', city: '' });
    });

    it('refuses a required field left empty with its message, storing nothing', async () => {
      const eventId = await createEvent(SHORT_FORM);
      const refusal = refused(
        await add(eventId, nominee('20111111111', { email: '  ', contactName: '' })),
      );
      expect(refusal.status).toBe(400);
      expect({ error: errorOf(refusal) }.error).toEqual({
        code: 'invalid_input',
        message: MSG.requiredField,
        fields: { contactName: MSG.requiredField, email: MSG.requiredField },
      });
      expect(await stored(eventId)).toEqual([]);
      expect(await version(eventId)).toBe(0);
    });

    it('checks a value whenever one is given: digits for the phone, an address for the email', async () => {
      const eventId = await createEvent({ ...SHORT_FORM, email: 'optional' });
      const phone = refused(
        await add(eventId, nominee('20111111111', { phone: 'llamar a la tarde' })),
      );
      expect(phone.status).toBe(400);
      expect(phone.fields).toEqual({ phone: MSG.digitsOnly });
      const email = refused(await add(eventId, nominee('20111111111', { email: 'ventas@' })));
      expect(email.status).toBe(400);
      expect(email.fields).toEqual({ email: MSG.invalidEmail });
      expect(await stored(eventId)).toEqual([]);
      // Given well, they are stored as always: digits only, the address lower-cased.
      const ok = await add(
        eventId,
        nominee('20111111111', { phone: '+54 341 456-7890', email: 'Ventas@Rosario.test' }),
      );
      expect(ok.status).toBe(200);
      expect((await stored(eventId))[0]).toMatchObject({
        phone: '543414567890',
        email: 'ventas@rosario.test',
      });
    });

    it('an edit keeps what an entry holds in a field no longer asked', async () => {
      const eventId = await createEvent();
      expect((await add(eventId, nominee('20111111111'))).status).toBe(200);
      expect((await editEvent(eventId, SHORT_FORM)).status).toBe(200);
      const edited = await edit(
        eventId,
        nominee('20111111111', { name: 'Reseller Nuevo', city: '' }),
      );
      expect(edited.status).toBe(200);
      expect((await stored(eventId))[0]).toMatchObject({
        name: 'Reseller Nuevo',
        city: 'Buenos Aires',
      });
    });
  });

  describe('a field that becomes required after nominations exist (decision 0026)', () => {
    it('leaves the entries as they are: counted, movable and removable, and asks for it on their next edit', async () => {
      const eventId = await createEvent(SHORT_FORM);
      expect((await add(eventId, nominee('20111111111', { phone: '' }))).status).toBe(200);
      expect((await add(eventId, nominee('20222222222', { phone: '' }))).status).toBe(200);
      expect((await editEvent(eventId, DEFAULT_NOMINEE_FIELDS)).status).toBe(200);

      // Still in the list and in the ranking, with their points.
      const mine = await (await exh()).call(myEvent, { params: { eventId } });
      expect(mine.lists.consumption.nominees.map((n) => [n.phone, n.city])).toEqual([
        ['', ''],
        ['', ''],
      ]);
      const ranking = await app.api.call(categoryRanking, {
        params: listOf(eventId),
        query: {},
      });
      expect(ranking.rows.map((r) => [r.fiscalId, r.points])).toEqual([
        ['20111111111', 5],
        ['20222222222', 4],
      ]);

      // Moving does not touch the fields.
      await (
        await exh()
      ).call(moveNominee, {
        params: { ...listOf(eventId), fiscalId: '20222222222' },
        body: { direction: 'up', version: await version(eventId) },
      });

      // Editing the entry asks for the fields now required; nothing changes until they are given.
      const refusal = refused(await edit(eventId, nominee('20111111111', { phone: '', city: '' })));
      expect(refusal.status).toBe(400);
      expect({ error: errorOf(refusal) }.error).toEqual({
        code: 'invalid_input',
        message: MSG.requiredField,
        fields: { phone: MSG.requiredField, city: MSG.requiredField },
      });
      expect((await stored(eventId)).map((r) => [r.fiscal_id, r.phone, r.city])).toEqual([
        ['20222222222', '', ''],
        ['20111111111', '', ''],
      ]);
      expect((await edit(eventId, nominee('20111111111'))).status).toBe(200);

      // Removing one still needs nothing of it.
      await (
        await exh()
      ).call(removeNominee, {
        params: { ...listOf(eventId), fiscalId: '20222222222' },
        query: { version: String(await version(eventId)) },
      });
      expect((await stored(eventId)).map((r) => [r.fiscal_id, r.phone, r.city])).toEqual([
        ['20111111111', '1155550000', 'Buenos Aires'],
      ]);
    });
  });

  describe("the administrator's correction", () => {
    it('validates against the event: a required field empty is refused and nothing changes; an optional one may be emptied; one not asked keeps its value', async () => {
      const eventId = await createEvent();
      expect((await add(eventId, nominee('20111111111'))).status).toBe(200);
      expect((await editEvent(eventId, SHORT_FORM)).status).toBe(200);
      const versionBefore = await version(eventId);

      const refusal = refused(
        await correct(eventId, 1, nominee('20111111111', { contactPosition: '' })),
      );
      expect(refusal.status).toBe(400);
      expect({ error: errorOf(refusal) }.error).toEqual({
        code: 'invalid_input',
        message: MSG.requiredField,
        fields: { contactPosition: MSG.requiredField },
      });
      expect(await version(eventId)).toBe(versionBefore);
      expect((await stored(eventId))[0]).toMatchObject({ contact_position: 'Gerente Comercial' });

      const badPhone = refused(
        await correct(eventId, 1, nominee('20111111111', { phone: 'no tiene' })),
      );
      expect(badPhone.status).toBe(400);
      expect(badPhone.fields).toEqual({ phone: MSG.digitsOnly });

      const corrected = await correct(
        eventId,
        1,
        nominee('20111111111', { phone: '', city: 'Otra', name: 'Corregido' }),
      );
      expect(corrected.status).toBe(200);
      expect(answered(corrected).data.nominee).toMatchObject({
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
      expect((await add(eventId, nominee('20111111111', { phone: '' }))).status).toBe(200);
      const file = await app.api.call(exportNomineeVotes, {
        params: { ...listOf(eventId), fiscalId: '20111111111' },
      });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file as unknown as ArrayBuffer);
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
