/**
 * Issue 30, S1: an administrator's correction names a place in an exhibitor's list, so it carries
 * the version of the list the administrator read. When the exhibitor moved or removed entries in
 * between, the place may hold another nominee: the correction is refused (409 `stale_list`) and
 * nothing changes, rather than silently replacing a nominee the administrator never saw.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { answered, errorOf, failureOf, refused } from '../helpers/client.ts';
import { moveNominee, removeNominee } from '../../src/shared/api/nominations.ts';
import { editVote, exhibitorVotes, nomineeVotes } from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { VoteEditInput } from '../../src/shared/schemas/results.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import type { TestClient } from '../helpers/client.ts';
import { nominee } from '../helpers/nomination-load.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { listIn, versionsIn } from '../helpers/exhibitor-votes.ts';

const ALFA = '20111111111';
const BETA = '20222222222';
const GAMA = '20333333333';
const NUEVO = '20999999999';
const RACE_ROUNDS = 12;

describe("an administrator's correction based on the list version read", () => {
  const app = useTestApp();
  let eventId: string;

  beforeAll(async () => {
    // Voting is open at the test clock's instant, so the exhibitor can still move entries.
    eventId = (await seedEvent(app.db, { name: 'Correcciones 2026' })).id;
  });

  /** A member of the event whose CONSUMO list is Alfa, Beta, Gama (version 1). */
  async function exhibitorWithList(): Promise<{ id: string; client: TestClient }> {
    const { id } = await seedExhibitor(app.db);
    await seedMembership(app.db, eventId, id);
    await seedNominations(app.db, {
      eventId,
      exhibitorId: id,
      category: 'consumption',
      nominees: [{ fiscalId: ALFA }, { fiscalId: BETA }, { fiscalId: GAMA }],
    });
    return { id, client: await app.exhibitor(id) };
  }

  const read = (exhibitorId: string) =>
    app.api.call(exhibitorVotes, { params: { eventId, exhibitorId } });
  const correct = (exhibitorId: string, order: number, body: VoteEditInput) =>
    app.api.send(editVote, {
      params: { eventId, exhibitorId, category: 'consumption', order },
      body,
    });
  const correction = (fiscalId: string, version: number): VoteEditInput => ({
    ...nominee(fiscalId),
    name: `Corregido ${fiscalId}`,
    reason: 'wrongFiscalId',
    version,
  });
  const moveUp = (exhibitor: { client: TestClient }, fiscalId: string, version: number) =>
    exhibitor.client.send(moveNominee, {
      params: { eventId, category: 'consumption', fiscalId },
      body: { direction: 'up', version },
    });
  const staleList = { error: { code: 'stale_list', message: MSG.staleList } };
  const rows = (exhibitorId: string) =>
    app.db
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
        await app.db
          .selectFrom('nomination_lists')
          .select('version')
          .where('event_id', '=', eventId)
          .where('exhibitor_id', '=', exhibitorId)
          .where('category', '=', 'consumption')
          .executeTakeFirstOrThrow()
      ).version,
    );
  const corrections = (exhibitorId: string) =>
    app.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('action', '=', 'vote.edit')
      .where('entity_id', 'like', `${exhibitorId}/%`)
      .execute();

  it('applies a correction based on the current version and moves the version on', async () => {
    const exhibitor = await exhibitorWithList();
    const shown = await read(exhibitor.id);
    expect(versionsIn(shown)).toEqual({ consumption: 1, value: 0 });
    expect(listIn(shown, 'consumption').nominees[1]?.fiscalId).toBe(BETA);

    const response = await correct(
      exhibitor.id,
      2,
      correction(NUEVO, listIn(shown, 'consumption').version),
    );
    expect(response.status).toBe(200);
    expect(answered(response).data).toMatchObject({
      nominee: { fiscalId: NUEVO, order: 2 },
      version: 2,
    });
    expect((await rows(exhibitor.id)).map((row) => [row.list_order, row.fiscal_id])).toEqual([
      [1, ALFA],
      [2, NUEVO],
      [3, GAMA],
    ]);
    expect(await storedVersion(exhibitor.id)).toBe(2);
    expect(listIn(await read(exhibitor.id), 'consumption').version).toBe(2);

    // The exhibitor's screen, still at version 1, cannot overwrite the correction.
    const stale = refused(await moveUp(exhibitor, GAMA, 1));
    expect(stale.status).toBe(409);
    expect({ error: errorOf(stale) }).toEqual(staleList);
  });

  it('refuses a correction read before the exhibitor moved an entry, changing nothing', async () => {
    const exhibitor = await exhibitorWithList();
    const shown = await read(exhibitor.id);
    // The administrator opens Beta, 2nd; meanwhile the exhibitor moves Beta up, so Alfa is 2nd.
    const moved = await moveUp(exhibitor, BETA, listIn(shown, 'consumption').version);
    expect(moved.status).toBe(200);
    const before = await rows(exhibitor.id);
    expect(before.map((row) => row.fiscal_id)).toEqual([BETA, ALFA, GAMA]);

    const refusal = refused(
      await correct(exhibitor.id, 2, correction(NUEVO, listIn(shown, 'consumption').version)),
    );
    expect(refusal.status).toBe(409);
    expect({ error: errorOf(refusal) }).toEqual(staleList);
    // Alfa, which the administrator never saw at that place, is still there, as it was.
    expect(await rows(exhibitor.id)).toEqual(before);
    expect(await storedVersion(exhibitor.id)).toBe(2);
    expect(await corrections(exhibitor.id)).toEqual([]);

    // Read again, the administrator finds Beta 1st and corrects it there.
    const fresh = await read(exhibitor.id);
    expect(listIn(fresh, 'consumption').version).toBe(2);
    const applied = await correct(
      exhibitor.id,
      1,
      correction(NUEVO, listIn(fresh, 'consumption').version),
    );
    expect(applied.status).toBe(200);
    expect((await rows(exhibitor.id)).map((row) => row.fiscal_id)).toEqual([NUEVO, ALFA, GAMA]);
  });

  it("refuses a correction from the nominee's page after the exhibitor removed an entry above", async () => {
    const exhibitor = await exhibitorWithList();
    const page = await app.api.call(nomineeVotes, {
      params: { eventId, category: 'consumption', fiscalId: GAMA },
    });
    const vote = page.votes.find((v) => v.exhibitorId === exhibitor.id);
    expect(vote).toMatchObject({ fiscalId: GAMA, order: 3, listVersion: 1 });

    const removed = await exhibitor.client.call(removeNominee, {
      params: { eventId, category: 'consumption', fiscalId: ALFA },
      query: { version: '1' },
    });
    expect(removed.version).toBe(2);
    const before = await rows(exhibitor.id);

    // Gama is 2nd now, and nothing is 3rd: the place named is refused as stale, not as missing.
    const refusal = refused(
      await correct(exhibitor.id, vote!.order, correction(GAMA, vote!.listVersion)),
    );
    expect(refusal.status).toBe(409);
    expect({ error: errorOf(refusal) }).toEqual(staleList);
    expect(await rows(exhibitor.id)).toEqual(before);
    expect(await storedVersion(exhibitor.id)).toBe(2);
    expect(await corrections(exhibitor.id)).toEqual([]);
  });

  it('requires the version read, and refuses one that is not a version', async () => {
    const exhibitor = await exhibitorWithList();
    const before = await rows(exhibitor.id);
    const { version: _version, ...withoutVersion } = correction(NUEVO, 1);
    // A correction without the version the contract requires, sent as is.
    const missing = await app.t.request({
      method: 'PUT',
      url: `/api/events/${eventId}/exhibitors/${exhibitor.id}/votes/consumption/2`,
      payload: withoutVersion,
      as: app.as,
    });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(failureOf(missing))).toEqual({
      code: 'invalid_input',
      message: MSG.invalidInput,
      fields: { version: MSG.invalidInput },
    });
    for (const version of [-1, 1.5]) {
      const invalid = refused(await correct(exhibitor.id, 2, correction(NUEVO, version)));
      expect(invalid.status).toBe(400);
      expect(invalid.fields).toEqual({ version: MSG.invalidInput });
    }
    // A version the list never had is stale, too.
    const future = refused(await correct(exhibitor.id, 2, correction(NUEVO, 7)));
    expect(future.status).toBe(409);
    expect({ error: errorOf(future) }).toEqual(staleList);
    expect(await rows(exhibitor.id)).toEqual(before);
    expect(await storedVersion(exhibitor.id)).toBe(1);
  });

  it('never replaces a nominee the administrator did not see when a move races the correction', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < RACE_ROUNDS; round += 1) {
      const exhibitor = await exhibitorWithList();
      // Both start from the same read: Beta 2nd, version 1.
      const shown = await read(exhibitor.id);
      expect(listIn(shown, 'consumption').nominees[1]?.fiscalId).toBe(BETA);
      const version = listIn(shown, 'consumption').version;
      const [moved, corrected] = await Promise.all([
        moveUp(exhibitor, BETA, version),
        correct(exhibitor.id, 2, correction(NUEVO, version)),
      ]);
      outcomes.add(`${moved.status}/${corrected.status}`);
      const stored = (await rows(exhibitor.id)).map((row) => row.fiscal_id);
      if (corrected.status === 200) {
        // The correction landed on Beta, before the move, which was refused.
        expect(moved.status).toBe(409);
        expect({ error: errorOf(refused(moved)) }).toEqual(staleList);
        expect(stored).toEqual([ALFA, NUEVO, GAMA]);
        expect(await corrections(exhibitor.id)).toEqual([
          { entity_id: `${exhibitor.id}/consumption/2` },
        ]);
      } else {
        // The move landed first; the correction, read before it, was refused and changed nothing.
        expect(moved.status).toBe(200);
        expect(corrected.status).toBe(409);
        expect({ error: errorOf(refused(corrected)) }).toEqual(staleList);
        expect(stored).toEqual([BETA, ALFA, GAMA]);
        expect(await corrections(exhibitor.id)).toEqual([]);
      }
      // One write per version: exactly one of the two moved it on.
      expect(await storedVersion(exhibitor.id)).toBe(version + 1);
    }
    expect([...outcomes].every((o) => o === '409/200' || o === '200/409')).toBe(true);
  });
});
