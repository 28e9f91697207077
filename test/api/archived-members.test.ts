import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type Session, type TestApp } from '../helpers/app.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';

// TEST_NOW is 2026-06-01; the archived event is on 2026-07-15, the open one later.
const AFTER_EVENT = '2026-07-16T15:00:00.000Z';

/** Marta as first invited and as edited later; addresses differ per test (one record each). */
let round = 0;
let BEFORE = { fullName: '', email: '', company: '' };
let AFTER = { fullName: '', email: '', company: '' };
function nextMarta() {
  round++;
  BEFORE = {
    fullName: 'Marta Antigua',
    email: `marta.antigua.${round}@empresa.test`,
    company: 'Vieja SA',
  };
  AFTER = {
    fullName: 'Marta Nueva',
    email: `marta.nueva.${round}@empresa.test`,
    company: 'Nueva SA',
  };
}

/**
 * Issue 30, S6: an exhibitor is one record across events, so an edit made through an open event
 * must not change what an archived event shows: archiving keeps each member as they were.
 */
describe('an archived event keeps its exhibitors as they were', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedAdmin>>;
  let as: Session;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await seedAdmin(t.deps.db, { fullName: 'Ana Administradora' });
  });
  afterAll(() => t.close());
  const at = async (instant: string) => {
    t.clock.set(instant);
    as = await t.signIn({ role: 'admin', adminId: admin.id });
  };
  beforeEach(async () => {
    nextMarta();
    await at(TEST_NOW);
  });

  const get = (url: string) => t.request({ method: 'GET', url, as });
  const post = (url: string) => t.request({ method: 'POST', url, as });

  /** Everything an administrator reads about the event's exhibitors, as text. */
  async function whatTheEventShows(eventId: string, exhibitorId: string): Promise<string> {
    const sheets: unknown[][] = [];
    const workbook = new ExcelJS.Workbook();
    const exported = await get(`/api/events/${eventId}/export`);
    expect(exported.statusCode).toBe(200);
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    for (const name of ['Votos', 'Participación']) {
      workbook.getWorksheet(name)?.eachRow((row) => sheets.push(row.values as unknown[]));
    }
    const reads = [
      `/api/events/${eventId}/exhibitors`,
      `/api/events/${eventId}/participation`,
      `/api/events/${eventId}/exhibitors/${exhibitorId}/votes`,
      `/api/events/${eventId}/nominees/consumption/30111111111`,
      `/api/events/${eventId}/history`,
    ];
    const answers = [];
    for (const url of reads) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      answers.push(response.json());
    }
    return JSON.stringify([answers, sheets]);
  }

  /** An exhibitor with a vote in an event that is then archived, and in an open later event. */
  async function sharedExhibitor() {
    const archived = await seedEvent(t.deps.db, { name: 'Premios 2026' });
    const open = await seedEvent(t.deps.db, {
      name: 'Premios 2027',
      eventDate: '2027-07-15',
      voteDeadline: '2027-07-01',
    });
    const marta = await seedExhibitor(t.deps.db, BEFORE);
    await seedMembership(t.deps.db, archived.id, marta.id);
    await seedMembership(t.deps.db, open.id, marta.id);
    await seedNominations(t.deps.db, {
      eventId: archived.id,
      exhibitorId: marta.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30111111111' }],
    });
    // Something Marta did herself in the archived event: the history names her.
    await t.deps.db
      .insertInto('audit_log')
      .values({
        at: TEST_NOW,
        actor_role: 'exh',
        actor_id: marta.id,
        actor_email: null,
        action: 'nomination.add',
        entity_type: 'nomination_list',
        entity_id: `${marta.id}/consumption`,
        event_id: archived.id,
        details: '{}',
      })
      .execute();
    await at(AFTER_EVENT);
    expect((await post(`/api/events/${archived.id}/archive`)).statusCode).toBe(200);
    return { archived, open, marta };
  }

  const editThroughOpenEvent = (openId: string, exhibitorId: string) =>
    t.request({
      method: 'PUT',
      url: `/api/events/${openId}/exhibitors/${exhibitorId}`,
      as,
      payload: AFTER,
    });

  it('an edit through an open event changes the open event, not the archived one, and adds nothing to its history', async () => {
    const { archived, open, marta } = await sharedExhibitor();
    const before = await whatTheEventShows(archived.id, marta.id);
    for (const value of Object.values(BEFORE)) expect(before).toContain(value);
    const historyBefore = await get(`/api/events/${archived.id}/history`);

    const edited = await editThroughOpenEvent(open.id, marta.id);
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject(AFTER);

    const after = await whatTheEventShows(archived.id, marta.id);
    expect(after).toBe(before);
    for (const value of Object.values(AFTER)) expect(after).not.toContain(value);
    expect((await get(`/api/events/${archived.id}/history`)).json()).toEqual(historyBefore.json());
    // The search of the archived event's history finds her by the name it shows.
    const found = await t.request({
      method: 'GET',
      url: `/api/events/${archived.id}/history`,
      query: { q: 'antigua' },
      as,
    });
    expect(found.json().entries).toHaveLength(1);

    const openRows = (await get(`/api/events/${open.id}/exhibitors`)).json().exhibitors;
    expect(openRows[0]).toMatchObject(AFTER);
    const stored = await t.deps.db
      .selectFrom('exhibitors')
      .select(['full_name', 'email', 'company'])
      .where('id', '=', marta.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      full_name: AFTER.fullName,
      email: AFTER.email,
      company: AFTER.company,
    });
  });

  it('Desarchivar shows the exhibitor as they are now; archiving again keeps that', async () => {
    const { archived, open, marta } = await sharedExhibitor();
    await editThroughOpenEvent(open.id, marta.id);
    expect((await post(`/api/events/${archived.id}/unarchive`)).statusCode).toBe(200);
    const reopened = (await get(`/api/events/${archived.id}/exhibitors`)).json().exhibitors;
    expect(reopened[0]).toMatchObject(AFTER);
    const membership = await t.deps.db
      .selectFrom('event_exhibitors')
      .select(['archived_full_name', 'archived_email', 'archived_company'])
      .where('event_id', '=', archived.id)
      .executeTakeFirstOrThrow();
    expect(membership).toEqual({
      archived_full_name: null,
      archived_email: null,
      archived_company: null,
    });

    expect((await post(`/api/events/${archived.id}/archive`)).statusCode).toBe(200);
    await t.request({
      method: 'PUT',
      url: `/api/events/${open.id}/exhibitors/${marta.id}`,
      as,
      payload: { ...AFTER, fullName: 'Marta Tercera' },
    });
    const rows = (await get(`/api/events/${archived.id}/exhibitors`)).json().exhibitors;
    expect(rows[0]).toMatchObject(AFTER);
  });

  it('anonymising the archived event leaves neither the kept copy nor the name it showed', async () => {
    const { archived, open, marta } = await sharedExhibitor();
    await editThroughOpenEvent(open.id, marta.id);
    expect((await post(`/api/events/${archived.id}/anonymise`)).statusCode).toBe(200);
    const memberships = await t.deps.db
      .selectFrom('event_exhibitors')
      .selectAll()
      .where('event_id', '=', archived.id)
      .execute();
    const history = await t.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('event_id', '=', archived.id)
      .execute();
    const shown = await whatTheEventShows(archived.id, memberships[0]!.exhibitor_id);
    const everything = JSON.stringify([memberships, history, shown]).toLowerCase();
    for (const value of [BEFORE.fullName, BEFORE.email, AFTER.fullName, AFTER.email]) {
      expect(everything).not.toContain(value.toLowerCase());
    }
    // Marta keeps her account, as she is now, for the open event.
    const openRows = (await get(`/api/events/${open.id}/exhibitors`)).json().exhibitors;
    expect(openRows[0]).toMatchObject({ id: marta.id, ...AFTER });
  });
});
