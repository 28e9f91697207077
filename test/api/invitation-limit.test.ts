import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invitationsPerAddress } from '../../src/server/mail/invitation-queue.ts';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, TEST_NOW, type Session, type TestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/multipart.ts';
import { seedAdmin, seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

const HOUR = 60 * 60 * 1000;
const LIMIT = 6;

/**
 * Issue 30, S8: every invitation queued to one address (adding, editing the address, importing,
 * duplicating, re-sending) counts against one rule, six an hour; past it the roster change is
 * kept, no invitation is queued, and the answer and the row say so.
 */
describe('invitations to one address: one limit for every way of queueing them', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedAdmin>>;
  let as: Session;
  let n = 0;
  const address = () => `limite.${++n}@empresa.test`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await seedAdmin(t.deps.db, { fullName: 'Ana Administradora' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(TEST_NOW);
    as = await t.signIn({ role: 'admin', adminId: admin.id });
  });

  const add = (eventId: string, email: string, fullName = 'Lía Límite') =>
    t.request({
      method: 'POST',
      url: `/api/events/${eventId}/exhibitors`,
      as,
      payload: { fullName, email, company: 'Límites SA' },
    });
  const remove = (eventId: string, exhibitorId: string) =>
    t.request({ method: 'DELETE', url: `/api/events/${eventId}/exhibitors/${exhibitorId}`, as });
  const edit = (eventId: string, exhibitorId: string, email: string) =>
    t.request({
      method: 'PUT',
      url: `/api/events/${eventId}/exhibitors/${exhibitorId}`,
      as,
      payload: { fullName: 'Lía Límite', email, company: 'Límites SA' },
    });
  const resend = (eventId: string, exhibitorId: string) =>
    t.request({
      method: 'POST',
      url: `/api/events/${eventId}/exhibitors/${exhibitorId}/invitation`,
      as,
    });
  /** Every invitation ever queued to `email`, withdrawn ones included. */
  const queuedTo = (email: string) =>
    t.deps.db
      .selectFrom('mail_outbox')
      .select(['id', 'status', 'event_id'])
      .where('template', '=', 'exhibitor-invitation')
      .where('to_address', '=', email)
      .execute();
  const membership = (eventId: string, exhibitorId: string) =>
    t.deps.db
      .selectFrom('event_exhibitors')
      .select('invitation_message_id')
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .executeTakeFirst();

  it('is six an hour, the first invitation and five re-sends', () => {
    expect(invitationsPerAddress).toMatchObject({ windowMs: HOUR, max: LIMIT });
  });

  it('removing and re-adding: the exhibitor is added every time, the invitation only six times an hour', async () => {
    const event = await seedEvent(t.deps.db);
    const email = address();
    const answers: { withheld: boolean; status: string }[] = [];
    for (let round = 0; round < 9; round++) {
      const added = await add(event.id, email);
      expect(added.statusCode).toBe(201);
      const body = added.json();
      answers.push({ withheld: body.invitationWithheld === true, status: body.invitation.status });
      if (round < 8) expect((await remove(event.id, body.id)).statusCode).toBe(200);
    }
    expect(answers).toEqual([
      ...Array.from({ length: LIMIT }, () => ({ withheld: false, status: 'pending' })),
      ...Array.from({ length: 3 }, () => ({ withheld: true, status: 'none' })),
    ]);
    expect(await queuedTo(email)).toHaveLength(LIMIT);
    const exhibitor = await t.deps.db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    // Stored, without an invitation: "no enviada" in the tab, and it can be re-sent later.
    expect(await membership(event.id, exhibitor.id)).toEqual({ invitation_message_id: null });
    const list = await t.request({ method: 'GET', url: `/api/events/${event.id}/exhibitors`, as });
    expect(list.json().exhibitors[0]).toMatchObject({ email, invitation: { status: 'none' } });

    const refused = await resend(event.id, exhibitor.id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(MSG.invitationResendLimit);
    expect(await queuedTo(email)).toHaveLength(LIMIT);

    t.clock.advance(HOUR);
    as = await t.signIn({ role: 'admin', adminId: admin.id });
    const later = await resend(event.id, exhibitor.id);
    expect(later.statusCode).toBe(200);
    expect(later.json().invitation.status).toBe('pending');
    expect(await queuedTo(email)).toHaveLength(LIMIT + 1);
  });

  it('an exhibitor whose invitation was withheld stays uninvited until "Enviar invitaciones pendientes" sends it', async () => {
    const event = await seedEvent(t.deps.db);
    const email = address();
    let last: { id: string } = { id: '' };
    for (let round = 0; round <= LIMIT; round++) {
      last = (await add(event.id, email)).json();
      if (round < LIMIT) expect((await remove(event.id, last.id)).statusCode).toBe(200);
    }
    const invitedAt = () =>
      t.deps.db
        .selectFrom('event_exhibitors')
        .select(['invited_at', 'invitation_message_id'])
        .where('event_id', '=', event.id)
        .where('exhibitor_id', '=', last.id)
        .executeTakeFirstOrThrow();
    // Issue 31: not invited, so not shown to the exhibitor and no reminder, and counted as pending.
    expect(await invitedAt()).toEqual({ invited_at: null, invitation_message_id: null });
    const pendingUrl = `/api/events/${event.id}/invitations/pending`;
    expect((await t.request({ method: 'GET', url: pendingUrl, as })).json()).toEqual({
      pending: 1,
    });
    const still = await t.request({ method: 'POST', url: pendingUrl, as });
    expect(still.json()).toEqual({ sent: 0, limited: 1 });
    expect(await invitedAt()).toEqual({ invited_at: null, invitation_message_id: null });
    expect(await queuedTo(email)).toHaveLength(LIMIT);

    t.clock.advance(HOUR);
    as = await t.signIn({ role: 'admin', adminId: admin.id });
    const sent = await t.request({ method: 'POST', url: pendingUrl, as });
    expect(sent.json()).toEqual({ sent: 1, limited: 0 });
    const row = await invitedAt();
    expect(row.invited_at).toBe(t.clock.now().toISOString());
    expect(row.invitation_message_id).not.toBeNull();
    expect(await queuedTo(email)).toHaveLength(LIMIT + 1);
  });

  it('switching an address back and forth queues at most six to each, and keeps every edit', async () => {
    const event = await seedEvent(t.deps.db);
    const first = address();
    const second = address();
    const added = (await add(event.id, first)).json();
    const withheld: boolean[] = [];
    for (let round = 0; round < 14; round++) {
      const to = round % 2 === 0 ? second : first;
      const edited = await edit(event.id, added.id, to);
      expect(edited.statusCode).toBe(200);
      expect(edited.json().email).toBe(to);
      withheld.push(edited.json().invitationWithheld === true);
    }
    expect(await queuedTo(first)).toHaveLength(LIMIT);
    expect(await queuedTo(second)).toHaveLength(LIMIT);
    // first: 1 add + edits 2,4,6,8,10 → rounds 12 and 14 withheld; second: rounds 1…11 sent, 13 withheld.
    expect(withheld).toEqual([...Array.from({ length: 11 }, () => false), true, true, true]);
    const stored = await t.deps.db
      .selectFrom('exhibitors')
      .select('email')
      .where('id', '=', added.id)
      .executeTakeFirstOrThrow();
    expect(stored.email).toBe(first);
    expect(await membership(event.id, added.id)).toEqual({ invitation_message_id: null });
    // An edit that keeps the address queues nothing and says nothing.
    const same = await edit(event.id, added.id, first);
    expect(same.json().invitationWithheld).toBeUndefined();
  });

  it('many adds, removals, edits and re-sends at once never queue more than six to one address', async () => {
    const email = address();
    const spare = address();
    const events = await Promise.all(Array.from({ length: 4 }, () => seedEvent(t.deps.db)));
    const [home, ...others] = events;
    const member = (await add(home!.id, email)).json();
    const colleague = (await add(home!.id, spare)).json();
    const requests = [
      ...others.map((event) => add(event.id, email)),
      ...Array.from({ length: 10 }, () => resend(home!.id, member.id)),
      remove(others[0]!.id, member.id),
      ...others.map((event) => add(event.id, email)),
      ...Array.from({ length: 6 }, (_, i) =>
        edit(home!.id, colleague.id, i % 2 === 0 ? email : spare),
      ),
      ...Array.from({ length: 10 }, () => resend(home!.id, member.id)),
    ];
    const answers = await Promise.all(requests);
    for (const answer of answers) expect([200, 201, 404, 409, 429]).toContain(answer.statusCode);
    const queued = await queuedTo(email);
    expect(queued.length).toBeLessThanOrEqual(LIMIT);
    // Nothing else is refused for the limit: the budget is spent exactly.
    expect(queued).toHaveLength(LIMIT);
    const counter = await t.deps.db
      .selectFrom('auth_throttle')
      .select('hits')
      .where('scope', '=', invitationsPerAddress.scope)
      .execute();
    expect(counter.every((row) => Number(row.hits) <= LIMIT)).toBe(true);
  });

  it('an import adds every row; a row whose address is used up gets no invitation, and the answer counts it', async () => {
    const event = await seedEvent(t.deps.db);
    const busy = address();
    const fresh = address();
    const elsewhere = await seedEvent(t.deps.db);
    const first = (await add(elsewhere.id, busy)).json();
    for (let i = 1; i < LIMIT; i++)
      expect((await resend(elsewhere.id, first.id)).statusCode).toBe(200);
    const file = Buffer.from(
      ['Nombre completo;Email;Empresa', `Ocupada;${busy};A`, `Libre;${fresh};B`].join('\n'),
    );
    const imported = await t.request({
      method: 'POST',
      url: `/api/events/${event.id}/exhibitors/import`,
      as,
      ...multipart([{ name: 'file', filename: 'expositores.csv', data: file }]),
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toMatchObject({ added: 2, invitationsWithheld: 1 });
    const rows = (
      await t.request({ method: 'GET', url: `/api/events/${event.id}/exhibitors`, as })
    ).json().exhibitors as { email: string; invitation: { status: string } }[];
    expect(rows.map((row) => [row.email, row.invitation.status]).sort()).toEqual(
      [
        [busy, 'none'],
        [fresh, 'pending'],
      ].sort(),
    );
    expect(await queuedTo(busy)).toHaveLength(LIMIT);
  });

  it('duplicating an event with invitations copies every exhibitor; a used-up address gets none', async () => {
    const source = await seedEvent(t.deps.db);
    const busy = await seedExhibitor(t.deps.db, { email: address() });
    const free = await seedExhibitor(t.deps.db, { email: address() });
    await seedMembership(t.deps.db, source.id, busy.id);
    await seedMembership(t.deps.db, source.id, free.id);
    for (let i = 0; i < LIMIT; i++) {
      expect((await resend(source.id, busy.id)).statusCode).toBe(200);
    }
    const duplicated = await t.request({
      method: 'POST',
      url: `/api/events/${source.id}/duplicate`,
      as,
      payload: {
        name: 'Premios 2027',
        eventDate: '2027-07-15',
        voteDeadline: '2027-07-01',
        copyExhibitors: true,
        sendInvitations: true,
      },
    });
    expect(duplicated.statusCode).toBe(201);
    const copyId = duplicated.json().id as string;
    expect(await membership(copyId, busy.id)).toEqual({ invitation_message_id: null });
    expect((await membership(copyId, free.id))?.invitation_message_id).not.toBeNull();
    expect(await queuedTo(busy.email)).toHaveLength(LIMIT);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('details')
      .where('event_id', '=', copyId)
      .where('action', '=', 'event.duplicated')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details)).toMatchObject({ invitationsWithheld: 1 });
  });

  it('stores no address in clear in its counters', async () => {
    const email = address();
    const event = await seedEvent(t.deps.db);
    await add(event.id, email);
    const keys = await t.deps.db
      .selectFrom('auth_throttle')
      .select('key')
      .where('scope', '=', invitationsPerAddress.scope)
      .execute();
    expect(keys.length).toBeGreaterThan(0);
    expect(JSON.stringify(keys)).not.toContain('@');
  });
});
