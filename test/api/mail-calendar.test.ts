/**
 * Issue 31: mail checked when it is sent, invited or not, close now and extend, where each event
 * stands. Every time-dependent step moves the injected clock; the mail worker runs only after the
 * clock has passed the moments it must not send late.
 */
import { describe, expect, it } from 'vitest';
import {
  archiveEvent,
  closeVoting,
  createEvent as createEventEndpoint,
  duplicateEvent,
  listEvents,
  updateEvent,
} from '../../src/shared/api/events.ts';
import {
  addExhibitor as addExhibitorEndpoint,
  importRoster,
  pendingInvitations,
  sendPendingInvitations,
} from '../../src/shared/api/exhibitors.ts';
import { addNominee, myEvent, myEvents } from '../../src/shared/api/nominations.ts';
import { history } from '../../src/shared/api/results.ts';
import type { EventInput } from '../../src/shared/schemas/events.ts';
import { MSG } from '../../src/shared/messages.ts';
import { hitThrottle } from '../../src/server/lib/throttle.ts';
import { createMailWorker } from '../../src/server/mail/worker.ts';
import { smtpSender } from '../../src/server/mail/transport.ts';
import { loadLogo } from '../../src/server/modules/branding/logo.ts';
import {
  invitationCounterKey,
  invitationsPerAddress,
} from '../../src/server/mail/invitation-queue.ts';
import { TEST_NOW, type Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, refused } from '../helpers/client.ts';
import { seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { nomineeInput } from '../helpers/nominee.ts';

describe('calendar and mail (issue 31)', () => {
  const app = useTestApp();
  let n = 0;

  /** An event through the API: deadline 1 July 2026 (Buenos Aires, UTC-3), event 15 July. */
  async function createEvent(reminders: EventInput['reminders'], voteDeadline = '2026-07-01') {
    return app.api.call(createEventEndpoint, {
      body: {
        name: `Premios Calendario ${++n}`,
        eventDate: '2026-07-15',
        voteDeadline,
        reminders,
      },
    });
  }
  async function addExhibitor(eventId: string, email: string) {
    return app.api.call(addExhibitorEndpoint, {
      params: { eventId },
      body: { fullName: 'Expositor', email, company: 'E' },
    });
  }
  const reminderRows = async (eventId: string) =>
    (
      await app.db
        .selectFrom('mail_outbox')
        .select(['to_address', 'params', 'status', 'cancel_reason'])
        .where('event_id', '=', eventId)
        .where('template', '=', 'voting-reminder')
        .orderBy('to_address')
        .orderBy('next_attempt_at')
        .execute()
    ).map((m) => [m.to_address, JSON.parse(m.params).kind, m.status, m.cancel_reason]);
  const remindersTo = (email: string) =>
    app.t.smtp.allTo(email).filter((mail) => !mail.subject.startsWith('Invitación'));
  const save = (session: Session, eventId: string, fiscalId: string) =>
    app.api.send(
      addNominee,
      {
        params: { eventId, category: 'consumption' },
        body: { ...nomineeInput(fiscalId), version: 0 },
      },
      { as: session },
    );
  const mine = async (session: Session) =>
    (await app.api.call(myEvents, {}, { as: session })).events.map((e) => e.id);
  const pending = async (eventId: string) =>
    app.api.call(pendingInvitations, { params: { eventId } });
  const sendPending = (eventId: string) =>
    app.api.send(sendPendingInvitations, { params: { eventId } });

  /** A second instance's mail worker on the same database and mail server. */
  function secondWorker() {
    const smtpUrl = app.t.config.smtpUrl;
    if (!smtpUrl) throw new Error('the test app has no SMTP server');
    return createMailWorker(
      app.t.deps,
      smtpSender(smtpUrl),
      async () => (await loadLogo(app.db)).png,
    );
  }

  describe('reminders are checked when they are sent', () => {
    it('an outage across two reminder moments and the deadline sends nothing late, with two instances', async () => {
      const event = await createEvent(['threeDaysBefore', 'oneDayBefore', 'deadlineDay']);
      const uno = `caido.uno.${n}@empresa.test`;
      const dos = `caido.dos.${n}@empresa.test`;
      await addExhibitor(event.id, uno);
      await addExhibitor(event.id, dos);
      expect(await app.t.deliverMail()).toBe(2); // the invitations
      // The server comes back after the deadline day ended in Buenos Aires (02-07 03:00 UTC).
      app.t.clock.set('2026-07-02T12:00:00.000Z');
      const other = secondWorker();
      try {
        await Promise.all([app.t.deliverMail(), other.runOnce()]);
      } finally {
        await other.stop();
      }
      expect(remindersTo(uno)).toEqual([]);
      expect(remindersTo(dos)).toEqual([]);
      expect(await reminderRows(event.id)).toEqual([
        [dos, 'threeDaysBefore', 'cancelled', 'voting_closed'],
        [dos, 'oneDayBefore', 'cancelled', 'voting_closed'],
        [dos, 'deadlineDay', 'cancelled', 'voting_closed'],
        [uno, 'threeDaysBefore', 'cancelled', 'voting_closed'],
        [uno, 'oneDayBefore', 'cancelled', 'voting_closed'],
        [uno, 'deadlineDay', 'cancelled', 'voting_closed'],
      ]);
    });

    it('drops a reminder more than 12 hours late, sends one less late, never the deadline-day one after the deadline', async () => {
      const event = await createEvent(['threeDaysBefore', 'oneDayBefore', 'deadlineDay']);
      const email = `tarde.${n}@empresa.test`;
      await addExhibitor(event.id, email);
      await app.t.deliverMail();
      // Three days before was due 28-06 09:00 in Buenos Aires (12:00 UTC): 12 h 1 min ago.
      app.t.clock.set('2026-06-29T00:01:00.000Z');
      await app.t.deliverMail();
      // One day before was due 30-06 12:00 UTC: 11 hours ago, still sent.
      app.t.clock.set('2026-06-30T23:00:00.000Z');
      await app.t.deliverMail();
      // The deadline-day one (01-07 03:00 UTC) is still unsent when voting ends at 02-07 03:00 UTC.
      app.t.clock.set('2026-07-02T03:00:00.000Z');
      await app.t.deliverMail();
      expect(remindersTo(email).map((mail) => mail.subject)).toEqual([
        `Mañana cierra la votación de ${event.name}`,
      ]);
      expect(await reminderRows(event.id)).toEqual([
        [email, 'threeDaysBefore', 'cancelled', 'too_late'],
        [email, 'oneDayBefore', 'sent', null],
        [email, 'deadlineDay', 'cancelled', 'voting_closed'],
      ]);
    });

    it('does not send to an exhibitor no longer in the event or never invited (reminders queued before this check)', async () => {
      const event = await createEvent(['deadlineDay']);
      const gone = await addExhibitor(event.id, `fuera.${n}@empresa.test`);
      const uninvited = await addExhibitor(event.id, `sininvitar.${n}@empresa.test`);
      await app.t.deliverMail();
      // As the earlier code left them: a reminder for a membership gone without withdrawing it, and
      // one for an exhibitor copied without an invitation.
      await app.db
        .deleteFrom('event_exhibitors')
        .where('event_id', '=', event.id)
        .where('exhibitor_id', '=', gone.id)
        .execute();
      await app.db
        .updateTable('event_exhibitors')
        .set({ invited_at: null })
        .where('event_id', '=', event.id)
        .where('exhibitor_id', '=', uninvited.id)
        .execute();
      app.t.clock.set('2026-07-01T03:00:00.000Z');
      await app.t.deliverMail();
      expect(remindersTo(gone.email)).toEqual([]);
      expect(remindersTo(uninvited.email)).toEqual([]);
      expect(await reminderRows(event.id)).toEqual([
        [gone.email, 'deadlineDay', 'cancelled', 'not_member'],
        [uninvited.email, 'deadlineDay', 'cancelled', 'not_invited'],
      ]);
    });
  });

  describe('invited or not', () => {
    it('a duplicated event without invitations sends nothing and is invisible until "Enviar invitaciones pendientes", which invites once even twice at once', async () => {
      const source = await createEvent(['deadlineDay']);
      const a = await seedExhibitor(app.db, { email: `copia.a.${n}@empresa.test` });
      const b = await seedExhibitor(app.db, { email: `copia.b.${n}@empresa.test` });
      await seedMembership(app.db, source.id, a.id);
      await seedMembership(app.db, source.id, b.id);
      const duplicated = answered(
        await app.api.send(duplicateEvent, {
          params: { eventId: source.id },
          body: {
            name: `Copia sin invitar ${n}`,
            eventDate: '2026-07-15',
            voteDeadline: '2026-07-01',
            reminders: ['oneDayBefore', 'deadlineDay'],
            copyExhibitors: true,
            sendInvitations: false,
          },
        }),
      );
      expect(duplicated.status).toBe(201);
      const copyId = duplicated.data.id;
      const exh = await app.t.signIn({ role: 'exh', exhibitorId: a.id });

      // Invisible: not in "Mis eventos", cannot open it or vote in it.
      expect(await mine(exh)).toEqual([source.id]);
      const opened = await app.api.fail(myEvent, { params: { eventId: copyId } }, { as: exh });
      expect(opened.status).toBe(404);
      expect(opened.message).toBe(MSG.eventNotFound);
      const notSaved = refused(await save(exh, copyId, '30111'));
      expect(notSaved.status).toBe(404);
      expect(notSaved.message).toBe(MSG.eventNotFound);
      expect(
        await app.db
          .selectFrom('nomination_lists')
          .select('exhibitor_id')
          .where('event_id', '=', copyId)
          .execute(),
      ).toEqual([]);

      // Nothing goes out, not even at the reminders' moments.
      app.t.clock.set('2026-07-01T04:00:00.000Z');
      await app.t.deliverMail();
      expect(app.t.smtp.allTo(a.email)).toEqual([]);
      expect(app.t.smtp.allTo(b.email)).toEqual([]);
      app.t.clock.set(TEST_NOW);

      expect(await pending(copyId)).toEqual({ pending: 2 });
      const [first, second] = await Promise.all([sendPending(copyId), sendPending(copyId)]);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      const answers = [answered(first).data, answered(second).data];
      expect(answers).toContainEqual({ sent: 2, limited: 0 });
      expect(answers).toContainEqual({ sent: 0, limited: 0 });
      const queued = await app.db
        .selectFrom('mail_outbox')
        .select(['template', 'to_address'])
        .where('event_id', '=', copyId)
        .orderBy('template')
        .orderBy('to_address')
        .execute();
      expect(queued.map((m) => [m.template, m.to_address])).toEqual([
        ['exhibitor-invitation', a.email],
        ['exhibitor-invitation', b.email],
        ['voting-reminder', a.email],
        ['voting-reminder', a.email],
        ['voting-reminder', b.email],
        ['voting-reminder', b.email],
      ]);
      await app.t.deliverMail();
      expect(app.t.smtp.allTo(a.email).map((m) => m.subject)).toEqual([
        `Invitación a votar en Copia sin invitar ${n}`,
      ]);
      expect(app.t.smtp.allTo(b.email)).toHaveLength(1);
      expect(await pending(copyId)).toEqual({ pending: 0 });

      // Now the exhibitor sees the event and can vote.
      expect((await mine(exh)).sort()).toEqual([source.id, copyId].sort());
      expect((await save(exh, copyId, '30111')).status).toBe(200);
      const audit = await app.db
        .selectFrom('audit_log')
        .select('details')
        .where('event_id', '=', copyId)
        .where('action', '=', 'exhibitors.invited')
        .execute();
      expect(audit.map((row) => JSON.parse(row.details))).toEqual([{ invited: 2, limited: 0 }]);
    });

    it('an import with "Enviar invitaciones" unchecked queues nothing and hides the event until invited', async () => {
      const event = await createEvent(['oneDayBefore', 'deadlineDay']);
      const email = `importado.${n}@empresa.test`;
      const imported = await app.api.call(
        importRoster,
        { params: { eventId: event.id }, query: { sendInvitations: 'false' } },
        {
          file: {
            filename: 'lista.csv',
            data: Buffer.from(`Nombre completo,Email,Empresa\nIvo Importado,${email},I\n`),
          },
        },
      );
      expect(imported.added).toBe(1);
      const queued = await app.db
        .selectFrom('mail_outbox')
        .select('template')
        .where('event_id', '=', event.id)
        .execute();
      expect(queued).toEqual([]);
      const member = await app.db
        .selectFrom('exhibitors')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const exh = await app.t.signIn({ role: 'exh', exhibitorId: member.id });
      expect(await mine(exh)).toEqual([]);
      expect(await pending(event.id)).toEqual({ pending: 1 });
      const sent = await sendPending(event.id);
      expect(answered(sent).data).toEqual({ sent: 1, limited: 0 });
      expect(await mine(exh)).toHaveLength(1);
      expect((await reminderRows(event.id)).map((row) => row[1])).toEqual([
        'oneDayBefore',
        'deadlineDay',
      ]);
    });

    it('leaves waiting an exhibitor whose address reached its invitation limit', async () => {
      const event = await createEvent(['deadlineDay']);
      const waiting = await seedExhibitor(app.db, { email: `limite.${n}@empresa.test` });
      await seedMembership(app.db, event.id, waiting.id);
      await app.db
        .updateTable('event_exhibitors')
        .set({ invited_at: null })
        .where('event_id', '=', event.id)
        .execute();
      // Issue 30 S8: the one per-address rule every invitation counts against.
      const counter = invitationCounterKey(waiting.email);
      for (let i = 0; i < invitationsPerAddress.max; i++) {
        await hitThrottle(app.db, invitationsPerAddress, counter, app.t.clock.now());
      }
      const response = await sendPending(event.id);
      expect(answered(response).data).toEqual({ sent: 0, limited: 1 });
      const membership = await app.db
        .selectFrom('event_exhibitors')
        .select(['invited_at', 'invitation_message_id'])
        .where('event_id', '=', event.id)
        .executeTakeFirstOrThrow();
      expect(membership).toEqual({ invited_at: null, invitation_message_id: null });
    });
  });

  describe('close now, extend', () => {
    it('"Cerrar votación ahora" refuses saves at once, withdraws the reminders and is in the history', async () => {
      const event = await createEvent(['oneDayBefore', 'deadlineDay']);
      const member = await addExhibitor(event.id, `cierre.${n}@empresa.test`);
      const exh = await app.t.signIn({ role: 'exh', exhibitorId: member.id });
      expect((await save(exh, event.id, '30222')).status).toBe(200);
      app.t.clock.set('2026-06-01T15:30:00.000Z');
      const close = () => app.api.send(closeVoting, { params: { eventId: event.id } });
      const [closed, again] = await Promise.all([close(), close()]);
      const statuses = [closed.status, again.status].sort();
      expect(statuses).toEqual([200, 409]);
      const ok = closed.status === 200 ? closed : again;
      const lost = closed.status === 200 ? again : closed;
      expect(refused(lost).message).toBe(MSG.votingClosed);
      expect(answered(ok).data).toMatchObject({
        voteDeadline: '2026-06-01',
        status: 'closed',
        votingClosedAt: '2026-06-01T15:30:00.000Z',
        votedPercent: null,
      });
      // The same second: the deadline day is today, yet voting has ended.
      const late = await app.api.fail(
        addNominee,
        {
          params: { eventId: event.id, category: 'value' },
          body: { ...nomineeInput('30333'), version: 0 },
        },
        { as: exh },
      );
      expect(late.status).toBe(409);
      expect(late.message).toBe(MSG.votingClosed);
      const seen = await app.api.call(myEvent, { params: { eventId: event.id } }, { as: exh });
      expect(seen).toMatchObject({ voteDeadline: '2026-06-01', votingOpen: false });
      expect(await reminderRows(event.id)).toEqual([
        [member.email, 'oneDayBefore', 'cancelled', 'closed_early'],
        [member.email, 'deadlineDay', 'cancelled', 'closed_early'],
      ]);
      const shown = answered(await app.api.send(history, { params: { eventId: event.id } }));
      expect(shown.status).toBe(200);
      const entry = shown.data.entries.find((e) => e.action === 'event.voting_closed');
      expect(entry).toBeDefined();
    });

    it('extending the deadline with "Avisar a los expositores" sends one mail per invited exhibitor and opens voting again', async () => {
      const event = await createEvent(['deadlineDay']);
      const first = await addExhibitor(event.id, `aviso.uno.${n}@empresa.test`);
      const second = await addExhibitor(event.id, `aviso.dos.${n}@empresa.test`);
      const uninvited = await seedExhibitor(app.db, { email: `aviso.no.${n}@empresa.test` });
      await seedMembership(app.db, event.id, uninvited.id);
      await app.db
        .updateTable('event_exhibitors')
        .set({ invited_at: null })
        .where('exhibitor_id', '=', uninvited.id)
        .execute();
      await app.t.deliverMail();
      expect((await app.api.send(closeVoting, { params: { eventId: event.id } })).status).toBe(200);
      const edit = (voteDeadline: string, notifyExhibitors?: boolean) =>
        app.api.send(updateEvent, {
          params: { eventId: event.id },
          body: {
            name: event.name,
            eventDate: '2026-07-15',
            voteDeadline,
            ...(notifyExhibitors === undefined ? {} : { notifyExhibitors }),
          },
        });
      const extended = answered(await edit('2026-07-05', true));
      expect(extended.status).toBe(200);
      expect(extended.data).toMatchObject({ status: 'open', votingClosedAt: null });
      // Without the checkbox, a later move tells nobody.
      expect((await edit('2026-07-06', false)).status).toBe(200);
      await app.t.deliverMail();
      for (const member of [first, second]) {
        const notices = app.t.smtp
          .allTo(member.email)
          .filter((mail) => mail.subject.startsWith('Se extendió'));
        expect(notices.map((mail) => mail.subject)).toEqual([
          `Se extendió la votación de ${event.name}`,
        ]);
        expect(notices[0]?.text).toContain(
          `Tienes más tiempo para nominar resellers en ${event.name}.`,
        );
        expect(notices[0]?.text).toContain(
          'La votación cierra el 6/7/2026 a las 23:59 (hora de Buenos Aires).',
        );
      }
      expect(app.t.smtp.allTo(uninvited.email)).toEqual([]);
      // The reminders moved to the new deadline, for the invited ones only.
      const pendingReminders = (await reminderRows(event.id)).filter((r) => r[2] === 'pending');
      expect(pendingReminders).toEqual([
        [second.email, 'deadlineDay', 'pending', null],
        [first.email, 'deadlineDay', 'pending', null],
      ]);
      const exh = await app.t.signIn({ role: 'exh', exhibitorId: first.id });
      expect((await save(exh, event.id, '30444')).status).toBe(200);
    });
  });

  describe('where each event stands', () => {
    it('"Estado" and "{k} % votó" in the event list', async () => {
      const open = await createEvent(['deadlineDay']);
      const voters = await Promise.all(
        [1, 2, 3].map((i) => addExhibitor(open.id, `estado.${i}.${n}@empresa.test`)),
      );
      await seedNominations(app.db, {
        eventId: open.id,
        exhibitorId: voters[0]?.id ?? '',
        category: 'value',
        nominees: [{ fiscalId: '30555' }],
      });
      const closed = await createEvent(['deadlineDay']);
      await app.api.call(closeVoting, { params: { eventId: closed.id } });
      const passed = await createEvent(['deadlineDay'], '2026-06-10');
      app.t.clock.set('2026-06-11T12:00:00.000Z');
      await app.signInAdmin();
      const list = await app.api.call(listEvents, {});
      const byId = new Map(list.events.map((e) => [e.id, [e.status, e.votedPercent]]));
      expect(byId.get(open.id)).toEqual(['open', 33]);
      expect(byId.get(closed.id)).toEqual(['closed', null]);
      expect(byId.get(passed.id)).toEqual(['closed', null]);
      // An archived event.
      app.t.clock.set('2026-07-16T12:00:00.000Z');
      await app.signInAdmin();
      expect((await app.api.send(archiveEvent, { params: { eventId: passed.id } })).status).toBe(
        200,
      );
      const archived = await app.api.call(listEvents, { query: { archived: 'true' } });
      expect(archived.events.find((e) => e.id === passed.id)?.status).toBe('archived');
    });
  });
});
