import { beforeEach, describe, expect, it } from 'vitest';
import { anonymiseEvent, archiveEvent, unarchiveEvent } from '../../src/shared/api/events.ts';
import { editExhibitor, listEventExhibitors } from '../../src/shared/api/exhibitors.ts';
import { participation } from '../../src/shared/api/participation.ts';
import {
  exhibitorVotes,
  exportEvent,
  history,
  nomineeVotes,
} from '../../src/shared/api/results.ts';
import { TEST_NOW } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { openWorkbook } from '../helpers/workbook.ts';

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
  const app = useTestApp();

  beforeEach(() => {
    nextMarta();
  });
  const members = async (eventId: string) =>
    (await app.api.call(listEventExhibitors, { params: { eventId } })).exhibitors;

  /** Everything an administrator reads about the event's exhibitors, as text. */
  async function whatTheEventShows(eventId: string, exhibitorId: string): Promise<string> {
    const sheets: unknown[][] = [];
    const workbook = await openWorkbook(await app.api.call(exportEvent, { params: { eventId } }));
    for (const name of ['Votos', 'Participación']) {
      workbook.getWorksheet(name)?.eachRow((row) => sheets.push(row.values as unknown[]));
    }
    const answers = [
      await app.api.call(listEventExhibitors, { params: { eventId } }),
      await app.api.call(participation, { params: { eventId } }),
      await app.api.call(exhibitorVotes, { params: { eventId, exhibitorId } }),
      await app.api.call(nomineeVotes, {
        params: { eventId, category: 'consumption', fiscalId: '30111111111' },
      }),
      await app.api.call(history, { params: { eventId }, query: {} }),
    ];
    return JSON.stringify([answers, sheets]);
  }

  /** An exhibitor with a vote in an event that is then archived, and in an open later event. */
  async function sharedExhibitor() {
    const archived = await seedEvent(app.db, { name: 'Premios 2026' });
    const open = await seedEvent(app.db, {
      name: 'Premios 2027',
      eventDate: '2027-07-15',
      voteDeadline: '2027-07-01',
    });
    const marta = await seedExhibitor(app.db, BEFORE);
    await seedMembership(app.db, archived.id, marta.id);
    await seedMembership(app.db, open.id, marta.id);
    await seedNominations(app.db, {
      eventId: archived.id,
      exhibitorId: marta.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30111111111' }],
    });
    // Something Marta did herself in the archived event: the history names her.
    await app.db
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
    await app.at(AFTER_EVENT);
    await app.api.call(archiveEvent, { params: { eventId: archived.id } });
    return { archived, open, marta };
  }

  const editThroughOpenEvent = (openId: string, exhibitorId: string) =>
    app.api.call(editExhibitor, { params: { eventId: openId, exhibitorId }, body: AFTER });

  it('an edit through an open event changes the open event, not the archived one, and adds nothing to its history', async () => {
    const { archived, open, marta } = await sharedExhibitor();
    const before = await whatTheEventShows(archived.id, marta.id);
    for (const value of Object.values(BEFORE)) expect(before).toContain(value);
    const historyOf = (q?: string) =>
      app.api.call(history, { params: { eventId: archived.id }, query: q ? { q } : {} });
    const historyBefore = await historyOf();

    const edited = await editThroughOpenEvent(open.id, marta.id);
    expect(edited).toMatchObject(AFTER);

    const after = await whatTheEventShows(archived.id, marta.id);
    expect(after).toBe(before);
    for (const value of Object.values(AFTER)) expect(after).not.toContain(value);
    expect(await historyOf()).toEqual(historyBefore);
    // The search of the archived event's history finds her by the name it shows.
    const found = await historyOf('antigua');
    expect(found.entries).toHaveLength(1);

    const openRows = await members(open.id);
    expect(openRows[0]).toMatchObject(AFTER);
    const stored = await app.db
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
    await app.api.call(unarchiveEvent, { params: { eventId: archived.id } });
    const reopened = await members(archived.id);
    expect(reopened[0]).toMatchObject(AFTER);
    const membership = await app.db
      .selectFrom('event_exhibitors')
      .select(['archived_full_name', 'archived_email', 'archived_company'])
      .where('event_id', '=', archived.id)
      .executeTakeFirstOrThrow();
    expect(membership).toEqual({
      archived_full_name: null,
      archived_email: null,
      archived_company: null,
    });

    await app.api.call(archiveEvent, { params: { eventId: archived.id } });
    await app.api.call(editExhibitor, {
      params: { eventId: open.id, exhibitorId: marta.id },
      body: { ...AFTER, fullName: 'Marta Tercera' },
    });
    const rows = await members(archived.id);
    expect(rows[0]).toMatchObject(AFTER);
  });

  it('anonymising the archived event leaves neither the kept copy nor the name it showed', async () => {
    const { archived, open, marta } = await sharedExhibitor();
    await editThroughOpenEvent(open.id, marta.id);
    await app.api.call(anonymiseEvent, { params: { eventId: archived.id } });
    const memberships = await app.db
      .selectFrom('event_exhibitors')
      .selectAll()
      .where('event_id', '=', archived.id)
      .execute();
    const history = await app.db
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
    const openRows = await members(open.id);
    expect(openRows[0]).toMatchObject({ id: marta.id, ...AFTER });
  });
});
