import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addNominee, editNominee, myEvent } from '../../src/shared/api/nominations.ts';
import { editVote } from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { NomineeInput } from '../../src/shared/schemas/nominee.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, refused, type TestClient } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

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
  const app = useTestApp();
  let exh: TestClient;
  let exhibitorId: string;
  let eventId: string;

  const list = () => ({ eventId, category: 'consumption' as const });
  const version = async () =>
    (await exh.call(myEvent, { params: { eventId } })).lists.consumption.version;
  const stored = () =>
    app.db
      .selectFrom('nominations')
      .select(['fiscal_id', 'phone', 'name'])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .orderBy('list_order')
      .execute();
  const add = async (input: NomineeInput) =>
    exh.send(addNominee, { params: list(), body: { ...input, version: await version() } });

  beforeAll(async () => {
    exhibitorId = (await seedExhibitor(app.db, { fullName: 'Esteban Uno' })).id;
  });

  beforeEach(async () => {
    exh = await app.exhibitor(exhibitorId);
    eventId = (await seedEvent(app.db, { name: 'Premios Pegados' })).id;
    await seedMembership(app.db, eventId, exhibitorId);
  });

  it('the exhibitor adds with pasted values: 200, digits stored and answered', async () => {
    const response = answered(await add(nominee()));
    expect(response.status).toBe(200);
    expect(response.data.nominees[0]).toMatchObject({ fiscalId: FISCAL_ID, phone: PHONE });
    expect(await stored()).toEqual([
      { fiscal_id: FISCAL_ID, phone: PHONE, name: 'Rosario Sistemas' },
    ]);
    // Leading zeros stay; dots, slashes and parentheses go too.
    const second = await add(
      nominee({ fiscalId: '03.456/789', phone: '(011) 4444-5555', name: 'Cero Inicial' }),
    );
    expect(second.status).toBe(200);
    expect((await stored())[1]).toEqual({
      fiscal_id: '03456789',
      phone: '01144445555',
      name: 'Cero Inicial',
    });
  });

  it('a pasted fiscal id is the same reseller as its digits: the duplicate is refused', async () => {
    expect((await add(nominee({ fiscalId: FISCAL_ID }))).status).toBe(200);
    const again = refused(await add(nominee({ name: 'Otra vez' })));
    expect(again.status).toBe(409);
    expect(again.message).toBe(MSG.duplicateFiscalId);
    expect(await stored()).toHaveLength(1);
  });

  it('the exhibitor edits with pasted values, the path naming the digits', async () => {
    expect((await add(nominee({ fiscalId: FISCAL_ID, phone: '1' }))).status).toBe(200);
    const response = await exh.send(editNominee, {
      params: { ...list(), fiscalId: FISCAL_ID },
      body: { ...nominee({ name: 'Rosario Editado' }), version: await version() },
    });
    expect(response.status).toBe(200);
    expect(await stored()).toEqual([
      { fiscal_id: FISCAL_ID, phone: PHONE, name: 'Rosario Editado' },
    ]);
  });

  it('the administrator corrects with pasted values (Editar voto, Editar nominación)', async () => {
    expect((await add(nominee({ fiscalId: '20111111112', phone: '1' }))).status).toBe(200);
    const response = answered(
      await app.api.send(editVote, {
        params: { eventId, exhibitorId, category: 'consumption', order: 1 },
        body: {
          ...nominee({ name: 'Corregido' }),
          reason: 'wrongFiscalId',
          version: await version(),
        },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.data.nominee).toMatchObject({ fiscalId: FISCAL_ID, phone: PHONE });
    expect(await stored()).toEqual([{ fiscal_id: FISCAL_ID, phone: PHONE, name: 'Corregido' }]);
  });

  it('letters, or separators without a digit, are refused with a 400 and nothing stored', async () => {
    for (const [override, field] of [
      [{ fiscalId: '30-7099887A-4' }, 'fiscalId'],
      [{ phone: 'cel. 341 456' }, 'phone'],
      [{ fiscalId: '---' }, 'fiscalId'],
    ] as const) {
      const response = refused(await add(nominee(override)));
      expect(response.status, field).toBe(400);
      expect(response.fields?.[field], field).toBe(MSG.digitsOnly);
    }
    // Longer than 20 digits once the separators are gone.
    const long = refused(await add(nominee({ fiscalId: '1234-5678-9012-3456-7890-1' })));
    expect(long.status).toBe(400);
    expect(long.fields?.fiscalId).toBe(MSG.invalidInput);
    expect(await stored()).toEqual([]);
  });
});
