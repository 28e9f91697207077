import { describe, expect, it } from 'vitest';
import type { Category } from '../../src/shared/constants.ts';
import { formatDisplayInstant } from '../../src/shared/dates.ts';
import { myEvent } from '../../src/shared/api/nominations.ts';
import { annulList, restoreList } from '../../src/shared/api/annulment.ts';
import { editVote, merge, undoMerge } from '../../src/shared/api/results.ts';
import { claimDueMail } from '../../src/server/mail/outbox.ts';
import { TEST_NOW, TEST_TIMEZONE } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { nomineeInput } from '../helpers/nominee.ts';
import {
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
  type NomineeSeed,
} from '../helpers/seed.ts';

const MINUTE = 60_000;
const later = (minutes: number) => new Date(Date.parse(TEST_NOW) + minutes * MINUTE).toISOString();

/**
 * Issue 28, item 1: every change an administrator makes to an exhibitor's list (a correction, a
 * merge, its undo) is mailed to the exhibitor, debounced to one message per exhibitor per ten quiet
 * minutes, and the exhibitor's event shows the latest one above the lists.
 */
describe('the exhibitor is told of every change to their lists', () => {
  const app = useTestApp({ admin: { fullName: 'Ana Administradora' } });
  let n = 0;

  async function setUp(lists: Partial<Record<Category, NomineeSeed[]>>, eventName?: string) {
    const event = await seedEvent(app.db, { name: eventName ?? `Premios Cambios ${++n}` });
    const exhibitor = await member(event.id, `cambios${++n}@empresa.test`, lists);
    return { event, exhibitor };
  }
  async function member(
    eventId: string,
    email: string,
    lists: Partial<Record<Category, NomineeSeed[]>>,
  ) {
    const exhibitor = await seedExhibitor(app.db, { email });
    await seedMembership(app.db, eventId, exhibitor.id);
    for (const [category, nominees] of Object.entries(lists) as [Category, NomineeSeed[]][]) {
      await seedNominations(app.db, { eventId, exhibitorId: exhibitor.id, category, nominees });
    }
    return exhibitor;
  }
  const messages = (eventId: string) =>
    app.db
      .selectFrom('mail_outbox')
      .select(['exhibitor_id', 'status', 'next_attempt_at', 'cancel_reason', 'params'])
      .where('template', '=', 'list-change')
      .where('event_id', '=', eventId)
      .orderBy('created_at')
      .execute();
  /** This event's messages that went out (other tests' messages may go out at the same time). */
  const sentCount = async (eventId: string) =>
    (await messages(eventId)).filter((m) => m.status === 'sent').length;
  const versionOf = async (eventId: string, exhibitorId: string, category: Category) =>
    Number(
      (
        await app.db
          .selectFrom('nomination_lists')
          .select('version')
          .where('event_id', '=', eventId)
          .where('exhibitor_id', '=', exhibitorId)
          .where('category', '=', category)
          .executeTakeFirstOrThrow()
      ).version,
    );
  async function correct(
    eventId: string,
    exhibitorId: string,
    category: Category,
    order: number,
    fiscalId: string,
    name: string,
    reason: { reason: 'typo' | 'wrongFiscalId' | 'exhibitorRequest' | 'other'; detail?: string },
  ) {
    return app.api.call(editVote, {
      params: { eventId, exhibitorId, category, order },
      body: {
        ...nomineeInput(fiscalId, { name }),
        ...reason,
        version: await versionOf(eventId, exhibitorId, category),
      },
    });
  }
  const link = (eventId: string) =>
    `Revisar mis nominaciones: http://premios.test/exh/event/${eventId}`;

  it('mails one message ten minutes after a correction, with the list before and after, the administrator and the reason; the exhibitor sees the banner', async () => {
    const { event, exhibitor } = await setUp({
      consumption: [
        { fiscalId: '20111111112', name: 'Alfa Redes' },
        { fiscalId: '20222222223', name: 'Beta Sistemas' },
        { fiscalId: '20333333334', name: 'Gamma Servicios' },
      ],
    });
    await correct(event.id, exhibitor.id, 'consumption', 2, '20222222229', 'Beta Sistemas SRL', {
      reason: 'wrongFiscalId',
      detail: 'CUIT mal copiado',
    });

    const [queued] = await messages(event.id);
    expect(await messages(event.id)).toHaveLength(1);
    expect(queued).toMatchObject({
      exhibitor_id: exhibitor.id,
      status: 'pending',
      next_attempt_at: later(10),
    });
    const params = JSON.parse(queued?.params ?? '{}') as Record<string, unknown>;
    expect(Object.keys(params).sort()).toEqual(['batchId', 'eventId', 'exhibitorId']);
    expect(params).toMatchObject({ eventId: event.id, exhibitorId: exhibitor.id });

    // Not before the quiet spell ends.
    app.t.clock.set(new Date(Date.parse(later(10)) - 1000));
    await app.t.deliverMail();
    expect(await sentCount(event.id)).toBe(0);
    app.t.clock.set(later(10));
    await app.t.deliverMail();
    expect(await sentCount(event.id)).toBe(1);
    const mail = await app.t.smtp.waitFor(exhibitor.email);
    expect(mail.subject).toBe(`Se modificaron tus nominaciones en ${event.name}`);
    expect(mail.text.trimEnd()).toBe(
      [
        `La organización de ${event.name} modificó tus nominaciones. Así estaban y así quedaron:`,
        'CONSUMO:',
        'Antes:',
        '1. Alfa Redes (ID fiscal 20111111112)',
        '2. Beta Sistemas (ID fiscal 20222222223)',
        '3. Gamma Servicios (ID fiscal 20333333334)',
        'Después:',
        '1. Alfa Redes (ID fiscal 20111111112)',
        '2. Beta Sistemas SRL (ID fiscal 20222222229)',
        '3. Gamma Servicios (ID fiscal 20333333334)',
        'Modificado por Ana Administradora el 1/6/2026 09:00 (hora de Buenos Aires). Motivo: ID fiscal equivocado (CUIT mal copiado)',
        link(event.id),
      ].join('\n\n'),
    );
    expect((await messages(event.id)).map((m) => m.status)).toEqual(['sent']);

    // The exhibitor's event carries the latest change; the screen shows it in the event's zone.
    const exh = await app.exhibitor(exhibitor.id);
    const shown = await exh.call(myEvent, { params: { eventId: event.id } });
    expect(shown.organizationChange).toEqual({
      at: TEST_NOW,
      reason: 'ID fiscal equivocado (CUIT mal copiado)',
    });
    expect(
      `Modificado por la organización el ${formatDisplayInstant(shown.organizationChange?.at ?? '', shown.timeZone)}: ${shown.organizationChange?.reason}`,
    ).toBe(
      'Modificado por la organización el 1-6-2026 09:00: ID fiscal equivocado (CUIT mal copiado)',
    );
    expect(shown.timeZone).toBe(TEST_TIMEZONE);
    // The screen reads the change's instant as the server wrote it, without formatting it itself.
    expect(shown.instantTexts[TEST_NOW]).toBe('1-6-2026 09:00');

    // Nothing more, however long the lists rest.
    app.t.clock.set(later(24 * 60));
    await app.t.deliverMail();
    expect(await sentCount(event.id)).toBe(1);
    expect(app.t.smtp.allTo(exhibitor.email)).toHaveLength(1);
  });

  it('an exhibitor with no change by an administrator has no banner', async () => {
    const { event, exhibitor } = await setUp({
      consumption: [{ fiscalId: '20111111112', name: 'Alfa Redes' }],
    });
    const exh = await app.exhibitor(exhibitor.id);
    expect(await exh.call(myEvent, { params: { eventId: event.id } })).not.toHaveProperty(
      'organizationChange',
    );
    expect(await messages(event.id)).toEqual([]);
  });

  it('joins changes within ten minutes of each other into one message, both categories, each change with its reason; the banner shows the latest', async () => {
    const { event, exhibitor } = await setUp({
      consumption: [{ fiscalId: '20111111112', name: 'Alfa Redes' }],
      value: [{ fiscalId: '30444444445', name: 'Delta Datos' }],
    });
    await correct(event.id, exhibitor.id, 'consumption', 1, '20111111112', 'Alfa Redes SA', {
      reason: 'typo',
    });
    await app.at(later(6));
    await correct(event.id, exhibitor.id, 'value', 1, '30444444446', 'Delta Datos', {
      reason: 'exhibitorRequest',
    });
    // Still one message, now due ten minutes after the second change.
    expect((await messages(event.id)).map((m) => [m.status, m.next_attempt_at])).toEqual([
      ['pending', later(16)],
    ]);
    app.t.clock.set(later(15));
    await app.t.deliverMail();
    expect(await sentCount(event.id)).toBe(0);
    app.t.clock.set(later(16));
    await app.t.deliverMail();
    expect(await sentCount(event.id)).toBe(1);
    const mail = await app.t.smtp.waitFor(exhibitor.email);
    expect(mail.text.trimEnd()).toBe(
      [
        `La organización de ${event.name} modificó tus nominaciones. Así estaban y así quedaron:`,
        'CONSUMO:',
        'Antes:',
        '1. Alfa Redes (ID fiscal 20111111112)',
        'Después:',
        '1. Alfa Redes SA (ID fiscal 20111111112)',
        'VALOR AGREGADO:',
        'Antes:',
        '1. Delta Datos (ID fiscal 30444444445)',
        'Después:',
        '1. Delta Datos (ID fiscal 30444444446)',
        'Modificado por Ana Administradora el 1/6/2026 09:00 (hora de Buenos Aires). Motivo: Error de tipeo',
        'Modificado por Ana Administradora el 1/6/2026 09:06 (hora de Buenos Aires). Motivo: Pedido del expositor',
        link(event.id),
      ].join('\n\n'),
    );
    const exh = await app.exhibitor(exhibitor.id);
    expect((await exh.call(myEvent, { params: { eventId: event.id } })).organizationChange).toEqual(
      { at: later(6), reason: 'Pedido del expositor' },
    );

    // A change after the message went out starts a new one.
    await app.at(later(30));
    await correct(event.id, exhibitor.id, 'value', 1, '30444444447', 'Delta Datos', {
      reason: 'other',
      detail: 'Pedido del comité',
    });
    expect((await messages(event.id)).map((m) => [m.status, m.next_attempt_at])).toEqual([
      ['sent', later(16)],
      ['pending', later(40)],
    ]);
  });

  it('a change made while its message is being sent starts a new message of its own', async () => {
    const { event, exhibitor } = await setUp({
      consumption: [{ fiscalId: '20111111112', name: 'Alfa Redes' }],
    });
    await correct(event.id, exhibitor.id, 'consumption', 1, '20111111113', 'Alfa Redes', {
      reason: 'typo',
    });
    await app.at(later(10));
    // The worker claims the due message (it may be reading its batch right now)…
    const claimed = await claimDueMail(app.db, app.t.deps.engine, app.t.clock.now(), {
      limit: 1000,
      claimMs: 60_000,
    });
    expect(claimed.filter((m) => m.event_id === event.id)).toHaveLength(1);
    // …so the next change is not folded into it.
    await correct(event.id, exhibitor.id, 'consumption', 1, '20111111114', 'Alfa Redes', {
      reason: 'exhibitorRequest',
    });
    const rows = await messages(event.id);
    expect(rows.map((m) => [m.status, m.next_attempt_at])).toEqual([
      ['pending', later(10)],
      ['pending', later(20)],
    ]);
    const batches = rows.map((m) => (JSON.parse(m.params) as { batchId: string }).batchId);
    const changes = await app.db
      .selectFrom('list_changes')
      .select(['batch_id', 'reason'])
      .where('event_id', '=', event.id)
      .orderBy('id')
      .execute();
    expect(changes).toEqual([
      { batch_id: batches[0], reason: 'Error de tipeo' },
      { batch_id: batches[1], reason: 'Pedido del expositor' },
    ]);
  });

  it('two corrections of one exhibitor sent at once, one per category, queue one message', async () => {
    const { event, exhibitor } = await setUp({
      consumption: [{ fiscalId: '20111111112', name: 'Alfa Redes' }],
      value: [{ fiscalId: '30444444445', name: 'Delta Datos' }],
    });
    const [consumptionVersion, valueVersion] = [
      await versionOf(event.id, exhibitor.id, 'consumption'),
      await versionOf(event.id, exhibitor.id, 'value'),
    ];
    await Promise.all([
      app.api.call(editVote, {
        params: { eventId: event.id, exhibitorId: exhibitor.id, category: 'consumption', order: 1 },
        body: { ...nomineeInput('20111111113'), reason: 'typo', version: consumptionVersion },
      }),
      app.api.call(editVote, {
        params: { eventId: event.id, exhibitorId: exhibitor.id, category: 'value', order: 1 },
        body: { ...nomineeInput('30444444446'), reason: 'typo', version: valueVersion },
      }),
    ]);
    expect((await messages(event.id)).map((m) => m.status)).toEqual(['pending']);
    const changes = await app.db
      .selectFrom('list_changes')
      .select(['category', 'batch_id'])
      .where('event_id', '=', event.id)
      .orderBy('category')
      .execute();
    expect(changes.map((c) => c.category)).toEqual(['consumption', 'value']);
    expect(new Set(changes.map((c) => c.batch_id)).size).toBe(1);
  });

  it('a merge names its target as the other lists hold it when no rewritten list did', async () => {
    const event = await seedEvent(app.db, { name: `Premios Unificar ${++n}` });
    await member(event.id, `ruth${n}@empresa.test`, {
      consumption: [{ fiscalId: '20111111111', name: 'Alfa' }],
    });
    const ernesto = await member(event.id, `ernesto${n}@empresa.test`, {
      consumption: [{ fiscalId: '20111111119', name: 'Alfa SA' }],
    });
    await app.api.call(merge, {
      params: { eventId: event.id, category: 'consumption' },
      body: { into: '20111111111', from: ['20111111119'] },
    });
    app.t.clock.set(later(10));
    await app.t.deliverMail();
    const mail = await app.t.smtp.waitFor(ernesto.email);
    expect(mail.text).toContain(
      'Motivo: Nominados unificados por ser el mismo reseller: Alfa SA (20111111119) → Alfa (20111111111)',
    );
  });

  it('a merge tells each exhibitor whose list it rewrote, once, with the list before and after', async () => {
    const event = await seedEvent(app.db, { name: `Premios Unificar ${++n}` });
    const elena = await member(event.id, `elena${n}@empresa.test`, {
      consumption: [
        { fiscalId: '20111111111', name: 'Alfa' },
        { fiscalId: '20222222222', name: 'Beta' },
        { fiscalId: '20111111119', name: 'Alfa SA' },
      ],
    });
    const ernesto = await member(event.id, `ernesto${n}@empresa.test`, {
      consumption: [{ fiscalId: '20111111119', name: 'Alfa SA' }],
    });
    const ruth = await member(event.id, `ruth${n}@empresa.test`, {
      consumption: [{ fiscalId: '20333333333', name: 'Gamma' }],
    });
    await app.api.call(merge, {
      params: { eventId: event.id, category: 'consumption' },
      body: { into: '20111111111', from: ['20111111119'] },
    });
    // Ernesto's list now names 20111111111; Ruth's was not touched.
    expect(
      (await messages(event.id)).map((m) => m.exhibitor_id).sort((a, b) => (a! < b! ? -1 : 1)),
    ).toEqual([elena.id, ernesto.id].sort());
    app.t.clock.set(later(10));
    await app.t.deliverMail();
    expect(await sentCount(event.id)).toBe(2);
    expect(app.t.smtp.allTo(ruth.email)).toHaveLength(0);
    const mail = await app.t.smtp.waitFor(elena.email);
    expect(mail.subject).toBe(`Se modificaron tus nominaciones en ${event.name}`);
    expect(mail.text.trimEnd()).toBe(
      [
        `La organización de ${event.name} modificó tus nominaciones. Así estaban y así quedaron:`,
        'CONSUMO:',
        'Antes:',
        '1. Alfa (ID fiscal 20111111111)',
        '2. Beta (ID fiscal 20222222222)',
        '3. Alfa SA (ID fiscal 20111111119)',
        'Después:',
        '1. Alfa (ID fiscal 20111111111)',
        '2. Beta (ID fiscal 20222222222)',
        'Modificado por Ana Administradora el 1/6/2026 09:00 (hora de Buenos Aires). Motivo: Nominados unificados por ser el mismo reseller: Alfa SA (20111111119) → Alfa (20111111111)',
        link(event.id),
      ].join('\n\n'),
    );
    const toErnesto = await app.t.smtp.waitFor(ernesto.email);
    expect(toErnesto.text).toContain(
      [
        'Antes:',
        '1. Alfa SA (ID fiscal 20111111119)',
        'Después:',
        '1. Alfa SA (ID fiscal 20111111111)',
      ].join('\n\n'),
    );
  });

  it('a merge touching 300 lists sends 300 messages, and its undo within ten minutes folds into them with the net before and after', async () => {
    const event = await seedEvent(app.db, { name: `Premios Masivos ${++n}` });
    // 300 exhibitors with their lists, written in a few multi-row statements.
    const stamp = '2026-01-01T00:00:00.000Z';
    const exhibitors = Array.from({ length: 300 }, (_, i) => ({
      id: `masivo-${n}-${String(i).padStart(3, '0')}`,
      email: `masivo${n}-${i}@empresa.test`,
    }));
    const fiscalIds = (i: number) => [
      { fiscalId: '20999999999', name: 'Omega' },
      { fiscalId: i % 2 === 0 ? '20111111119' : '20111111111', name: 'Alfa' },
    ];
    await app.db
      .insertInto('exhibitors')
      .values(
        exhibitors.map(({ id, email }) => ({
          id,
          email,
          full_name: 'Esteban Expositor',
          company: 'Distribuidora Norte',
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute();
    await app.db
      .insertInto('event_exhibitors')
      .values(
        exhibitors.map(({ id }) => ({
          event_id: event.id,
          exhibitor_id: id,
          invited_by: null,
          invitation_message_id: null,
          created_at: stamp,
          invited_at: stamp,
        })),
      )
      .execute();
    await app.db
      .insertInto('nomination_lists')
      .values(
        exhibitors.map(({ id }) => ({
          event_id: event.id,
          exhibitor_id: id,
          category: 'consumption' as const,
          version: 1,
          updated_at: stamp,
        })),
      )
      .execute();
    await app.db
      .insertInto('nominations')
      .values(
        exhibitors.flatMap(({ id }, i) =>
          fiscalIds(i).map(({ fiscalId, name }, index) => ({
            event_id: event.id,
            exhibitor_id: id,
            category: 'consumption' as const,
            list_order: index + 1,
            fiscal_id: fiscalId,
            name,
            registered_name: `${name} S.A.`,
            contact_name: 'Carla Contacto',
            contact_position: 'Gerente Comercial',
            phone: '1155550000',
            email: `contacto${fiscalId}@reseller.test`,
            location: 'Palermo',
            city: 'Buenos Aires',
            nominated_at: stamp,
            updated_at: stamp,
          })),
        ),
      )
      .execute();
    const merged = await app.api.call(merge, {
      params: { eventId: event.id, category: 'consumption' },
      body: { into: '20111111111', from: ['20111111119', '20999999999'] },
    });
    expect(merged.lists).toBe(300);
    expect(await messages(event.id)).toHaveLength(300);
    await app.at(later(4));
    await app.api.call(undoMerge, {
      params: { eventId: event.id, auditId: String(merged.auditId) },
    });
    const queued = await messages(event.id);
    expect(queued).toHaveLength(300);
    expect(new Set(queued.map((m) => m.exhibitor_id)).size).toBe(300);
    expect(new Set(queued.map((m) => m.next_attempt_at))).toEqual(new Set([later(14)]));
    expect(
      await app.db
        .selectFrom('list_changes')
        .select('id')
        .where('event_id', '=', event.id)
        .execute(),
    ).toHaveLength(600);

    app.t.clock.set(later(14));
    await app.t.deliverMail();
    expect(await sentCount(event.id)).toBe(300);
    for (const exhibitor of exhibitors) {
      expect(app.t.smtp.allTo(exhibitor.email)).toHaveLength(1);
    }
    const first = exhibitors[0];
    const mail = app.t.smtp.latestTo(first?.email ?? '');
    const list = ['1. Omega (ID fiscal 20999999999)', '2. Alfa (ID fiscal 20111111119)'];
    expect(mail?.text.trimEnd()).toBe(
      [
        `La organización de ${event.name} modificó tus nominaciones. Así estaban y así quedaron:`,
        'CONSUMO:',
        'Antes:',
        ...list,
        'Después:',
        ...list,
        'Modificado por Ana Administradora el 1/6/2026 09:00 (hora de Buenos Aires). Motivo: Nominados unificados por ser el mismo reseller: Alfa (20111111119), Omega (20999999999) → Alfa (20111111111)',
        'Modificado por Ana Administradora el 1/6/2026 09:04 (hora de Buenos Aires). Motivo: Unificación deshecha: Alfa (20111111111) vuelve a ser Alfa (20111111119), Omega (20999999999)',
        link(event.id),
      ].join('\n\n'),
    );
    expect((await messages(event.id)).every((m) => m.status === 'sent')).toBe(true);
  });

  it('no message to an exhibitor never invited, nor once the event is archived; the change is still shown', async () => {
    const { event, exhibitor } = await setUp({
      consumption: [{ fiscalId: '20111111112', name: 'Alfa Redes' }],
    });
    const uninvited = await member(event.id, `sin-invitar${n}@empresa.test`, {
      consumption: [{ fiscalId: '20111111112', name: 'Alfa Redes' }],
    });
    await app.db
      .updateTable('event_exhibitors')
      .set({ invited_at: null })
      .where('event_id', '=', event.id)
      .where('exhibitor_id', '=', uninvited.id)
      .execute();
    await correct(event.id, exhibitor.id, 'consumption', 1, '20111111113', 'Alfa Redes', {
      reason: 'typo',
    });
    await correct(event.id, uninvited.id, 'consumption', 1, '20111111113', 'Alfa Redes', {
      reason: 'typo',
    });
    app.t.clock.set(later(10));
    await app.t.deliverMail();
    const byExhibitor = new Map(
      (await messages(event.id)).map((m) => [m.exhibitor_id, [m.status, m.cancel_reason]]),
    );
    expect(byExhibitor.get(exhibitor.id)).toEqual(['sent', null]);
    expect(byExhibitor.get(uninvited.id)).toEqual(['cancelled', 'not_invited']);
    expect(app.t.smtp.allTo(uninvited.email)).toHaveLength(0);

    // Archived before the quiet spell ends: withdrawn with its reason.
    await app.at(later(20));
    await correct(event.id, exhibitor.id, 'consumption', 1, '20111111114', 'Alfa Redes', {
      reason: 'typo',
    });
    await app.db
      .updateTable('events')
      .set({ archived_at: later(21) })
      .where('id', '=', event.id)
      .execute();
    app.t.clock.set(later(30));
    await app.t.deliverMail();
    const last = (await messages(event.id)).filter((m) => m.exhibitor_id === exhibitor.id).at(-1);
    expect([last?.status, last?.cancel_reason]).toEqual(['cancelled', 'archived']);
    expect(app.t.smtp.allTo(exhibitor.email)).toHaveLength(1);
  });
  it('an annulment and its reversal are mailed too, in one message when they come within ten minutes; the banner names the latest', async () => {
    const { event, exhibitor } = await setUp({
      value: [
        { fiscalId: '20111111112', name: 'Alfa Redes' },
        { fiscalId: '20222222223', name: 'Beta Sistemas' },
      ],
    });
    const params = { eventId: event.id, exhibitorId: exhibitor.id, category: 'value' as const };
    await app.api.call(annulList, { params, body: { reason: 'Lista copiada de otro expositor' } });
    await app.at(later(4));
    await app.api.call(restoreList, { params });
    expect(await messages(event.id)).toHaveLength(1);

    app.t.clock.set(later(14));
    await app.t.deliverMail();
    const mail = await app.t.smtp.waitFor(exhibitor.email);
    expect(mail.subject).toBe(`Se modificaron tus nominaciones en ${event.name}`);
    expect(mail.text.trimEnd()).toBe(
      [
        `La organización de ${event.name} modificó tus nominaciones. Así estaban y así quedaron:`,
        'VALOR AGREGADO:',
        'Antes:',
        '1. Alfa Redes (ID fiscal 20111111112)',
        '2. Beta Sistemas (ID fiscal 20222222223)',
        'Después:',
        '1. Alfa Redes (ID fiscal 20111111112)',
        '2. Beta Sistemas (ID fiscal 20222222223)',
        'Modificado por Ana Administradora el 1/6/2026 09:00 (hora de Buenos Aires). Motivo: Votos anulados: Lista copiada de otro expositor',
        'Modificado por Ana Administradora el 1/6/2026 09:04 (hora de Buenos Aires). Motivo: Votos restablecidos (se habían anulado por: Lista copiada de otro expositor)',
        link(event.id),
      ].join('\n\n'),
    );
    const exh = await app.exhibitor(exhibitor.id);
    expect((await exh.call(myEvent, { params: { eventId: event.id } })).organizationChange).toEqual(
      {
        at: later(4),
        reason: 'Votos restablecidos (se habían anulado por: Lista copiada de otro expositor)',
      },
    );
  });
});
