import { beforeAll, describe, expect, it } from 'vitest';
import {
  categoryRanking,
  duplicates,
  editVote,
  exhibitorVotes,
  history,
  merge as mergeEndpoint,
  mergePreview,
  undoMerge,
} from '../../src/shared/api/results.ts';
import type { Category } from '../../src/shared/constants.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { MergeInput } from '../../src/shared/schemas/results.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { listIn } from '../helpers/exhibitor-votes.ts';

const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-02T10:00:00.000Z';

describe('possible duplicates, merge and undo', () => {
  const app = useTestApp();
  let eventId: string;
  let e1: string;
  let e2: string;

  beforeAll(async () => {
    const { db } = app;
    eventId = (await seedEvent(db, { name: 'Unificar 2026' })).id;
    e1 = (await seedExhibitor(db, { fullName: 'Elena Uno' })).id;
    e2 = (await seedExhibitor(db, { fullName: 'Ernesto Dos' })).id;
    for (const id of [e1, e2]) await seedMembership(db, eventId, id);
    // CONSUMO: one pair of ids per duplicate rule, equal points within each pair.
    await seedNominations(db, {
      eventId,
      exhibitorId: e1,
      category: 'consumption',
      nominees: [
        { fiscalId: '20111111111', nominatedAt: T1 },
        { fiscalId: '20222222222', nominatedAt: T1 },
        { fiscalId: '20333333333', nominatedAt: T1 },
        { fiscalId: '27444444444', name: 'Distribuidora Peña S.R.L.', nominatedAt: T1 },
        { fiscalId: '33999999999', nominatedAt: T1 },
      ],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: e2,
      category: 'consumption',
      nominees: [
        { fiscalId: '020111111111', nominatedAt: T2 },
        { fiscalId: '20222222229', nominatedAt: T2 },
        { fiscalId: '20333833333', nominatedAt: T2 },
        { fiscalId: '30555555555', name: 'DISTRIBUIDORA PENA SRL', nominatedAt: T2 },
      ],
    });
    // VALOR AGREGADO: Elena's list holds 30100000009 (1st) and 30100000001 (3rd).
    await seedNominations(db, {
      eventId,
      exhibitorId: e1,
      category: 'value',
      nominees: [
        { fiscalId: '30100000009', name: 'Nueve', nominatedAt: T2 },
        { fiscalId: '30100000002', name: 'Dos', nominatedAt: T2 },
        { fiscalId: '30100000001', name: 'Uno', nominatedAt: T2 },
        { fiscalId: '30100000003', name: 'Tres', nominatedAt: T2 },
      ],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: e2,
      category: 'value',
      nominees: [{ fiscalId: '30100000001', name: 'Uno Dos', nominatedAt: T1 }],
    });
  });

  const merge = (category: Category, body: MergeInput, id = eventId) =>
    app.api.send(mergeEndpoint, { params: { eventId: id, category }, body });
  const undo = (auditId: number, id = eventId) =>
    app.api.send(undoMerge, { params: { eventId: id, auditId: String(auditId) } });
  const ranking = async (category: Category, id = eventId) =>
    (
      await app.api.call(categoryRanking, { params: { eventId: id, category }, query: {} })
    ).rows.map((r) => [r.position, r.fiscalId, r.points]);
  const list = async (exhibitorId: string, category: 'consumption' | 'value', id = eventId) =>
    (
      await app.db
        .selectFrom('nominations')
        .select(['list_order', 'fiscal_id', 'name', 'nominated_at'])
        .where('event_id', '=', id)
        .where('exhibitor_id', '=', exhibitorId)
        .where('category', '=', category)
        .orderBy('list_order')
        .execute()
    ).map((r) => [r.list_order, r.fiscal_id, r.name, r.nominated_at]);
  const auditRows = (action: string, id = eventId) =>
    app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('event_id', '=', id)
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  it('groups the ids of each duplicate rule, most points first, and leaves the rest out', async () => {
    const { groups } = await app.api.call(duplicates, {
      params: { eventId, category: 'consumption' },
    });
    expect(groups.map((g) => [g.nominees.map((n) => [n.fiscalId, n.points]), g.reasons])).toEqual([
      [
        [
          ['20111111111', 5],
          ['020111111111', 5],
        ],
        ['sameDigits'],
      ],
      [
        [
          ['20222222222', 4],
          ['20222222229', 4],
        ],
        ['lastDigit'],
      ],
      [
        [
          ['20333333333', 3],
          ['20333833333', 3],
        ],
        ['oneDigitApart'],
      ],
      [
        [
          ['27444444444', 2],
          ['30555555555', 2],
        ],
        ['sameName'],
      ],
    ]);
    expect(groups[3]?.nominees.map((n) => n.name)).toEqual([
      'Distribuidora Peña S.R.L.',
      'DISTRIBUIDORA PENA SRL',
    ]);
    const missing = await app.api.fail(duplicates, {
      params: { eventId: '00000000-0000-4000-8000-000000000000', category: 'consumption' },
    });
    expect(missing.status).toBe(404);
    expect(missing.message).toBe(MSG.eventNotFound);
  });

  it('previews the ranking before and after without storing anything', async () => {
    const body = await app.api.call(mergePreview, {
      params: { eventId, category: 'consumption' },
      body: { into: '20222222222', from: ['20222222229'] },
    });
    expect(body.before.slice(0, 4)).toEqual([
      { fiscalId: '20111111111', position: 1, points: 5 },
      { fiscalId: '020111111111', position: 2, points: 5 },
      { fiscalId: '20222222222', position: 3, points: 4 },
      { fiscalId: '20222222229', position: 4, points: 4 },
    ]);
    expect(body.after.slice(0, 2)).toEqual([
      { fiscalId: '20222222222', position: 1, points: 8 },
      { fiscalId: '20111111111', position: 2, points: 5 },
    ]);
    expect(body.after.some((r) => r.fiscalId === '20222222229')).toBe(false);
    expect((await ranking('consumption'))[2]).toEqual([3, '20222222222', 4]);
  });

  it('refuses a merge into an id without votes, or with nothing to merge, changing nothing', async () => {
    const unknown = await merge('consumption', { into: '99999999999', from: ['20111111111'] });
    expect(unknown).toMatchObject({
      status: 400,
      code: 'invalid_input',
      message: MSG.mergeUnknownInto,
      fields: { into: MSG.mergeUnknownInto },
    });
    const nothing = await merge('consumption', { into: '20111111111', from: ['99999999999'] });
    expect(nothing).toMatchObject({
      status: 409,
      code: 'nothing_to_merge',
      message: MSG.mergeNothingLeft,
    });
    const empty = await merge('consumption', { into: '20111111111', from: [] });
    expect(empty.status).toBe(400);
    expect(await auditRows('nominee.merge')).toHaveLength(0);
    expect(await list(e2, 'consumption')).toHaveLength(4);
  });

  it('merges ids no list held together: the votes move, audited, and the undo restores them', async () => {
    const { auditId, lists } = await app.api.call(mergeEndpoint, {
      params: { eventId, category: 'consumption' },
      body: { into: '20111111111', from: ['020111111111'] },
    });
    expect(lists).toBe(1);
    expect(await list(e2, 'consumption')).toEqual([
      [1, '20111111111', 'Reseller 020111111111', T2],
      [2, '20222222229', 'Reseller 20222222229', T2],
      [3, '20333833333', 'Reseller 20333833333', T2],
      [4, '30555555555', 'DISTRIBUIDORA PENA SRL', T2],
    ]);
    expect((await ranking('consumption')).slice(0, 2)).toEqual([
      [1, '20111111111', 10],
      [2, '20222222222', 4],
    ]);
    const [entry] = await auditRows('nominee.merge');
    expect(entry?.id).toBe(auditId);
    const details = JSON.parse(entry?.details ?? '{}');
    expect(details).toMatchObject({ category: 'consumption', into: '20111111111' });
    expect(details.from).toEqual(['020111111111']);
    expect(details.lists).toHaveLength(1);
    expect(details.lists[0].exhibitorId).toBe(e2);
    expect(details.lists[0].before[0]).toMatchObject({ list_order: 1, fiscal_id: '020111111111' });
    expect(details.lists[0].after[0]).toMatchObject({ list_order: 1, fiscal_id: '20111111111' });

    const undone = await undo(auditId);
    expect(undone.status).toBe(200);
    expect((await list(e2, 'consumption'))[0]).toEqual([
      1,
      '020111111111',
      'Reseller 020111111111',
      T2,
    ]);
    expect((await ranking('consumption')).slice(0, 2)).toEqual([
      [1, '20111111111', 5],
      [2, '020111111111', 5],
    ]);
    expect(await auditRows('nominee.merge.undo')).toHaveLength(1);
    // Undone already: the history offers no "Deshacer" for it, and a second undo says so.
    const { entries } = await app.api.call(history, { params: { eventId }, query: {} });
    expect(entries.find((entry) => entry.id === auditId)?.undoable).toBe(false);
    const again = await undo(auditId);
    expect(again).toMatchObject({
      status: 409,
      code: 'undo_stale',
      message: 'Esta unificación ya se deshizo.',
    });
    expect(await auditRows('nominee.merge.undo')).toHaveLength(1);
  });

  it('keeps the better-ranked entry of a list that held both ids and renumbers the list', async () => {
    const response = await app.api.call(mergeEndpoint, {
      params: { eventId, category: 'value' },
      body: { into: '30100000001', from: ['30100000009'] },
    });
    expect(response.lists).toBe(1);
    expect(await list(e1, 'value')).toEqual([
      [1, '30100000001', 'Nueve', T2],
      [2, '30100000002', 'Dos', T2],
      [3, '30100000003', 'Tres', T2],
    ]);
    expect(await list(e2, 'value')).toEqual([[1, '30100000001', 'Uno Dos', T1]]);
    expect(await ranking('value')).toEqual([
      [1, '30100000001', 10],
      [2, '30100000002', 4],
      [3, '30100000003', 3],
    ]);
  });

  it('refuses to undo a merge whose votes changed since, and changes nothing', async () => {
    const [, entry] = await auditRows('nominee.merge');
    const auditId = entry?.id ?? 0;
    const shown = await app.api.call(exhibitorVotes, { params: { eventId, exhibitorId: e1 } });
    await app.api.call(editVote, {
      params: { eventId, exhibitorId: e1, category: 'value', order: 2 },
      body: {
        name: 'Dos Corregido',
        registeredName: 'Dos S.A.',
        fiscalId: '30100000002',
        contactName: 'Nora Nueva',
        contactPosition: 'Directora',
        phone: '0114444555',
        email: 'nora@reseller.test',
        location: 'Rosario',
        city: 'Santa Fe',
        reason: 'typo',
        version: listIn(shown, 'value').version,
      },
    });
    const refused = await undo(auditId);
    expect(refused).toMatchObject({ status: 409, code: 'undo_stale', message: MSG.undoStale });
    expect((await list(e1, 'value')).map((r) => [r[1], r[2]])).toEqual([
      ['30100000001', 'Nueve'],
      ['30100000002', 'Dos Corregido'],
      ['30100000003', 'Tres'],
    ]);
    expect(await auditRows('nominee.merge.undo')).toHaveLength(1);
    // Not a merge entry, or another event's: nothing to undo.
    const missing = await undo(999999);
    expect(missing).toMatchObject({ status: 404, message: MSG.undoNotMerge });
  });

  it('applies exactly one of 20 parallel merges of the same ids', async () => {
    const db = app.db;
    const raceEvent = (await seedEvent(db, { name: 'Carrera' })).id;
    const voters: string[] = [];
    for (let k = 0; k < 4; k += 1) {
      const id = (await seedExhibitor(db, { fullName: `Votante ${k}` })).id;
      await seedMembership(db, raceEvent, id);
      voters.push(id);
      await seedNominations(db, {
        eventId: raceEvent,
        exhibitorId: id,
        category: 'consumption',
        nominees:
          k % 2 === 0
            ? [{ fiscalId: '20777777770' }, { fiscalId: '20777777777' }]
            : [{ fiscalId: '20777777777' }, { fiscalId: '20888888888' }],
      });
    }
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        merge('consumption', { into: '20777777777', from: ['20777777770'] }, raceEvent),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const r of responses) {
      if (!r.ok) expect(r.message).toBe(MSG.mergeNothingLeft);
    }
    expect(await auditRows('nominee.merge', raceEvent)).toHaveLength(1);
    // Voters 0 and 2 had 20777777770 1st and 20777777777 2nd: one entry at 1st remains.
    expect(await ranking('consumption', raceEvent)).toEqual([
      [1, '20777777777', 20],
      [2, '20888888888', 8],
    ]);
    expect((await list(voters[0] ?? '', 'consumption', raceEvent)).map((r) => r[1])).toEqual([
      '20777777777',
    ]);
  });
});
