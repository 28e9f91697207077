/**
 * Issue 31 item 3: the event's calendar. Each event closes at its own hour ("Hora de cierre") in
 * its own zone ("Zona horaria"), whatever the server's zone; an event with an opening ("Apertura de
 * la votación") is a draft until then: invisible to its exhibitors, no invitation nor reminder goes
 * out, and the invitations chosen meanwhile go out once at the opening. Every step moves the
 * injected clock.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { answered, refused } from '../helpers/client.ts';
import {
  closeVoting,
  createEvent as createEventEndpoint,
  getEvent,
  listEvents,
  updateEvent,
} from '../../src/shared/api/events.ts';
import { addExhibitor as addExhibitorEndpoint } from '../../src/shared/api/exhibitors.ts';
import { addNominee, myEvent, myEvents, previewEvent } from '../../src/shared/api/nominations.ts';
import { exportParticipation } from '../../src/shared/api/participation.ts';
import { exportEvent } from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { EventInput } from '../../src/shared/schemas/events.ts';
import { createMailWorker } from '../../src/server/mail/worker.ts';
import { smtpSender } from '../../src/server/mail/transport.ts';
import { loadLogo } from '../../src/server/modules/branding/logo.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { TEST_NOW } from '../helpers/app.ts';
import type { TestClient } from '../helpers/client.ts';
import { nomineeInput as nominee } from '../helpers/nominee.ts';
import { openWorkbook } from '../helpers/workbook.ts';
import { DEFAULT_CATEGORY_VIEWS } from '../helpers/categories.ts';
import { DEFAULT_NOMINEE_FIELDS } from '../../src/shared/nominee-fields.ts';
import { formatDisplayInstant } from '../../src/shared/dates.ts';

describe('the event calendar on a server in UTC (issue 31 item 3)', () => {
  // APP_TIMEZONE=UTC: the events below choose their own zones.
  const app = useTestApp({ config: { timeZone: 'UTC' } });
  let n = 0;

  beforeEach(async () => {
    // Mail left over from an earlier test must not count in this one.
    app.t.clock.set('2027-01-01T00:00:00.000Z');
    await app.t.deliverMail();
    app.t.clock.set(TEST_NOW);
  });

  const createEvent = (fields: Partial<EventInput>) =>
    app.api.send(createEventEndpoint, {
      body: {
        name: `Premios Zona ${++n}`,
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        ...fields,
      },
    });
  async function created(fields: Partial<EventInput>) {
    const response = await createEvent(fields);
    expect(response.status).toBe(201);
    return answered(response).data;
  }
  const addExhibitor = (eventId: string, email: string) =>
    app.api.call(addExhibitorEndpoint, {
      params: { eventId },
      body: { fullName: 'Expositor Zona', email, company: 'E' },
    });
  /** An exhibitor's client, signed in at the clock's current instant. */
  const exhSession = (exhibitor: { id: string }) => app.exhibitor(exhibitor.id);
  const save = (exh: TestClient, eventId: string, fiscalId: string) =>
    exh.send(addNominee, {
      params: { eventId, category: 'consumption' },
      body: { ...nominee(fiscalId), version: 0 },
    });
  /** The event as an administrator signed in at the clock's current instant reads it. */
  const readEvent = async (eventId: string) => {
    await app.signInAdmin();
    return app.api.call(getEvent, { params: { eventId } });
  };
  const outbox = (eventId: string, template: string) =>
    app.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'status', 'next_attempt_at', 'params', 'cancel_reason'])
      .where('event_id', '=', eventId)
      .where('template', '=', template)
      .orderBy('next_attempt_at')
      .execute();

  /** A second instance's mail worker on the same database and mail server. */
  function secondWorker() {
    const { t } = app;
    const smtpUrl = t.config.smtpUrl;
    if (!smtpUrl) throw new Error('the test app has no SMTP server');
    return createMailWorker(
      t.deps,
      smtpSender(smtpUrl),
      async () => (await loadLogo(t.deps.db)).png,
    );
  }

  describe('closing hour and zone', () => {
    it('a new event closes at 23:59 in APP_TIMEZONE unless it chooses its own', async () => {
      const plain = await created({});
      expect(plain).toMatchObject({ closeTime: '23:59', timeZone: 'UTC', votingOpensAt: null });
      const row = await app.db
        .selectFrom('events')
        .select(['close_time', 'time_zone', 'voting_opens_at'])
        .where('id', '=', plain.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ close_time: '23:59', time_zone: 'UTC', voting_opens_at: null });
    });

    it('an event in Buenos Aires closes at 23:59 Buenos Aires time, and its mail and screen say so', async () => {
      const { t } = app;
      const event = await created({ timeZone: 'America/Argentina/Buenos_Aires' });
      expect(event).toMatchObject({
        closeTime: '23:59',
        timeZone: 'America/Argentina/Buenos_Aires',
        status: 'open',
      });
      const email = `zona.ba.${n}@empresa.test`;
      const exh = await addExhibitor(event.id, email);
      expect(await t.deliverMail()).toBe(1);
      expect(t.smtp.latestTo(email)?.text).toContain(
        'La votación cierra el 1/7/2026 a las 23:59 (hora de Buenos Aires).',
      );
      const screen = await (await exhSession(exh)).call(myEvent, { params: { eventId: event.id } });
      expect(screen).toMatchObject({
        timeZone: 'America/Argentina/Buenos_Aires',
        closeTime: '23:59',
        votingOpen: true,
      });
      // 23:59:30 in Buenos Aires, already 2 July on the server's UTC clock: still open.
      t.clock.set('2026-07-02T02:59:30.000Z');
      expect((await save(await exhSession(exh), event.id, '30111111118')).status).toBe(200);
      // 00:00 in Buenos Aires: closed.
      t.clock.set('2026-07-02T03:00:00.000Z');
      const late = refused(await save(await exhSession(exh), event.id, '30222222229'));
      expect(late.status).toBe(409);
      expect(late.message).toBe(MSG.votingClosed);
      expect((await readEvent(event.id)).status).toBe('closed');
    });

    it("the exhibitor's screen answers each saved instant as it shows it in the event's zone, so the phone formats none to draw", async () => {
      const event = await created({ timeZone: 'America/Argentina/Buenos_Aires' });
      const exh = await addExhibitor(event.id, 'guardado.zona@empresa.test');
      const before = await (await exhSession(exh)).call(myEvent, { params: { eventId: event.id } });
      // Nothing saved yet: no instant to show.
      expect(before.instantTexts).toEqual({});
      // 14:07 UTC is 11:07 in Buenos Aires (UTC−3).
      app.t.clock.set('2026-06-01T14:07:00.000Z');
      expect((await save(await exhSession(exh), event.id, '30111111118')).status).toBe(200);
      const screen = await (await exhSession(exh)).call(myEvent, { params: { eventId: event.id } });
      expect(screen.lists.consumption?.savedAt).toBe('2026-06-01T14:07:00.000Z');
      expect(screen.lists.value?.savedAt).toBeNull();
      expect(screen.instantTexts).toEqual({ '2026-06-01T14:07:00.000Z': '1-6-2026 11:07' });
      // "Vista previa" has empty lists and nothing to show either.
      await app.signInAdmin();
      const preview = await app.api.call(previewEvent, { params: { eventId: event.id } });
      expect(preview.instantTexts).toEqual({});
    });

    it("exports an event's instants in its own zone and name it in their column headers", async () => {
      const event = await created({ timeZone: 'Europe/Madrid' });
      const exh = await addExhibitor(event.id, `zona.export.${n}@empresa.test`);
      // The exhibitor signs in and opens the event: "Último ingreso" is that instant.
      const session = await exhSession(exh);
      await session.call(myEvent, { params: { eventId: event.id } });
      const participation = await app.api.call(exportParticipation, {
        params: { eventId: event.id },
      });
      const sheet = (await openWorkbook(participation)).worksheets[0];
      const header = (sheet?.getRow(1).values as unknown[]).slice(1);
      expect(header[4]).toBe('Último ingreso (hora de Madrid)');
      // TEST_NOW, 2026-06-01T12:00Z, is 14:00 in Madrid (summer time), 12:00 on the server's UTC.
      expect((sheet?.getRow(2).values as unknown[]).slice(1)[4]).toBe(
        formatDisplayInstant(TEST_NOW, 'Europe/Madrid'),
      );
      expect(formatDisplayInstant(TEST_NOW, 'Europe/Madrid')).toContain('14:00');

      const whole = await app.api.call(exportEvent, { params: { eventId: event.id } });
      const workbook = await openWorkbook(whole);
      const headerOf = (name: string) =>
        (workbook.getWorksheet(name)?.getRow(1).values as unknown[]).slice(1);
      expect(headerOf('Participación')[4]).toBe('Último ingreso (hora de Madrid)');
      expect(headerOf('Correcciones')[0]).toBe('Fecha (hora de Madrid)');
    });

    it('an event closing at 18:00 in Madrid refuses saves from 18:01 there, and its reminder says 18:00', async () => {
      const { t } = app;
      const event = await created({
        timeZone: 'Europe/Madrid',
        closeTime: '18:00',
        reminders: ['deadlineDay'],
      });
      const email = `zona.madrid.${n}@empresa.test`;
      const exh = await addExhibitor(event.id, email);
      // 00:00 of 1 July in Madrid (UTC+2) is 30 June 22:00 UTC: the deadline-day reminder.
      expect((await outbox(event.id, 'voting-reminder')).map((m) => m.next_attempt_at)).toEqual([
        '2026-06-30T22:00:00.000Z',
      ]);
      t.clock.set('2026-06-30T22:00:00.000Z');
      expect(await t.deliverMail()).toBe(2);
      expect(t.smtp.latestTo(email)?.text).toContain(
        'Hoy, 1/7/2026, es el último día para realizar cambios en tus nominaciones de',
      );
      expect(t.smtp.latestTo(email)?.text).toContain(
        'La votación cierra el 1/7/2026 a las 18:00 (hora de Madrid).',
      );
      // 18:00:30 in Madrid: the closing minute itself is still open.
      t.clock.set('2026-07-01T16:00:30.000Z');
      expect((await save(await exhSession(exh), event.id, '30111111118')).status).toBe(200);
      t.clock.set('2026-07-01T16:01:00.000Z');
      expect((await save(await exhSession(exh), event.id, '30222222229')).status).toBe(409);
      expect((await readEvent(event.id)).status).toBe('closed');
    });

    it('refuses a bad hour, zone or opening with its Spanish message, and creates nothing', async () => {
      const before = await app.db.selectFrom('events').select('id').execute();
      const cases: [Partial<EventInput>, string, string][] = [
        [{ closeTime: '24:00' }, MSG.invalidCloseTime, 'closeTime'],
        [{ closeTime: '9:00' }, MSG.invalidCloseTime, 'closeTime'],
        [{ timeZone: 'Marte/Olympus' }, MSG.invalidTimeZone, 'timeZone'],
        [{ timeZone: 'America/Buenos Aires' }, MSG.invalidTimeZone, 'timeZone'],
        [{ votingOpensAt: '2026-02-30T10:00' }, MSG.invalidOpening, 'votingOpensAt'],
        [{ votingOpensAt: '2026-06-10' }, MSG.invalidOpening, 'votingOpensAt'],
        // The opening must come before the close: 1 July 23:59 in UTC.
        [{ votingOpensAt: '2026-07-02T00:00' }, MSG.openingAfterClose, 'votingOpensAt'],
        [
          { votingOpensAt: '2026-07-01T18:01', closeTime: '18:00' },
          MSG.openingAfterClose,
          'votingOpensAt',
        ],
      ];
      for (const [payload, message, field] of cases) {
        const response = refused(await createEvent(payload));
        expect(response.status, JSON.stringify(payload)).toBe(400);
        expect(response.message).toBe(message);
        expect(Object.keys(response.fields ?? {})).toEqual([field]);
      }
      expect(await app.db.selectFrom('events').select('id').execute()).toEqual(before);
    });
  });

  describe('drafts', () => {
    it('a draft is hidden from its exhibitors and sends nothing until its opening, then its invitations once (two instances)', async () => {
      const { t } = app;
      // Opens 10 June 09:00 in Buenos Aires = 12:00 UTC.
      const event = await created({
        timeZone: 'America/Argentina/Buenos_Aires',
        votingOpensAt: '2026-06-10T09:00',
        reminders: ['sevenDaysBefore', 'deadlineDay'],
      });
      expect(event).toMatchObject({ status: 'draft', votingOpensAt: '2026-06-10T09:00' });
      const list = await app.api.call(listEvents, { query: {} });
      expect(list.events.find((e) => e.id === event.id)).toMatchObject({
        status: 'draft',
        votedPercent: null,
      });
      const emails = [`borrador.uno.${n}@empresa.test`, `borrador.dos.${n}@empresa.test`];
      const exhibitors = [];
      for (const email of emails) exhibitors.push(await addExhibitor(event.id, email));
      const [first] = exhibitors;
      if (!first) throw new Error('no exhibitor');
      // The invitations wait for the opening.
      expect(
        (await outbox(event.id, 'exhibitor-invitation')).map((m) => [m.status, m.next_attempt_at]),
      ).toEqual([
        ['pending', '2026-06-10T12:00:00.000Z'],
        ['pending', '2026-06-10T12:00:00.000Z'],
      ]);
      t.clock.set('2026-06-10T11:59:00.000Z');
      const session = await exhSession(first);
      await app.signInAdmin();
      expect(await t.deliverMail()).toBe(0);
      for (const email of emails) expect(t.smtp.allTo(email)).toEqual([]);
      expect((await session.call(myEvents, {})).events).toEqual([]);
      const hidden = await session.fail(myEvent, { params: { eventId: event.id } });
      expect(hidden.status).toBe(404);
      expect(hidden.message).toBe(MSG.eventNotFound);
      const notSaved = await save(session, event.id, '30111111118');
      expect(notSaved.status).toBe(404);
      expect(
        await app.db
          .selectFrom('nominations')
          .select('fiscal_id')
          .where('event_id', '=', event.id)
          .execute(),
      ).toEqual([]);
      const closeNow = await app.api.fail(closeVoting, { params: { eventId: event.id } });
      expect(closeNow.status).toBe(409);
      expect(closeNow.message).toBe(MSG.votingNotOpenYet);

      // The opening: two instances' workers run at once; each invitation goes out once.
      t.clock.set('2026-06-10T12:00:00.000Z');
      const opened = await exhSession(first);
      const other = secondWorker();
      try {
        await Promise.all([t.deliverMail(), other.runOnce(), t.deliverMail()]);
      } finally {
        await other.stop();
      }
      for (const email of emails) {
        expect(t.smtp.allTo(email).map((mail) => mail.subject)).toEqual([
          `Invitación a votar en ${event.name}`,
        ]);
      }
      expect((await readEvent(event.id)).status).toBe('open');
      const visible = await opened.call(myEvents, {});
      expect(visible.events.map((e) => e.id)).toEqual([event.id]);
      expect((await save(opened, event.id, '30111111118')).status).toBe(200);
    });

    it('queues no reminder whose moment comes before the opening', async () => {
      // Opens 28 June 10:00 in Buenos Aires: after the 7- and 3-days reminders (24 and 28 June 09:00).
      const event = await created({
        timeZone: 'America/Argentina/Buenos_Aires',
        votingOpensAt: '2026-06-28T10:00',
        reminders: ['sevenDaysBefore', 'threeDaysBefore', 'oneDayBefore', 'deadlineDay'],
      });
      await addExhibitor(event.id, `borrador.recordatorio.${n}@empresa.test`);
      expect(
        (await outbox(event.id, 'voting-reminder')).map((m) => [
          JSON.parse(m.params).kind,
          m.next_attempt_at,
        ]),
      ).toEqual([
        ['oneDayBefore', '2026-06-30T12:00:00.000Z'],
        ['deadlineDay', '2026-07-01T03:00:00.000Z'],
      ]);
    });

    it('moving the opening moves the waiting invitations; removing it sends them at once', async () => {
      const { t } = app;
      const event = await created({
        timeZone: 'America/Argentina/Buenos_Aires',
        votingOpensAt: '2026-06-10T09:00',
      });
      const email = `borrador.mueve.${n}@empresa.test`;
      await addExhibitor(event.id, email);
      const edit = (votingOpensAt: string | null) =>
        app.api.send(updateEvent, {
          params: { eventId: event.id },
          body: {
            name: event.name,
            eventDate: '2026-07-15',
            voteDeadline: '2026-07-01',
            timeZone: 'America/Argentina/Buenos_Aires',
            closeTime: '23:59',
            votingOpensAt,
          },
        });
      const later = await edit('2026-06-20T08:30');
      expect(later.status).toBe(200);
      expect(answered(later).data).toMatchObject({
        status: 'draft',
        votingOpensAt: '2026-06-20T08:30',
      });
      expect(
        (await outbox(event.id, 'exhibitor-invitation')).map((m) => m.next_attempt_at),
      ).toEqual(['2026-06-20T11:30:00.000Z']);
      const history = await app.db
        .selectFrom('audit_log')
        .select('details')
        .where('event_id', '=', event.id)
        .where('action', '=', 'event.updated')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(history.details ?? '{}')).toMatchObject({
        before: { votingOpensAt: '2026-06-10T12:00:00.000Z' },
        after: { votingOpensAt: '2026-06-20T11:30:00.000Z' },
      });
      // An opening after the close is refused and changes nothing.
      const bad = refused(await edit('2026-07-02T00:00'));
      expect(bad.status).toBe(400);
      expect(bad.message).toBe(MSG.openingAfterClose);
      expect((await readEvent(event.id)).votingOpensAt).toBe('2026-06-20T08:30');
      expect(await t.deliverMail()).toBe(0);
      const removed = await edit(null);
      expect(answered(removed).data).toMatchObject({ status: 'open', votingOpensAt: null });
      expect(await t.deliverMail()).toBe(1);
      expect(t.smtp.allTo(email)).toHaveLength(1);
    });
  });

  describe('"Vista previa" (issue 31 item 5)', () => {
    it('shows an administrator the exhibitor screen of a draft as it will open, with empty lists; exhibitors cannot ask', async () => {
      const event = await created({
        timeZone: 'Europe/Madrid',
        closeTime: '20:30',
        votingOpensAt: '2026-06-20T10:00',
        nomineeFields: { ...DEFAULT_NOMINEE_FIELDS, phone: 'hidden', contactPosition: 'optional' },
      });
      const preview = await app.api.call(previewEvent, { params: { eventId: event.id } });
      expect(preview).toEqual({
        id: event.id,
        name: event.name,
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        votingOpen: true,
        timeZone: 'Europe/Madrid',
        closeTime: '20:30',
        // The form the exhibitors will get: the event's own "Datos del nominado".
        nomineeFields: { ...DEFAULT_NOMINEE_FIELDS, phone: 'hidden', contactPosition: 'optional' },
        nominableResellers: 'any',
        categories: DEFAULT_CATEGORY_VIEWS,
        lists: {
          consumption: { category: 'consumption', version: 0, savedAt: null, nominees: [] },
          value: { category: 'value', version: 0, savedAt: null, nominees: [] },
        },
        instantTexts: {},
      });
      const exhibitor = await addExhibitor(event.id, `vista.previa.${n}@empresa.test`);
      const denied = await (
        await exhSession(exhibitor)
      ).fail(previewEvent, { params: { eventId: event.id } });
      expect(denied.status).toBe(403);
      // After its close the preview says what the exhibitor then sees: voting has ended.
      await app.at('2026-07-01T18:31:00.000Z');
      const closed = await app.api.call(previewEvent, { params: { eventId: event.id } });
      expect(closed).toMatchObject({ votingOpen: false });
      const missing = await app.api.fail(previewEvent, {
        params: { eventId: '00000000-0000-4000-8000-000000000000' },
      });
      expect(missing.status).toBe(404);
      expect(missing.message).toBe(MSG.eventNotFound);
    });
  });
});
