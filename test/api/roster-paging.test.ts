import { describe, expect, it } from 'vitest';
import { addExhibitor, listEventExhibitors } from '../../src/shared/api/exhibitors.ts';
import { MSG } from '../../src/shared/messages.ts';
import { ROSTER_PAGE_SIZE, type RosterListQuery } from '../../src/shared/schemas/exhibitors.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { failureOf, type AnswerOf } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

/*
 * Issue 32, item 2: the exhibitors tab for 250 people. The server answers one page at a time,
 * sorted by name as Spanish sorts it, searched by name, email or company, filtered by invitation.
 */

type Page = AnswerOf<typeof listEventExhibitors>;

describe('the exhibitors tab, paged on the server', () => {
  const app = useTestApp();

  const get = (eventId: string, query: RosterListQuery = {}) =>
    app.api.send(listEventExhibitors, { params: { eventId }, query });
  const pageOf = (eventId: string, query: RosterListQuery = {}): Promise<Page> =>
    app.api.call(listEventExhibitors, { params: { eventId }, query });
  const names = (page: Page) => page.exhibitors.map((row) => row.fullName);

  async function seedRoster(eventId: string, people: [string, string, string][]) {
    for (const [fullName, email, company] of people) {
      const exhibitor = await seedExhibitor(app.db, { fullName, email, company });
      await seedMembership(app.db, eventId, exhibitor.id);
    }
  }

  it('sorts by name as Spanish does: accents and case aside, "Ñ" after "N"', async () => {
    const event = await seedEvent(app.db);
    await seedRoster(event.id, [
      ['Zulema Zárate', 'zz@uno.test', 'Uno'],
      ['Álvarez, Ana', 'aa@uno.test', 'Uno'],
      ['Ñandú Núñez', 'nn@uno.test', 'Uno'],
      ['Nora Nieto', 'no@uno.test', 'Uno'],
      ['beatriz Bello', 'bb@uno.test', 'Uno'],
      ['Aaron Abad', 'ab@uno.test', 'Uno'],
      ['Éric Ébano', 'ee@uno.test', 'Uno'],
      ['Agustín Ávila', 'av@uno.test', 'Uno'],
    ]);
    expect(names(await pageOf(event.id))).toEqual([
      'Aaron Abad',
      'Agustín Ávila',
      'Álvarez, Ana',
      'beatriz Bello',
      'Éric Ébano',
      'Nora Nieto',
      'Ñandú Núñez',
      'Zulema Zárate',
    ]);
  });

  it(`answers ${ROSTER_PAGE_SIZE} rows a page with the totals, and an empty page past the end`, async () => {
    const event = await seedEvent(app.db);
    const people = Array.from({ length: 120 }, (_, i): [string, string, string] => {
      const n = String(i).padStart(3, '0');
      return [`Persona ${n}`, `persona${n}@lista.test`, `Empresa ${i % 7}`];
    });
    await seedRoster(event.id, people);
    const first = await pageOf(event.id);
    expect({ ...first, exhibitors: first.exhibitors.length }).toEqual({
      exhibitors: 50,
      total: 120,
      all: 120,
      page: 1,
      pageSize: 50,
    });
    expect(first.exhibitors[0]?.fullName).toBe('Persona 000');
    const third = await pageOf(event.id, { page: '3' });
    expect(names(third)).toEqual(people.slice(100).map(([name]) => name));
    expect(third).toMatchObject({ total: 120, page: 3 });
    // Every row once across the pages.
    const second = await pageOf(event.id, { page: '2' });
    const ids = [first, second, third].flatMap((p) => p.exhibitors.map((row) => row.id));
    expect(new Set(ids).size).toBe(120);
    const past = await pageOf(event.id, { page: '4' });
    expect(past).toMatchObject({ exhibitors: [], total: 120, page: 4 });
  });

  it('searches name, email and company, ignoring case and accents', async () => {
    const event = await seedEvent(app.db);
    await seedRoster(event.id, [
      ['José Peña', 'jose@norte.test', 'Norte SA'],
      ['Ana Gómez', 'ana@sur.test', 'Peñalba SRL'],
      ['Luis Díaz', 'luis.pena@este.test', 'Este SA'],
      ['Eva Ruiz', 'eva@oeste.test', 'Oeste SA'],
    ]);
    const found = await pageOf(event.id, { q: 'PENA' });
    expect(names(found)).toEqual(['Ana Gómez', 'José Peña', 'Luis Díaz']);
    expect(found).toMatchObject({ total: 3, all: 4 });
    expect(names(await pageOf(event.id, { q: '  oéste ' }))).toEqual(['Eva Ruiz']);
    expect(await pageOf(event.id, { q: 'nadie' })).toMatchObject({
      exhibitors: [],
      total: 0,
      all: 4,
    });
  });

  it('filters by invitation: pending (on its way or never sent), sent, failed', async () => {
    const event = await seedEvent(app.db);
    await seedRoster(event.id, [['Nunca Invitada', 'nunca@uno.test', 'Uno']]);
    const add = async (fullName: string) =>
      (
        await app.api.call(addExhibitor, {
          params: { eventId: event.id },
          body: { fullName, email: `${fullName.split(' ')[0]}@dos.test`, company: 'Dos' },
        })
      ).id;
    const ids = { enviada: await add('Enviada Uno'), falla: await add('Falla Dos') };
    await add('Encolada Tres');
    const messageOf = async (exhibitorId: string) =>
      (
        await app.db
          .selectFrom('event_exhibitors')
          .select('invitation_message_id')
          .where('event_id', '=', event.id)
          .where('exhibitor_id', '=', exhibitorId)
          .executeTakeFirstOrThrow()
      ).invitation_message_id ?? '';
    await app.db
      .updateTable('mail_outbox')
      .set({ status: 'sent', sent_at: TEST_NOW })
      .where('id', '=', await messageOf(ids.enviada))
      .execute();
    await app.db
      .updateTable('mail_outbox')
      .set({ status: 'failed' })
      .where('id', '=', await messageOf(ids.falla))
      .execute();
    const filtered = async (invitation: RosterListQuery['invitation']) =>
      names(await pageOf(event.id, { invitation }));
    expect(await filtered('all')).toEqual([
      'Encolada Tres',
      'Enviada Uno',
      'Falla Dos',
      'Nunca Invitada',
    ]);
    expect(await filtered('pending')).toEqual(['Encolada Tres', 'Nunca Invitada']);
    expect(await filtered('sent')).toEqual(['Enviada Uno']);
    expect(await filtered('failed')).toEqual(['Falla Dos']);
    // Search and filter together.
    expect(names(await pageOf(event.id, { invitation: 'pending', q: 'nunca' }))).toEqual([
      'Nunca Invitada',
    ]);
  });

  it('refuses a bad page, filter or search with a Spanish 400', async () => {
    const event = await seedEvent(app.db);
    const refusal = async (query: RosterListQuery) =>
      app.api.fail(listEventExhibitors, { params: { eventId: event.id }, query });
    for (const query of [{ page: '0' }, { page: 'abc' }, { q: 'x'.repeat(201) }]) {
      const response = await refusal(query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.message, JSON.stringify(query)).toBe(MSG.invalidInput);
    }
    // A filter the contract does not name, sent as is.
    const unknownFilter = await app.t.request({
      method: 'GET',
      url: `/api/events/${event.id}/exhibitors?invitation=todas`,
      as: app.as,
    });
    expect(unknownFilter.statusCode).toBe(400);
    expect(failureOf(unknownFilter).message).toBe(MSG.invalidInput);
    const control = await refusal({ q: '\u0001' });
    expect(control.status).toBe(400);
    expect(control.message).toBe(MSG.invalidCharacters);
  });

  it('answers 404 for an event that does not exist', async () => {
    const response = await get('00000000-0000-4000-8000-000000000000');
    expect(response.status).toBe(404);
    expect(response.ok ? undefined : response.message).toBe(MSG.eventNotFound);
  });
});
