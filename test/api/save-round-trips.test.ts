import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MSG } from '../../src/shared/messages.ts';
import type { NomineeInput } from '../../src/shared/schemas/nominee.ts';
import { createTestApp, type Session, type TestApp } from '../helpers/app.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

/**
 * PostgreSQL's save in one round trip (docs/decisions/0021): every statement the server sends
 * goes through `pg.Client#query`, which this test counts while one request runs.
 */
const onPostgres = process.env.TEST_DB_ENGINE === 'postgres';

const nominee = (fiscalId: string): NomineeInput => ({
  name: `Reseller ${fiscalId}`,
  registeredName: `Reseller ${fiscalId} S.A.`,
  fiscalId,
  contactName: 'Carla Contacto',
  contactPosition: 'Gerente Comercial',
  phone: '1155550000',
  email: `ventas${fiscalId}@reseller.test`,
  location: 'Palermo',
  city: 'Buenos Aires',
});

describe.runIf(onPostgres)('a save on PostgreSQL', () => {
  let t: TestApp;
  let exh: Session;
  let exhibitorId: string;
  let eventId: string;
  const sent: string[] = [];
  const originalQuery = pg.Client.prototype.query;

  const url = (path = '') => `/api/exh/events/${eventId}/consumption/nominees${path}`;
  const add = (fiscalId: string, version: number, as: Session = exh) =>
    t.request({ method: 'POST', url: url(), payload: { ...nominee(fiscalId), version }, as });

  /** The statements the server sends while `request` runs. */
  async function statementsOf<T>(request: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
    sent.length = 0;
    const result = await request();
    return { result, sql: [...sent] };
  }

  beforeAll(async () => {
    t = await createTestApp();
    exhibitorId = (await seedExhibitor(t.deps.db, { fullName: 'Esteban Uno' })).id;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [text] = args;
      sent.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof originalQuery;
  });
  afterAll(async () => {
    pg.Client.prototype.query = originalQuery;
    await t.close();
  });
  beforeEach(async () => {
    exh = await t.signIn({ role: 'exh', exhibitorId });
    eventId = (await seedEvent(t.deps.db, { name: 'Premios Partners 2026' })).id;
    await seedMembership(t.deps.db, eventId, exhibitorId);
  });
  afterEach(() => {
    sent.length = 0;
  });

  it('adds, edits, moves and removes a nominee in one statement each, session included', async () => {
    const first = await statementsOf(() => add('30111111118', 0));
    expect(first.result.statusCode).toBe(200);
    expect(first.sql).toHaveLength(1);
    expect(first.sql[0]).toMatch(/^select premios_save_nominee\(/);
    expect((await statementsOf(() => add('30222222229', 1))).sql).toHaveLength(1);

    const edited = await statementsOf(() =>
      t.request({
        method: 'PUT',
        url: url('/30111111118'),
        payload: { ...nominee('30111111118'), city: 'Rosario', version: 2 },
        as: exh,
      }),
    );
    expect(edited.result.statusCode).toBe(200);
    expect(edited.sql).toHaveLength(1);

    const moved = await statementsOf(() =>
      t.request({
        method: 'POST',
        url: url('/30222222229/move'),
        payload: { direction: 'up', version: 3 },
        as: exh,
      }),
    );
    expect(moved.result.statusCode).toBe(200);
    expect(moved.sql).toHaveLength(1);
    expect(
      moved.result.json().nominees.map((n: { fiscalId: string; order: number }) => n.fiscalId),
    ).toEqual(['30222222229', '30111111118']);

    const removed = await statementsOf(() =>
      t.request({ method: 'DELETE', url: url('/30222222229?version=4'), as: exh }),
    );
    expect(removed.result.statusCode).toBe(200);
    expect(removed.sql).toHaveLength(1);
    expect(removed.result.json()).toMatchObject({
      version: 5,
      nominees: [{ order: 1, fiscalId: '30111111118', city: 'Rosario' }],
    });

    // Everything a save leaves behind: its list, the ranking's totals, an audit entry per save and
    // one receipt waiting.
    const totals = await t.deps.db
      .selectFrom('nominee_totals')
      .select(['fiscal_id', 'points', 'nominations'])
      .where('event_id', '=', eventId)
      .execute();
    expect(totals).toEqual([{ fiscal_id: '30111111118', points: 5, nominations: 1 }]);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select(['action', 'actor_role', 'actor_id', 'entity_id', 'details'])
      .where('event_id', '=', eventId)
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual([
      'nomination.add',
      'nomination.add',
      'nomination.edit',
      'nomination.move',
      'nomination.remove',
    ]);
    expect(audit[4]).toMatchObject({
      actor_role: 'exh',
      actor_id: exhibitorId,
      entity_id: `${exhibitorId}/consumption`,
    });
    expect(JSON.parse(audit[4]?.details ?? '')).toMatchObject({
      exhibitorId,
      category: 'consumption',
      before: [
        { order: 1, fiscalId: '30222222229' },
        { order: 2, fiscalId: '30111111118', city: 'Rosario' },
      ],
      after: [{ order: 1, fiscalId: '30111111118' }],
    });
    const receipts = await t.deps.db
      .selectFrom('mail_outbox')
      .select(['template', 'status', 'params', 'next_attempt_at'])
      .where('event_id', '=', eventId)
      .execute();
    expect(receipts).toEqual([
      {
        template: 'nomination-receipt',
        status: 'pending',
        params: JSON.stringify({ eventId, exhibitorId }),
        next_attempt_at: '2026-06-01T12:10:00.000Z',
      },
    ]);
  });

  it('refuses a stale version in the same statement, with the same 409 and nothing written', async () => {
    await add('30111111118', 0);
    const stale = await statementsOf(() => add('30222222229', 0));
    expect(stale.result.statusCode).toBe(409);
    expect(stale.result.json()).toEqual({ error: { code: 'stale_list', message: MSG.staleList } });
    // The statement, then the archive check every refused write makes (a session lookup and the
    // event's archive), as on the ordinary path.
    expect(stale.sql[0]).toMatch(/^select premios_save_nominee\(/);
    const rows = await t.deps.db
      .selectFrom('nominations')
      .select('fiscal_id')
      .where('event_id', '=', eventId)
      .execute();
    expect(rows).toEqual([{ fiscal_id: '30111111118' }]);
  });

  it('lets exactly one of 12 parallel saves on the same version win; the rest get 409', async () => {
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => add(`30${String(i).padStart(8, '0')}1`, 0)),
    );
    const statuses = replies.map((reply) => reply.statusCode).sort();
    expect(statuses).toEqual([200, ...Array<number>(11).fill(409)]);
    for (const reply of replies.filter((r) => r.statusCode === 409)) {
      expect(reply.json()).toEqual({ error: { code: 'stale_list', message: MSG.staleList } });
    }
    const list = await t.deps.db
      .selectFrom('nomination_lists')
      .select('version')
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(Number(list.version)).toBe(1);
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select('action')
      .where('event_id', '=', eventId)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('keeps the limit of five under parallel saves, each at the version it read', async () => {
    for (let i = 0; i < 4; i++) expect((await add(`3000000000${i}`, i)).statusCode).toBe(200);
    // Ten parallel sixth-or-fifth nominees at version 4: one becomes the fifth, the rest are stale.
    const fifth = await Promise.all(Array.from({ length: 10 }, (_, i) => add(`3100000000${i}`, 4)));
    expect(fifth.filter((reply) => reply.statusCode === 200)).toHaveLength(1);
    // Now at version 5 the list is full: every parallel save is refused with the limit message.
    const sixth = await Promise.all(Array.from({ length: 10 }, (_, i) => add(`3200000000${i}`, 5)));
    for (const reply of sixth) {
      expect(reply.statusCode).toBe(409);
      expect(reply.json()).toEqual({
        error: { code: 'nomination_limit', message: MSG.nominationLimit },
      });
    }
    const rows = await t.deps.db
      .selectFrom('nominations')
      .select('list_order')
      .where('event_id', '=', eventId)
      .orderBy('list_order')
      .execute();
    expect(rows.map((row) => Number(row.list_order))).toEqual([1, 2, 3, 4, 5]);
    const totals = await t.deps.db
      .selectFrom('nominee_totals')
      .select((eb) => eb.fn.sum<number>('nominations').as('nominations'))
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(Number(totals.nominations)).toBe(5);
  });

  it('leaves a session it does not settle to the ordinary path: idle 401, another exhibitor 404', async () => {
    t.clock.advance(13 * 60 * 60_000);
    const idle = await add('30111111118', 0);
    expect(idle.statusCode).toBe(401);
    const outsider = await t.signIn({
      role: 'exh',
      exhibitorId: (await seedExhibitor(t.deps.db, { fullName: 'Ernesto Tres' })).id,
    });
    const notMember = await add('30111111118', 0, outsider);
    expect(notMember.statusCode).toBe(404);
    expect(notMember.json()).toEqual({
      error: { code: 'not_found', message: MSG.eventNotFound },
    });
  });
});
