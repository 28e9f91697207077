import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../src/server/lib/audit.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { HistoryResponse } from '../../src/shared/schemas/results.ts';
import { createTestApp, type Session, type TestApp } from '../helpers/app.ts';
import { seedAdmin, seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

const nominee = (fiscalId: string, name: string) => ({
  name,
  registeredName: `${name} S.A.`,
  fiscalId,
  contactName: 'Nora Nueva',
  contactPosition: 'Gerente',
  phone: '1144440000',
  email: 'nora@reseller.test',
  location: 'Belgrano',
  city: 'Buenos Aires',
});

describe('event history', () => {
  let t: TestApp;
  let admin: Session;
  let adminId: string;
  let exhibitor: Session;
  let eventId: string;
  let exhibitorId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.deps.db;
    const seeded = await seedAdmin(db);
    adminId = seeded.id;
    admin = await t.signIn({ role: 'admin', adminId });
    eventId = (await seedEvent(db, { name: 'Historial 2026', voteDeadline: '2026-07-01' })).id;
    const e = await seedExhibitor(db, { fullName: 'Elena Uno' });
    exhibitorId = e.id;
    await seedMembership(db, eventId, exhibitorId);
    exhibitor = await t.signIn({ role: 'exh', exhibitorId });
  });
  afterAll(() => t.close());

  const history = async (query: Record<string, string> = {}) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/events/${eventId}/history`,
      query,
      as: admin,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as HistoryResponse;
  };
  const base = () => `/api/exh/events/${eventId}/consumption/nominees`;

  it("records the exhibitor's saves and the administrator's correction, newest first, before → after", async () => {
    const added = await t.request({
      method: 'POST',
      url: base(),
      payload: { ...nominee('20111111111', 'Alfa'), version: 0 },
      as: exhibitor,
    });
    expect(added.statusCode).toBe(200);
    t.clock.advance(60_000);
    const second = await t.request({
      method: 'POST',
      url: base(),
      payload: { ...nominee('20222222222', 'Beta'), version: 1 },
      as: exhibitor,
    });
    expect(second.statusCode).toBe(200);
    t.clock.advance(60_000);
    const corrected = await t.request({
      method: 'PUT',
      url: `/api/events/${eventId}/exhibitors/${exhibitorId}/votes/consumption/2`,
      payload: { ...nominee('20333333333', 'Gama'), reason: 'wrongFiscalId', version: 2 },
      as: admin,
    });
    expect(corrected.statusCode).toBe(200);

    const { entries, nextBefore } = await history();
    expect(nextBefore).toBeNull();
    expect(entries.map((e) => [e.action, e.actionLabel, e.detail])).toEqual([
      [
        'vote.edit',
        'Voto corregido',
        'CONSUMO, puesto 2: Beta (20222222222) → Gama (20333333333) · Motivo: ID fiscal equivocado',
      ],
      [
        'nomination.add',
        'Nominación agregada',
        'CONSUMO: 1. Alfa (20111111111) → 1. Alfa (20111111111), 2. Beta (20222222222)',
      ],
      ['nomination.add', 'Nominación agregada', 'CONSUMO: (vacía) → 1. Alfa (20111111111)'],
    ]);
    const adminEmail = (
      await t.deps.db
        .selectFrom('admins')
        .select('email')
        .where('id', '=', adminId)
        .executeTakeFirstOrThrow()
    ).email;
    const exhibitorEmail = (
      await t.deps.db
        .selectFrom('exhibitors')
        .select('email')
        .where('id', '=', exhibitorId)
        .executeTakeFirstOrThrow()
    ).email;
    expect(entries.map((e) => e.who)).toEqual([
      adminEmail,
      `Elena Uno (${exhibitorEmail})`,
      `Elena Uno (${exhibitorEmail})`,
    ]);
    expect(entries[0]?.at).toBe(t.clock.now().toISOString());
    expect(entries.map((e) => e.undoable)).toEqual([false, false, false]);
  });

  it('filters by action and searches who and what', async () => {
    expect((await history({ action: 'vote.edit' })).entries.map((e) => e.action)).toEqual([
      'vote.edit',
    ]);
    expect((await history({ action: 'nominee.merge' })).entries).toEqual([]);
    expect((await history({ q: 'BETA' })).entries.map((e) => e.action)).toEqual([
      'vote.edit',
      'nomination.add',
    ]);
    expect((await history({ q: 'elena' })).entries).toHaveLength(2);
    // Wildcards are searched for literally.
    expect((await history({ q: '%' })).entries).toEqual([]);
    const bad = await t.request({
      method: 'GET',
      url: `/api/events/${eventId}/history`,
      query: { before: 'x' },
      as: admin,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(MSG.invalidInput);
    const missing = await t.request({
      method: 'GET',
      url: `/api/events/00000000-0000-4000-8000-000000000000/history`,
      as: admin,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(MSG.eventNotFound);
  });

  it('pages 50 entries at a time through the cursor, without gaps or repeats', async () => {
    const pagedEvent = (await seedEvent(t.deps.db, { name: 'Largo' })).id;
    await t.deps.transact(async (tx) => {
      for (let i = 0; i < 120; i += 1) {
        await recordAudit(tx, { role: 'admin', adminId }, t.clock.now(), {
          action: i % 2 === 0 ? 'event.updated' : 'exhibitor.edited',
          entityType: 'event',
          entityId: pagedEvent,
          eventId: pagedEvent,
          details: { n: i },
        });
      }
    });
    const page = async (query: Record<string, string>) =>
      (
        await t.request({
          method: 'GET',
          url: `/api/events/${pagedEvent}/history`,
          query,
          as: admin,
        })
      ).json() as HistoryResponse;
    const first = await page({});
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0]?.detail).toBe('n: 119');
    const second = await page({ before: String(first.nextBefore) });
    expect(second.entries).toHaveLength(50);
    expect(second.entries[0]?.detail).toBe('n: 69');
    const third = await page({ before: String(second.nextBefore) });
    expect(third.entries).toHaveLength(20);
    expect(third.nextBefore).toBeNull();
    const all = [...first.entries, ...second.entries, ...third.entries].map((e) => e.detail);
    expect(all).toEqual(Array.from({ length: 120 }, (_, i) => `n: ${119 - i}`));
    const updates = await page({ action: 'event.updated' });
    expect(updates.entries).toHaveLength(50);
    expect(updates.entries.at(-1)?.detail).toBe('n: 20');
    expect(
      (await page({ action: 'event.updated', before: String(updates.nextBefore) })).entries,
    ).toHaveLength(10);
  });
});
