import { describe, expect, it } from 'vitest';
import {
  createEvent,
  deleteEvent,
  getEvent,
  listEvents,
  updateEvent,
} from '../../src/shared/api/events.ts';
import { addExhibitor } from '../../src/shared/api/exhibitors.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { DEFAULT_NOMINEE_FIELDS } from '../../src/shared/nominee-fields.ts';
import { DEFAULT_CATEGORY_VIEWS } from '../helpers/categories.ts';

// TEST_NOW is 2026-06-01T12:00Z: 09:00 of 2026-06-01 in Buenos Aires (UTC-3).
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
describe('events', () => {
  const app = useTestApp();
  /** A request the contract forbids (missing fields), sent as the administrator. */
  const createRaw = (payload: Record<string, unknown>) =>
    app.t.request({ method: 'POST', url: '/api/events', payload, as: app.as });

  it('lists by event date and searches the name ignoring case and accents', async () => {
    const { t } = app;
    const list = async (q?: string) =>
      (await app.api.call(listEvents, { query: q === undefined ? {} : { q } })).events.map(
        (e) => e.name,
      );
    // First test of the file: no event exists yet.
    expect(await list()).toEqual([]);
    await seedEvent(t.deps.db, { name: 'Último 50%', eventDate: '2026-12-01' });
    await seedEvent(t.deps.db, { name: 'Premios Energía', eventDate: '2026-08-01' });
    await seedEvent(t.deps.db, { name: 'Cumbre Canal', eventDate: '2026-10-01' });
    expect(await list()).toEqual(['Premios Energía', 'Cumbre Canal', 'Último 50%']);
    expect(await list('enérgia')).toEqual(['Premios Energía']);
    expect(await list('ENERGIA')).toEqual(['Premios Energía']);
    expect(await list('ultimo')).toEqual(['Último 50%']);
    // LIKE wildcards in the search are plain characters.
    expect(await list('%')).toEqual(['Último 50%']);
    expect(await list('_')).toEqual([]);
    expect(await list('  ')).toHaveLength(3);
    expect(await list('nada')).toEqual([]);
  });

  it('lets only administrators in', async () => {
    expect((await app.signedOut.fail(listEvents, { query: {} })).status).toBe(401);
    const exhibitor = await seedExhibitor(app.t.deps.db);
    const exh = await app.exhibitor(exhibitor.id);
    expect((await exh.fail(listEvents, { query: {} })).status).toBe(403);
    const post = await exh.fail(createEvent, {
      body: { name: 'X', eventDate: '2026-08-01', voteDeadline: '2026-07-01' },
    });
    expect(post.status).toBe(403);
  });

  it('creates an event with calendar dates, its search key and an audit entry', async () => {
    const { t, admin } = app;
    const body = await app.api.call(createEvent, {
      body: {
        name: '  Premios Energía 2026 ',
        eventDate: '2026-09-10',
        voteDeadline: '2026-09-01',
      },
    });
    expect(body).toEqual({
      id: expect.any(String),
      name: 'Premios Energía 2026',
      eventDate: '2026-09-10',
      voteDeadline: '2026-09-01',
      reminders: ['deadlineDay'],
      archived: false,
      archivable: false,
      anonymised: false,
      closeTime: '23:59',
      timeZone: 'America/Argentina/Buenos_Aires',
      votingOpensAt: null,
      status: 'open',
      votingClosedAt: null,
      votedPercent: null,
      nomineeFields: DEFAULT_NOMINEE_FIELDS,
      hasOwnLogo: false,
      nominableResellers: 'any',
      validateCuit: false,
      sealResults: false,
      resultsSealed: false,
      resultsViewedEarly: null,
      categories: DEFAULT_CATEGORY_VIEWS,
    });
    const row = await t.deps.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row.name_search).toBe('premios energia 2026');
    expect(row.created_by).toBe(admin.id);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', body.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'event.created',
      actor_role: 'admin',
      actor_id: admin.id,
      actor_email: admin.email,
      at: '2026-06-01T12:00:00.000Z',
      event_id: body.id,
    });
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({ name: 'Premios Energía 2026' });
  });

  it('requires the three fields', async () => {
    const response = await app.api.fail(createEvent, {
      body: { name: ' ', eventDate: '', voteDeadline: '2026-07-01' },
    });
    expect(response.status).toBe(400);
    expect(response.fields).toEqual({
      name: MSG.requiredField,
      eventDate: MSG.requiredField,
    });
    expect((await createRaw({})).statusCode).toBe(400);
  });

  it('refuses dates before today in APP_TIMEZONE with "Las fechas no son válidas"', async () => {
    const { t } = app;
    const before = await t.deps.db.selectFrom('events').select('id').execute();
    for (const dates of [
      { eventDate: '2026-05-31', voteDeadline: '2026-05-20' },
      { eventDate: '2026-07-01', voteDeadline: '2026-05-31' },
      { eventDate: '2026-02-30', voteDeadline: '2026-01-20' },
    ]) {
      const response = await app.api.fail(createEvent, { body: { name: 'Pasado', ...dates } });
      expect(response.status).toBe(400);
      expect(response.message).toBe(MSG.invalidDates);
    }
    expect(await t.deps.db.selectFrom('events').select('id').execute()).toHaveLength(before.length);
  });

  it('takes "today" in APP_TIMEZONE, not UTC', async () => {
    // 01:00 UTC on June 2nd is still June 1st (22:00) in Buenos Aires.
    await app.at('2026-06-02T01:00:00.000Z');
    await app.api.call(createEvent, {
      body: { name: 'Hoy', eventDate: '2026-06-05', voteDeadline: '2026-06-01' },
    });
    await app.at('2026-06-02T03:00:00.000Z');
    const yesterday = await app.api.fail(createEvent, {
      body: { name: 'Ayer', eventDate: '2026-06-05', voteDeadline: '2026-06-01' },
    });
    expect(yesterday.message).toBe(MSG.invalidDates);
  });

  it('requires the deadline strictly before the event date', async () => {
    for (const voteDeadline of ['2026-08-01', '2026-08-02']) {
      const { status, code, message, fields } = await app.api.fail(createEvent, {
        body: { name: 'Orden', eventDate: '2026-08-01', voteDeadline },
      });
      expect(status).toBe(400);
      expect({ code, message, fields }).toEqual({
        code: 'invalid_input',
        message: MSG.deadlineAfterEvent,
        fields: { voteDeadline: MSG.deadlineAfterEvent },
      });
    }
  });

  it('reads one event, and answers a missing one with "No se econtró el evento"', async () => {
    const { t } = app;
    const event = await seedEvent(t.deps.db, { name: 'Lectura' });
    const found = await app.api.call(getEvent, { params: { eventId: event.id } });
    expect(found).toEqual({
      id: event.id,
      name: 'Lectura',
      eventDate: event.eventDate,
      voteDeadline: event.voteDeadline,
      reminders: ['deadlineDay'],
      archived: false,
      archivable: false,
      anonymised: false,
      closeTime: '23:59',
      timeZone: 'America/Argentina/Buenos_Aires',
      votingOpensAt: null,
      status: 'open',
      votingClosedAt: null,
      votedPercent: null,
      nomineeFields: DEFAULT_NOMINEE_FIELDS,
      hasOwnLogo: false,
      nominableResellers: 'any',
      validateCuit: false,
      sealResults: false,
      resultsSealed: false,
      resultsViewedEarly: null,
      categories: DEFAULT_CATEGORY_VIEWS,
    });
    const missing = await app.api.fail(getEvent, { params: { eventId: MISSING_ID } });
    expect(missing.status).toBe(404);
    expect(missing.message).toBe(MSG.eventNotFound);
    const malformed = await t.request({ method: 'GET', url: '/api/events/abc', as: app.as });
    expect(malformed.statusCode).toBe(404);
  });

  it('edits an event with the same rules, and a past event can still be renamed', async () => {
    const { t } = app;
    const event = await seedEvent(t.deps.db, {
      eventDate: '2026-08-20',
      voteDeadline: '2026-08-10',
    });
    const params = { eventId: event.id };
    const edited = await app.api.call(updateEvent, {
      params,
      body: { name: 'Editado', eventDate: '2026-08-21', voteDeadline: '2026-08-11' },
    });
    expect(edited).toMatchObject({ name: 'Editado', eventDate: '2026-08-21' });
    const row = await t.deps.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name_search: 'editado', vote_deadline: '2026-08-11' });
    const bad = await app.api.fail(updateEvent, {
      params,
      body: { name: 'Editado', eventDate: '2026-08-21', voteDeadline: '2026-08-21' },
    });
    expect(bad.message).toBe(MSG.deadlineAfterEvent);
    const past = await app.api.fail(updateEvent, {
      params,
      body: { name: 'Editado', eventDate: '2026-08-21', voteDeadline: '2026-05-01' },
    });
    expect(past.message).toBe(MSG.invalidDates);

    const old = await seedEvent(t.deps.db, { eventDate: '2026-03-01', voteDeadline: '2026-02-01' });
    await app.api.call(updateEvent, {
      params: { eventId: old.id },
      body: { name: 'Edición 2025', eventDate: '2026-03-01', voteDeadline: '2026-02-01' },
    });
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', old.id)
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('event.updated');
    expect(JSON.parse(audit.details)).toMatchObject({
      before: { name: old.name },
      after: { name: 'Edición 2025' },
    });
    const missing = await app.api.fail(updateEvent, {
      params: { eventId: MISSING_ID },
      body: { name: 'X', eventDate: '2026-08-21', voteDeadline: '2026-08-11' },
    });
    expect(missing.status).toBe(404);
  });

  it('deletes an event with its memberships, lists, nominations and pending mail, in one go', async () => {
    const { t } = app;
    const event = await seedEvent(t.deps.db, { name: 'A borrar' });
    const keep = await seedEvent(t.deps.db, { name: 'Se queda' });
    const exhibitor = await seedExhibitor(t.deps.db);
    // The mail server is down: Eva's invitation stays queued until the event is deleted.
    t.smtp.refuse();
    const added = await app.api.call(addExhibitor, {
      params: { eventId: event.id },
      body: { fullName: 'Eva Expositora', email: 'eva.borrar@empresa.test', company: 'Eva SA' },
    });
    const eva = added.id;
    await t.deliverMail();
    t.smtp.accept();
    await seedMembership(t.deps.db, event.id, exhibitor.id);
    await seedMembership(t.deps.db, keep.id, exhibitor.id);
    for (const eventId of [event.id, keep.id]) {
      await seedNominations(t.deps.db, {
        eventId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: [{ fiscalId: '30711111111' }, { fiscalId: '30722222222' }],
      });
    }
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: eva,
      category: 'value',
      nominees: [{ fiscalId: '30733333333' }],
    });

    const response = await app.api.call(deleteEvent, { params: { eventId: event.id } });
    expect(response).toEqual({ ok: true });

    const db = t.deps.db;
    const count = async (
      table: 'event_exhibitors' | 'nomination_lists' | 'nominations',
      id: string,
    ) =>
      (await db.selectFrom(table).select('event_id').where('event_id', '=', id).execute()).length;
    expect(await db.selectFrom('events').select('id').where('id', '=', event.id).execute()).toEqual(
      [],
    );
    expect(await count('event_exhibitors', event.id)).toBe(0);
    expect(await count('nomination_lists', event.id)).toBe(0);
    expect(await count('nominations', event.id)).toBe(0);
    // The other event and the exhibitor records are untouched.
    expect(await count('event_exhibitors', keep.id)).toBe(1);
    expect(await count('nominations', keep.id)).toBe(2);
    expect(
      await db
        .selectFrom('exhibitors')
        .select('id')
        .where('id', 'in', [eva, exhibitor.id])
        .execute(),
    ).toHaveLength(2);
    // Eva's invitation and reminder, still queued, go with the event (decision 0014):
    // nothing is sent, and nothing of the event's mail is kept.
    const mail = await db
      .selectFrom('mail_outbox')
      .select(['template', 'status'])
      .where((eb) =>
        eb.or([eb('event_id', '=', event.id), eb('to_address', '=', 'eva.borrar@empresa.test')]),
      )
      .execute();
    expect(mail).toEqual([]);
    t.clock.set('2026-07-01T03:00:00.000Z');
    await t.deliverMail();
    expect(t.smtp.allTo('eva.borrar@empresa.test')).toEqual([]);
    await app.signInAdmin();
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', event.id)
      .where('action', '=', 'event.deleted')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details)).toMatchObject({
      name: 'A borrar',
      exhibitors: 2,
      nominations: 3,
    });
    // Of the event's history (Eva's addition named her address) only the deletion is left.
    const history = await db
      .selectFrom('audit_log')
      .select('action')
      .where('event_id', '=', event.id)
      .execute();
    expect(history).toEqual([{ action: 'event.deleted' }]);
    const again = await app.api.fail(deleteEvent, { params: { eventId: event.id } });
    expect(again.status).toBe(404);
    expect(again.message).toBe(MSG.eventNotFound);
  });
});
