import { sql } from 'kysely';
import pg from 'pg';
import { answered, errorOf, refused } from '../helpers/client.ts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addNominee,
  editNominee,
  moveNominee,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import type { TestClient } from '../helpers/client.ts';
import { nomineeInput as nominee } from '../helpers/nominee.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

/**
 * PostgreSQL's save in one round trip (docs/decisions/0021): every statement the server sends
 * goes through `pg.Client#query`, which this test counts while one request runs.
 */
const onPostgres = process.env.TEST_DB_ENGINE === 'postgres';

describe.runIf(onPostgres)('a save on PostgreSQL', () => {
  const app = useTestApp();
  let exh: TestClient;
  let exhibitorId: string;
  let eventId: string;
  const sent: string[] = [];
  /** The name each statement was sent under (a named statement: parsed once per connection). */
  const names: (string | undefined)[] = [];
  const originalQuery = pg.Client.prototype.query;

  const list = () => ({ eventId, category: 'consumption' as const });
  const entry = (fiscalId: string) => ({ ...list(), fiscalId });
  const add = (fiscalId: string, version: number, as: TestClient = exh) =>
    as.send(addNominee, { params: list(), body: { ...nominee(fiscalId), version } });

  /** The statements the server sends while `request` runs. */
  async function statementsOf<T>(request: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
    sent.length = 0;
    names.length = 0;
    const result = await request();
    return { result, sql: [...sent] };
  }

  beforeAll(async () => {
    exhibitorId = (await seedExhibitor(app.db, { fullName: 'Esteban Uno' })).id;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [text] = args;
      sent.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
      names.push(typeof text === 'string' ? undefined : (text as { name?: string }).name);
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof originalQuery;
  });
  afterAll(() => {
    pg.Client.prototype.query = originalQuery;
  });
  beforeEach(async () => {
    exh = await app.exhibitor(exhibitorId);
    eventId = (await seedEvent(app.db, { name: 'Premios Partners 2026' })).id;
    await seedMembership(app.db, eventId, exhibitorId);
  });
  afterEach(() => {
    sent.length = 0;
  });

  it('adds, edits, moves and removes a nominee in one statement each, session included', async () => {
    const first = await statementsOf(() => add('30111111118', 0));
    expect(first.result.status).toBe(200);
    expect(first.sql).toHaveLength(1);
    expect(first.sql[0]).toMatch(/^select premios_save_nominee\(/);
    // Sent by name: each connection parses and plans the save once (docs/decisions/0041).
    const [saveName] = names;
    expect(saveName).toMatch(/^premios_hot_\d+$/);
    expect((await statementsOf(() => add('30222222229', 1))).sql).toHaveLength(1);
    expect(names).toEqual([saveName]);

    const edited = await statementsOf(() =>
      exh.send(editNominee, {
        params: entry('30111111118'),
        body: { ...nominee('30111111118'), city: 'Rosario', version: 2 },
      }),
    );
    expect(edited.result.status).toBe(200);
    expect(edited.sql).toHaveLength(1);

    const moved = await statementsOf(() =>
      exh.send(moveNominee, {
        params: entry('30222222229'),
        body: { direction: 'up', version: 3 },
      }),
    );
    expect(moved.result.status).toBe(200);
    expect(moved.sql).toHaveLength(1);
    expect(answered(moved.result).data.nominees.map((n) => n.fiscalId)).toEqual([
      '30222222229',
      '30111111118',
    ]);

    const removed = await statementsOf(() =>
      exh.send(removeNominee, { params: entry('30222222229'), query: { version: '4' } }),
    );
    expect(removed.result.status).toBe(200);
    expect(removed.sql).toHaveLength(1);
    expect(answered(removed.result).data).toMatchObject({
      version: 5,
      nominees: [{ order: 1, fiscalId: '30111111118', city: 'Rosario' }],
    });

    // Everything a save leaves behind: its list, the ranking's totals, an audit entry per save and
    // one receipt waiting.
    const totals = await app.db
      .selectFrom('nominee_totals')
      .select(['fiscal_id', 'points', 'nominations'])
      .where('event_id', '=', eventId)
      .execute();
    expect(totals).toEqual([{ fiscal_id: '30111111118', points: 5, nominations: 1 }]);
    const audit = await app.db
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
    const receipts = await app.db
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
    expect(stale.result.status).toBe(409);
    expect({ error: errorOf(refused(stale.result)) }).toEqual({
      error: { code: 'stale_list', message: MSG.staleList },
    });
    // The statement, then the archive check every refused write makes (a session lookup and the
    // event's archive), as on the ordinary path.
    expect(stale.sql[0]).toMatch(/^select premios_save_nominee\(/);
    const rows = await app.db
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
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(11).fill(409)]);
    for (const reply of replies.filter((r) => r.status === 409)) {
      expect({ error: errorOf(refused(reply)) }).toEqual({
        error: { code: 'stale_list', message: MSG.staleList },
      });
    }
    const list = await app.db
      .selectFrom('nomination_lists')
      .select('version')
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(Number(list.version)).toBe(1);
    const audit = await app.db
      .selectFrom('audit_log')
      .select('action')
      .where('event_id', '=', eventId)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('keeps the limit of five under parallel saves, each at the version it read', async () => {
    for (let i = 0; i < 4; i++) expect((await add(`3000000000${i}`, i)).status).toBe(200);
    // Ten parallel sixth-or-fifth nominees at version 4: one becomes the fifth, the rest are stale.
    const fifth = await Promise.all(Array.from({ length: 10 }, (_, i) => add(`3100000000${i}`, 4)));
    expect(fifth.filter((reply) => reply.status === 200)).toHaveLength(1);
    // Now at version 5 the list is full: every parallel save is refused with the limit message.
    const sixth = await Promise.all(Array.from({ length: 10 }, (_, i) => add(`3200000000${i}`, 5)));
    for (const reply of sixth) {
      expect(reply.status).toBe(409);
      expect({ error: errorOf(refused(reply)) }).toEqual({
        error: { code: 'nomination_limit', message: MSG.nominationLimit },
      });
    }
    const rows = await app.db
      .selectFrom('nominations')
      .select('list_order')
      .where('event_id', '=', eventId)
      .orderBy('list_order')
      .execute();
    expect(rows.map((row) => Number(row.list_order))).toEqual([1, 2, 3, 4, 5]);
    const totals = await app.db
      .selectFrom('nominee_totals')
      .select((eb) => eb.fn.sum<number>('nominations').as('nominations'))
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(Number(totals.nominations)).toBe(5);
  });

  it('leaves a session it does not settle to the ordinary path: idle 401, another exhibitor 404', async () => {
    app.t.clock.advance(13 * 60 * 60_000);
    const idle = await add('30111111118', 0);
    expect(idle.status).toBe(401);
    const outsider = await app.exhibitor(
      (await seedExhibitor(app.db, { fullName: 'Ernesto Tres' })).id,
    );
    const notMember = await add('30111111118', 0, outsider);
    expect(notMember.status).toBe(404);
    expect({ error: errorOf(refused(notMember)) }).toEqual({
      error: { code: 'not_found', message: MSG.eventNotFound },
    });
  });
  it('reads the list through its primary key however many nominations the category holds (0032)', async () => {
    // A category that filled during the rush, before autovacuum analyzed the table: without
    // statistics the planner once read one exhibitor's list through the ranking's index, every
    // nomination of the category. 400 other lists of the same category, and no statistics.
    await sql`alter table nominations set (autovacuum_enabled = false)`.execute(app.db);
    await sql`insert into exhibitors (id, email, full_name, company, created_at, updated_at)
      select 'otro-' || g, 'otro' || g || '@empresa.test', 'Otro Expositor', 'Otra', '2026-01-01',
             '2026-01-01'
        from generate_series(1, 400) g`.execute(app.db);
    await sql`insert into event_exhibitors (event_id, exhibitor_id, invited_by,
        invitation_message_id, created_at, invited_at)
      select ${eventId}, 'otro-' || g, null, null, '2026-01-01', '2026-01-01'
        from generate_series(1, 400) g`.execute(app.db);
    await sql`insert into nomination_lists (event_id, exhibitor_id, category, version, updated_at)
      select ${eventId}, 'otro-' || g, 'consumption', 1, '2026-01-01'
        from generate_series(1, 400) g`.execute(app.db);
    await sql`insert into nominations (event_id, exhibitor_id, category, list_order, fiscal_id,
        name, registered_name, contact_name, contact_position, phone, email, location, city,
        nominated_at, updated_at)
      select ${eventId}, 'otro-' || g, 'consumption', o, '30' || lpad((g * 10 + o)::text, 9, '0'),
             'Reseller', 'Razón Social', 'Carla', 'Gerente', '1155550000', 'c@reseller.test',
             'Palermo', 'Buenos Aires', '2026-01-01', '2026-01-01'
        from generate_series(1, 400) g, generate_series(1, 5) o`.execute(app.db);

    // Every statement of the save, with its plan, as PostgreSQL's auto_explain reports it to the
    // connection that ran it.
    const plans: string[] = [];
    const counting = pg.Client.prototype.query;
    const run = (client: pg.Client, text: string) =>
      (originalQuery as (text: string) => Promise<unknown>).call(client, text);
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const [text] = args;
      const textOf = typeof text === 'string' ? text : String((text as { text?: string }).text);
      if (textOf.startsWith('select premios_save_nominee(')) {
        const listen = (notice: { message?: string }) => plans.push(notice.message ?? '');
        this.on('notice', listen);
        void run(
          this,
          `load 'auto_explain'; set auto_explain.log_min_duration = 0;
           set auto_explain.log_nested_statements = on; set client_min_messages = log`,
        );
        const result = (counting as (...a: unknown[]) => Promise<unknown>).apply(this, args);
        const reset = run(
          this,
          'set auto_explain.log_min_duration = -1; set client_min_messages = notice',
        ).then(() => this.off('notice', listen));
        // The connection goes back to the pool only once it no longer reports its plans.
        return Promise.all([result, reset]).then(([saved]) => saved);
      }
      return (counting as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof originalQuery;
    try {
      for (let i = 0; i < 5; i++) {
        expect((await add(`3300000000${i}`, i)).status).toBe(200);
      }
      const edited = await exh.send(editNominee, {
        params: entry('33000000002'),
        body: { ...nominee('33000000002'), city: 'Rosario', version: 5 },
      });
      expect(edited.status).toBe(200);
      const moved = await exh.send(moveNominee, {
        params: entry('33000000002'),
        body: { direction: 'up', version: 6 },
      });
      expect(moved.status).toBe(200);
      const removed = await exh.send(removeNominee, {
        params: entry('33000000000'),
        query: { version: '7' },
      });
      expect(answered(removed).data.nominees.map((n) => [n.order, n.fiscalId, n.city])).toEqual([
        [1, '33000000002', 'Rosario'],
        [2, '33000000001', 'Buenos Aires'],
        [3, '33000000003', 'Buenos Aires'],
        [4, '33000000004', 'Buenos Aires'],
      ]);
    } finally {
      pg.Client.prototype.query = counting;
    }
    const listReads = plans.filter((plan) => /\bfrom nominations n\b/i.test(plan));
    expect(listReads.length).toBeGreaterThanOrEqual(8);
    expect(plans.filter((plan) => plan.includes('nominations_results_idx'))).toEqual([]);
    for (const plan of listReads) expect(plan).toContain('nominations_pk');
  });
});
