/**
 * The nominee form of an event of "Solo los del padrón" (issue 27 item 3, the form's part): the
 * exhibitor's event says which resellers it takes, so the form offers only "Buscar en el padrón";
 * "Mis nominaciones anteriores" offers only earlier nominees whose fiscal id is in the registry,
 * with the registry's reseller fields and the contact the exhibitor typed then; and what the form
 * fills is what the server takes. The refusals on every route that stores a nomination are in
 * registry-rules.test.ts. On both engines (TEST_DB_ENGINE).
 */
import { describe, expect, it } from 'vitest';
import { updateEvent } from '../../src/shared/api/events.ts';
import { addNominee, myEvent, previewEvent } from '../../src/shared/api/nominations.ts';
import { searchRegistryAsExhibitor } from '../../src/shared/api/registry-search.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { NominableResellers } from '../../src/shared/registry.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { clearRegistry, seedRegistry } from '../helpers/registry.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

describe('the nominee form of a "Solo los del padrón" event', () => {
  const app = useTestApp();

  const setRule = (eventId: string, rule: NominableResellers) =>
    app.db
      .updateTable('events')
      .set({ nominable_resellers: rule })
      .where('id', '=', eventId)
      .execute();

  /** An exhibitor in this year's event who nominated, last year, one registry reseller and one outside it. */
  async function world(rule: NominableResellers) {
    await clearRegistry(app.db);
    await seedRegistry(app.db, [
      {
        fiscalId: '30111111111',
        name: 'Andes Sistemas',
        registeredName: 'Sistemas Andinos S.R.L.',
        location: 'Rosario',
        city: 'Santa Fe',
      },
    ]);
    const event = await seedEvent(app.db, { name: 'Premios 2026' });
    await setRule(event.id, rule);
    const lastYear = await seedEvent(app.db, {
      name: 'Premios 2025',
      eventDate: '2025-07-15',
      voteDeadline: '2025-07-01',
    });
    const exhibitor = await seedExhibitor(app.db, { fullName: 'Ana Expositora' });
    for (const { id } of [event, lastYear]) await seedMembership(app.db, id, exhibitor.id);
    await seedNominations(app.db, {
      eventId: lastYear.id,
      exhibitorId: exhibitor.id,
      category: 'value',
      nominees: [
        // As she typed it then, in an event that took anyone: not the registry's spelling.
        { fiscalId: '30111111111', name: 'andes sist.', email: 'ana@andes.test' },
        { fiscalId: '30555555555', name: 'Mi Socio' },
      ],
    });
    const exh = await app.exhibitor(exhibitor.id);
    const earlier = async (q = '') =>
      (
        await exh.call(searchRegistryAsExhibitor, {
          params: { eventId: event.id, category: 'consumption' },
          query: { q },
        })
      ).earlier;
    return { event, exh, earlier };
  }

  it("tells the exhibitor's screen and the preview which resellers the event takes", async () => {
    const { event, exh } = await world('any');
    expect((await exh.call(myEvent, { params: { eventId: event.id } })).nominableResellers).toBe(
      'any',
    );
    expect(
      (await app.api.call(previewEvent, { params: { eventId: event.id } })).nominableResellers,
    ).toBe('any');
    await app.api.call(updateEvent, {
      params: { eventId: event.id },
      body: {
        name: event.name,
        eventDate: event.eventDate,
        voteDeadline: event.voteDeadline,
        nominableResellers: 'registry',
      },
    });
    expect((await exh.call(myEvent, { params: { eventId: event.id } })).nominableResellers).toBe(
      'registry',
    );
    expect(
      (await app.api.call(previewEvent, { params: { eventId: event.id } })).nominableResellers,
    ).toBe('registry');
  });

  it('"Mis nominaciones anteriores" offers only registry resellers, as the registry has them, with her contact', async () => {
    const { earlier } = await world('registry');
    expect(await earlier()).toEqual([
      {
        fiscalId: '30111111111',
        name: 'Andes Sistemas',
        registeredName: 'Sistemas Andinos S.R.L.',
        location: 'Rosario',
        city: 'Santa Fe',
        contactName: 'Carla Contacto',
        contactPosition: 'Gerente Comercial',
        phone: '1155550000',
        email: 'ana@andes.test',
      },
    ]);
    // Searched by the registry's name (not by what she typed then), and the outsider never.
    expect((await earlier('andes sistemas')).map((entry) => entry.fiscalId)).toEqual([
      '30111111111',
    ]);
    expect(await earlier('socio')).toEqual([]);
    expect(await earlier('30555')).toEqual([]);
  });

  it('in an event that takes anyone, offers every earlier nominee as she typed it', async () => {
    const { earlier } = await world('any');
    expect((await earlier()).map((entry) => [entry.fiscalId, entry.name])).toEqual([
      ['30111111111', 'andes sist.'],
      ['30555555555', 'Mi Socio'],
    ]);
  });

  it('what the form fills from an earlier nominee is saved; the left-out one is refused and nothing stored', async () => {
    const { event, exh, earlier } = await world('registry');
    const params = { eventId: event.id, category: 'consumption' as const };
    const outsider = await exh.fail(addNominee, {
      params,
      body: {
        fiscalId: '30555555555',
        name: 'Mi Socio',
        registeredName: 'Mi Socio S.A.',
        contactName: 'Carla Contacto',
        contactPosition: 'Gerente Comercial',
        phone: '1155550000',
        email: 'socio@reseller.test',
        location: 'Palermo',
        city: 'Buenos Aires',
        version: 0,
      },
    });
    expect([outsider.status, outsider.message, outsider.fields]).toEqual([
      400,
      MSG.resellerNotInRegistry,
      { fiscalId: MSG.resellerNotInRegistry },
    ]);
    const [chosen] = await earlier();
    if (!chosen) throw new Error('no earlier nominee offered');
    const saved = await exh.call(addNominee, { params, body: { ...chosen, version: 0 } });
    expect(saved.nominees.map((n) => [n.fiscalId, n.name, n.registeredName, n.email])).toEqual([
      ['30111111111', 'Andes Sistemas', 'Sistemas Andinos S.R.L.', 'ana@andes.test'],
    ]);
    // Now in this list: no longer offered for it.
    expect(await earlier()).toEqual([]);
  });
});
