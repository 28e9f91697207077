import { describe, expect, it } from 'vitest';
import { duplicateEvent } from '../../src/shared/api/events.ts';
import { addExhibitor, editExhibitor } from '../../src/shared/api/exhibitors.ts';
import { myEvent } from '../../src/shared/api/nominations.ts';
import {
  exportParticipation,
  participation,
  reminderPlan,
  sendReminder,
} from '../../src/shared/api/participation.ts';
import { MAIL_MAX_ATTEMPTS, retryDelayMs } from '../../src/server/mail/worker.ts';
import { MSG } from '../../src/shared/messages.ts';
import {
  filterParticipation,
  reminderPlanText,
  type ParticipationRow,
  type ReminderAudience,
} from '../../src/shared/schemas/participation.ts';
import { TEST_NOW, type Session } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, failureOf, refused } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { openWorkbook } from '../helpers/workbook.ts';

const HOUR = 3_600_000;
const five = (prefix: string) =>
  Array.from({ length: 5 }, (_, i) => ({ fiscalId: `${prefix}${i + 1}` }));

describe('participation of an event', () => {
  const app = useTestApp();

  const get = (eventId: string) => app.api.call(participation, { params: { eventId } });
  const add = (eventId: string, fullName: string, email: string) =>
    app.api.call(addExhibitor, {
      params: { eventId },
      body: { fullName, email, company: 'Empresa' },
    });

  it('counts invitations, sign-ins and votes per category, and lists each exhibitor', async () => {
    const event = await seedEvent(app.db);
    // Ana: invitation delivered, signed in, both lists complete.
    const ana = await add(event.id, 'Ana Completa', 'ana.completa@empresa.test');
    await app.t.deliverMail();
    // A sign-in counts for this event once the exhibitor opens it.
    const anaSession = await app.t.signIn({ role: 'exh', exhibitorId: ana.id });
    expect(
      (await app.api.send(myEvent, { params: { eventId: event.id } }, { as: anaSession })).status,
    ).toBe(200);
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: ana.id,
      category: 'consumption',
      nominees: five('301'),
    });
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: ana.id,
      category: 'value',
      nominees: five('302'),
    });
    // Bruno: invitation refused by the mail server until the last retry; never signed in.
    app.t.smtp.refuse();
    try {
      await add(event.id, 'Bruno Falla', 'bruno.falla@empresa.test');
      for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
        await app.t.deliverMail();
        app.t.clock.advance(retryDelayMs(attempt));
      }
    } finally {
      app.t.smtp.accept();
    }
    // Carla: seeded without an invitation, three nominations in CONSUMO only.
    const carla = await seedExhibitor(app.db, {
      fullName: 'Carla Parcial',
      email: 'carla.parcial@empresa.test',
      company: 'Cía',
    });
    await seedMembership(app.db, event.id, carla.id);
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: carla.id,
      category: 'consumption',
      nominees: five('303').slice(0, 3),
    });

    const { figures, exhibitors } = await get(event.id);
    expect(figures).toEqual({
      invited: 3,
      invitationDelivered: 1,
      invitationFailed: 1,
      signedIn: 1,
      votedConsumption: 2,
      votedValue: 1,
      noVotes: 1,
    });
    expect(
      exhibitors.map((row) => [
        row.fullName,
        row.invitation.status,
        row.lastSignedInAt,
        row.nominations.consumption,
        row.nominations.value,
      ]),
    ).toEqual([
      ['Ana Completa', 'sent', TEST_NOW, 5, 5],
      ['Bruno Falla', 'failed', null, 0, 0],
      ['Carla Parcial', 'none', null, 3, 0],
    ]);
    const bruno = exhibitors[1] as ParticipationRow;
    expect(bruno.invitation.error).toBe('421 Servicio no disponible');
    expect(exhibitors[0]?.invitation.error).toBeNull();

    // The table's filter and search, shared by the screen and the export.
    const names = (rows: ParticipationRow[]) => rows.map((row) => row.fullName);
    expect(names(filterParticipation(exhibitors, 'noVotes', ''))).toEqual(['Bruno Falla']);
    expect(names(filterParticipation(exhibitors, 'incomplete', ''))).toEqual([
      'Bruno Falla',
      'Carla Parcial',
    ]);
    expect(names(filterParticipation(exhibitors, 'complete', ''))).toEqual(['Ana Completa']);
    expect(names(filterParticipation(exhibitors, 'all', 'CIA'))).toEqual(['Carla Parcial']);
    expect(names(filterParticipation(exhibitors, 'all', 'falla@'))).toEqual(['Bruno Falla']);

    // The export holds the table as filtered on the screen.
    const exported = answered(
      await app.api.send(exportParticipation, {
        params: { eventId: event.id },
        query: { show: 'incomplete', q: 'a' },
      }),
    );
    expect(exported.status).toBe(200);
    expect(exported.response.headers['content-disposition']).toBe(
      `attachment; filename="${event.name}-participacion.xlsx"; filename*=UTF-8''${encodeURIComponent(`${event.name}-participacion.xlsx`)}`,
    );
    const workbook = await openWorkbook(exported.data);
    const sheet = workbook.worksheets[0];
    const cells = (n: number) => (sheet?.getRow(n).values as unknown[]).slice(1);
    expect(sheet?.rowCount).toBe(3);
    expect(cells(1)).toEqual([
      'Nombre completo',
      'Email',
      'Empresa',
      'Invitación',
      'Último ingreso (hora de Buenos Aires)',
      'CONSUMO',
      'VALOR AGREGADO',
    ]);
    expect(cells(2)).toEqual([
      'Bruno Falla',
      'bruno.falla@empresa.test',
      'Empresa',
      'error',
      '',
      '0 de 5',
      '0 de 5',
    ]);
    expect(cells(3)).toEqual([
      'Carla Parcial',
      'carla.parcial@empresa.test',
      'Cía',
      'no enviada',
      '',
      '3 de 5',
      '0 de 5',
    ]);
    const complete = await app.api.call(exportParticipation, {
      params: { eventId: event.id },
      query: { show: 'complete' },
    });
    const all = await openWorkbook(complete);
    expect((all.worksheets[0]?.getRow(2).values as unknown[]).slice(1)).toEqual([
      'Ana Completa',
      'ana.completa@empresa.test',
      'Empresa',
      'enviada',
      '1-6-2026 09:00',
      '5 de 5',
      '5 de 5',
    ]);
    // A filter the contract does not know, sent as is.
    const bad = await app.t.request({
      method: 'GET',
      url: `/api/events/${event.id}/participation/export?show=todos`,
      as: app.as,
    });
    expect(bad.statusCode).toBe(400);
  });

  it("counts sign-ins per event: only the events the exhibitor opened, never a duplicate's copy", async () => {
    const first = await seedEvent(app.db, { name: 'Premios Ingresos A' });
    const second = await seedEvent(app.db, { name: 'Premios Ingresos B' });
    const eva = await seedExhibitor(app.db, { fullName: 'Eva Ingreso' });
    const otto = await seedExhibitor(app.db, { fullName: 'Otto Ausente' });
    for (const event of [first, second]) {
      await seedMembership(app.db, event.id, eva.id);
      await seedMembership(app.db, event.id, otto.id);
    }
    const signedIn = async (eventId: string) => {
      const { figures, exhibitors } = await get(eventId);
      return {
        figure: figures.signedIn,
        rows: exhibitors.map((row) => [row.fullName, row.lastSignedInAt]),
      };
    };
    const open = (session: Session, eventId: string) =>
      app.api.send(myEvent, { params: { eventId } }, { as: session });

    // Signing in alone counts nowhere: the sign-in is to the account, not to an event.
    const morning = await app.t.signIn({ role: 'exh', exhibitorId: eva.id });
    expect(await signedIn(first.id)).toEqual({
      figure: 0,
      rows: [
        ['Eva Ingreso', null],
        ['Otto Ausente', null],
      ],
    });
    // Opening the first event counts there, and only there; opening it again changes nothing.
    app.t.clock.advance(5 * 60_000);
    expect((await open(morning, first.id)).status).toBe(200);
    expect((await open(morning, first.id)).status).toBe(200);
    expect(await signedIn(first.id)).toEqual({
      figure: 1,
      rows: [
        ['Eva Ingreso', TEST_NOW],
        ['Otto Ausente', null],
      ],
    });
    expect((await signedIn(second.id)).figure).toBe(0);

    // A later sign-in opens the second event: its "Último ingreso" is that sign-in; the first
    // event keeps the morning's.
    await app.at('2026-06-02T15:00:00.000Z');
    const afternoon = await app.t.signIn({ role: 'exh', exhibitorId: eva.id });
    const parallel = await Promise.all(Array.from({ length: 5 }, () => open(afternoon, second.id)));
    expect(parallel.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await signedIn(second.id)).toEqual({
      figure: 1,
      rows: [
        ['Eva Ingreso', '2026-06-02T15:00:00.000Z'],
        ['Otto Ausente', null],
      ],
    });
    expect((await signedIn(first.id)).rows[0]).toEqual(['Eva Ingreso', TEST_NOW]);

    // A duplicate copies the members, never their sign-ins.
    const copy = answered(
      await app.api.send(duplicateEvent, {
        params: { eventId: first.id },
        body: {
          name: 'Premios Ingresos C',
          eventDate: '2027-07-15',
          voteDeadline: '2027-07-01',
          copyExhibitors: true,
          sendInvitations: false,
        },
      }),
    );
    expect(copy.status).toBe(201);
    expect(await signedIn(copy.data.id)).toEqual({
      figure: 0,
      rows: [
        ['Eva Ingreso', null],
        ['Otto Ausente', null],
      ],
    });
  });

  it('marks an invitation refused for good by the mail server (5xx) as failed at once, with its reply, and a corrected address gets it', async () => {
    const event = await seedEvent(app.db);
    app.t.smtp.rejectRecipient('no.existe@empresa.test');
    const added = await add(event.id, 'Dora Mal Escrita', 'no.existe@empresa.test');
    await app.t.deliverMail();
    const [row] = (await get(event.id)).exhibitors;
    expect(row?.invitation).toEqual({
      status: 'failed',
      sentAt: null,
      error: '550 Buzón inexistente',
    });
    const attempts = await app.db
      .selectFrom('mail_outbox')
      .select('attempts')
      .where('to_address', '=', 'no.existe@empresa.test')
      .executeTakeFirstOrThrow();
    expect(attempts.attempts).toBe(1);

    const fixed = await app.api.send(editExhibitor, {
      params: { eventId: event.id, exhibitorId: added.id },
      body: { fullName: 'Dora Bien Escrita', email: 'dora@empresa.test', company: 'Empresa' },
    });
    expect(fixed.status).toBe(200);
    await app.t.deliverMail();
    expect((await app.t.smtp.waitFor('dora@empresa.test')).subject).toContain(event.name);
    const [after] = (await get(event.id)).exhibitors;
    expect(after?.invitation.status).toBe('sent');
    expect(after?.invitation.error).toBeNull();
  });

  it('answers 404 for an unknown event', async () => {
    const failure = await app.api.fail(participation, {
      params: { eventId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(failure.status).toBe(404);
    expect(failure.message).toBe(MSG.eventNotFound);
  });

  describe('reminder to those who have not voted', () => {
    const plan = (eventId: string, to: ReminderAudience = 'noVotes') =>
      app.api.call(reminderPlan, { params: { eventId }, query: { to } });
    const send = (eventId: string, to?: ReminderAudience) =>
      app.api.send(sendReminder, { params: { eventId }, ...(to ? { query: { to } } : {}) });
    // An audience the contract does not know, sent as is.
    const sendAsIs = (method: 'GET' | 'POST', eventId: string, to: string) =>
      app.t.request({
        method,
        url: `/api/events/${eventId}/participation/reminder?to=${to}`,
        as: app.as,
      });

    async function eventWithVotersAndNot() {
      const event = await seedEvent(app.db, { name: 'Premios Recordatorio' });
      const voter = await seedExhibitor(app.db, { email: `votante.${event.id}@empresa.test` });
      await seedMembership(app.db, event.id, voter.id);
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: voter.id,
        category: 'value',
        nominees: five('304').slice(0, 1),
      });
      const silent = [];
      for (let i = 0; i < 3; i++) {
        const exhibitor = await seedExhibitor(app.db, {
          email: `silencioso${i}.${event.id}@empresa.test`,
        });
        await seedMembership(app.db, event.id, exhibitor.id);
        silent.push(exhibitor);
      }
      return { event, voter, silent };
    }

    it('reminds only exhibitors without votes, once per 12 hours, with the deadline and a sign-in link', async () => {
      const { event, voter, silent } = await eventWithVotersAndNot();
      expect(await plan(event.id)).toEqual({ recipients: 3, remindedRecently: 0 });
      expect(reminderPlanText({ recipients: 3, remindedRecently: 0 })).toBe(
        'Se enviará un recordatorio a 3 expositores.',
      );

      const sent = answered(await send(event.id));
      expect(sent.status).toBe(200);
      expect(sent.data).toEqual({ recipients: 3, remindedRecently: 0 });
      await app.t.deliverMail();
      for (const exhibitor of silent) {
        const mail = await app.t.smtp.waitFor(exhibitor.email);
        expect(mail.subject).toBe('Recordatorio: todavía no votaste en Premios Recordatorio');
        expect(mail.text).toContain('Todavía no registraste nominaciones en Premios Recordatorio.');
        expect(mail.text).toContain(
          'La votación cierra el 1/7/2026 a las 23:59 (hora de Buenos Aires).',
        );
        expect(mail.text).toContain('http://premios.test/signin');
      }
      expect(app.t.smtp.allTo(voter.email)).toEqual([]);

      // Within 12 hours nobody is reminded again; the dialog says why.
      app.t.clock.advance(12 * HOUR - 60_000);
      await app.signInAdmin();
      expect(await plan(event.id)).toEqual({ recipients: 0, remindedRecently: 3 });
      expect(reminderPlanText({ recipients: 0, remindedRecently: 3 })).toBe(
        'Se enviará un recordatorio a 0 expositores. Se omiten 3 que ya recibieron un recordatorio en las últimas 12 horas.',
      );
      expect(answered(await send(event.id)).data).toEqual({ recipients: 0, remindedRecently: 3 });
      await app.t.deliverMail();
      for (const exhibitor of silent) expect(app.t.smtp.allTo(exhibitor.email)).toHaveLength(1);

      // After 12 hours they can be reminded again.
      app.t.clock.advance(60_000);
      expect(answered(await send(event.id)).data).toEqual({ recipients: 3, remindedRecently: 0 });

      const audit = await app.db
        .selectFrom('audit_log')
        .select(['action', 'actor_id', 'details'])
        .where('event_id', '=', event.id)
        .where('action', '=', 'exhibitors.reminded')
        .execute();
      expect(audit).toHaveLength(3);
      expect(audit[0]?.actor_id).toBe(app.admin.id);
      expect(JSON.parse(audit[0]?.details ?? '{}').reminded.sort()).toEqual(
        silent.map((exhibitor) => exhibitor.email).sort(),
      );
    });

    it('reminds each exhibitor once when 20 requests arrive at the same time', async () => {
      const { event, silent } = await eventWithVotersAndNot();
      const replies = await Promise.all(Array.from({ length: 20 }, () => send(event.id)));
      expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(200));
      const total = replies.reduce((sum, reply) => sum + answered(reply).data.recipients, 0);
      expect(total).toBe(3);
      const queued = await app.db
        .selectFrom('mail_outbox')
        .select('to_address')
        .where('event_id', '=', event.id)
        .where('template', '=', 'nonvoter-reminder')
        .execute();
      expect(queued.map((m) => m.to_address).sort()).toEqual(
        silent.map((exhibitor) => exhibitor.email).sort(),
      );
    });

    it('reminds the incomplete (some list not full, none included) with its own mail, once per 12 hours across both buttons', async () => {
      const { event, voter, silent } = await eventWithVotersAndNot();
      const complete = await seedExhibitor(app.db, {
        email: `completo.${event.id}@empresa.test`,
      });
      await seedMembership(app.db, event.id, complete.id);
      for (const category of ['consumption', 'value'] as const) {
        await seedNominations(app.db, {
          eventId: event.id,
          exhibitorId: complete.id,
          category,
          nominees: five(category === 'value' ? '305' : '306'),
        });
      }
      // Not yet invited: not reminded, whatever their lists.
      const uninvited = await seedExhibitor(app.db, {
        email: `sininvitar.${event.id}@empresa.test`,
      });
      await app.db
        .insertInto('event_exhibitors')
        .values({
          event_id: event.id,
          exhibitor_id: uninvited.id,
          invited_by: null,
          invitation_message_id: null,
          created_at: TEST_NOW,
          invited_at: null,
        })
        .execute();

      expect(await plan(event.id, 'incomplete')).toEqual({ recipients: 4, remindedRecently: 0 });
      expect(await plan(event.id, 'noVotes')).toEqual({ recipients: 3, remindedRecently: 0 });
      const unknown = await sendAsIs('GET', event.id, 'todos');
      expect(unknown.statusCode).toBe(400);
      expect(failureOf(unknown).status).toBe(400);
      expect((await sendAsIs('POST', event.id, 'todos')).statusCode).toBe(400);
      expect(
        await app.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('event_id', '=', event.id)
          .where('template', '=', 'nonvoter-reminder')
          .execute(),
      ).toEqual([]);

      const replies = await Promise.all(
        Array.from({ length: 10 }, () => send(event.id, 'incomplete')),
      );
      expect(replies.map((reply) => reply.status)).toEqual(Array(10).fill(200));
      expect(replies.reduce((sum, reply) => sum + answered(reply).data.recipients, 0)).toBe(4);
      await app.t.deliverMail();
      for (const exhibitor of [voter, ...silent]) {
        const mails = app.t.smtp.allTo(exhibitor.email);
        expect(mails.map((mail) => mail.subject)).toEqual([
          'Recordatorio: completa tus nominaciones en Premios Recordatorio',
        ]);
        expect(mails[0]?.text).toContain(
          'Tus nominaciones en Premios Recordatorio todavía no están completas.',
        );
        expect(mails[0]?.text).toContain(
          'La votación cierra el 1/7/2026 a las 23:59 (hora de Buenos Aires).',
        );
        expect(mails[0]?.text).toContain(`http://premios.test/exh/event/${event.id}`);
      }
      expect(app.t.smtp.allTo(complete.email)).toEqual([]);
      expect(app.t.smtp.allTo(uninvited.email)).toEqual([]);

      // Whoever got one by either button is skipped by the other within 12 hours.
      expect(await plan(event.id, 'noVotes')).toEqual({ recipients: 0, remindedRecently: 3 });

      const audit = await app.db
        .selectFrom('audit_log')
        .select('details')
        .where('event_id', '=', event.id)
        .where('action', '=', 'exhibitors.reminded')
        .execute();
      const withRecipients = audit
        .map((entry) => JSON.parse(entry.details))
        .filter((details) => details.reminded.length > 0);
      expect(withRecipients).toHaveLength(1);
      expect(withRecipients[0].audience).toBe('incomplete');
      expect(withRecipients[0].reminded.sort()).toEqual(
        [voter, ...silent].map((exhibitor) => exhibitor.email).sort(),
      );
    });

    it("names the event's own closing hour and zone in both reminders", async () => {
      const { event, voter, silent } = await eventWithVotersAndNot();
      await app.db
        .updateTable('events')
        .set({ time_zone: 'Europe/Madrid', close_time: '18:00' })
        .where('id', '=', event.id)
        .execute();
      expect((await send(event.id, 'incomplete')).status).toBe(200);
      await app.t.deliverMail();
      for (const exhibitor of [voter, ...silent]) {
        const [mail] = app.t.smtp.allTo(exhibitor.email);
        expect(mail?.subject).toBe(
          'Recordatorio: completa tus nominaciones en Premios Recordatorio',
        );
        expect(mail?.text).toContain(
          'La votación cierra el 1/7/2026 a las 18:00 (hora de Madrid).',
        );
      }
      app.t.clock.advance(13 * 60 * 60 * 1000);
      await app.signInAdmin();
      expect((await send(event.id)).status).toBe(200);
      await app.t.deliverMail();
      for (const exhibitor of silent) {
        const mails = app.t.smtp.allTo(exhibitor.email);
        expect(mails.map((mail) => mail.subject)).toEqual([
          'Recordatorio: completa tus nominaciones en Premios Recordatorio',
          'Recordatorio: todavía no votaste en Premios Recordatorio',
        ]);
        expect(mails[1]?.text).toContain(
          'La votación cierra el 1/7/2026 a las 18:00 (hora de Madrid).',
        );
      }
    });

    it('refuses once voting has closed, and sends nothing', async () => {
      const { event } = await eventWithVotersAndNot();
      app.t.clock.set('2026-07-02T12:00:00.000Z');
      await app.signInAdmin();
      const failure = refused(await send(event.id));
      expect(failure.status).toBe(409);
      expect(failure.message).toBe('El período de votación ha terminado');
      expect((await send(event.id, 'incomplete')).status).toBe(409);
      const queued = await app.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('event_id', '=', event.id)
        .where('template', '=', 'nonvoter-reminder')
        .execute();
      expect(queued).toEqual([]);
    });
  });
});
