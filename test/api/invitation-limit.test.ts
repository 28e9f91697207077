import { describe, expect, it } from 'vitest';
import { invitationsPerAddress } from '../../src/server/mail/invitation-queue.ts';
import { duplicateEvent } from '../../src/shared/api/events.ts';
import {
  addExhibitor,
  editExhibitor,
  importRoster,
  listEventExhibitors,
  pendingInvitations,
  removeExhibitor,
  resendInvitation,
  sendPendingInvitations,
} from '../../src/shared/api/exhibitors.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

const HOUR = 60 * 60 * 1000;
const LIMIT = 6;

/**
 * Issue 30, S8: every invitation queued to one address (adding, editing the address, importing,
 * duplicating, re-sending) counts against one rule, six an hour; past it the roster change is
 * kept, no invitation is queued, and the answer and the row say so.
 */
describe('invitations to one address: one limit for every way of queueing them', () => {
  const app = useTestApp();
  let n = 0;
  const address = () => `limite.${++n}@empresa.test`;

  const addInput = (eventId: string, email: string) => ({
    params: { eventId },
    body: { fullName: 'Lía Límite', email, company: 'Límites SA' },
  });
  const editInput = (eventId: string, exhibitorId: string, email: string) => ({
    params: { eventId, exhibitorId },
    body: { fullName: 'Lía Límite', email, company: 'Límites SA' },
  });
  const add = (eventId: string, email: string) =>
    app.api.call(addExhibitor, addInput(eventId, email));
  const remove = (eventId: string, exhibitorId: string) =>
    app.api.call(removeExhibitor, { params: { eventId, exhibitorId } });
  const edit = (eventId: string, exhibitorId: string, email: string) =>
    app.api.call(editExhibitor, editInput(eventId, exhibitorId, email));
  /** A re-send's outcome: past the limit it is refused. */
  const resend = (eventId: string, exhibitorId: string) =>
    app.api.send(resendInvitation, { params: { eventId, exhibitorId } });
  /** Every invitation ever queued to `email`, withdrawn ones included. */
  const queuedTo = (email: string) =>
    app.db
      .selectFrom('mail_outbox')
      .select(['id', 'status', 'event_id'])
      .where('template', '=', 'exhibitor-invitation')
      .where('to_address', '=', email)
      .execute();
  const membership = (eventId: string, exhibitorId: string) =>
    app.db
      .selectFrom('event_exhibitors')
      .select('invitation_message_id')
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .executeTakeFirst();

  it('is six an hour, the first invitation and five re-sends', () => {
    expect(invitationsPerAddress).toMatchObject({ windowMs: HOUR, max: LIMIT });
  });

  it('removing and re-adding: the exhibitor is added every time, the invitation only six times an hour', async () => {
    const event = await seedEvent(app.db);
    const email = address();
    const answers: { withheld: boolean; status: string }[] = [];
    for (let round = 0; round < 9; round++) {
      const body = await add(event.id, email);
      answers.push({ withheld: body.invitationWithheld === true, status: body.invitation.status });
      if (round < 8) await remove(event.id, body.id);
    }
    expect(answers).toEqual([
      ...Array.from({ length: LIMIT }, () => ({ withheld: false, status: 'pending' })),
      ...Array.from({ length: 3 }, () => ({ withheld: true, status: 'none' })),
    ]);
    expect(await queuedTo(email)).toHaveLength(LIMIT);
    const exhibitor = await app.db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    // Stored, without an invitation: "no enviada" in the tab, and it can be re-sent later.
    expect(await membership(event.id, exhibitor.id)).toEqual({ invitation_message_id: null });
    const list = await app.api.call(listEventExhibitors, { params: { eventId: event.id } });
    expect(list.exhibitors[0]).toMatchObject({ email, invitation: { status: 'none' } });

    const params = { eventId: event.id, exhibitorId: exhibitor.id };
    const refused = await app.api.fail(resendInvitation, { params });
    expect(refused.status).toBe(429);
    expect(refused.message).toBe(MSG.invitationResendLimit);
    expect(await queuedTo(email)).toHaveLength(LIMIT);

    app.t.clock.advance(HOUR);
    await app.signInAdmin();
    const later = await app.api.call(resendInvitation, { params });
    expect(later.invitation.status).toBe('pending');
    expect(await queuedTo(email)).toHaveLength(LIMIT + 1);
  });

  it('an exhibitor whose invitation was withheld stays uninvited until "Enviar invitaciones pendientes" sends it', async () => {
    const event = await seedEvent(app.db);
    const email = address();
    let last: { id: string } = { id: '' };
    for (let round = 0; round <= LIMIT; round++) {
      last = await add(event.id, email);
      if (round < LIMIT) await remove(event.id, last.id);
    }
    const invitedAt = () =>
      app.db
        .selectFrom('event_exhibitors')
        .select(['invited_at', 'invitation_message_id'])
        .where('event_id', '=', event.id)
        .where('exhibitor_id', '=', last.id)
        .executeTakeFirstOrThrow();
    // Issue 31: not invited, so not shown to the exhibitor and no reminder, and counted as pending.
    expect(await invitedAt()).toEqual({ invited_at: null, invitation_message_id: null });
    const params = { eventId: event.id };
    expect(await app.api.call(pendingInvitations, { params })).toEqual({ pending: 1 });
    const still = await app.api.call(sendPendingInvitations, { params });
    expect(still).toEqual({ sent: 0, limited: 1 });
    expect(await invitedAt()).toEqual({ invited_at: null, invitation_message_id: null });
    expect(await queuedTo(email)).toHaveLength(LIMIT);

    app.t.clock.advance(HOUR);
    await app.signInAdmin();
    const sent = await app.api.call(sendPendingInvitations, { params });
    expect(sent).toEqual({ sent: 1, limited: 0 });
    const row = await invitedAt();
    expect(row.invited_at).toBe(app.t.clock.now().toISOString());
    expect(row.invitation_message_id).not.toBeNull();
    expect(await queuedTo(email)).toHaveLength(LIMIT + 1);
  });

  it('switching an address back and forth queues at most six to each, and keeps every edit', async () => {
    const event = await seedEvent(app.db);
    const first = address();
    const second = address();
    const added = await add(event.id, first);
    const withheld: boolean[] = [];
    for (let round = 0; round < 14; round++) {
      const to = round % 2 === 0 ? second : first;
      const edited = await edit(event.id, added.id, to);
      expect(edited.email).toBe(to);
      withheld.push(edited.invitationWithheld === true);
    }
    expect(await queuedTo(first)).toHaveLength(LIMIT);
    expect(await queuedTo(second)).toHaveLength(LIMIT);
    // first: 1 add + edits 2,4,6,8,10 → rounds 12 and 14 withheld; second: rounds 1…11 sent, 13 withheld.
    expect(withheld).toEqual([...Array.from({ length: 11 }, () => false), true, true, true]);
    const stored = await app.db
      .selectFrom('exhibitors')
      .select('email')
      .where('id', '=', added.id)
      .executeTakeFirstOrThrow();
    expect(stored.email).toBe(first);
    expect(await membership(event.id, added.id)).toEqual({ invitation_message_id: null });
    // An edit that keeps the address queues nothing and says nothing.
    const same = await edit(event.id, added.id, first);
    expect(same.invitationWithheld).toBeUndefined();
  });

  it('many adds, removals, edits and re-sends at once never queue more than six to one address', async () => {
    const email = address();
    const spare = address();
    const events = await Promise.all(Array.from({ length: 4 }, () => seedEvent(app.db)));
    const [home, ...others] = events;
    const member = await add(home!.id, email);
    const colleague = await add(home!.id, spare);
    const requests = [
      ...others.map((event) => app.api.send(addExhibitor, addInput(event.id, email))),
      ...Array.from({ length: 10 }, () => resend(home!.id, member.id)),
      app.api.send(removeExhibitor, { params: { eventId: others[0]!.id, exhibitorId: member.id } }),
      ...others.map((event) => app.api.send(addExhibitor, addInput(event.id, email))),
      ...Array.from({ length: 6 }, (_, i) =>
        app.api.send(editExhibitor, editInput(home!.id, colleague.id, i % 2 === 0 ? email : spare)),
      ),
      ...Array.from({ length: 10 }, () => resend(home!.id, member.id)),
    ];
    const answers = await Promise.all(requests);
    for (const answer of answers) expect([200, 201, 404, 409, 429]).toContain(answer.status);
    const queued = await queuedTo(email);
    expect(queued.length).toBeLessThanOrEqual(LIMIT);
    // Nothing else is refused for the limit: the budget is spent exactly.
    expect(queued).toHaveLength(LIMIT);
    const counter = await app.db
      .selectFrom('auth_throttle')
      .select('hits')
      .where('scope', '=', invitationsPerAddress.scope)
      .execute();
    expect(counter.every((row) => Number(row.hits) <= LIMIT)).toBe(true);
  });

  it('an import adds every row; a row whose address is used up gets no invitation, and the answer counts it', async () => {
    const event = await seedEvent(app.db);
    const busy = address();
    const fresh = address();
    const elsewhere = await seedEvent(app.db);
    const first = await add(elsewhere.id, busy);
    for (let i = 1; i < LIMIT; i++) expect((await resend(elsewhere.id, first.id)).status).toBe(200);
    const file = Buffer.from(
      ['Nombre completo;Email;Empresa', `Ocupada;${busy};A`, `Libre;${fresh};B`].join('\n'),
    );
    const imported = await app.api.call(
      importRoster,
      { params: { eventId: event.id }, query: {} },
      { file: { filename: 'expositores.csv', data: file } },
    );
    expect(imported).toMatchObject({ added: 2, invitationsWithheld: 1 });
    const rows = (await app.api.call(listEventExhibitors, { params: { eventId: event.id } }))
      .exhibitors;
    expect(rows.map((row) => [row.email, row.invitation.status]).sort()).toEqual(
      [
        [busy, 'none'],
        [fresh, 'pending'],
      ].sort(),
    );
    expect(await queuedTo(busy)).toHaveLength(LIMIT);
  });

  it('duplicating an event with invitations copies every exhibitor; a used-up address gets none', async () => {
    const source = await seedEvent(app.db);
    const busy = await seedExhibitor(app.db, { email: address() });
    const free = await seedExhibitor(app.db, { email: address() });
    await seedMembership(app.db, source.id, busy.id);
    await seedMembership(app.db, source.id, free.id);
    for (let i = 0; i < LIMIT; i++) {
      expect((await resend(source.id, busy.id)).status).toBe(200);
    }
    const duplicated = await app.api.call(duplicateEvent, {
      params: { eventId: source.id },
      body: {
        name: 'Premios 2027',
        eventDate: '2027-07-15',
        voteDeadline: '2027-07-01',
        copyExhibitors: true,
        sendInvitations: true,
      },
    });
    const copyId = duplicated.id;
    expect(await membership(copyId, busy.id)).toEqual({ invitation_message_id: null });
    expect((await membership(copyId, free.id))?.invitation_message_id).not.toBeNull();
    expect(await queuedTo(busy.email)).toHaveLength(LIMIT);
    const audit = await app.db
      .selectFrom('audit_log')
      .select('details')
      .where('event_id', '=', copyId)
      .where('action', '=', 'event.duplicated')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details)).toMatchObject({ invitationsWithheld: 1 });
  });

  it('stores no address in clear in its counters', async () => {
    const email = address();
    const event = await seedEvent(app.db);
    await add(event.id, email);
    const keys = await app.db
      .selectFrom('auth_throttle')
      .select('key')
      .where('scope', '=', invitationsPerAddress.scope)
      .execute();
    expect(keys.length).toBeGreaterThan(0);
    expect(JSON.stringify(keys)).not.toContain('@');
  });
});
