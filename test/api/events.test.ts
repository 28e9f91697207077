import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, TEST_NOW, type Session, type TestApp } from '../helpers/app.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';
import { DEFAULT_NOMINEE_FIELDS } from '../../src/shared/nominee-fields.ts';

// TEST_NOW is 2026-06-01T12:00Z: 09:00 of 2026-06-01 in Buenos Aires (UTC-3).
describe('events', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedAdmin>>;
  let as: Session;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await seedAdmin(t.deps.db, { fullName: 'Ana Administradora' });
  });
  afterAll(() => t.close());
  // Sessions expire after 12 idle hours of the test clock: a fresh one whenever it moves.
  const signIn = async () => {
    as = await t.signIn({ role: 'admin', adminId: admin.id });
  };
  beforeEach(async () => {
    t.clock.set(TEST_NOW);
    await signIn();
  });

  const create = (payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: '/api/events', payload, as });

  it('lists by event date and searches the name ignoring case and accents', async () => {
    const list = async (q?: string) => {
      const url = q === undefined ? '/api/events' : `/api/events?q=${encodeURIComponent(q)}`;
      const response = await t.request({ method: 'GET', url, as });
      expect(response.statusCode).toBe(200);
      return (response.json().events as { name: string }[]).map((e) => e.name);
    };
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
    expect((await t.request({ method: 'GET', url: '/api/events' })).statusCode).toBe(401);
    const exhibitor = await seedExhibitor(t.deps.db);
    const exh = await t.signIn({ role: 'exh', exhibitorId: exhibitor.id });
    expect((await t.request({ method: 'GET', url: '/api/events', as: exh })).statusCode).toBe(403);
    const post = await t.request({
      method: 'POST',
      url: '/api/events',
      as: exh,
      payload: { name: 'X', eventDate: '2026-08-01', voteDeadline: '2026-07-01' },
    });
    expect(post.statusCode).toBe(403);
  });

  it('creates an event with calendar dates, its search key and an audit entry', async () => {
    const response = await create({
      name: '  Premios Energía 2026 ',
      eventDate: '2026-09-10',
      voteDeadline: '2026-09-01',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
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
    const response = await create({ name: ' ', eventDate: '', voteDeadline: '2026-07-01' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      name: MSG.requiredField,
      eventDate: MSG.requiredField,
    });
    expect((await create({})).statusCode).toBe(400);
  });

  it('refuses dates before today in APP_TIMEZONE with "Las fechas no son válidas"', async () => {
    const before = await t.deps.db.selectFrom('events').select('id').execute();
    for (const dates of [
      { eventDate: '2026-05-31', voteDeadline: '2026-05-20' },
      { eventDate: '2026-07-01', voteDeadline: '2026-05-31' },
      { eventDate: '2026-02-30', voteDeadline: '2026-01-20' },
    ]) {
      const response = await create({ name: 'Pasado', ...dates });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(MSG.invalidDates);
    }
    expect(await t.deps.db.selectFrom('events').select('id').execute()).toHaveLength(before.length);
  });

  it('takes "today" in APP_TIMEZONE, not UTC', async () => {
    // 01:00 UTC on June 2nd is still June 1st (22:00) in Buenos Aires.
    t.clock.set('2026-06-02T01:00:00.000Z');
    await signIn();
    try {
      const today = await create({
        name: 'Hoy',
        eventDate: '2026-06-05',
        voteDeadline: '2026-06-01',
      });
      expect(today.statusCode).toBe(201);
      t.clock.set('2026-06-02T03:00:00.000Z');
      await signIn();
      const yesterday = await create({
        name: 'Ayer',
        eventDate: '2026-06-05',
        voteDeadline: '2026-06-01',
      });
      expect(yesterday.json().error.message).toBe(MSG.invalidDates);
    } finally {
      t.clock.set(TEST_NOW);
    }
  });

  it('requires the deadline strictly before the event date', async () => {
    for (const voteDeadline of ['2026-08-01', '2026-08-02']) {
      const response = await create({ name: 'Orden', eventDate: '2026-08-01', voteDeadline });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({
        code: 'invalid_input',
        message: MSG.deadlineAfterEvent,
        fields: { voteDeadline: MSG.deadlineAfterEvent },
      });
    }
  });

  it('reads one event, and answers a missing one with "No se econtró el evento"', async () => {
    const event = await seedEvent(t.deps.db, { name: 'Lectura' });
    const found = await t.request({ method: 'GET', url: `/api/events/${event.id}`, as });
    expect(found.json()).toEqual({
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
    });
    const missing = await t.request({
      method: 'GET',
      url: '/api/events/00000000-0000-4000-8000-000000000000',
      as,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(MSG.eventNotFound);
    const malformed = await t.request({ method: 'GET', url: '/api/events/abc', as });
    expect(malformed.statusCode).toBe(404);
  });

  it('edits an event with the same rules, and a past event can still be renamed', async () => {
    const event = await seedEvent(t.deps.db, {
      eventDate: '2026-08-20',
      voteDeadline: '2026-08-10',
    });
    const url = `/api/events/${event.id}`;
    const edited = await t.request({
      method: 'PUT',
      url,
      as,
      payload: { name: 'Editado', eventDate: '2026-08-21', voteDeadline: '2026-08-11' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Editado', eventDate: '2026-08-21' });
    const row = await t.deps.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name_search: 'editado', vote_deadline: '2026-08-11' });
    const bad = await t.request({
      method: 'PUT',
      url,
      as,
      payload: { name: 'Editado', eventDate: '2026-08-21', voteDeadline: '2026-08-21' },
    });
    expect(bad.json().error.message).toBe(MSG.deadlineAfterEvent);
    const past = await t.request({
      method: 'PUT',
      url,
      as,
      payload: { name: 'Editado', eventDate: '2026-08-21', voteDeadline: '2026-05-01' },
    });
    expect(past.json().error.message).toBe(MSG.invalidDates);

    const old = await seedEvent(t.deps.db, { eventDate: '2026-03-01', voteDeadline: '2026-02-01' });
    const renamed = await t.request({
      method: 'PUT',
      url: `/api/events/${old.id}`,
      as,
      payload: { name: 'Edición 2025', eventDate: '2026-03-01', voteDeadline: '2026-02-01' },
    });
    expect(renamed.statusCode).toBe(200);
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
    const missing = await t.request({
      method: 'PUT',
      url: '/api/events/00000000-0000-4000-8000-000000000000',
      as,
      payload: { name: 'X', eventDate: '2026-08-21', voteDeadline: '2026-08-11' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('deletes an event with its memberships, lists, nominations and pending mail, in one go', async () => {
    const event = await seedEvent(t.deps.db, { name: 'A borrar' });
    const keep = await seedEvent(t.deps.db, { name: 'Se queda' });
    const exhibitor = await seedExhibitor(t.deps.db);
    // The mail server is down: Eva's invitation stays queued until the event is deleted.
    t.smtp.refuse();
    const added = await t.request({
      method: 'POST',
      url: `/api/events/${event.id}/exhibitors`,
      as,
      payload: { fullName: 'Eva Expositora', email: 'eva.borrar@empresa.test', company: 'Eva SA' },
    });
    expect(added.statusCode).toBe(201);
    const eva = added.json().id as string;
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

    const response = await t.request({ method: 'DELETE', url: `/api/events/${event.id}`, as });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });

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
    await signIn();
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
    const again = await t.request({ method: 'DELETE', url: `/api/events/${event.id}`, as });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(MSG.eventNotFound);
  });
});
