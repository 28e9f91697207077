import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG } from '../../src/shared/messages.ts';
import type { NomineeInput } from '../../src/shared/schemas/nominee.ts';
import { createTestApp, type Session, type TestApp } from '../helpers/app.ts';
import { seedAdmin, seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

/** What people paste into "ID fiscal" and "Teléfono", and the digits each must be stored as. */
const PASTED_FISCAL_ID = '30-70998877-4';
const PASTED_PHONE = '+54 341 456-7890';
const FISCAL_ID = '30709988774';
const PHONE = '543414567890';

const nominee = (overrides: Partial<NomineeInput> = {}): NomineeInput => ({
  name: 'Rosario Sistemas',
  registeredName: 'Rosario Sistemas S.R.L.',
  fiscalId: PASTED_FISCAL_ID,
  contactName: 'Carla Contacto',
  contactPosition: 'Gerente Comercial',
  phone: PASTED_PHONE,
  email: 'ventas@rosario.test',
  location: 'Rosario',
  city: 'Santa Fe',
  ...overrides,
});

/**
 * design.md section 5: a fiscal id and a phone are accepted as people paste them and stored as
 * their digits, on every route that writes a nomination (the exhibitor's add and edit, the
 * administrator's correction behind "Editar voto" and "Editar nominación").
 */
describe('pasted fiscal ids and phones are stored as digits', () => {
  let t: TestApp;
  let exh: Session;
  let admin: Session;
  let exhibitorId: string;
  let adminId: string;
  let eventId: string;

  const listUrl = () => `/api/exh/events/${eventId}/consumption/nominees`;
  const version = async () =>
    (await t.request({ method: 'GET', url: `/api/exh/events/${eventId}`, as: exh })).json().lists
      .consumption.version as number;
  const stored = () =>
    t.deps.db
      .selectFrom('nominations')
      .select(['fiscal_id', 'phone', 'name'])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .orderBy('list_order')
      .execute();
  const add = async (input: NomineeInput) =>
    t.request({
      method: 'POST',
      url: listUrl(),
      payload: { ...input, version: await version() },
      as: exh,
    });

  beforeAll(async () => {
    t = await createTestApp();
    adminId = (await seedAdmin(t.deps.db)).id;
    exhibitorId = (await seedExhibitor(t.deps.db, { fullName: 'Esteban Uno' })).id;
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    t.clock.set('2026-06-01T12:00:00.000Z');
    exh = await t.signIn({ role: 'exh', exhibitorId });
    admin = await t.signIn({ role: 'admin', adminId });
    eventId = (await seedEvent(t.deps.db, { name: 'Premios Pegados' })).id;
    await seedMembership(t.deps.db, eventId, exhibitorId);
  });

  it('the exhibitor adds with pasted values: 200, digits stored and answered', async () => {
    const response = await add(nominee());
    expect(response.statusCode).toBe(200);
    expect(response.json().nominees[0]).toMatchObject({ fiscalId: FISCAL_ID, phone: PHONE });
    expect(await stored()).toEqual([
      { fiscal_id: FISCAL_ID, phone: PHONE, name: 'Rosario Sistemas' },
    ]);
    // Leading zeros stay; dots, slashes and parentheses go too.
    const second = await add(
      nominee({ fiscalId: '03.456/789', phone: '(011) 4444-5555', name: 'Cero Inicial' }),
    );
    expect(second.statusCode).toBe(200);
    expect((await stored())[1]).toEqual({
      fiscal_id: '03456789',
      phone: '01144445555',
      name: 'Cero Inicial',
    });
  });

  it('a pasted fiscal id is the same reseller as its digits: the duplicate is refused', async () => {
    expect((await add(nominee({ fiscalId: FISCAL_ID }))).statusCode).toBe(200);
    const again = await add(nominee({ name: 'Otra vez' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MSG.duplicateFiscalId);
    expect(await stored()).toHaveLength(1);
  });

  it('the exhibitor edits with pasted values, the path naming the digits', async () => {
    expect((await add(nominee({ fiscalId: FISCAL_ID, phone: '1' }))).statusCode).toBe(200);
    const response = await t.request({
      method: 'PUT',
      url: `${listUrl()}/${FISCAL_ID}`,
      payload: { ...nominee({ name: 'Rosario Editado' }), version: await version() },
      as: exh,
    });
    expect(response.statusCode).toBe(200);
    expect(await stored()).toEqual([
      { fiscal_id: FISCAL_ID, phone: PHONE, name: 'Rosario Editado' },
    ]);
  });

  it('the administrator corrects with pasted values (Editar voto, Editar nominación)', async () => {
    expect((await add(nominee({ fiscalId: '20111111112', phone: '1' }))).statusCode).toBe(200);
    const response = await t.request({
      method: 'PUT',
      url: `/api/events/${eventId}/exhibitors/${exhibitorId}/votes/consumption/1`,
      payload: {
        ...nominee({ name: 'Corregido' }),
        reason: 'wrongFiscalId',
        version: await version(),
      },
      as: admin,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().nominee).toMatchObject({ fiscalId: FISCAL_ID, phone: PHONE });
    expect(await stored()).toEqual([{ fiscal_id: FISCAL_ID, phone: PHONE, name: 'Corregido' }]);
  });

  it('letters, or separators without a digit, are refused with a 400 and nothing stored', async () => {
    for (const [override, field] of [
      [{ fiscalId: '30-7099887A-4' }, 'fiscalId'],
      [{ phone: 'cel. 341 456' }, 'phone'],
      [{ fiscalId: '---' }, 'fiscalId'],
    ] as const) {
      const response = await add(nominee(override));
      expect(response.statusCode, field).toBe(400);
      expect(response.json().error.fields[field], field).toBe(MSG.digitsOnly);
    }
    // Longer than 20 digits once the separators are gone.
    const long = await add(nominee({ fiscalId: '1234-5678-9012-3456-7890-1' }));
    expect(long.statusCode).toBe(400);
    expect(long.json().error.fields.fiscalId).toBe(MSG.invalidInput);
    expect(await stored()).toEqual([]);
  });
});
