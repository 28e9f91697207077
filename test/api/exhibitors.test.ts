import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIL_MAX_ATTEMPTS, retryDelayMs } from '../../src/server/mail/worker.ts';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, TEST_NOW, type Session, type TestApp } from '../helpers/app.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';

describe('exhibitors of an event', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedAdmin>>;
  let as: Session;
  let n = 0;
  const address = () => `expositor.${++n}@empresa.test`;

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

  const add = (eventId: string, payload: Record<string, unknown>) =>
    t.request({ method: 'POST', url: `/api/events/${eventId}/exhibitors`, as, payload });
  const list = async (eventId: string) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/events/${eventId}/exhibitors`,
      as,
    });
    expect(response.statusCode).toBe(200);
    return response.json().exhibitors as {
      id: string;
      fullName: string;
      email: string;
      invitation: { status: string; sentAt: string | null };
    }[];
  };
  const outbox = (eventId: string, exhibitorId: string) =>
    t.deps.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .orderBy('created_at')
      .orderBy('template')
      .execute();

  it('is for administrators only', async () => {
    const event = await seedEvent(t.deps.db);
    const exhibitor = await seedExhibitor(t.deps.db);
    const exh = await t.signIn({ role: 'exh', exhibitorId: exhibitor.id });
    const url = `/api/events/${event.id}/exhibitors`;
    expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url, as: exh })).statusCode).toBe(403);
    const post = await t.request({
      method: 'POST',
      url,
      as: exh,
      payload: { fullName: 'X', email: 'x@x.test', company: 'X' },
    });
    expect(post.statusCode).toBe(403);
  });

  it('adds an exhibitor: record, membership, invitation email and audit, in one go', async () => {
    const event = await seedEvent(t.deps.db, {
      name: 'Premios Canal 2026',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-05',
    });
    const response = await add(event.id, {
      fullName: 'Esteban Quito',
      email: 'Esteban.Quito@Empresa.test',
      company: 'Quito SRL',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      fullName: 'Esteban Quito',
      email: 'esteban.quito@empresa.test',
      company: 'Quito SRL',
      invitation: { status: 'pending', sentAt: null },
    });
    const membership = await t.deps.db
      .selectFrom('event_exhibitors')
      .selectAll()
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(membership).toMatchObject({ exhibitor_id: body.id, invited_by: admin.id });

    await t.deliverMail();
    const mail = t.smtp.latestTo('esteban.quito@empresa.test');
    expect(mail?.subject).toBe('Invitación a votar en Premios Canal 2026');
    expect(mail?.text).toContain('Ana Administradora te invitó');
    expect(mail?.text).toContain('Premios Canal 2026');
    expect(mail?.text).toContain(
      'Puedes nominar y ordenar hasta 5 resellers en cada categoría (CONSUMO y VALOR AGREGADO) hasta el 5/7/2026.',
    );
    expect(mail?.text).toContain('http://premios.test/signin');
    expect(mail?.attachments.some((a) => a.mimeType === 'image/png')).toBe(true);

    const [row] = await list(event.id);
    expect(row?.invitation).toEqual({ status: 'sent', sentAt: TEST_NOW });
    const sent = await t.deps.db
      .selectFrom('mail_outbox')
      .select('status')
      .where('id', '=', membership.invitation_message_id)
      .executeTakeFirstOrThrow();
    expect(sent.status).toBe('sent');

    const audit = await t.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      action: 'exhibitor.added',
      entity_id: body.id,
      actor_id: admin.id,
      at: TEST_NOW,
    });
  });

  it('refuses the same address twice in an event, and an administrator address', async () => {
    const event = await seedEvent(t.deps.db);
    const email = address();
    expect((await add(event.id, { fullName: 'Uno', email, company: 'Uno SA' })).statusCode).toBe(
      201,
    );
    const again = await add(event.id, {
      fullName: 'Uno bis',
      email: email.toUpperCase(),
      company: 'Otra',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MSG.exhibitorAlreadyInEvent);

    const asAdmin = await add(event.id, {
      fullName: 'Ana',
      email: admin.email,
      company: 'Premios',
    });
    expect(asAdmin.statusCode).toBe(409);
    expect(asAdmin.json().error.message).toBe(MSG.exhibitorEmailIsAdmin);
    // A pending (invited, not yet registered) administrator counts too.
    const pending = await seedAdmin(t.deps.db, { fullName: null });
    const asPending = await add(event.id, { fullName: 'P', email: pending.email, company: 'P' });
    expect(asPending.json().error.message).toBe(MSG.exhibitorEmailIsAdmin);

    expect((await list(event.id)).map((e) => e.email)).toEqual([email]);
    const exhibitors = await t.deps.db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', 'in', [email, admin.email, pending.email])
      .execute();
    expect(exhibitors).toHaveLength(1);
  });

  it('validates the three fields', async () => {
    const event = await seedEvent(t.deps.db);
    const empty = await add(event.id, { fullName: ' ', email: '', company: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({
      fullName: MSG.requiredField,
      email: MSG.requiredField,
      company: MSG.requiredField,
    });
    const badEmail = await add(event.id, { fullName: 'A', email: 'no-es-mail', company: 'B' });
    expect(badEmail.json().error.fields).toEqual({ email: MSG.invalidEmail });
    const missing = await add('00000000-0000-4000-8000-000000000000', {
      fullName: 'A',
      email: address(),
      company: 'B',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(MSG.eventNotFound);
  });

  it('lets an exhibitor of other events join this one without a second record', async () => {
    const first = await seedEvent(t.deps.db);
    const second = await seedEvent(t.deps.db);
    const email = address();
    const one = await add(first.id, { fullName: 'Rita Repetida', email, company: 'Rita SA' });
    const two = await add(second.id, { fullName: 'Otro nombre', email, company: 'Otra SA' });
    expect(two.statusCode).toBe(201);
    expect(two.json()).toMatchObject({ id: one.json().id, fullName: 'Rita Repetida' });
    const records = await t.deps.db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(records).toHaveLength(1);
    const memberships = await t.deps.db
      .selectFrom('event_exhibitors')
      .select('event_id')
      .where('exhibitor_id', '=', one.json().id)
      .execute();
    expect(memberships.map((m) => m.event_id).sort()).toEqual([first.id, second.id].sort());
  });

  it('lists exhibitors by name with their invitation status, and "error" when delivery failed for good', async () => {
    const event = await seedEvent(t.deps.db);
    const seeded = await seedExhibitor(t.deps.db, { fullName: 'Zoe Sin Invitación' });
    await seedMembership(t.deps.db, event.id, seeded.id);
    t.smtp.refuse();
    try {
      await add(event.id, { fullName: 'bruno Falla', email: address(), company: 'B' });
      for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
        await t.deliverMail();
        t.clock.advance(retryDelayMs(attempt));
      }
    } finally {
      t.smtp.accept();
    }
    const rows = await list(event.id);
    expect(rows.map((r) => [r.fullName, r.invitation.status])).toEqual([
      ['bruno Falla', 'failed'],
      ['Zoe Sin Invitación', 'none'],
    ]);
  });

  it('re-sends an invitation: a new message, an unsent earlier one withdrawn, an audit entry', async () => {
    const event = await seedEvent(t.deps.db, { name: 'Reenvíos' });
    const email = address();
    t.smtp.refuse();
    const added = (await add(event.id, { fullName: 'Rene', email, company: 'R' })).json();
    await t.deliverMail(); // refused: stays pending, retried later
    t.smtp.accept();
    const url = `/api/events/${event.id}/exhibitors/${added.id}/invitation`;
    const resent = await t.request({ method: 'POST', url, as });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().invitation.status).toBe('pending');
    const invitations = (await outbox(event.id, added.id)).filter(
      (m) => m.template === 'exhibitor-invitation',
    );
    expect(invitations.map((m) => m.status)).toEqual(['cancelled', 'pending']);
    const membership = await t.deps.db
      .selectFrom('event_exhibitors')
      .select('invitation_message_id')
      .where('event_id', '=', event.id)
      .where('exhibitor_id', '=', added.id)
      .executeTakeFirstOrThrow();
    expect(membership.invitation_message_id).toBe(invitations[1]?.id);
    t.clock.advance(retryDelayMs(1));
    await t.deliverMail();
    expect(t.smtp.allTo(email)).toHaveLength(1);
    expect((await list(event.id))[0]?.invitation.status).toBe('sent');
    // A sent invitation can be sent again.
    expect((await t.request({ method: 'POST', url, as })).statusCode).toBe(200);
    await t.deliverMail();
    expect(t.smtp.allTo(email)).toHaveLength(2);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('event_id', '=', event.id)
      .where('action', '=', 'exhibitor.invitation_resent')
      .execute();
    expect(audit).toHaveLength(2);
    const stranger = await t.request({
      method: 'POST',
      url: `/api/events/${event.id}/exhibitors/00000000-0000-4000-8000-000000000000/invitation`,
      as,
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('re-sends one invitation at most 5 times an hour, even with 40 requests at once', async () => {
    t.clock.set(TEST_NOW);
    const event = await seedEvent(t.deps.db, { name: 'Reenvíos en ráfaga' });
    const email = address();
    const added = (await add(event.id, { fullName: 'Rafa Ráfaga', email, company: 'R' })).json();
    const url = `/api/events/${event.id}/exhibitors/${added.id}/invitation`;
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => t.request({ method: 'POST', url, as })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    // The 5 allowed ones either re-sent or, crossing another, were answered 409 to retry.
    expect(statuses.filter((s) => s !== 429).every((s) => s === 200 || s === 409)).toBe(true);
    const refused = responses.find((r) => r.statusCode === 429)!;
    expect(refused.json().error.message).toBe(MSG.invitationResendLimit);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('id')
      .where('event_id', '=', event.id)
      .where('action', '=', 'exhibitor.invitation_resent')
      .execute();
    expect(audit.length).toBe(statuses.filter((s) => s === 200).length);
    expect(audit.length).toBeLessThanOrEqual(5);
    expect(audit.length).toBeGreaterThanOrEqual(1);

    t.clock.advance(60 * 60 * 1000);
    expect((await t.request({ method: 'POST', url, as })).statusCode).toBe(200);
  });

  it('limits one administrator to 300 re-sends an hour over all exhibitors', async () => {
    t.clock.set(TEST_NOW);
    const event = await seedEvent(t.deps.db);
    const added = (
      await add(event.id, { fullName: 'Otra Persona', email: address(), company: 'O' })
    ).json();
    const url = `/api/events/${event.id}/exhibitors/${added.id}/invitation`;
    expect((await t.request({ method: 'POST', url, as })).statusCode).toBe(200);
    await t.deps.db
      .updateTable('auth_throttle')
      .set({ hits: 300 })
      .where('scope', '=', 'invitation-resend-admin')
      .execute();
    const refused = await t.request({ method: 'POST', url, as });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MSG.tooManyRequests);
  });

  it('tells how many nominations a removal discards, then removes membership and nominations only', async () => {
    const event = await seedEvent(t.deps.db);
    const other = await seedEvent(t.deps.db);
    const exhibitor = (
      await add(event.id, { fullName: 'Quique Quitado', email: address(), company: 'Q' })
    ).json();
    await seedMembership(t.deps.db, other.id, exhibitor.id);
    const colleague = await seedExhibitor(t.deps.db);
    await seedMembership(t.deps.db, event.id, colleague.id);
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '1' }, { fiscalId: '2' }, { fiscalId: '3' }],
    });
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'value',
      nominees: [{ fiscalId: '4' }],
    });
    for (const [eventId, exhibitorId] of [
      [other.id, exhibitor.id],
      [event.id, colleague.id],
    ] as const) {
      await seedNominations(t.deps.db, {
        eventId,
        exhibitorId,
        category: 'consumption',
        nominees: [{ fiscalId: '9' }],
      });
    }
    const base = `/api/events/${event.id}/exhibitors/${exhibitor.id}`;
    const impact = await t.request({ method: 'GET', url: `${base}/removal-impact`, as });
    expect(impact.json()).toEqual({ nominations: 4 });

    const removed = await t.request({ method: 'DELETE', url: base, as });
    expect(removed.statusCode).toBe(200);
    const db = t.deps.db;
    const nominationsOf = async (eventId: string, exhibitorId: string) =>
      (
        await db
          .selectFrom('nominations')
          .select('fiscal_id')
          .where('event_id', '=', eventId)
          .where('exhibitor_id', '=', exhibitorId)
          .execute()
      ).length;
    expect(await nominationsOf(event.id, exhibitor.id)).toBe(0);
    expect(
      await db
        .selectFrom('nomination_lists')
        .select('category')
        .where('event_id', '=', event.id)
        .where('exhibitor_id', '=', exhibitor.id)
        .execute(),
    ).toEqual([]);
    expect(await nominationsOf(other.id, exhibitor.id)).toBe(1);
    expect(await nominationsOf(event.id, colleague.id)).toBe(1);
    expect((await list(event.id)).map((e) => e.id)).toEqual([colleague.id]);
    expect(
      await db.selectFrom('exhibitors').select('id').where('id', '=', exhibitor.id).execute(),
    ).toHaveLength(1);
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'exhibitor.removed')
      .where('entity_id', '=', exhibitor.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details)).toMatchObject({ discardedNominations: 4 });

    const again = await t.request({ method: 'DELETE', url: base, as });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(MSG.exhibitorNotFound);
  });

  describe('deadline-day reminder (00:00 of the deadline in APP_TIMEZONE)', () => {
    it('is queued with the exhibitor and sent then, with the current counts', async () => {
      const event = await seedEvent(t.deps.db, {
        name: 'Recordatorios',
        eventDate: '2026-08-30',
        voteDeadline: '2026-08-21',
      });
      const email = address();
      const exhibitor = (await add(event.id, { fullName: 'Rosa', email, company: 'R' })).json();
      const reminder = (await outbox(event.id, exhibitor.id)).find(
        (m) => m.template === 'voting-reminder',
      );
      // Buenos Aires is UTC-3: midnight of August 21st is 03:00 UTC.
      expect(reminder).toMatchObject({
        status: 'pending',
        next_attempt_at: '2026-08-21T03:00:00.000Z',
      });
      await t.deliverMail();
      expect(t.smtp.allTo(email).map((m) => m.subject)).toEqual([
        'Invitación a votar en Recordatorios',
      ]);
      await seedNominations(t.deps.db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: [{ fiscalId: '11' }, { fiscalId: '12' }],
      });
      t.clock.set('2026-08-21T02:59:59.000Z');
      await t.deliverMail();
      expect(t.smtp.allTo(email)).toHaveLength(1);
      t.clock.set('2026-08-21T03:00:00.000Z');
      await t.deliverMail();
      const mail = t.smtp.latestTo(email);
      expect(mail?.subject).toBe('Hoy cierra la votación de Recordatorios');
      expect(mail?.text).toContain('Nominaciones en CONSUMO: 2 de 5.');
      expect(mail?.text).toContain('Nominaciones en VALOR AGREGADO: 0 de 5.');
      expect(t.smtp.allTo(email)).toHaveLength(2);
    });

    it('moves with the deadline', async () => {
      const event = await seedEvent(t.deps.db, {
        eventDate: '2026-08-30',
        voteDeadline: '2026-08-22',
      });
      const email = address();
      const exhibitor = (await add(event.id, { fullName: 'Mario', email, company: 'M' })).json();
      await t.deliverMail();
      const moved = await t.request({
        method: 'PUT',
        url: `/api/events/${event.id}`,
        as,
        payload: { name: 'Movido', eventDate: '2026-08-30', voteDeadline: '2026-08-25' },
      });
      expect(moved.statusCode).toBe(200);
      const reminders = (await outbox(event.id, exhibitor.id)).filter(
        (m) => m.template === 'voting-reminder',
      );
      expect(reminders.map((m) => [m.status, m.next_attempt_at])).toEqual([
        ['pending', '2026-08-25T03:00:00.000Z'],
      ]);
      t.clock.set('2026-08-22T03:00:00.000Z');
      await t.deliverMail();
      expect(t.smtp.allTo(email)).toHaveLength(1);
      t.clock.set('2026-08-25T03:00:00.000Z');
      await t.deliverMail();
      expect(t.smtp.latestTo(email)?.subject).toBe('Hoy cierra la votación de Movido');
    });

    it('is queued again when the deadline moves after it went out', async () => {
      const event = await seedEvent(t.deps.db, {
        eventDate: '2026-08-30',
        voteDeadline: '2026-08-23',
      });
      const email = address();
      const exhibitor = (await add(event.id, { fullName: 'Otra', email, company: 'O' })).json();
      t.clock.set('2026-08-23T10:00:00.000Z');
      await t.deliverMail();
      expect(t.smtp.allTo(email)).toHaveLength(2);
      await signIn();
      const extended = await t.request({
        method: 'PUT',
        url: `/api/events/${event.id}`,
        as,
        payload: { name: 'Extendido', eventDate: '2026-08-30', voteDeadline: '2026-08-26' },
      });
      expect(extended.statusCode).toBe(200);
      const pending = (await outbox(event.id, exhibitor.id)).filter(
        (m) => m.template === 'voting-reminder' && m.status === 'pending',
      );
      expect(pending.map((m) => m.next_attempt_at)).toEqual(['2026-08-26T03:00:00.000Z']);
    });

    it('is cancelled when the exhibitor is removed', async () => {
      const event = await seedEvent(t.deps.db, {
        eventDate: '2026-08-30',
        voteDeadline: '2026-08-24',
      });
      const email = address();
      const exhibitor = (await add(event.id, { fullName: 'Ida', email, company: 'I' })).json();
      await t.deliverMail();
      await t.request({
        method: 'DELETE',
        url: `/api/events/${event.id}/exhibitors/${exhibitor.id}`,
        as,
      });
      const reminder = (await outbox(event.id, exhibitor.id)).find(
        (m) => m.template === 'voting-reminder',
      );
      expect(reminder?.status).toBe('cancelled');
      t.clock.set('2026-08-24T03:00:00.000Z');
      await t.deliverMail();
      expect(t.smtp.allTo(email)).toHaveLength(1);
    });

    it('is not queued once voting has closed', async () => {
      const event = await seedEvent(t.deps.db, {
        eventDate: '2026-05-20',
        voteDeadline: '2026-05-10',
      });
      const exhibitor = (
        await add(event.id, { fullName: 'Tarde', email: address(), company: 'T' })
      ).json();
      const templates = (await outbox(event.id, exhibitor.id)).map((m) => m.template);
      expect(templates).toEqual(['exhibitor-invitation']);
    });
  });
});
