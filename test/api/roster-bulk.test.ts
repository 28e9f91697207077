import { describe, expect, it } from 'vitest';
import { hitThrottle } from '../../src/server/lib/throttle.ts';
import {
  invitationCounterKey,
  invitationsPerAddress,
} from '../../src/server/mail/invitation-queue.ts';
import { anonymiseEvent, archiveEvent } from '../../src/shared/api/events.ts';
import {
  addExhibitor,
  bulkRemovalImpact,
  removeExhibitors,
  resendInvitations,
} from '../../src/shared/api/exhibitors.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { failureOf, type ApiFailure } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

/*
 * Issue 32, item 2: "Reenviar invitaciones" and "Eliminar expositores" on the ticked rows of the
 * exhibitors tab. Each does what the row's own button does, within the same rules, once per
 * exhibitor however many requests arrive at once.
 */

const LIMIT = invitationsPerAddress.max;

describe('bulk actions on the exhibitors tab', () => {
  const app = useTestApp();
  let counter = 0;
  const address = () => `masivo${++counter}@lista.test`;

  const selection = (eventId: string, exhibitorIds: string[]) => ({
    params: { eventId },
    body: { exhibitorIds },
  });
  const resendAll = (eventId: string, ids: string[]) =>
    app.api.call(resendInvitations, selection(eventId, ids));
  const impact = (eventId: string, ids: string[]) =>
    app.api.call(bulkRemovalImpact, selection(eventId, ids));
  const removeAll = (eventId: string, ids: string[]) =>
    app.api.call(removeExhibitors, selection(eventId, ids));

  /** Adds an exhibitor through the API: invited, with a pending invitation and a reminder. */
  const add = async (eventId: string, fullName: string, email = address()) => {
    const { id } = await app.api.call(addExhibitor, {
      params: { eventId },
      body: { fullName, email, company: 'Lista SA' },
    });
    return { id, email };
  };
  /** An exhibitor added without an invitation (unchecked at import): not invited yet. */
  const addUninvited = async (eventId: string, fullName: string) => {
    const exhibitor = await seedExhibitor(app.db, { fullName, email: address() });
    await seedMembership(app.db, eventId, exhibitor.id);
    await app.db
      .updateTable('event_exhibitors')
      .set({ invited_at: null })
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitor.id)
      .execute();
    return { id: exhibitor.id, email: exhibitor.email };
  };
  const mailTo = (email: string, template: string) =>
    app.db
      .selectFrom('mail_outbox')
      .select(['id', 'status'])
      .where('to_address', '=', email)
      .where('template', '=', template)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  const membership = (eventId: string, exhibitorId: string) =>
    app.db
      .selectFrom('event_exhibitors')
      .select(['invitation_message_id', 'invited_at'])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .executeTakeFirst();
  const audits = (eventId: string, action: string) =>
    app.db
      .selectFrom('audit_log')
      .select(['details', 'actor_id'])
      .where('event_id', '=', eventId)
      .where('action', '=', action)
      .execute();
  /** Uses up `times` of the address's invitations for the hour, as earlier invitations did. */
  const spend = async (email: string, times: number) => {
    for (let i = 0; i < times; i++) {
      await hitThrottle(
        app.db,
        invitationsPerAddress,
        invitationCounterKey(email),
        new Date(TEST_NOW),
      );
    }
  };

  it('re-sends every selected invitation: earlier unsent ones withdrawn, the uninvited invited, audited once', async () => {
    const event = await seedEvent(app.db, { name: 'Reenvío masivo' });
    const ana = await add(event.id, 'Ana');
    const beto = await add(event.id, 'Beto');
    const ciro = await addUninvited(event.id, 'Ciro');
    const other = await add(event.id, 'Otro');
    const [anaFirst] = await mailTo(ana.email, 'exhibitor-invitation');
    app.t.clock.advance(60_000);

    const response = await resendAll(event.id, [ana.id, beto.id, ciro.id]);
    expect(response).toEqual({ resent: 3, limited: 0 });

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
    expect(entry?.actor_id).toBe(app.admin.id);
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
    const event = await seedEvent(app.db);
    const full = await add(event.id, 'Llena');
    const room = await add(event.id, 'Con lugar');
    await spend(full.email, LIMIT - 1);
    const [before] = await mailTo(full.email, 'exhibitor-invitation');
    app.t.clock.advance(60_000);

    const response = await resendAll(event.id, [full.id, room.id]);
    expect(response).toEqual({ resent: 1, limited: 1 });
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
    const event = await seedEvent(app.db);
    const people = [
      await add(event.id, 'Uno'),
      await add(event.id, 'Dos'),
      await add(event.id, 'Tres'),
    ];
    // One invitation each already; two more fit in the hour.
    for (const person of people) await spend(person.email, LIMIT - 3);
    const ids = people.map((p) => p.id);
    // Each answer must be a 200 (`call` throws on any other).
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0 ? resendAll(event.id, ids) : resendAll(event.id, [...ids].reverse()),
      ),
    );
    expect(answers).toHaveLength(6);
    const resent = answers.reduce((sum, a) => sum + a.resent, 0);
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
    const event = await seedEvent(app.db);
    const ana = await add(event.id, 'Ana');
    const beto = await add(event.id, 'Beto');
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: ana.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30711111111' }, { fiscalId: '30722222222' }],
    });
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: beto.id,
      category: 'value',
      nominees: [{ fiscalId: '30733333333' }],
    });
    const elsewhere = await seedExhibitor(app.db);
    const response = await impact(event.id, [ana.id, beto.id, elsewhere.id]);
    expect(response).toEqual({ exhibitors: 2, nominations: 3 });
    expect(await membership(event.id, ana.id)).toBeDefined();
  });

  it('removes the selected exhibitors with their nominations and unsent mail, audited as one', async () => {
    const event = await seedEvent(app.db, { name: 'Baja masiva' });
    const keep = await seedEvent(app.db);
    const ana = await add(event.id, 'Ana');
    const beto = await add(event.id, 'Beto');
    const stays = await add(event.id, 'Se queda');
    await seedMembership(app.db, keep.id, ana.id);
    for (const [eventId, exhibitorId] of [
      [event.id, ana.id],
      [keep.id, ana.id],
      [event.id, stays.id],
    ] as const) {
      await seedNominations(app.db, {
        eventId,
        exhibitorId,
        category: 'consumption',
        nominees: [{ fiscalId: '30711111111' }, { fiscalId: '30722222222' }],
      });
    }

    const response = await removeAll(event.id, [ana.id, beto.id]);
    expect(response).toEqual({ removed: 2, discardedNominations: 2 });
    expect(await membership(event.id, ana.id)).toBeUndefined();
    expect(await membership(event.id, beto.id)).toBeUndefined();
    expect(await membership(event.id, stays.id)).toBeDefined();
    const nominations = await app.db
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
      await app.db.selectFrom('exhibitors').select('id').where('id', '=', ana.id).execute(),
    ).toHaveLength(1);
    const entries = await audits(event.id, 'exhibitors.removed');
    expect(entries.map((e) => JSON.parse(e.details))).toEqual([
      { removed: expect.arrayContaining([ana.email, beto.email]), discardedNominations: 2 },
    ]);
  });

  it('removes each exhibitor once when the same removal arrives several times at once', async () => {
    const event = await seedEvent(app.db);
    const people = await Promise.all(['Uno', 'Dos', 'Tres', 'Cuatro'].map((n) => add(event.id, n)));
    for (const person of people) {
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: person.id,
        category: 'value',
        nominees: [{ fiscalId: '30711111111' }],
      });
    }
    const ids = people.map((p) => p.id);
    // Each answer must be a 200 (`call` throws on any other).
    const bodies = await Promise.all(
      Array.from({ length: 5 }, (_, i) => removeAll(event.id, i % 2 ? [...ids].reverse() : ids)),
    );
    expect(bodies).toHaveLength(5);
    expect(bodies.reduce((sum, b) => sum + b.removed, 0)).toBe(4);
    expect(bodies.reduce((sum, b) => sum + b.discardedNominations, 0)).toBe(4);
    const removed = (await audits(event.id, 'exhibitors.removed')).flatMap(
      (e) => JSON.parse(e.details).removed as string[],
    );
    expect(removed.sort()).toEqual(people.map((p) => p.email).sort());
  });

  it('refuses an empty or malformed selection in Spanish, and changes nothing', async () => {
    const event = await seedEvent(app.db);
    const ana = await add(event.id, 'Ana');
    const refusals: [string, (eventId: string, ids: string[]) => Promise<ApiFailure>][] = [
      ['invitations', (eventId, ids) => app.api.fail(resendInvitations, selection(eventId, ids))],
      [
        'removal-impact',
        (eventId, ids) => app.api.fail(bulkRemovalImpact, selection(eventId, ids)),
      ],
      ['removal', (eventId, ids) => app.api.fail(removeExhibitors, selection(eventId, ids))],
    ];
    for (const [path, refuse] of refusals) {
      const empty = await refuse(event.id, []);
      expect(empty.status).toBe(400);
      expect(empty.fields).toEqual({ exhibitorIds: MSG.noExhibitorsSelected });
      const malformed = await refuse(event.id, ['no-es-un-id']);
      expect(malformed.status).toBe(400);
      // One id where the contract asks for a list, sent as is.
      const notAList = await app.t.request({
        method: 'POST',
        url: `/api/events/${event.id}/exhibitors/${path}`,
        payload: { exhibitorIds: ana.id },
        as: app.as,
      });
      expect(notAList.statusCode).toBe(400);
      expect(failureOf(notAList).fields).toEqual({ exhibitorIds: MSG.expectedList });
      const missing = await refuse('00000000-0000-4000-8000-000000000000', [ana.id]);
      expect(missing.status).toBe(404);
      expect(missing.message).toBe(MSG.eventNotFound);
    }
    expect(await membership(event.id, ana.id)).toBeDefined();
    expect((await mailTo(ana.email, 'exhibitor-invitation')).map((m) => m.status)).toEqual([
      'pending',
    ]);
  });

  it('keeps no address in the entries of both actions once the event is anonymised', async () => {
    const event = await seedEvent(app.db, {
      eventDate: '2026-06-20',
      voteDeadline: '2026-06-10',
    });
    const ana = await add(event.id, 'Ana');
    const beto = await add(event.id, 'Beto');
    await resendAll(event.id, [ana.id, beto.id]);
    await removeAll(event.id, [ana.id]);
    await app.at('2026-06-21T15:00:00.000Z');
    await app.api.call(archiveEvent, { params: { eventId: event.id } });
    await app.api.call(anonymiseEvent, { params: { eventId: event.id } });
    const entries = await app.db
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
    const event = await seedEvent(app.db);
    const ana = await add(event.id, 'Ana');
    const exh = await app.exhibitor(ana.id);
    const input = selection(event.id, [ana.id]);
    for (const client of [app.signedOut, exh]) {
      const expected = client === exh ? 403 : 401;
      expect((await client.fail(resendInvitations, input)).status).toBe(expected);
      expect((await client.fail(bulkRemovalImpact, input)).status).toBe(expected);
      expect((await client.fail(removeExhibitors, input)).status).toBe(expected);
    }
    expect(await membership(event.id, ana.id)).toBeDefined();
  });
});
