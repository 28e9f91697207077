import { describe, expect, it } from 'vitest';
import { MAIL_MAX_ATTEMPTS, retryDelayMs } from '../../src/server/mail/worker.ts';
import { updateEvent } from '../../src/shared/api/events.ts';
import {
  addExhibitor,
  listEventExhibitors,
  removalImpact,
  removeExhibitor,
  resendInvitation,
} from '../../src/shared/api/exhibitors.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { ExhibitorInput } from '../../src/shared/schemas/exhibitors.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('exhibitors of an event', () => {
  const app = useTestApp();
  let n = 0;
  const address = () => `expositor.${++n}@empresa.test`;

  const add = (eventId: string, body: ExhibitorInput) =>
    app.api.call(addExhibitor, { params: { eventId }, body });
  const refuseAdd = (eventId: string, body: ExhibitorInput) =>
    app.api.fail(addExhibitor, { params: { eventId }, body });
  const list = async (eventId: string) =>
    (await app.api.call(listEventExhibitors, { params: { eventId } })).exhibitors;
  const resend = (eventId: string, exhibitorId: string) =>
    app.api.send(resendInvitation, { params: { eventId, exhibitorId } });
  const outbox = (eventId: string, exhibitorId: string) =>
    app.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .orderBy('created_at')
      .orderBy('template')
      .execute();

  it('is for administrators only', async () => {
    const event = await seedEvent(app.db);
    const exhibitor = await seedExhibitor(app.db);
    const exh = await app.exhibitor(exhibitor.id);
    const params = { eventId: event.id };
    expect((await app.signedOut.fail(listEventExhibitors, { params })).status).toBe(401);
    expect((await exh.fail(listEventExhibitors, { params })).status).toBe(403);
    const post = await exh.fail(addExhibitor, {
      params,
      body: { fullName: 'X', email: 'x@x.test', company: 'X' },
    });
    expect(post.status).toBe(403);
  });

  it('adds an exhibitor: record, membership, invitation email and audit, in one go', async () => {
    const event = await seedEvent(app.db, {
      name: 'Premios Canal 2026',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-05',
    });
    const body = await add(event.id, {
      fullName: 'Esteban Quito',
      email: 'Esteban.Quito@Empresa.test',
      company: 'Quito SRL',
    });
    expect(body).toEqual({
      id: expect.any(String),
      fullName: 'Esteban Quito',
      email: 'esteban.quito@empresa.test',
      company: 'Quito SRL',
      invitation: { status: 'pending', sentAt: null },
    });
    const membership = await app.db
      .selectFrom('event_exhibitors')
      .selectAll()
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(membership).toMatchObject({ exhibitor_id: body.id, invited_by: app.admin.id });

    await app.t.deliverMail();
    const mail = app.t.smtp.latestTo('esteban.quito@empresa.test');
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
    const sent = await app.db
      .selectFrom('mail_outbox')
      .select('status')
      .where('id', '=', membership.invitation_message_id)
      .executeTakeFirstOrThrow();
    expect(sent.status).toBe('sent');

    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      action: 'exhibitor.added',
      entity_id: body.id,
      actor_id: app.admin.id,
      at: TEST_NOW,
    });
  });

  it('refuses the same address twice in an event, and an administrator address', async () => {
    const event = await seedEvent(app.db);
    const email = address();
    await add(event.id, { fullName: 'Uno', email, company: 'Uno SA' });
    const again = await refuseAdd(event.id, {
      fullName: 'Uno bis',
      email: email.toUpperCase(),
      company: 'Otra',
    });
    expect(again.status).toBe(409);
    expect(again.message).toBe(MSG.exhibitorAlreadyInEvent);

    const asAdmin = await refuseAdd(event.id, {
      fullName: 'Ana',
      email: app.admin.email,
      company: 'Premios',
    });
    expect(asAdmin.status).toBe(409);
    expect(asAdmin.message).toBe(MSG.exhibitorEmailIsAdmin);
    // A pending (invited, not yet registered) administrator counts too.
    const pending = await seedAdmin(app.db, { fullName: null });
    const asPending = await refuseAdd(event.id, {
      fullName: 'P',
      email: pending.email,
      company: 'P',
    });
    expect(asPending.message).toBe(MSG.exhibitorEmailIsAdmin);

    expect((await list(event.id)).map((e) => e.email)).toEqual([email]);
    const exhibitors = await app.db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', 'in', [email, app.admin.email, pending.email])
      .execute();
    expect(exhibitors).toHaveLength(1);
  });

  it('validates the three fields', async () => {
    const event = await seedEvent(app.db);
    const empty = await refuseAdd(event.id, { fullName: ' ', email: '', company: '' });
    expect(empty.status).toBe(400);
    expect(empty.fields).toEqual({
      fullName: MSG.requiredField,
      email: MSG.requiredField,
      company: MSG.requiredField,
    });
    const badEmail = await refuseAdd(event.id, {
      fullName: 'A',
      email: 'no-es-mail',
      company: 'B',
    });
    expect(badEmail.fields).toEqual({ email: MSG.invalidEmail });
    const missing = await refuseAdd(MISSING_ID, {
      fullName: 'A',
      email: address(),
      company: 'B',
    });
    expect(missing.status).toBe(404);
    expect(missing.message).toBe(MSG.eventNotFound);
  });

  it('lets an exhibitor of other events join this one without a second record', async () => {
    const first = await seedEvent(app.db);
    const second = await seedEvent(app.db);
    const email = address();
    const one = await add(first.id, { fullName: 'Rita Repetida', email, company: 'Rita SA' });
    const two = await add(second.id, { fullName: 'Otro nombre', email, company: 'Otra SA' });
    expect(two).toMatchObject({ id: one.id, fullName: 'Rita Repetida' });
    const records = await app.db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(records).toHaveLength(1);
    const memberships = await app.db
      .selectFrom('event_exhibitors')
      .select('event_id')
      .where('exhibitor_id', '=', one.id)
      .execute();
    expect(memberships.map((m) => m.event_id).sort()).toEqual([first.id, second.id].sort());
  });

  it('lists exhibitors by name with their invitation status, and "error" when delivery failed for good', async () => {
    const event = await seedEvent(app.db);
    const seeded = await seedExhibitor(app.db, { fullName: 'Zoe Sin Invitación' });
    await seedMembership(app.db, event.id, seeded.id);
    app.t.smtp.refuse();
    try {
      await add(event.id, { fullName: 'bruno Falla', email: address(), company: 'B' });
      for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
        await app.t.deliverMail();
        app.t.clock.advance(retryDelayMs(attempt));
      }
    } finally {
      app.t.smtp.accept();
    }
    const rows = await list(event.id);
    expect(rows.map((r) => [r.fullName, r.invitation.status])).toEqual([
      ['bruno Falla', 'failed'],
      ['Zoe Sin Invitación', 'none'],
    ]);
  });

  it('re-sends an invitation: a new message, an unsent earlier one withdrawn, an audit entry', async () => {
    const event = await seedEvent(app.db, { name: 'Reenvíos' });
    const email = address();
    app.t.smtp.refuse();
    const added = await add(event.id, { fullName: 'Rene', email, company: 'R' });
    await app.t.deliverMail(); // refused: stays pending, retried later
    app.t.smtp.accept();
    // A second later: the outbox lists the messages by when they were queued.
    app.t.clock.advance(1000);
    const params = { eventId: event.id, exhibitorId: added.id };
    const resent = await app.api.call(resendInvitation, { params });
    expect(resent.invitation.status).toBe('pending');
    const invitations = (await outbox(event.id, added.id)).filter(
      (m) => m.template === 'exhibitor-invitation',
    );
    expect(invitations.map((m) => m.status)).toEqual(['cancelled', 'pending']);
    const membership = await app.db
      .selectFrom('event_exhibitors')
      .select('invitation_message_id')
      .where('event_id', '=', event.id)
      .where('exhibitor_id', '=', added.id)
      .executeTakeFirstOrThrow();
    expect(membership.invitation_message_id).toBe(invitations[1]?.id);
    app.t.clock.advance(retryDelayMs(1));
    await app.t.deliverMail();
    expect(app.t.smtp.allTo(email)).toHaveLength(1);
    expect((await list(event.id))[0]?.invitation.status).toBe('sent');
    // A sent invitation can be sent again.
    await app.api.call(resendInvitation, { params });
    await app.t.deliverMail();
    expect(app.t.smtp.allTo(email)).toHaveLength(2);
    const audit = await app.db
      .selectFrom('audit_log')
      .select('action')
      .where('event_id', '=', event.id)
      .where('action', '=', 'exhibitor.invitation_resent')
      .execute();
    expect(audit).toHaveLength(2);
    const stranger = await app.api.fail(resendInvitation, {
      params: { eventId: event.id, exhibitorId: MISSING_ID },
    });
    expect(stranger.status).toBe(404);
  });

  it('re-sends one invitation at most 5 times an hour, even with 40 requests at once', async () => {
    app.t.clock.set(TEST_NOW);
    const event = await seedEvent(app.db, { name: 'Reenvíos en ráfaga' });
    const email = address();
    const added = await add(event.id, { fullName: 'Rafa Ráfaga', email, company: 'R' });
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => resend(event.id, added.id)),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
    // The 5 allowed ones either re-sent or, crossing another, were answered 409 to retry.
    expect(statuses.filter((s) => s !== 429).every((s) => s === 200 || s === 409)).toBe(true);
    const refused = responses.find((r) => r.status === 429);
    expect(refused?.ok === false && refused.message).toBe(MSG.invitationResendLimit);
    const audit = await app.db
      .selectFrom('audit_log')
      .select('id')
      .where('event_id', '=', event.id)
      .where('action', '=', 'exhibitor.invitation_resent')
      .execute();
    expect(audit.length).toBe(statuses.filter((s) => s === 200).length);
    expect(audit.length).toBeLessThanOrEqual(5);
    expect(audit.length).toBeGreaterThanOrEqual(1);

    app.t.clock.advance(60 * 60 * 1000);
    expect((await resend(event.id, added.id)).status).toBe(200);
  });

  it('limits one administrator to 300 re-sends an hour over all exhibitors', async () => {
    app.t.clock.set(TEST_NOW);
    const event = await seedEvent(app.db);
    const added = await add(event.id, { fullName: 'Otra Persona', email: address(), company: 'O' });
    expect((await resend(event.id, added.id)).status).toBe(200);
    await app.db
      .updateTable('auth_throttle')
      .set({ hits: 300 })
      .where('scope', '=', 'invitation-resend-admin')
      .execute();
    const refused = await app.api.fail(resendInvitation, {
      params: { eventId: event.id, exhibitorId: added.id },
    });
    expect(refused.status).toBe(429);
    expect(refused.message).toBe(MSG.tooManyRequests);
  });

  it('tells how many nominations a removal discards, then removes membership and nominations only', async () => {
    const event = await seedEvent(app.db);
    const other = await seedEvent(app.db);
    const exhibitor = await add(event.id, {
      fullName: 'Quique Quitado',
      email: address(),
      company: 'Q',
    });
    await seedMembership(app.db, other.id, exhibitor.id);
    const colleague = await seedExhibitor(app.db);
    await seedMembership(app.db, event.id, colleague.id);
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '1' }, { fiscalId: '2' }, { fiscalId: '3' }],
    });
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'value',
      nominees: [{ fiscalId: '4' }],
    });
    for (const [eventId, exhibitorId] of [
      [other.id, exhibitor.id],
      [event.id, colleague.id],
    ] as const) {
      await seedNominations(app.db, {
        eventId,
        exhibitorId,
        category: 'consumption',
        nominees: [{ fiscalId: '9' }],
      });
    }
    const params = { eventId: event.id, exhibitorId: exhibitor.id };
    const impact = await app.api.call(removalImpact, { params });
    expect(impact).toEqual({ nominations: 4 });

    await app.api.call(removeExhibitor, { params });
    const db = app.db;
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

    const again = await app.api.fail(removeExhibitor, { params });
    expect(again.status).toBe(404);
    expect(again.message).toBe(MSG.exhibitorNotFound);
  });

  describe('deadline-day reminder (00:00 of the deadline in APP_TIMEZONE)', () => {
    it('is queued with the exhibitor and sent then, with the current counts', async () => {
      const event = await seedEvent(app.db, {
        name: 'Recordatorios',
        eventDate: '2026-08-30',
        voteDeadline: '2026-08-21',
      });
      const email = address();
      const exhibitor = await add(event.id, { fullName: 'Rosa', email, company: 'R' });
      const reminder = (await outbox(event.id, exhibitor.id)).find(
        (m) => m.template === 'voting-reminder',
      );
      // Buenos Aires is UTC-3: midnight of August 21st is 03:00 UTC.
      expect(reminder).toMatchObject({
        status: 'pending',
        next_attempt_at: '2026-08-21T03:00:00.000Z',
      });
      await app.t.deliverMail();
      expect(app.t.smtp.allTo(email).map((m) => m.subject)).toEqual([
        'Invitación a votar en Recordatorios',
      ]);
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: [{ fiscalId: '11' }, { fiscalId: '12' }],
      });
      app.t.clock.set('2026-08-21T02:59:59.000Z');
      await app.t.deliverMail();
      expect(app.t.smtp.allTo(email)).toHaveLength(1);
      app.t.clock.set('2026-08-21T03:00:00.000Z');
      await app.t.deliverMail();
      const mail = app.t.smtp.latestTo(email);
      expect(mail?.subject).toBe('Hoy cierra la votación de Recordatorios');
      expect(mail?.text).toContain('Nominaciones en CONSUMO: 2 de 5.');
      expect(mail?.text).toContain('Nominaciones en VALOR AGREGADO: 0 de 5.');
      expect(app.t.smtp.allTo(email)).toHaveLength(2);
    });

    it('moves with the deadline', async () => {
      const event = await seedEvent(app.db, {
        eventDate: '2026-08-30',
        voteDeadline: '2026-08-22',
      });
      const email = address();
      const exhibitor = await add(event.id, { fullName: 'Mario', email, company: 'M' });
      await app.t.deliverMail();
      await app.api.call(updateEvent, {
        params: { eventId: event.id },
        body: { name: 'Movido', eventDate: '2026-08-30', voteDeadline: '2026-08-25' },
      });
      const reminders = (await outbox(event.id, exhibitor.id)).filter(
        (m) => m.template === 'voting-reminder',
      );
      expect(reminders.map((m) => [m.status, m.next_attempt_at])).toEqual([
        ['pending', '2026-08-25T03:00:00.000Z'],
      ]);
      app.t.clock.set('2026-08-22T03:00:00.000Z');
      await app.t.deliverMail();
      expect(app.t.smtp.allTo(email)).toHaveLength(1);
      app.t.clock.set('2026-08-25T03:00:00.000Z');
      await app.t.deliverMail();
      expect(app.t.smtp.latestTo(email)?.subject).toBe('Hoy cierra la votación de Movido');
    });

    it('is queued again when the deadline moves after it went out', async () => {
      const event = await seedEvent(app.db, {
        eventDate: '2026-08-30',
        voteDeadline: '2026-08-23',
      });
      const email = address();
      const exhibitor = await add(event.id, { fullName: 'Otra', email, company: 'O' });
      app.t.clock.set('2026-08-23T10:00:00.000Z');
      await app.t.deliverMail();
      expect(app.t.smtp.allTo(email)).toHaveLength(2);
      await app.signInAdmin();
      await app.api.call(updateEvent, {
        params: { eventId: event.id },
        body: { name: 'Extendido', eventDate: '2026-08-30', voteDeadline: '2026-08-26' },
      });
      const pending = (await outbox(event.id, exhibitor.id)).filter(
        (m) => m.template === 'voting-reminder' && m.status === 'pending',
      );
      expect(pending.map((m) => m.next_attempt_at)).toEqual(['2026-08-26T03:00:00.000Z']);
    });

    it('is cancelled when the exhibitor is removed', async () => {
      const event = await seedEvent(app.db, {
        eventDate: '2026-08-30',
        voteDeadline: '2026-08-24',
      });
      const email = address();
      const exhibitor = await add(event.id, { fullName: 'Ida', email, company: 'I' });
      await app.t.deliverMail();
      await app.api.call(removeExhibitor, {
        params: { eventId: event.id, exhibitorId: exhibitor.id },
      });
      const reminder = (await outbox(event.id, exhibitor.id)).find(
        (m) => m.template === 'voting-reminder',
      );
      expect(reminder?.status).toBe('cancelled');
      app.t.clock.set('2026-08-24T03:00:00.000Z');
      await app.t.deliverMail();
      expect(app.t.smtp.allTo(email)).toHaveLength(1);
    });

    it('is not queued once voting has closed', async () => {
      const event = await seedEvent(app.db, {
        eventDate: '2026-05-20',
        voteDeadline: '2026-05-10',
      });
      const exhibitor = await add(event.id, { fullName: 'Tarde', email: address(), company: 'T' });
      const templates = (await outbox(event.id, exhibitor.id)).map((m) => m.template);
      expect(templates).toEqual(['exhibitor-invitation']);
    });
  });
});
