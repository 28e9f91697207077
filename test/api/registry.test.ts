/**
 * The programme's reseller registry ("Padrón de resellers", issue 27 item 1): its page's list
 * (paged on the server, "Buscar" by words of the names or the start of the fiscal id, each entry's
 * nominations across events), the form's add, edit and remove, each audited, "Validar CUIT en el
 * padrón", and stored nominations that never change with it.
 */
import { describe, expect, it } from 'vitest';
import {
  addReseller,
  editReseller,
  listResellers,
  removeReseller,
  updateRegistrySettings,
} from '../../src/shared/api/registry.ts';
import { MSG } from '../../src/shared/messages.ts';
import { REGISTRY_PAGE_SIZE } from '../../src/shared/registry.ts';
import type { ResellerInput } from '../../src/shared/schemas/registry.ts';
import { registrySearchText } from '../../src/server/lib/registry-search-text.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

const entry = (
  fiscalId: string,
  name: string,
  more: Partial<ResellerInput> = {},
): ResellerInput => ({
  fiscalId,
  name,
  registeredName: `${name} S.A.`,
  location: 'Palermo',
  city: 'Buenos Aires',
  contactName: 'Carla Contacto',
  contactPosition: 'Gerente',
  phone: '1155550000',
  email: 'carla@reseller.test',
  ...more,
});

describe('the reseller registry', () => {
  const app = useTestApp();

  const stored = (fiscalId: string) =>
    app.db.selectFrom('resellers').selectAll().where('fiscal_id', '=', fiscalId).executeTakeFirst();
  const auditOf = (action: string, entityId: string) =>
    app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id', 'details', 'event_id'])
      .where('action', '=', action)
      .where('entity_id', '=', entityId)
      .execute();

  it('adds an entry with its fiscal id as typed without dashes, its search text and an audit entry', async () => {
    const added = await app.api.call(addReseller, {
      body: entry('20-12345678-6', 'Núñez Informática', { registeredName: 'Peña y Cía. SRL' }),
    });
    expect(added).toEqual({
      ...entry('20123456786', 'Núñez Informática', { registeredName: 'Peña y Cía. SRL' }),
      nominations: 0,
    });
    const row = await stored('20123456786');
    expect(row).toMatchObject({
      name: 'Núñez Informática',
      registered_name: 'Peña y Cía. SRL',
      search_text: ' nunez informatica pena y cia srl',
      updated_by: app.admin.id,
    });
    const audit = await auditOf('registry.added', '20123456786');
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_id).toBe(app.admin.id);
    expect(audit[0]?.event_id).toBeNull();
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({
      after: { fiscalId: '20123456786', name: 'Núñez Informática' },
    });
  });

  it('refuses a fiscal id already in the registry, and one with letters, changing nothing', async () => {
    await app.api.call(addReseller, { body: entry('30500000001', 'Primero') });
    const again = await app.api.fail(addReseller, { body: entry('30-50000000-1', 'Segundo') });
    expect(again.status).toBe(409);
    expect(again.message).toBe(MSG.resellerAlreadyInRegistry);
    expect(again.fields).toEqual({ fiscalId: MSG.resellerAlreadyInRegistry });
    expect((await stored('30500000001'))?.name).toBe('Primero');
    const letters = await app.api.fail(addReseller, { body: entry('20A12345678', 'Letras') });
    expect(letters.status).toBe(400);
    expect(letters.fields).toEqual({ fiscalId: MSG.invalidFiscalId });
    const dotted = await app.api.fail(addReseller, { body: entry('20.123.456', 'Puntos') });
    expect(dotted.fields).toEqual({ fiscalId: MSG.invalidFiscalId });
    const noName = await app.api.fail(addReseller, { body: entry('30500000002', '') });
    expect(noName.status).toBe(400);
    expect(noName.fields).toEqual({ name: MSG.requiredField });
    expect(await stored('30500000002')).toBeUndefined();
  });

  it('with "Validar CUIT en el padrón" refuses an 11-digit id with a wrong check digit', async () => {
    // Off by default: any digits are taken.
    await app.api.call(addReseller, { body: entry('20123456780', 'Sin Validar') });
    expect(await app.api.call(updateRegistrySettings, { body: { validateCuit: true } })).toEqual({
      validateCuit: true,
    });
    try {
      const wrong = await app.api.fail(addReseller, { body: entry('20-12345678-7', 'Mal Dígito') });
      expect(wrong.status).toBe(400);
      expect(wrong.message).toBe(MSG.invalidCuit);
      expect(wrong.fields).toEqual({ fiscalId: MSG.invalidCuit });
      expect(await stored('20123456787')).toBeUndefined();
      // A valid CUIT, and an id of another length (not a CUIT), are taken.
      await app.api.call(addReseller, { body: entry('20-11111111-2', 'Buen Dígito') });
      await app.api.call(addReseller, { body: entry('123456', 'Extranjero') });
      const edit = await app.api.fail(editReseller, {
        params: { fiscalId: '123456' },
        body: entry('30712345670', 'Extranjero'),
      });
      expect(edit.fields).toEqual({ fiscalId: MSG.invalidCuit });
      const list = await app.api.call(listResellers, { query: {} });
      expect(list.validateCuit).toBe(true);
    } finally {
      await app.api.call(updateRegistrySettings, { body: { validateCuit: false } });
    }
    const audit = await app.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'registry.settings_changed')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => JSON.parse(row.details))).toEqual([
      { validateCuit: true },
      { validateCuit: false },
    ]);
  });

  it('edits and removes an entry, audited, and the nominations stored with it never change', async () => {
    await app.api.call(addReseller, { body: entry('30600000001', 'Original') });
    const event = await seedEvent(app.db);
    const exhibitor = await seedExhibitor(app.db);
    await seedMembership(app.db, event.id, exhibitor.id);
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30600000001', name: 'Como Se Votó' }],
    });
    const nominationsBefore = await app.db.selectFrom('nominations').selectAll().execute();
    const edited = await app.api.call(editReseller, {
      params: { fiscalId: '30600000001' },
      body: entry('30600000001', 'Renombrado', { registeredName: 'Otra Razón SA', phone: '' }),
    });
    expect(edited).toMatchObject({ name: 'Renombrado', phone: '', nominations: 1 });
    expect(await stored('30600000001')).toMatchObject({
      name: 'Renombrado',
      registered_name: 'Otra Razón SA',
      search_text: ' renombrado otra razon sa',
    });
    const editAudit = await auditOf('registry.edited', '30600000001');
    expect(JSON.parse(editAudit[0]?.details ?? '{}')).toMatchObject({
      before: { name: 'Original', phone: '1155550000' },
      after: { name: 'Renombrado', phone: '' },
    });
    // A new fiscal id that another entry holds: refused.
    await app.api.call(addReseller, { body: entry('30600000002', 'Otro') });
    const taken = await app.api.fail(editReseller, {
      params: { fiscalId: '30600000001' },
      body: entry('30600000002', 'Renombrado'),
    });
    expect(taken.status).toBe(409);
    expect(taken.fields).toEqual({ fiscalId: MSG.resellerAlreadyInRegistry });

    expect(await app.api.call(removeReseller, { params: { fiscalId: '30600000001' } })).toEqual({
      ok: true,
    });
    expect(await stored('30600000001')).toBeUndefined();
    expect(await auditOf('registry.removed', '30600000001')).toHaveLength(1);
    const missing = await app.api.fail(removeReseller, { params: { fiscalId: '30600000001' } });
    expect(missing.status).toBe(404);
    expect(missing.message).toBe(MSG.resellerNotFound);
    const missingEdit = await app.api.fail(editReseller, {
      params: { fiscalId: '30600000001' },
      body: entry('30600000001', 'Nadie'),
    });
    expect(missingEdit.status).toBe(404);
    expect(await app.db.selectFrom('nominations').selectAll().execute()).toEqual(nominationsBefore);
  });

  it('lists a page by name, finds words of either name or the start of the fiscal id, and counts nominations', async () => {
    await app.db.deleteFrom('resellers').execute();
    const names = Array.from({ length: REGISTRY_PAGE_SIZE + 5 }, (_, i) => ({
      fiscalId: `3070000${String(i).padStart(4, '0')}`,
      name: `Zeta ${String(i).padStart(2, '0')}`,
    }));
    for (const { fiscalId, name } of names) {
      await app.api.call(addReseller, {
        body: entry(fiscalId, name, { registeredName: 'Zeta SA' }),
      });
    }
    await app.api.call(addReseller, {
      body: entry('27111111110', 'Ábaco Redes', { registeredName: 'Compañía Andina SRL' }),
    });
    const event = await seedEvent(app.db);
    for (const fullName of ['Uno', 'Dos']) {
      const exhibitor = await seedExhibitor(app.db, { fullName });
      await seedMembership(app.db, event.id, exhibitor.id);
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category: 'value',
        nominees: [{ fiscalId: '27111111110' }],
      });
    }

    const first = await app.api.call(listResellers, { query: {} });
    expect(first).toMatchObject({
      total: REGISTRY_PAGE_SIZE + 6,
      all: REGISTRY_PAGE_SIZE + 6,
      page: 1,
      pageSize: REGISTRY_PAGE_SIZE,
      validateCuit: false,
    });
    expect(first.resellers).toHaveLength(REGISTRY_PAGE_SIZE);
    // "Ábaco" sorts among the A's, accents ignored.
    expect(first.resellers[0]).toMatchObject({ name: 'Ábaco Redes', nominations: 2 });
    expect(first.resellers[1]).toMatchObject({ name: 'Zeta 00', nominations: 0 });
    const second = await app.api.call(listResellers, { query: { page: '2' } });
    expect(second.resellers.map((r) => r.name)).toEqual(
      names.slice(REGISTRY_PAGE_SIZE - 1).map((n) => n.name),
    );

    const byWord = await app.api.call(listResellers, { query: { q: 'andina' } });
    expect(byWord.resellers.map((r) => r.fiscalId)).toEqual(['27111111110']);
    expect(byWord.total).toBe(1);
    expect(byWord.all).toBe(REGISTRY_PAGE_SIZE + 6);
    const byAccents = await app.api.call(listResellers, { query: { q: 'COMPANIA abac' } });
    expect(byAccents.resellers.map((r) => r.fiscalId)).toEqual(['27111111110']);
    const byId = await app.api.call(listResellers, { query: { q: '27-1111' } });
    expect(byId.resellers.map((r) => r.fiscalId)).toEqual(['27111111110']);
    const byIdPrefix = await app.api.call(listResellers, { query: { q: '3070000001' } });
    expect(byIdPrefix.total).toBe(10);
    const none = await app.api.call(listResellers, { query: { q: 'nadie%' } });
    expect(none).toMatchObject({ resellers: [], total: 0 });
    const bad = await app.api.fail(listResellers, { query: { page: '0' } });
    expect(bad.status).toBe(400);
  });

  it('an exhibitor cannot read or change the registry', async () => {
    const exhibitor = await seedExhibitor(app.db);
    const asExhibitor = await app.exhibitor(exhibitor.id);
    expect((await asExhibitor.fail(listResellers, { query: {} })).status).toBe(403);
    expect((await asExhibitor.fail(addReseller, { body: entry('30800000001', 'X') })).status).toBe(
      403,
    );
    expect(await stored('30800000001')).toBeUndefined();
  });

  it('folds names for search as the registry search expects', () => {
    expect(registrySearchText('  Núñez-Informática ', 'PEÑA & Cía.')).toBe(
      ' nunez informatica pena cia',
    );
  });
});
