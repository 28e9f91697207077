import { beforeAll, describe, expect, it } from 'vitest';
import {
  categoryRanking,
  editVote,
  exhibitorVotes,
  nomineeVotes,
} from '../../src/shared/api/results.ts';
import type { Category } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { RankingRow, VoteEditInput } from '../../src/shared/schemas/results.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { errorOf, failureOf } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { listIn, versionsIn } from '../helpers/exhibitor-votes.ts';

const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-02T10:00:00.000Z';
const T3 = '2026-01-03T10:00:00.000Z';

/** [position, fiscal id, name, points] of each ranking row, in the order the API gives them. */
const summary = (rows: RankingRow[]) => rows.map((r) => [r.position, r.fiscalId, r.name, r.points]);

describe('results', () => {
  const app = useTestApp();
  let eventId: string;
  let emptyEventId: string;
  let e1: { id: string; fullName: string };
  let e2: { id: string; fullName: string };
  let e3: { id: string; fullName: string };
  let outsider: { id: string };

  beforeAll(async () => {
    const { db } = app;
    const event = await seedEvent(db, { name: 'Premios 2026', voteDeadline: '2026-07-01' });
    eventId = event.id;
    emptyEventId = (await seedEvent(db)).id;
    e1 = await seedExhibitor(db, { fullName: 'Elena Uno' });
    e2 = await seedExhibitor(db, { fullName: 'Ernesto Dos', company: 'Redes del Sur' });
    e3 = await seedExhibitor(db, { fullName: 'Eva Tres' });
    outsider = await seedExhibitor(db, { fullName: 'Otro Evento' });
    for (const e of [e1, e2, e3]) await seedMembership(db, eventId, e.id);

    // CONSUMO. A: 5 + 4 = 9, B: 4 + 5 = 9, both first nominated at T1 → tied on everything (1°, 1°).
    // C: 3 + 5 = 8 (3°), D: 3 + 4 = 7 (4°), E: 3 (5°).
    await seedNominations(db, {
      eventId,
      exhibitorId: e1.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '20111111111', name: 'Alfa Uno', nominatedAt: T2 },
        { fiscalId: '20222222222', name: 'Beta Uno', nominatedAt: T2 },
        { fiscalId: '20333333333', name: 'Gama', nominatedAt: T2 },
      ],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: e2.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '20222222222', name: 'Beta Dos', nominatedAt: T1 },
        { fiscalId: '20111111111', name: 'Alfa Dos', nominatedAt: T1 },
        { fiscalId: '20444444444', name: 'Delta', nominatedAt: T1 },
      ],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: e3.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '20333333333', name: 'Gama Tres', nominatedAt: T3 },
        { fiscalId: '20444444444', name: 'Delta Tres', nominatedAt: T3 },
        { fiscalId: '20555555555', name: 'Épsilon', nominatedAt: T3 },
      ],
    });

    // VALOR AGREGADO. X: 1st + 5th = 6 beats Y: 2nd + 4th = 6 (more first places).
    // Z and W: one 3rd place each; W was nominated first, so W 5°, Z 6°.
    await seedNominations(db, {
      eventId,
      exhibitorId: e1.id,
      category: 'value',
      nominees: [
        { fiscalId: '30000000001', name: 'Equis', nominatedAt: T2 },
        { fiscalId: '30000000002', name: 'Ye', nominatedAt: T2 },
        { fiscalId: '30000000003', name: 'Zeta', nominatedAt: T2 },
      ],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: e2.id,
      category: 'value',
      nominees: [
        { fiscalId: '30000000004', name: 'Eme', nominatedAt: T1 },
        { fiscalId: '30000000005', name: 'Ene', nominatedAt: T1 },
        { fiscalId: '30000000006', name: 'Doble Ve', nominatedAt: T1 },
        { fiscalId: '30000000002', name: 'Ye Dos', nominatedAt: T1 },
        { fiscalId: '30000000001', name: 'Equis Dos', nominatedAt: T1 },
      ],
    });
  });

  const ranking = async (category: Category, id = eventId) =>
    app.api.call(categoryRanking, { params: { eventId: id, category }, query: {} });

  it('ranks CONSUMO by 6 − order, fully tied rows sharing a position, data of the earliest nomination', async () => {
    const body = await ranking('consumption');
    expect(body.eventName).toBe('Premios 2026');
    expect(summary(body.rows)).toEqual([
      [1, '20111111111', 'Alfa Dos', 9],
      [1, '20222222222', 'Beta Dos', 9],
      [3, '20333333333', 'Gama', 8],
      [4, '20444444444', 'Delta', 7],
      [5, '20555555555', 'Épsilon', 3],
    ]);
    expect(body.rows[0]).toMatchObject({
      email: 'contacto20111111111@reseller.test',
      registeredName: 'Razón Social 20111111111 S.A.',
      nominations: 2,
    });
  });

  it('breaks VALOR AGREGADO ties by more first places, then by the earliest nomination', async () => {
    const body = await ranking('value');
    expect(summary(body.rows)).toEqual([
      [1, '30000000001', 'Equis Dos', 6],
      [2, '30000000002', 'Ye Dos', 6],
      [3, '30000000004', 'Eme', 5],
      [4, '30000000005', 'Ene', 4],
      [5, '30000000006', 'Doble Ve', 3],
      [6, '30000000003', 'Zeta', 3],
    ]);
  });

  /** [fiscal id, p1..p5, tie-break] of each row: the counts and what separated it from the row above. */
  const counts = (rows: RankingRow[]) =>
    rows.map((r) => [r.fiscalId, [r.p1, r.p2, r.p3, r.p4, r.p5], r.tieBreak]);

  it('gives each row its count of 1st to 5th places and the criterion that separated it from the row above', async () => {
    // Hand-computed from the lists above. CONSUMO: A and B equal on everything; C, D and E each
    // have fewer points than the row above.
    expect(counts((await ranking('consumption')).rows)).toEqual([
      ['20111111111', [1, 1, 0, 0, 0], null],
      ['20222222222', [1, 1, 0, 0, 0], 'tied'],
      ['20333333333', [1, 0, 1, 0, 0], 'points'],
      ['20444444444', [0, 1, 1, 0, 0], 'points'],
      ['20555555555', [0, 0, 1, 0, 0], 'points'],
    ]);
    // VALOR AGREGADO: X and Y both 6 points, X has a 1st place; W and Z one 3rd place each, W
    // nominated at T1 and Z at T2.
    expect(counts((await ranking('value')).rows)).toEqual([
      ['30000000001', [1, 0, 0, 0, 1], null],
      ['30000000002', [0, 1, 0, 1, 0], 'places'],
      ['30000000004', [1, 0, 0, 0, 0], 'points'],
      ['30000000005', [0, 1, 0, 0, 0], 'points'],
      ['30000000006', [0, 0, 1, 0, 0], 'points'],
      ['30000000003', [0, 0, 1, 0, 0], 'earliest'],
    ]);
  });

  it('compares the first row of a later page with the last row of the page before', async () => {
    const { db } = app;
    const paged = await seedEvent(db, { name: 'Paginado' });
    // 21 exhibitors × 5 distinct nominees, all at T1: 21 rows of 5 points, 21 of 4 … 21 of 1.
    for (let k = 0; k < 21; k += 1) {
      const exhibitor = await seedExhibitor(db, { fullName: `Paginado ${k}` });
      await seedMembership(db, paged.id, exhibitor.id);
      await seedNominations(db, {
        eventId: paged.id,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: [0, 1, 2, 3, 4].map((j) => ({
          fiscalId: String(40000000000 + k * 5 + j),
          nominatedAt: T1,
        })),
      });
    }
    const first = await ranking('consumption', paged.id);
    expect(first.rows).toHaveLength(100);
    expect(first.rows.map((r) => r.tieBreak).filter((b) => b !== 'tied')).toEqual([
      null,
      'points',
      'points',
      'points',
      'points',
    ]);
    expect(first.rows[21]).toMatchObject({ position: 22, points: 4, p2: 1, tieBreak: 'points' });
    const { rows } = await app.api.call(categoryRanking, {
      params: { eventId: paged.id, category: 'consumption' },
      query: { page: '2' },
    });
    expect(rows.map((r) => [r.position, r.points, r.p5, r.tieBreak])).toEqual([
      [85, 1, 1, 'tied'],
      [85, 1, 1, 'tied'],
      [85, 1, 1, 'tied'],
      [85, 1, 1, 'tied'],
      [85, 1, 1, 'tied'],
    ]);
  });

  it('answers an event without votes with no rows, and refuses what is not a ranking', async () => {
    expect((await ranking('consumption', emptyEventId)).rows).toEqual([]);

    const consumptionOf = (id: string) => ({
      params: { eventId: id, category: 'consumption' as const },
    });
    const missing = await app.api.fail(
      categoryRanking,
      consumptionOf('00000000-0000-4000-8000-000000000000'),
    );
    expect(missing.status).toBe(404);
    expect(missing.message).toBe(MSG.eventNotFound);

    // A category the contract does not name.
    const other = await app.t.request({
      method: 'GET',
      url: `/api/events/${eventId}/ranking/otra`,
      as: app.as,
    });
    expect(other.statusCode).toBe(404);
    const exh = await app.exhibitor(e1.id);
    expect((await exh.fail(categoryRanking, consumptionOf(eventId))).status).toBe(403);
    expect((await app.signedOut.fail(categoryRanking, consumptionOf(eventId))).status).toBe(401);
  });

  it("says whether voting is still open, by the injected clock in the programme's zone", async () => {
    // The deadline is 2026-07-01: open through 23:59:59 in Buenos Aires (UTC−3).
    // A session signed in at each instant: moving the clock a month ends the test's own.
    const votingOpenAt = async (instant: string) => {
      await app.at(instant);
      return (await ranking('consumption')).votingOpen;
    };
    expect(await votingOpenAt(app.now)).toBe(true);
    expect(await votingOpenAt('2026-07-02T02:59:59.000Z')).toBe(true);
    expect(await votingOpenAt('2026-07-02T03:00:00.000Z')).toBe(false);
  });

  it("lists each exhibitor's entry for a nominee, earliest nomination first", async () => {
    const { votes } = await app.api.call(nomineeVotes, {
      params: { eventId, category: 'consumption', fiscalId: '20111111111' },
    });
    expect(votes.map((v) => [v.name, v.exhibitorId, v.order])).toEqual([
      ['Alfa Dos', e2.id, 2],
      ['Alfa Uno', e1.id, 1],
    ]);
    expect(votes[0]).toMatchObject({ exhibitorName: 'Ernesto Dos', phone: '1155550000' });
    // Each entry comes with its list's version (as seeded), which a correction carries back.
    expect(votes.map((v) => v.listVersion)).toEqual([1, 1]);
    // Who voted and at which place: name, company and the place in their list ("Puesto").
    expect(votes.map((v) => [v.exhibitorName, v.exhibitorCompany, v.order])).toEqual([
      ['Ernesto Dos', 'Redes del Sur', 2],
      ['Elena Uno', 'Distribuidora Norte', 1],
    ]);

    const none = await app.api.call(nomineeVotes, {
      params: { eventId, category: 'value', fiscalId: '99999999999' },
    });
    expect(none).toEqual({ votes: [] });
  });

  it("shows an exhibitor's two lists, and 404 for one who is not in the event", async () => {
    const body = await app.api.call(exhibitorVotes, { params: { eventId, exhibitorId: e2.id } });
    expect(body.exhibitor).toMatchObject({ id: e2.id, fullName: 'Ernesto Dos' });
    expect(listIn(body, 'consumption').nominees.map((n) => n.fiscalId)).toEqual([
      '20222222222',
      '20111111111',
      '20444444444',
    ]);
    expect(listIn(body, 'value').nominees.map((n) => n.order)).toEqual([1, 2, 3, 4, 5]);
    expect(versionsIn(body)).toEqual({ consumption: 1, value: 1 });

    for (const id of [outsider.id, '00000000-0000-4000-8000-000000000000']) {
      const missing = await app.api.fail(exhibitorVotes, { params: { eventId, exhibitorId: id } });
      expect(missing.status).toBe(404);
      expect(missing.message).toBe(MSG.exhibitorNotFound);
    }
  });

  describe('administrator vote edit', () => {
    type Correction = Omit<VoteEditInput, 'version'>;
    const nominee = (fiscalId: string, name: string) =>
      ({
        name,
        registeredName: `${name} S.R.L.`,
        fiscalId,
        contactName: 'Nora Nueva',
        contactPosition: 'Directora',
        phone: '0114444555',
        email: 'Nora@Reseller.test',
        location: 'Rosario',
        city: 'Santa Fe',
        reason: 'typo',
      }) satisfies Correction;
    /** The version of a list as the administrator's screen shows it. */
    const shownVersion = async (exhibitorId: string, category: Category) => {
      const shown = await app.api.send(exhibitorVotes, { params: { eventId, exhibitorId } });
      // An exhibitor outside the event has no list to show (the correction answers 404).
      return shown.ok ? listIn(shown.data, category).version : 0;
    };
    /** A correction based on the list as the administrator's screen shows it now. */
    const edit = async (exhibitorId: string, category: Category, order: number, body: Correction) =>
      app.api.send(editVote, {
        params: { eventId, exhibitorId, category, order },
        body: { version: await shownVersion(exhibitorId, category), ...body },
      });
    /** A correction the contract forbids (no reason, or one it does not name), sent as is. */
    const editRaw = async (exhibitorId: string, order: number, body: Record<string, unknown>) =>
      app.t.request({
        method: 'PUT',
        url: `/api/events/${eventId}/exhibitors/${exhibitorId}/votes/consumption/${order}`,
        payload: { version: await shownVersion(exhibitorId, 'consumption'), ...body },
        as: app.as,
      });
    const listRows = (exhibitorId: string) =>
      app.db
        .selectFrom('nominations')
        .selectAll()
        .where('event_id', '=', eventId)
        .where('exhibitor_id', '=', exhibitorId)
        .where('category', '=', 'consumption')
        .orderBy('list_order')
        .execute();
    const version = async (exhibitorId: string) =>
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
    const audits = () =>
      app.db.selectFrom('audit_log').selectAll().where('action', '=', 'vote.edit').execute();

    it('refuses a fiscal id already in that list with 409 and changes nothing', async () => {
      const before = await listRows(e3.id);
      const versionBefore = await version(e3.id);
      // e3's 3rd entry (Épsilon) may not become e3's 2nd entry's fiscal id (Delta).
      const response = await edit(e3.id, 'consumption', 3, nominee('20444444444', 'Delta Copia'));
      expect(response).toMatchObject({
        ok: false,
        status: 409,
        code: 'duplicate_fiscal_id',
        message: MSG.adminDuplicateFiscalId,
      });
      expect(response.ok ? undefined : response.fields).toEqual({
        fiscalId: MSG.adminDuplicateFiscalId,
      });
      expect(await listRows(e3.id)).toEqual(before);
      expect(await version(e3.id)).toBe(versionBefore);
      expect(await audits()).toEqual([]);
    });

    it('replaces the entry in place after the deadline, moves the ranking and is audited', async () => {
      await app.at('2026-07-10T12:00:00.000Z');
      const before = await listRows(e3.id);
      const versionBefore = await version(e3.id);
      // e3's 1st place (Gama, 5 points) goes to Alfa, which e3 had not nominated.
      const response = await edit(e3.id, 'consumption', 1, nominee('20111111111', 'Alfa Tres'));
      expect(response.status).toBe(200);
      expect(response.ok && response.data).toMatchObject({
        nominee: { fiscalId: '20111111111', order: 1, email: 'nora@reseller.test' },
        version: versionBefore + 1,
      });

      const after = await listRows(e3.id);
      expect(after.map((r) => [r.list_order, r.fiscal_id])).toEqual([
        [1, '20111111111'],
        [2, '20444444444'],
        [3, '20555555555'],
      ]);
      expect(after[0]).toMatchObject({
        name: 'Alfa Tres',
        contact_name: 'Nora Nueva',
        nominated_at: before[0]?.nominated_at,
        updated_at: '2026-07-10T12:00:00.000Z',
      });
      expect(await version(e3.id)).toBe(versionBefore + 1);

      const [audit] = await audits();
      expect(audit).toMatchObject({
        actor_role: 'admin',
        event_id: eventId,
        entity_type: 'nomination',
        entity_id: `${e3.id}/consumption/1`,
      });
      const details = JSON.parse(String(audit?.details));
      expect(details).toMatchObject({ reason: 'typo', detail: '' });
      expect(details.before).toMatchObject({ fiscalId: '20333333333', name: 'Gama Tres' });
      expect(details.after).toMatchObject({ fiscalId: '20111111111', name: 'Alfa Tres' });

      // Alfa 9 + 5; Gama keeps e1's 3rd place (3 points, nominated T2) ahead of Épsilon (T3).
      expect(summary((await ranking('consumption')).rows)).toEqual([
        [1, '20111111111', 'Alfa Dos', 14],
        [2, '20222222222', 'Beta Dos', 9],
        [3, '20444444444', 'Delta', 7],
        [4, '20333333333', 'Gama', 3],
        [5, '20555555555', 'Épsilon', 3],
      ]);
    });

    it('requires the reason of a correction, and the detail when the reason is "Otro"', async () => {
      const before = await listRows(e1.id);
      const auditsBefore = (await audits()).length;
      const { reason: _reason, ...withoutReason } = nominee('20999999999', 'Sin Motivo');
      const missing = await editRaw(e1.id, 2, withoutReason);
      expect(missing.statusCode).toBe(400);
      expect(errorOf(failureOf(missing))).toEqual({
        code: 'invalid_input',
        message: 'Elija un motivo.',
        fields: { reason: 'Elija un motivo.' },
      });
      // The dialog's select before a choice sends an empty reason: the same message.
      const empty = await editRaw(e1.id, 2, { ...nominee('20999999999', 'X'), reason: '' });
      expect(empty.statusCode).toBe(400);
      expect(failureOf(empty).fields).toEqual({ reason: 'Elija un motivo.' });
      const unknown = await editRaw(e1.id, 2, {
        ...nominee('20999999999', 'X'),
        reason: 'capricho',
      });
      expect(unknown.statusCode).toBe(400);
      expect(failureOf(unknown).fields).toEqual({ reason: MSG.invalidInput });
      const otherWithout = await edit(e1.id, 'consumption', 2, {
        ...nominee('20999999999', 'X'),
        reason: 'other',
        detail: '   ',
      });
      expect(otherWithout.status).toBe(400);
      expect(otherWithout.ok ? undefined : otherWithout.fields).toEqual({
        detail: MSG.requiredField,
      });
      expect(await listRows(e1.id)).toEqual(before);
      expect(await audits()).toHaveLength(auditsBefore);

      const other = await edit(e1.id, 'consumption', 2, {
        ...nominee('20222222222', 'Beta Corregido'),
        reason: 'other',
        detail: '  Lo pidió el comité  ',
      });
      expect(other.status).toBe(200);
      const last = (await audits()).at(-1);
      expect(JSON.parse(String(last?.details))).toMatchObject({
        reason: 'other',
        detail: 'Lo pidió el comité',
        after: { fiscalId: '20222222222', name: 'Beta Corregido' },
      });
      expect(JSON.parse(String(last?.details)).after.reason).toBeUndefined();
    });

    it('answers 404 for an empty place and 400 for an invalid form, saving nothing', async () => {
      const missing = await edit(e1.id, 'consumption', 5, nominee('20999999999', 'Nadie'));
      expect(missing.status).toBe(404);
      const outside = await edit(outsider.id, 'consumption', 1, nominee('20999999999', 'Nadie'));
      expect(outside.status).toBe(404);
      expect(outside.ok ? undefined : outside.message).toBe(MSG.exhibitorNotFound);
      const invalid = await edit(e1.id, 'consumption', 1, {
        ...nominee('20-1A', 'X'),
        email: 'no',
      });
      expect(invalid.status).toBe(400);
      expect(invalid.ok ? undefined : invalid.fields).toMatchObject({
        fiscalId: MSG.digitsOnly,
        email: MSG.invalidEmail,
      });
      expect((await edit(e1.id, 'consumption', 6, nominee('1', 'X'))).status).toBe(404);
      const asExhibitor = await app.api.send(
        editVote,
        {
          params: { eventId, exhibitorId: e1.id, category: 'consumption', order: 1 },
          body: { ...nominee('20999999999', 'Nadie'), version: await version(e1.id) },
        },
        { as: await app.t.signIn({ role: 'exh', exhibitorId: e1.id }) },
      );
      expect(asExhibitor.status).toBe(403);
      expect((await listRows(e1.id)).map((r) => r.fiscal_id)).toEqual([
        '20111111111',
        '20222222222',
        '20333333333',
      ]);
    });
  });
});
