import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hitThrottle } from '../../src/server/lib/throttle.ts';
import {
  invitationCounterKey,
  invitationsPerAddress,
} from '../../src/server/mail/invitation-queue.ts';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, TEST_NOW, type Session, type TestApp } from '../helpers/app.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';

/*
 * Issue 32, item 2: "Reenviar invitaciones" and "Eliminar expositores" on the ticked rows of the
 * exhibitors tab. Each does what the row's own button does, within the same rules, once per
 * exhibitor however many requests arrive at once.
 */

const LIMIT = invitationsPerAddress.max;

describe('bulk actions on the exhibitors tab', () => {
  let t: TestApp;
  let as: Session;
  let admin: Awaited<ReturnType<typeof seedAdmin>>;
  let counter = 0;
  const address = () => `masivo${++counter}@lista.test`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await seedAdmin(t.deps.db, { fullName: 'Ana Administradora' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(TEST_NOW);
    as = await t.signIn({ role: 'admin', adminId: admin.id });
  });

  const post = (url: string, exhibitorIds: unknown) =>
    t.request({ method: 'POST', url, as, payload: { exhibitorIds } });
  const resendAll = (eventId: string, ids: unknown) =>
    post(`/api/events/${eventId}/exhibitors/invitations`, ids);
  const impact = (eventId: string, ids: unknown) =>
    post(`/api/events/${eventId}/exhibitors/removal-impact`, ids);
  const removeAll = (eventId: string, ids: unknown) =>
    post(`/api/events/${eventId}/exhibitors/removal`, ids);

  /** Adds an exhibitor through the API: invited, with a pending invitation and a reminder. */
  const add = async (eventId: string, fullName: string, email = address()) => {
    const response = await t.request({
      method: 'POST',
      url: `/api/events/${eventId}/exhibitors`,
      as,
      payload: { fullName, email, company: 'Lista SA' },
    });
    expect(response.statusCode).toBe(201);
    return { id: response.json().id as string, email };
  };
  /** An exhibitor added without an invitation (unchecked at import): not invited yet. */
  const addUninvited = async (eventId: string, fullName: string) => {
    const exhibitor = await seedExhibitor(t.deps.db, { fullName, email: address() });
    await seedMembership(t.deps.db, eventId, exhibitor.id);
    await t.deps.db
      .updateTable('event_exhibitors')
      .set({ invited_at: null })
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    return { id: exhibitor.id, email: exhibitor.email };
  };
  const mailTo = (email: string, template: string) =>
    t.deps.db
      .selectFrom('mail_outbox')
      .select(['id', 'status'])
      .where('to_address', '=', email)
      .where('template', '=', template)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  const membership = (eventId: string, exhibitorId: string) =>
    t.deps.db
      .selectFrom('event_exhibitors')
      .select(['invitation_message_id', 'invited_at'])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .executeTakeFirst();
  const audits = (eventId: string, action: string) =>
    t.deps.db
      .selectFrom('audit_log')
      .select(['details', 'actor_id'])
      .where('event_id', '=', eventId)
      .where('action', '=', action)
      .execute();
  /** Uses up `times` of the address's invitations for the hour, as earlier invitations did. */
  const spend = async (email: string, times: number) => {
    for (let i = 0; i < times; i++) {
      await hitThrottle(
        t.deps.db,
        invitationsPerAddress,
        invitationCounterKey(email),
        new Date(TEST_NOW),
      );
    }
  };

  it('re-sends every selected invitation: earlier unsent ones withdrawn, the uninvited invited, audited once', async () => {
    const event = await seedEvent(t.deps.db, { name: 'Reenvío masivo' });
    const ana = await add(event.id, 'Ana');
    const beto = await add(event.id, 'Beto');
    const ciro = await addUninvited(event.id, 'Ciro');
    const other = await add(event.id, 'Otro');
    const [anaFirst] = await mailTo(ana.email, 'exhibitor-invitation');
    t.clock.advance(60_000);

    const response = await resendAll(event.id, [ana.id, beto.id, ciro.id]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ resent: 3, limited: 0 });

    for (const person of [ana, beto]) {
      const invitations = await mailTo(person.email, 'exhibitor-invitation');
      expect(invitations.map((m) => m.status)).toEqual(['cancelled', 'pending']);
      expect((await membership(event.id, person.id))?.invitation_message_id).toBe(
        invitations[1]?.id,
      );
    }
    expect(anaFirst?.id).not.toBe((await membership(event.id, ana.id))?.invitation_message_id);
    // Ciro is invited now: his invitation, and from now on his reminders.
    expect((await mailTo(ciro.email, 'exhibitor-invitation')).map((m) => m.status)).toEqual([
      'pending',
    ]);
    expect(await membership(event.id, ciro.id)).toMatchObject({
      invited_at: new Date(Date.parse(TEST_NOW) + 60_000).toISOString(),
    });
    expect((await mailTo(ciro.email, 'voting-reminder')).length).toBeGreaterThan(0);
    // Nobody else is mailed.
    expect((await mailTo(other.email, 'exhibitor-invitation')).map((m) => m.status)).toEqual([
      'pending',
    ]);
    const [entry, ...more] = await audits(event.id, 'exhibitors.invitations_resent');
    expect(more).toEqual([]);
    expect(entry?.actor_id).toBe(admin.id);
    expect(JSON.parse(entry?.details ?? '{}')).toEqual({
      resent: [ana.email, beto.email, ciro.email].sort((a, b) => {
        const ids = new Map([
          [ana.email, ana.id],
          [beto.email, beto.id],
          [ciro.email, ciro.id],
        ]);
        return (ids.get(a) ?? '') < (ids.get(b) ?? '') ? -1 : 1;
      }),
      limited: 0,
    });
  });

  it('leaves out an address that had its invitations for the hour, as "Reenviar invitación" does', async () => {
    const event = await seedEvent(t.deps.db);
    const full = await add(event.id, 'Llena');
    const room = await add(event.id, 'Con lugar');
    await spend(full.email, LIMIT - 1);
    const [before] = await mailTo(full.email, 'exhibitor-invitation');
    t.clock.advance(60_000);

    const response = await resendAll(event.id, [full.id, room.id]);
    expect(response.json()).toEqual({ resent: 1, limited: 1 });
    // The full address keeps its earlier invitation, unwithdrawn and linked.
    expect((await mailTo(full.email, 'exhibitor-invitation')).map((m) => m.status)).toEqual([
      'pending',
    ]);
    expect((await membership(event.id, full.id))?.invitation_message_id).toBe(before?.id);
    expect((await mailTo(room.email, 'exhibitor-invitation')).map((m) => m.status)).toEqual([
      'cancelled',
      'pending',
    ]);
  });

  it('queues no more than the per-address rule allows when re-sends arrive at once', async () => {
    const event = await seedEvent(t.deps.db);
    const people = [
      await add(event.id, 'Uno'),
      await add(event.id, 'Dos'),
      await add(event.id, 'Tres'),
    ];
    // One invitation each already; two more fit in the hour.
    for (const person of people) await spend(person.email, LIMIT - 3);
    const ids = people.map((p) => p.id);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0 ? resendAll(event.id, ids) : resendAll(event.id, [...ids].reverse()),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const resent = answers.reduce((sum, a) => sum + (a.json().resent as number), 0);
    expect(resent).toBe(6);
    for (const person of people) {
      const invitations = await mailTo(person.email, 'exhibitor-invitation');
      // The first invitation and two re-sends, of which only the newest is still to go.
      expect(invitations).toHaveLength(3);
      expect(invitations.filter((m) => m.status === 'pending')).toHaveLength(1);
      expect((await membership(event.id, person.id))?.invitation_message_id).toBe(
        invitations.find((m) => m.status === 'pending')?.id,
      );
    }
  });

  it('says how many exhibitors and nominations a removal would discard, and changes nothing', async () => {
    const event = await seedEvent(t.deps.db);
    const ana = await add(event.id, 'Ana');
    const beto = await add(event.id, 'Beto');
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: ana.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30711111111' }, { fiscalId: '30722222222' }],
    });
    await seedNominations(t.deps.db, {
      eventId: event.id,
      exhibitorId: beto.id,
      category: 'value',
      nominees: [{ fiscalId: '30733333333' }],
    });
    const elsewhere = await seedExhibitor(t.deps.db);
    const response = await impact(event.id, [ana.id, beto.id, elsewhere.id]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ exhibitors: 2, nominations: 3 });
    expect(await membership(event.id, ana.id)).toBeDefined();
  });

  it('removes the selected exhibitors with their nominations and unsent mail, audited as one', async () => {
    const event = await seedEvent(t.deps.db, { name: 'Baja masiva' });
    const keep = await seedEvent(t.deps.db);
    const ana = await add(event.id, 'Ana');
    const beto = await add(event.id, 'Beto');
    const stays = await add(event.id, 'Se queda');
    await seedMembership(t.deps.db, keep.id, ana.id);
    for (const [eventId, exhibitorId] of [
      [event.id, ana.id],
      [keep.id, ana.id],
      [event.id, stays.id],
    ] as const) {
      await seedNominations(t.deps.db, {
        eventId,
        exhibitorId,
        category: 'consumption',
        nominees: [{ fiscalId: '30711111111' }, { fiscalId: '30722222222' }],
      });
    }

    const response = await removeAll(event.id, [ana.id, beto.id]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ removed: 2, discardedNominations: 2 });
    expect(await membership(event.id, ana.id)).toBeUndefined();
    expect(await membership(event.id, beto.id)).toBeUndefined();
    expect(await membership(event.id, stays.id)).toBeDefined();
    const nominations = await t.deps.db
      .selectFrom('nominations')
      .select(['event_id', 'exhibitor_id'])
      .where('exhibitor_id', 'in', [ana.id, stays.id])
      .execute();
    expect(nominations).toHaveLength(4);
    expect(nominations.every((n) => n.event_id === keep.id || n.exhibitor_id === stays.id)).toBe(
      true,
    );
    // Their unsent invitation and reminders are withdrawn; the one who stays keeps hers.
    for (const person of [ana, beto]) {
      for (const template of ['exhibitor-invitation', 'voting-reminder']) {
        expect((await mailTo(person.email, template)).map((m) => m.status)).not.toContain(
          'pending',
        );
      }
    }
    expect((await mailTo(stays.email, 'exhibitor-invitation')).map((m) => m.status)).toEqual([
      'pending',
    ]);
    // The exhibitor records stay for their other events.
    expect(
      await t.deps.db.selectFrom('exhibitors').select('id').where('id', '=', ana.id).execute(),
    ).toHaveLength(1);
    const entries = await audits(event.id, 'exhibitors.removed');
    expect(entries.map((e) => JSON.parse(e.details))).toEqual([
      { removed: expect.arrayContaining([ana.email, beto.email]), discardedNominations: 2 },
    ]);
  });

  it('removes each exhibitor once when the same removal arrives several times at once', async () => {
    const event = await seedEvent(t.deps.db);
    const people = await Promise.all(['Uno', 'Dos', 'Tres', 'Cuatro'].map((n) => add(event.id, n)));
    for (const person of people) {
      await seedNominations(t.deps.db, {
        eventId: event.id,
        exhibitorId: person.id,
        category: 'value',
        nominees: [{ fiscalId: '30711111111' }],
      });
    }
    const ids = people.map((p) => p.id);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => removeAll(event.id, i % 2 ? [...ids].reverse() : ids)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const bodies = answers.map(
      (a) => a.json() as { removed: number; discardedNominations: number },
    );
    expect(bodies.reduce((sum, b) => sum + b.removed, 0)).toBe(4);
    expect(bodies.reduce((sum, b) => sum + b.discardedNominations, 0)).toBe(4);
    const removed = (await audits(event.id, 'exhibitors.removed')).flatMap(
      (e) => JSON.parse(e.details).removed as string[],
    );
    expect(removed.sort()).toEqual(people.map((p) => p.email).sort());
  });

  it('refuses an empty or malformed selection in Spanish, and changes nothing', async () => {
    const event = await seedEvent(t.deps.db);
    const ana = await add(event.id, 'Ana');
    for (const send of [resendAll, impact, removeAll]) {
      const empty = await send(event.id, []);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error.fields).toEqual({ exhibitorIds: MSG.noExhibitorsSelected });
      const malformed = await send(event.id, ['no-es-un-id']);
      expect(malformed.statusCode).toBe(400);
      const notAList = await send(event.id, ana.id);
      expect(notAList.statusCode).toBe(400);
      expect(notAList.json().error.fields).toEqual({ exhibitorIds: MSG.expectedList });
      const missing = await send('00000000-0000-4000-8000-000000000000', [ana.id]);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe(MSG.eventNotFound);
    }
    expect(await membership(event.id, ana.id)).toBeDefined();
    expect((await mailTo(ana.email, 'exhibitor-invitation')).map((m) => m.status)).toEqual([
      'pending',
    ]);
  });

  it('keeps no address in the entries of both actions once the event is anonymised', async () => {
    const event = await seedEvent(t.deps.db, {
      eventDate: '2026-06-20',
      voteDeadline: '2026-06-10',
    });
    const ana = await add(event.id, 'Ana');
    const beto = await add(event.id, 'Beto');
    expect((await resendAll(event.id, [ana.id, beto.id])).statusCode).toBe(200);
    expect((await removeAll(event.id, [ana.id])).statusCode).toBe(200);
    t.clock.set('2026-06-21T15:00:00.000Z');
    as = await t.signIn({ role: 'admin', adminId: admin.id });
    for (const step of ['archive', 'anonymise']) {
      const response = await t.request({
        method: 'POST',
        url: `/api/events/${event.id}/${step}`,
        as,
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const entries = await t.deps.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('event_id', '=', event.id)
      .where('action', 'in', ['exhibitors.invitations_resent', 'exhibitors.removed'])
      .orderBy('action')
      .execute();
    expect(entries.map((e) => [e.action, JSON.parse(e.details)])).toEqual([
      ['exhibitors.invitations_resent', { resent: ['[anonimizado]', '[anonimizado]'], limited: 0 }],
      ['exhibitors.removed', { removed: ['[anonimizado]'], discardedNominations: 0 }],
    ]);
  });

  it('is for administrators only', async () => {
    const event = await seedEvent(t.deps.db);
    const ana = await add(event.id, 'Ana');
    const exh = await t.signIn({ role: 'exh', exhibitorId: ana.id });
    for (const path of ['invitations', 'removal-impact', 'removal']) {
      const url = `/api/events/${event.id}/exhibitors/${path}`;
      const payload = { exhibitorIds: [ana.id] };
      expect((await t.request({ method: 'POST', url, payload })).statusCode).toBe(401);
      expect((await t.request({ method: 'POST', url, as: exh, payload })).statusCode).toBe(403);
    }
    expect(await membership(event.id, ana.id)).toBeDefined();
  });
});
