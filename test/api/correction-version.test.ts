/**
 * Issue 30, S1: an administrator's correction names a place in an exhibitor's list, so it carries
 * the version of the list the administrator read. When the exhibitor moved or removed entries in
 * between, the place may hold another nominee: the correction is refused (409 `stale_list`) and
 * nothing changes, rather than silently replacing a nominee the administrator never saw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../src/shared/messages.ts';
import type { NominationList } from '../../src/shared/schemas/nominations.ts';
import type { ExhibitorVotesResponse, NomineeVote } from '../../src/shared/schemas/results.ts';
import { createTestApp, type Session, type TestApp } from '../helpers/app.ts';
import { nominee } from '../helpers/nomination-load.ts';
import {
  seedAdmin,
  seedEvent,
  seedExhibitor,
  seedMembership,
  seedNominations,
} from '../helpers/seed.ts';

const ALFA = '20111111111';
const BETA = '20222222222';
const GAMA = '20333333333';
const NUEVO = '20999999999';
const RACE_ROUNDS = 12;

describe("an administrator's correction based on the list version read", () => {
  let t: TestApp;
  let admin: Session;
  let eventId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signIn({ role: 'admin', adminId: (await seedAdmin(t.deps.db)).id });
    // Voting is open at the test clock's instant, so the exhibitor can still move entries.
    eventId = (await seedEvent(t.deps.db, { name: 'Correcciones 2026' })).id;
  });
  afterAll(() => t.close());

  /** A member of the event whose CONSUMO list is Alfa, Beta, Gama (version 1). */
  async function exhibitorWithList(): Promise<{ id: string; session: Session }> {
    const { id } = await seedExhibitor(t.deps.db);
    await seedMembership(t.deps.db, eventId, id);
    await seedNominations(t.deps.db, {
      eventId,
      exhibitorId: id,
      category: 'consumption',
      nominees: [{ fiscalId: ALFA }, { fiscalId: BETA }, { fiscalId: GAMA }],
    });
    return { id, session: await t.signIn({ role: 'exh', exhibitorId: id }) };
  }

  const read = async (exhibitorId: string) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/events/${eventId}/exhibitors/${exhibitorId}/votes`,
      as: admin,
    });
    expect(response.statusCode).toBe(200);
    return response.json() as ExhibitorVotesResponse;
  };
  const correct = (exhibitorId: string, order: number, body: Record<string, unknown>) =>
    t.request({
      method: 'PUT',
      url: `/api/events/${eventId}/exhibitors/${exhibitorId}/votes/consumption/${order}`,
      payload: body,
      as: admin,
    });
  const correction = (fiscalId: string, version: number) => ({
    ...nominee(fiscalId),
    name: `Corregido ${fiscalId}`,
    reason: 'wrongFiscalId',
    version,
  });
  const moveUp = (exhibitor: { session: Session }, fiscalId: string, version: number) =>
    t.request({
      method: 'POST',
      url: `/api/exh/events/${eventId}/consumption/nominees/${fiscalId}/move`,
      payload: { direction: 'up', version },
      as: exhibitor.session,
    });
  const rows = (exhibitorId: string) =>
    t.deps.db
      .selectFrom('nominations')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', exhibitorId)
      .where('category', '=', 'consumption')
      .orderBy('list_order')
      .execute();
  const storedVersion = async (exhibitorId: string) =>
    Number(
      (
        await t.deps.db
          .selectFrom('nomination_lists')
          .select('version')
          .where('event_id', '=', eventId)
          .where('exhibitor_id', '=', exhibitorId)
          .where('category', '=', 'consumption')
          .executeTakeFirstOrThrow()
      ).version,
    );
  const corrections = (exhibitorId: string) =>
    t.deps.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('action', '=', 'vote.edit')
      .where('entity_id', 'like', `${exhibitorId}/%`)
      .execute();

  it('applies a correction based on the current version and moves the version on', async () => {
    const exhibitor = await exhibitorWithList();
    const shown = await read(exhibitor.id);
    expect(shown.versions).toEqual({ consumption: 1, value: 0 });
    expect(shown.consumption[1]?.fiscalId).toBe(BETA);

    const response = await correct(exhibitor.id, 2, correction(NUEVO, shown.versions.consumption));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ nominee: { fiscalId: NUEVO, order: 2 }, version: 2 });
    expect((await rows(exhibitor.id)).map((row) => [row.list_order, row.fiscal_id])).toEqual([
      [1, ALFA],
      [2, NUEVO],
      [3, GAMA],
    ]);
    expect(await storedVersion(exhibitor.id)).toBe(2);
    expect((await read(exhibitor.id)).versions.consumption).toBe(2);

    // The exhibitor's screen, still at version 1, cannot overwrite the correction.
    const stale = await moveUp(exhibitor, GAMA, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toEqual({ code: 'stale_list', message: MSG.staleList });
  });

  it('refuses a correction read before the exhibitor moved an entry, changing nothing', async () => {
    const exhibitor = await exhibitorWithList();
    const shown = await read(exhibitor.id);
    // The administrator opens Beta, 2nd; meanwhile the exhibitor moves Beta up, so Alfa is 2nd.
    const moved = await moveUp(exhibitor, BETA, shown.versions.consumption);
    expect(moved.statusCode).toBe(200);
    const before = await rows(exhibitor.id);
    expect(before.map((row) => row.fiscal_id)).toEqual([BETA, ALFA, GAMA]);

    const refused = await correct(exhibitor.id, 2, correction(NUEVO, shown.versions.consumption));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: { code: 'stale_list', message: MSG.staleList } });
    // Alfa, which the administrator never saw at that place, is still there, as it was.
    expect(await rows(exhibitor.id)).toEqual(before);
    expect(await storedVersion(exhibitor.id)).toBe(2);
    expect(await corrections(exhibitor.id)).toEqual([]);

    // Read again, the administrator finds Beta 1st and corrects it there.
    const fresh = await read(exhibitor.id);
    expect(fresh.versions.consumption).toBe(2);
    const applied = await correct(exhibitor.id, 1, correction(NUEVO, fresh.versions.consumption));
    expect(applied.statusCode).toBe(200);
    expect((await rows(exhibitor.id)).map((row) => row.fiscal_id)).toEqual([NUEVO, ALFA, GAMA]);
  });

  it("refuses a correction from the nominee's page after the exhibitor removed an entry above", async () => {
    const exhibitor = await exhibitorWithList();
    const page = await t.request({
      method: 'GET',
      url: `/api/events/${eventId}/nominees/consumption/${GAMA}`,
      as: admin,
    });
    const vote = (page.json().votes as NomineeVote[]).find((v) => v.exhibitorId === exhibitor.id);
    expect(vote).toMatchObject({ fiscalId: GAMA, order: 3, listVersion: 1 });

    const removed = await t.request({
      method: 'DELETE',
      url: `/api/exh/events/${eventId}/consumption/nominees/${ALFA}?version=1`,
      as: exhibitor.session,
    });
    expect(removed.statusCode).toBe(200);
    expect((removed.json() as NominationList).version).toBe(2);
    const before = await rows(exhibitor.id);

    // Gama is 2nd now, and nothing is 3rd: the place named is refused as stale, not as missing.
    const refused = await correct(exhibitor.id, vote!.order, correction(GAMA, vote!.listVersion));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({ code: 'stale_list', message: MSG.staleList });
    expect(await rows(exhibitor.id)).toEqual(before);
    expect(await storedVersion(exhibitor.id)).toBe(2);
    expect(await corrections(exhibitor.id)).toEqual([]);
  });

  it('requires the version read, and refuses one that is not a version', async () => {
    const exhibitor = await exhibitorWithList();
    const before = await rows(exhibitor.id);
    const { version: _version, ...withoutVersion } = correction(NUEVO, 1);
    const missing = await correct(exhibitor.id, 2, withoutVersion);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toEqual({
      code: 'invalid_input',
      message: MSG.invalidInput,
      fields: { version: MSG.invalidInput },
    });
    for (const version of [-1, 1.5]) {
      const invalid = await correct(exhibitor.id, 2, correction(NUEVO, version));
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().error.fields).toEqual({ version: MSG.invalidInput });
    }
    // A version the list never had is stale, too.
    const future = await correct(exhibitor.id, 2, correction(NUEVO, 7));
    expect(future.statusCode).toBe(409);
    expect(future.json().error).toEqual({ code: 'stale_list', message: MSG.staleList });
    expect(await rows(exhibitor.id)).toEqual(before);
    expect(await storedVersion(exhibitor.id)).toBe(1);
  });

  it('never replaces a nominee the administrator did not see when a move races the correction', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < RACE_ROUNDS; round += 1) {
      const exhibitor = await exhibitorWithList();
      // Both start from the same read: Beta 2nd, version 1.
      const shown = await read(exhibitor.id);
      expect(shown.consumption[1]?.fiscalId).toBe(BETA);
      const version = shown.versions.consumption;
      const [moved, corrected] = await Promise.all([
        moveUp(exhibitor, BETA, version),
        correct(exhibitor.id, 2, correction(NUEVO, version)),
      ]);
      outcomes.add(`${moved.statusCode}/${corrected.statusCode}`);
      const stored = (await rows(exhibitor.id)).map((row) => row.fiscal_id);
      if (corrected.statusCode === 200) {
        // The correction landed on Beta, before the move, which was refused.
        expect(moved.statusCode).toBe(409);
        expect(moved.json().error).toEqual({ code: 'stale_list', message: MSG.staleList });
        expect(stored).toEqual([ALFA, NUEVO, GAMA]);
        expect(await corrections(exhibitor.id)).toEqual([
          { entity_id: `${exhibitor.id}/consumption/2` },
        ]);
      } else {
        // The move landed first; the correction, read before it, was refused and changed nothing.
        expect(moved.statusCode).toBe(200);
        expect(corrected.statusCode).toBe(409);
        expect(corrected.json().error).toEqual({ code: 'stale_list', message: MSG.staleList });
        expect(stored).toEqual([BETA, ALFA, GAMA]);
        expect(await corrections(exhibitor.id)).toEqual([]);
      }
      // One write per version: exactly one of the two moved it on.
      expect(await storedVersion(exhibitor.id)).toBe(version + 1);
    }
    expect([...outcomes].every((o) => o === '409/200' || o === '200/409')).toBe(true);
  });
});
