import { describe, expect, it } from 'vitest';
import { createEvent as createEventEndpoint, updateEvent } from '../../src/shared/api/events.ts';
import { addExhibitor as addExhibitorEndpoint } from '../../src/shared/api/exhibitors.ts';
import type { EventUpdateInput } from '../../src/shared/schemas/events.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedNominations } from '../helpers/seed.ts';

const five = (prefix: string) =>
  Array.from({ length: 5 }, (_, i) => ({ fiscalId: `${prefix}${i + 1}` }));

describe('automatic reminders chosen per event', () => {
  const app = useTestApp();
  let n = 0;

  const createEvent = (reminders?: EventUpdateInput['reminders']) =>
    app.api.call(createEventEndpoint, {
      body: {
        name: `Premios Recordados ${++n}`,
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        ...(reminders ? { reminders } : {}),
      },
    });
  const addExhibitor = (eventId: string, email: string) =>
    app.api.call(addExhibitorEndpoint, {
      params: { eventId },
      body: { fullName: 'Expositor', email, company: 'E' },
    });
  const reminders = async (eventId: string) =>
    (
      await app.db
        .selectFrom('mail_outbox')
        .select(['to_address', 'status', 'next_attempt_at', 'params'])
        .where('event_id', '=', eventId)
        .where('template', '=', 'voting-reminder')
        .orderBy('to_address')
        .orderBy('next_attempt_at')
        .orderBy('status')
        .execute()
    ).map((m) => [m.to_address, JSON.parse(m.params).kind, m.status, m.next_attempt_at]);

  it('queues each chosen reminder at 09:00 of its day (the deadline-day one at 00:00) in the programme zone', async () => {
    const event = await createEvent(['deadlineDay', 'sevenDaysBefore', 'oneDayBefore']);
    expect(event.reminders).toEqual(['sevenDaysBefore', 'oneDayBefore', 'deadlineDay']);
    await addExhibitor(event.id, `uno.${n}@empresa.test`);
    // Buenos Aires is UTC-3.
    expect(await reminders(event.id)).toEqual([
      [`uno.${n}@empresa.test`, 'sevenDaysBefore', 'pending', '2026-06-24T12:00:00.000Z'],
      [`uno.${n}@empresa.test`, 'oneDayBefore', 'pending', '2026-06-30T12:00:00.000Z'],
      [`uno.${n}@empresa.test`, 'deadlineDay', 'pending', '2026-07-01T03:00:00.000Z'],
    ]);
  });

  it('keeps today’s behaviour when nothing is chosen: the deadline-day reminder only', async () => {
    const event = await createEvent();
    expect(event.reminders).toEqual(['deadlineDay']);
    await addExhibitor(event.id, `solo.${n}@empresa.test`);
    expect((await reminders(event.id)).map((r) => r[1])).toEqual(['deadlineDay']);
  });

  it('sends an early reminder only to exhibitors who are not complete, with their counts', async () => {
    const event = await createEvent(['threeDaysBefore']);
    const complete = await addExhibitor(event.id, `completo.${n}@empresa.test`);
    await addExhibitor(event.id, `incompleto.${n}@empresa.test`);
    for (const category of ['consumption', 'value'] as const) {
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: complete.id,
        category,
        nominees: five(category === 'value' ? '31' : '32'),
      });
    }
    await app.t.deliverMail(); // invitations
    app.t.clock.set('2026-06-28T11:59:00.000Z');
    await app.t.deliverMail();
    expect(app.t.smtp.allTo(`incompleto.${n}@empresa.test`)).toHaveLength(1);
    app.t.clock.set('2026-06-28T12:00:00.000Z');
    await app.t.deliverMail();
    const mail = app.t.smtp.latestTo(`incompleto.${n}@empresa.test`);
    expect(mail?.subject).toBe(`Faltan 3 días para el cierre de la votación de ${event.name}`);
    expect(mail?.text).toContain(
      `La votación cierra el 1/7/2026 a las 23:59 (hora de Buenos Aires). Todavía puedes completar tus nominaciones de ${event.name}.`,
    );
    expect(mail?.text).toContain('Nominaciones en CONSUMO: 0 de 5.');
    expect(mail?.text).toContain('Nominaciones en VALOR AGREGADO: 0 de 5.');
    expect(app.t.smtp.allTo(`completo.${n}@empresa.test`)).toHaveLength(1);
    expect(await reminders(event.id)).toEqual([
      [`completo.${n}@empresa.test`, 'threeDaysBefore', 'cancelled', '2026-06-28T12:00:00.000Z'],
      [`incompleto.${n}@empresa.test`, 'threeDaysBefore', 'sent', '2026-06-28T12:00:00.000Z'],
    ]);
  });

  it('follows the event dialog: an unchecked reminder is withdrawn, a checked one queued, all move with the deadline', async () => {
    const event = await createEvent(['oneDayBefore', 'deadlineDay']);
    await addExhibitor(event.id, `mueve.${n}@empresa.test`);
    const edit = (fields: Pick<EventUpdateInput, 'voteDeadline' | 'reminders'>) =>
      app.api.call(updateEvent, {
        params: { eventId: event.id },
        body: { name: event.name, eventDate: '2026-07-15', ...fields },
      });
    const changed = await edit({
      voteDeadline: '2026-07-01',
      reminders: ['sevenDaysBefore', 'oneDayBefore'],
    });
    expect(changed.reminders).toEqual(['sevenDaysBefore', 'oneDayBefore']);
    expect(await reminders(event.id)).toEqual([
      [`mueve.${n}@empresa.test`, 'sevenDaysBefore', 'pending', '2026-06-24T12:00:00.000Z'],
      [`mueve.${n}@empresa.test`, 'oneDayBefore', 'pending', '2026-06-30T12:00:00.000Z'],
      [`mueve.${n}@empresa.test`, 'deadlineDay', 'cancelled', '2026-07-01T03:00:00.000Z'],
    ]);
    // An edit that leaves the reminders out keeps them; a moved deadline moves them.
    const moved = await edit({ voteDeadline: '2026-07-05' });
    expect(moved.reminders).toEqual(['sevenDaysBefore', 'oneDayBefore']);
    expect(await reminders(event.id)).toEqual([
      [`mueve.${n}@empresa.test`, 'sevenDaysBefore', 'pending', '2026-06-28T12:00:00.000Z'],
      [`mueve.${n}@empresa.test`, 'deadlineDay', 'cancelled', '2026-07-01T03:00:00.000Z'],
      [`mueve.${n}@empresa.test`, 'oneDayBefore', 'pending', '2026-07-04T12:00:00.000Z'],
    ]);
    const audit = await app.db
      .selectFrom('audit_log')
      .select('details')
      .where('event_id', '=', event.id)
      .where('action', '=', 'event.updated')
      .orderBy('id')
      .execute();
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({
      before: { reminders: ['oneDayBefore', 'deadlineDay'] },
      after: { reminders: ['sevenDaysBefore', 'oneDayBefore'] },
    });
  });

  it('refuses an unknown reminder with 400 and creates nothing', async () => {
    const before = await app.db.selectFrom('events').select('id').execute();
    const response = await app.t.request({
      method: 'POST',
      url: '/api/events',
      as: app.as,
      payload: {
        name: 'Mal',
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        reminders: ['cadaHora'],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(await app.db.selectFrom('events').select('id').execute()).toEqual(before);
  });
});
