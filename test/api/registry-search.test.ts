/**
 * "Buscar en el padrón" (issue 27, items 2 and 4): the registry searched by name, company name or
 * fiscal id, and an exhibitor's own earlier nominees. On both engines (TEST_DB_ENGINE).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  searchRegistryAsAdmin,
  searchRegistryAsExhibitor,
} from '../../src/shared/api/registry-search.ts';
import type { Category } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { RegistrySearchEntry } from '../../src/shared/schemas/registry-search.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { clearRegistry, seedRegistry } from '../helpers/registry.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

const REGISTRY = [
  {
    fiscalId: '30111111111',
    name: 'Andes Sistemas',
    registeredName: 'Sistemas Andinos S.R.L.',
    contactName: 'Pablo Padrón',
    contactPosition: 'Gerente de Canales',
    phone: '3414440000',
    email: 'pablo@andes.test',
  },
  { fiscalId: '30222222222', name: 'Peña Informática', registeredName: 'Peña y Asociados S.A.' },
  { fiscalId: '30333333333', name: 'Sistemas del Sur', registeredName: 'Sur Tecnología S.A.' },
  { fiscalId: '20111222333', name: 'Compañía Andina', registeredName: 'Andina Comercial S.A.' },
  { fiscalId: '33111111119', name: 'Soluciones Ándes', registeredName: 'Soluciones S.A.' },
];

const names = (entries: RegistrySearchEntry[]) => entries.map((entry) => entry.name);

describe('search in the registry ("Buscar en el padrón")', () => {
  const app = useTestApp();

  beforeEach(async () => {
    await clearRegistry(app.db);
    await seedRegistry(app.db, REGISTRY);
  });

  const search = (q: string) => app.api.call(searchRegistryAsAdmin, { query: { q } });

  it('finds names by the start of any of their words, ignoring accents and case', async () => {
    expect(names((await search('pena')).registry)).toEqual(['Peña Informática']);
    expect(names((await search('PEÑA')).registry)).toEqual(['Peña Informática']);
    expect(names((await search('inform')).registry)).toEqual(['Peña Informática']);
    // Inside a word is not the start of one.
    expect((await search('formatica')).registry).toEqual([]);
    // The company name counts as the name does.
    expect(names((await search('asociados')).registry)).toEqual(['Peña Informática']);
    expect(names((await search('tecnologia')).registry)).toEqual(['Sistemas del Sur']);
  });

  it('needs every typed word at the start of a word of the entry', async () => {
    expect(names((await search('sur sist')).registry)).toEqual(['Sistemas del Sur']);
    expect(names((await search('sist andes')).registry)).toEqual(['Andes Sistemas']);
    expect((await search('sur andes')).registry).toEqual([]);
  });

  it('ranks names that begin with the text first, then later words, then by name', async () => {
    expect(names((await search('sist')).registry)).toEqual(['Sistemas del Sur', 'Andes Sistemas']);
    expect(names((await search('and')).registry)).toEqual([
      'Andes Sistemas',
      'Compañía Andina',
      'Soluciones Ándes',
    ]);
  });

  it('finds a fiscal id by its prefix, with the dashes people paste, the exact id first', async () => {
    expect(names((await search('301')).registry)).toEqual(['Andes Sistemas']);
    expect(names((await search('30-111')).registry)).toEqual(['Andes Sistemas']);
    expect(names((await search('20111222333')).registry)).toEqual(['Compañía Andina']);
    expect(names((await search('3')).registry)).toEqual([]);
    // Only the prefix: a middle part of the id finds nothing.
    expect((await search('1111119')).registry).toEqual([]);
    const all = (await search('3')).registry;
    expect(all).toEqual([]);
  });

  it('answers each entry with the fields it fills, the default contact included', async () => {
    expect((await search('andes sis')).registry).toEqual([
      {
        fiscalId: '30111111111',
        name: 'Andes Sistemas',
        registeredName: 'Sistemas Andinos S.R.L.',
        location: 'Rosario',
        city: 'Santa Fe',
        contactName: 'Pablo Padrón',
        contactPosition: 'Gerente de Canales',
        phone: '3414440000',
        email: 'pablo@andes.test',
      },
    ]);
  });

  it('lists nothing below two characters, and at most eight entries', async () => {
    expect(await search('p')).toEqual({ registry: [], earlier: [] });
    expect(await search(' s ')).toEqual({ registry: [], earlier: [] });
    expect(await search('')).toEqual({ registry: [], earlier: [] });
    await seedRegistry(
      app.db,
      Array.from({ length: 12 }, (_, i) => ({
        fiscalId: `307000000${String(i).padStart(2, '0')}`,
        name: `Grupo Norte ${String(12 - i).padStart(2, '0')}`,
      })),
    );
    const { registry } = await search('grupo no');
    expect(names(registry)).toEqual([
      'Grupo Norte 01',
      'Grupo Norte 02',
      'Grupo Norte 03',
      'Grupo Norte 04',
      'Grupo Norte 05',
      'Grupo Norte 06',
      'Grupo Norte 07',
      'Grupo Norte 08',
    ]);
  });

  it('refuses a text over 100 characters with a Spanish message, a 400', async () => {
    const failure = await app.api.fail(searchRegistryAsAdmin, { query: { q: 'a'.repeat(101) } });
    expect([failure.status, failure.code, failure.message]).toEqual([
      400,
      'invalid_input',
      MSG.invalidInput,
    ]);
  });
});

describe("an exhibitor's search: the registry and their own earlier nominees only", () => {
  const app = useTestApp();

  /** Ana and Bruno in this year's event; Ana also in last year's and next year's. */
  async function world() {
    await clearRegistry(app.db);
    await seedRegistry(app.db, REGISTRY);
    const event = await seedEvent(app.db, { name: 'Premios 2026' });
    const lastYear = await seedEvent(app.db, {
      name: 'Premios 2025',
      eventDate: '2025-07-15',
      voteDeadline: '2025-07-01',
    });
    const nextYear = await seedEvent(app.db, {
      name: 'Premios 2027',
      eventDate: '2027-07-15',
      voteDeadline: '2027-07-01',
    });
    const ana = await seedExhibitor(app.db, { fullName: 'Ana Expositora' });
    const bruno = await seedExhibitor(app.db, { fullName: 'Bruno Expositor' });
    for (const { id } of [event, lastYear, nextYear]) await seedMembership(app.db, id, ana.id);
    await seedMembership(app.db, event.id, bruno.id);
    // Ana, this event, CONSUMO: a reseller outside the registry and one in it (her own contact).
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: ana.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '30555555555', name: 'Mi Socio' },
        { fiscalId: '30111111111', name: 'Andes Sistemas', email: 'ana.contacto@andes.test' },
      ],
    });
    // Ana, last year: another one; next year (a later event): never offered in this one.
    await seedNominations(app.db, {
      eventId: lastYear.id,
      exhibitorId: ana.id,
      category: 'value',
      nominees: [{ fiscalId: '30666666666', name: 'Viejo Socio' }],
    });
    await seedNominations(app.db, {
      eventId: nextYear.id,
      exhibitorId: ana.id,
      category: 'value',
      nominees: [{ fiscalId: '30777777777', name: 'Futuro Socio' }],
    });
    // Bruno: a reseller outside the registry, and a registry one with his own contact.
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: bruno.id,
      category: 'value',
      nominees: [
        { fiscalId: '30999999999', name: 'Secreto de Bruno' },
        { fiscalId: '30222222222', name: 'Peña Informática', email: 'bruno.contacto@pena.test' },
      ],
    });
    const anaSession = await app.t.signIn({ role: 'exh', exhibitorId: ana.id });
    const brunoSession = await app.t.signIn({ role: 'exh', exhibitorId: bruno.id });
    const searchAs =
      (session: typeof anaSession) =>
      (q: string, category: Category = 'value', eventId = event.id) =>
        app.api.call(
          searchRegistryAsExhibitor,
          { params: { eventId, category }, query: { q } },
          { as: session },
        );
    return {
      event,
      lastYear,
      anaSession,
      brunoSession,
      asAna: searchAs(anaSession),
      asBruno: searchAs(brunoSession),
    };
  }

  it('offers, under "Mis nominaciones anteriores", her earlier nominees with the contact she typed', async () => {
    const { asAna } = await world();
    const { registry, earlier } = await asAna('');
    expect(registry).toEqual([]);
    expect(earlier.map((entry) => [entry.fiscalId, entry.name, entry.email])).toEqual([
      ['30555555555', 'Mi Socio', 'contacto30555555555@reseller.test'],
      ['30111111111', 'Andes Sistemas', 'ana.contacto@andes.test'],
      ['30666666666', 'Viejo Socio', 'contacto30666666666@reseller.test'],
    ]);
    expect(earlier[0]).toEqual({
      fiscalId: '30555555555',
      name: 'Mi Socio',
      registeredName: 'Razón Social 30555555555 S.A.',
      location: 'Palermo',
      city: 'Buenos Aires',
      contactName: 'Carla Contacto',
      contactPosition: 'Gerente Comercial',
      phone: '1155550000',
      email: 'contacto30555555555@reseller.test',
    });
  });

  it('leaves out the nominees already in the list being filled', async () => {
    const { asAna } = await world();
    const { earlier } = await asAna('', 'consumption');
    expect(names(earlier)).toEqual(['Viejo Socio']);
  });

  it('filters her earlier nominees as the registry, and does not list one twice', async () => {
    const { asAna } = await world();
    expect(await asAna('viej')).toEqual({
      registry: [],
      earlier: [expect.objectContaining({ name: 'Viejo Socio' })],
    });
    // Andes Sistemas is hers already: under her nominees, with her contact, not again from the registry.
    const andes = await asAna('andes');
    expect(names(andes.earlier)).toEqual(['Andes Sistemas']);
    expect(andes.earlier[0]?.email).toBe('ana.contacto@andes.test');
    expect(names(andes.registry)).toEqual(['Soluciones Ándes']);
    expect(names((await asAna('30666')).earlier)).toEqual(['Viejo Socio']);
  });

  it("never reveals another exhibitor's nominations, nor a nominee outside the registry", async () => {
    const { asAna, asBruno } = await world();
    // Bruno's reseller outside the registry: by name, by id, by its prefix.
    for (const q of ['secreto', 'Secreto de Bruno', '30999999999', '3099']) {
      expect(await asAna(q)).toEqual({ registry: [], earlier: [] });
    }
    // A registry entry Bruno nominated: the registry's fields, never Bruno's contact.
    const pena = await asAna('peña');
    expect(pena.earlier).toEqual([]);
    expect(pena.registry).toEqual([
      {
        fiscalId: '30222222222',
        name: 'Peña Informática',
        registeredName: 'Peña y Asociados S.A.',
        location: 'Rosario',
        city: 'Santa Fe',
        contactName: '',
        contactPosition: '',
        phone: '',
        email: '',
      },
    ]);
    // Ana's nominees are hers alone: Bruno gets his own, never hers.
    const bruno = await asBruno('', 'consumption');
    expect(bruno.registry).toEqual([]);
    expect(names(bruno.earlier)).toEqual(['Secreto de Bruno', 'Peña Informática']);
    for (const q of ['mi socio', 'viejo', '30555', 'andes']) {
      const { earlier, registry } = await asBruno(q);
      expect(earlier).toEqual([]);
      expect(registry.map((entry) => entry.fiscalId)).not.toContain('30555555555');
      expect(registry.every((entry) => entry.email !== 'ana.contacto@andes.test')).toBe(true);
    }
  });

  it('answers only in her own events: 404 in an event she is not in, 403 to an administrator', async () => {
    const { event, lastYear, brunoSession } = await world();
    const failure = await app.api.fail(
      searchRegistryAsExhibitor,
      { params: { eventId: lastYear.id, category: 'value' }, query: { q: 'andes' } },
      { as: brunoSession },
    );
    expect([failure.status, failure.message]).toEqual([404, MSG.eventNotFound]);
    const asAdmin = await app.api.fail(searchRegistryAsExhibitor, {
      params: { eventId: event.id, category: 'value' },
      query: { q: 'andes' },
    });
    expect(asAdmin.status).toBe(403);
    const exhibitorOnAdminSearch = await app.api.fail(
      searchRegistryAsAdmin,
      { query: { q: 'andes' } },
      { as: brunoSession },
    );
    expect(exhibitorOnAdminSearch.status).toBe(403);
  });
});
