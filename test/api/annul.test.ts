/**
 * Issue 28 item 2: "Anular votos". An annulled list is kept as it was and counts for nothing
 * (points, per-place counts, "Votos", duplicates, the nominee's page, the exports' ranking); it
 * shows in the exhibitor-votes page, the category tab's count, the history and "Exportar todo";
 * neither its exhibitor (both save paths) nor an administrator's correction can change it until it
 * is restored. The totals are checked against numbers computed by hand below, and against
 * rebuildNomineeTotals.
 */
import { describe, expect, it } from 'vitest';
import { annulList, restoreList } from '../../src/shared/api/annulment.ts';
import {
  addNominee,
  editNominee,
  moveNominee,
  myEvent,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import { removeExhibitor } from '../../src/shared/api/exhibitors.ts';
import {
  categoryRanking,
  duplicates,
  editVote,
  exhibitorVotes,
  exportEvent,
  history,
  merge,
  nomineeVotes,
  undoMerge,
} from '../../src/shared/api/results.ts';
import { rebuildNomineeTotals } from '../../src/server/modules/ranking/nominee-totals.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { nominee } from '../helpers/nomination-load.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { openWorkbook } from '../helpers/workbook.ts';
import { listIn, annulmentsIn } from '../helpers/exhibitor-votes.ts';

const A = '20111111111';
const B = '20222222222';
const C = '20333333333';
const D = '20444444444';
const T0 = '2026-05-01T10:00:00.000Z';
const T1 = '2026-05-02T10:00:00.000Z';
const T2 = '2026-05-03T10:00:00.000Z';
const REASON = 'Votó dos veces con otra cuenta';

interface Row {
  fiscal_id: string;
  points: number;
  p1: number;
  p2: number;
  p3: number;
  p4: number;
  p5: number;
  nominations: number;
  first_key: string;
}

describe('annulling an exhibitor’s list', () => {
  const app = useTestApp({ admin: { fullName: 'Ana Administradora' } });

  /** The stored totals of the event's CONSUMO, by fiscal id. */
  async function totals(eventId: string): Promise<Row[]> {
    const rows = await app.db
      .selectFrom('nominee_totals')
      .select(['fiscal_id', 'points', 'p1', 'p2', 'p3', 'p4', 'p5', 'nominations', 'first_key'])
      .where('event_id', '=', eventId)
      .where('category', '=', 'consumption')
      .orderBy('fiscal_id')
      .execute();
    return rows.map((row) => ({
      ...row,
      points: Number(row.points),
      p1: Number(row.p1),
      p2: Number(row.p2),
      p3: Number(row.p3),
      p4: Number(row.p4),
      p5: Number(row.p5),
      nominations: Number(row.nominations),
    }));
  }

  /** Every stored totals row, then the same recomputed from scratch: they must be equal. */
  async function expectTotalsRebuildable(): Promise<void> {
    const all = async () =>
      (await app.db.selectFrom('nominee_totals').selectAll().execute())
        .map((row) => JSON.stringify({ ...row, points: Number(row.points) }))
        .sort();
    const kept = await all();
    await app.t.deps.transact((tx) => rebuildNomineeTotals(tx));
    expect(await all()).toEqual(kept);
  }

  /**
   * CONSUMO of three exhibitors: Ana [A, B, C] (at T1), Bruno [B, A] (at T0, the earliest),
   * Carla [C, B, D] (at T2). By hand: A 5+4 = 9, B 4+5+4 = 13, C 3+5 = 8, D 3.
   */
  async function threeLists() {
    const event = await seedEvent(app.db, { name: 'Premios Anulación' });
    const member = async (fullName: string, list: string[], at: string) => {
      const exhibitor = await seedExhibitor(app.db, { fullName });
      await seedMembership(app.db, event.id, exhibitor.id);
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: list.map((fiscalId) => ({ fiscalId, nominatedAt: at })),
      });
      return exhibitor;
    };
    const ana = await member('Ana Votante', [A, B, C], T1);
    const bruno = await member('Bruno Votante', [B, A], T0);
    const carla = await member('Carla Votante', [C, B, D], T2);
    return { event, ana, bruno, carla };
  }

  const row = (
    fiscalId: string,
    places: [number, number, number, number, number],
    firstAt: string,
    firstBy: string,
  ): Row => ({
    fiscal_id: fiscalId,
    points: places.reduce((sum, count, index) => sum + count * (5 - index), 0),
    p1: places[0],
    p2: places[1],
    p3: places[2],
    p4: places[3],
    p5: places[4],
    nominations: places.reduce((sum, count) => sum + count, 0),
    first_key: firstAt + firstBy,
  });

  const annul = (eventId: string, exhibitorId: string, reason = REASON) =>
    app.api.call(annulList, {
      params: { eventId, exhibitorId, category: 'consumption' },
      body: { reason },
    });
  const restore = (eventId: string, exhibitorId: string) =>
    app.api.call(restoreList, { params: { eventId, exhibitorId, category: 'consumption' } });

  it('takes the list out of the totals and puts it back exactly, hand-computed', async () => {
    const { event, ana, bruno, carla } = await threeLists();
    expect(await totals(event.id)).toEqual([
      row(A, [1, 1, 0, 0, 0], T0, bruno.id),
      row(B, [1, 2, 0, 0, 0], T0, bruno.id),
      row(C, [1, 0, 1, 0, 0], T1, ana.id),
      row(D, [0, 0, 1, 0, 0], T2, carla.id),
    ]);
    expect(
      (await totals(event.id)).map((r) => [r.fiscal_id, r.points]),
      'A 9, B 13, C 8, D 3 by hand',
    ).toEqual([
      [A, 9],
      [B, 13],
      [C, 8],
      [D, 3],
    ]);

    const annulled = await annul(event.id, bruno.id);
    expect(annulled).toEqual({ annulment: { at: app.now, reason: REASON } });
    // Without Bruno: A 5 (Ana 1st), B 4 + 4 = 8, C 8, D 3; the earliest votes are Ana's now.
    expect(await totals(event.id)).toEqual([
      row(A, [1, 0, 0, 0, 0], T1, ana.id),
      row(B, [0, 2, 0, 0, 0], T1, ana.id),
      row(C, [1, 0, 1, 0, 0], T1, ana.id),
      row(D, [0, 0, 1, 0, 0], T2, carla.id),
    ]);
    await expectTotalsRebuildable();

    await annul(event.id, carla.id, 'Lista de prueba');
    // Ana alone: A 5, B 4, C 3; D had only Carla's vote and leaves the ranking.
    expect(await totals(event.id)).toEqual([
      row(A, [1, 0, 0, 0, 0], T1, ana.id),
      row(B, [0, 1, 0, 0, 0], T1, ana.id),
      row(C, [0, 0, 1, 0, 0], T1, ana.id),
    ]);
    const ranking = await app.api.call(categoryRanking, {
      params: { eventId: event.id, category: 'consumption' },
      query: {},
    });
    expect(ranking.annulledLists).toBe(2);
    expect(ranking.rows.map((r) => [r.position, r.fiscalId, r.points, r.nominations])).toEqual([
      [1, A, 5, 1],
      [2, B, 4, 1],
      [3, C, 3, 1],
    ]);

    await restore(event.id, bruno.id);
    // Ana and Bruno: A 5 + 4 = 9, B 4 + 5 = 9 (B ahead on 1st places), C 3; Bruno's T0 first again.
    expect(await totals(event.id)).toEqual([
      row(A, [1, 1, 0, 0, 0], T0, bruno.id),
      row(B, [1, 1, 0, 0, 0], T0, bruno.id),
      row(C, [0, 0, 1, 0, 0], T1, ana.id),
    ]);
    await restore(event.id, carla.id);
    expect(await totals(event.id)).toEqual([
      row(A, [1, 1, 0, 0, 0], T0, bruno.id),
      row(B, [1, 2, 0, 0, 0], T0, bruno.id),
      row(C, [1, 0, 1, 0, 0], T1, ana.id),
      row(D, [0, 0, 1, 0, 0], T2, carla.id),
    ]);
    const after = await app.api.call(categoryRanking, {
      params: { eventId: event.id, category: 'consumption' },
      query: {},
    });
    expect(after.annulledLists).toBe(0);
    await expectTotalsRebuildable();
  });

  it('keeps the list as it was, shows it annulled with its reason, and restores it unchanged', async () => {
    const { event, bruno } = await threeLists();
    const before = await app.api.call(exhibitorVotes, {
      params: { eventId: event.id, exhibitorId: bruno.id },
    });
    expect(annulmentsIn(before)).toEqual({ consumption: null, value: null });
    await annul(event.id, bruno.id);

    const annulled = await app.api.call(exhibitorVotes, {
      params: { eventId: event.id, exhibitorId: bruno.id },
    });
    expect(listIn(annulled, 'consumption').nominees).toEqual(
      listIn(before, 'consumption').nominees,
    );
    expect(listIn(annulled, 'consumption').nominees.map((n) => n.fiscalId)).toEqual([B, A]);
    expect(annulmentsIn(annulled)).toEqual({
      consumption: { at: app.now, reason: REASON },
      value: null,
    });
    expect(listIn(annulled, 'consumption').version).toBe(listIn(before, 'consumption').version + 1);
    const stored = await app.db
      .selectFrom('nominations')
      .select(['list_order', 'fiscal_id', 'annulled'])
      .where('event_id', '=', event.id)
      .where('exhibitor_id', '=', bruno.id)
      .orderBy('list_order')
      .execute();
    expect(stored.map((r) => [r.list_order, r.fiscal_id, Number(r.annulled)])).toEqual([
      [1, B, 1],
      [2, A, 1],
    ]);

    // The exhibitor sees it on their screen.
    const exhibitor = await app.exhibitor(bruno.id);
    const screen = await exhibitor.call(myEvent, { params: { eventId: event.id } });
    expect(screen.lists.consumption.annulledReason).toBe(REASON);
    expect(screen.lists.consumption.nominees.map((n) => n.fiscalId)).toEqual([B, A]);
    expect(screen.lists.value.annulledReason).toBeUndefined();

    await restore(event.id, bruno.id);
    const restored = await app.api.call(exhibitorVotes, {
      params: { eventId: event.id, exhibitorId: bruno.id },
    });
    expect(listIn(restored, 'consumption').nominees).toEqual(
      listIn(before, 'consumption').nominees,
    );
    expect(annulmentsIn(restored)).toEqual({ consumption: null, value: null });
    const again = await exhibitor.call(myEvent, { params: { eventId: event.id } });
    expect(again.lists.consumption.annulledReason).toBeUndefined();
  });

  it('refuses every change by the exhibitor with the reason, and changes nothing', async () => {
    const { event, bruno } = await threeLists();
    await annul(event.id, bruno.id);
    const exhibitor = await app.exhibitor(bruno.id);
    const { lists } = await exhibitor.call(myEvent, { params: { eventId: event.id } });
    const version = lists.consumption.version;
    const params = { eventId: event.id, category: 'consumption' as const };
    const refusals = [
      await exhibitor.fail(addNominee, { params, body: { ...nominee(D), version } }),
      await exhibitor.fail(editNominee, {
        params: { ...params, fiscalId: A },
        body: { ...nominee(A), name: 'Otro nombre', version },
      }),
      await exhibitor.fail(removeNominee, {
        params: { ...params, fiscalId: A },
        query: { version: String(version) },
      }),
      await exhibitor.fail(moveNominee, {
        params: { ...params, fiscalId: A },
        body: { direction: 'up', version },
      }),
      // An older version read before the annulment is refused for the same reason.
      await exhibitor.fail(addNominee, { params, body: { ...nominee(D), version: version - 1 } }),
    ];
    expect(refusals.map((r) => [r.status, r.code, r.message])).toEqual(
      refusals.map(() => [
        409,
        'list_annulled',
        `Tu lista fue anulada por la organización: ${REASON}`,
      ]),
    );
    const still = await exhibitor.call(myEvent, { params: { eventId: event.id } });
    expect(still.lists.consumption).toEqual(lists.consumption);
    // The other category is not annulled: its first save goes through.
    const value = await exhibitor.call(addNominee, {
      params: { eventId: event.id, category: 'value' },
      body: { ...nominee(D), version: 0 },
    });
    expect(value.nominees.map((n) => n.fiscalId)).toEqual([D]);
    await expectTotalsRebuildable();
  });

  it('refuses an administrator’s correction of an annulled list', async () => {
    const { event, bruno } = await threeLists();
    await annul(event.id, bruno.id);
    const read = await app.api.call(exhibitorVotes, {
      params: { eventId: event.id, exhibitorId: bruno.id },
    });
    const refusal = await app.api.fail(editVote, {
      params: { eventId: event.id, exhibitorId: bruno.id, category: 'consumption', order: 1 },
      body: {
        ...nominee(B),
        name: 'Corregido',
        reason: 'wrongFiscalId',
        version: listIn(read, 'consumption').version,
      },
    });
    expect([refusal.status, refusal.code, refusal.message]).toEqual([
      409,
      'list_annulled',
      MSG.annulledListNotCorrectable,
    ]);
    const stored = await app.db
      .selectFrom('nominations')
      .select('name')
      .where('event_id', '=', event.id)
      .where('exhibitor_id', '=', bruno.id)
      .where('list_order', '=', 1)
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe(`Reseller ${B}`);
  });

  it('answers bad requests in Spanish with a 4xx and changes nothing', async () => {
    const { event, ana, bruno } = await threeLists();
    const params = { eventId: event.id, exhibitorId: bruno.id, category: 'consumption' as const };
    const blank = await app.api.fail(annulList, { params, body: { reason: '   ' } });
    expect([blank.status, blank.message, blank.fields]).toEqual([
      400,
      MSG.annulReasonRequired,
      { reason: MSG.annulReasonRequired },
    ]);
    const missing = await app.api.send(annulList, {
      params,
      body: {} as { reason: string },
    });
    expect(missing.ok ? 200 : [missing.status, missing.message]).toEqual([
      400,
      MSG.annulReasonRequired,
    ]);
    const notAnnulled = await app.api.fail(restoreList, { params });
    expect([notAnnulled.status, notAnnulled.code, notAnnulled.message]).toEqual([
      409,
      'list_not_annulled',
      MSG.listNotAnnulled,
    ]);
    // No list in VALOR AGREGADO: nothing to annul.
    const empty = await app.api.fail(annulList, {
      params: { ...params, category: 'value' },
      body: { reason: REASON },
    });
    expect([empty.status, empty.message]).toEqual([404, MSG.nothingToAnnul]);
    await annul(event.id, bruno.id);
    const twice = await app.api.fail(annulList, { params, body: { reason: 'Otra vez' } });
    expect([twice.status, twice.code, twice.message]).toEqual([
      409,
      'list_annulled',
      MSG.listAlreadyAnnulled,
    ]);
    // An exhibitor of another event is not found; an exhibitor may not annul.
    const other = await seedEvent(app.db);
    const stranger = await app.api.fail(annulList, {
      params: { ...params, eventId: other.id },
      body: { reason: REASON },
    });
    expect(stranger.status).toBe(404);
    const asExhibitor = await (
      await app.exhibitor(ana.id)
    ).fail(annulList, {
      params: { ...params, exhibitorId: ana.id },
      body: { reason: REASON },
    });
    expect(asExhibitor.status).toBe(403);
    const lists = await app.db
      .selectFrom('nomination_lists')
      .select(['exhibitor_id', 'annulled_reason'])
      .where('event_id', '=', event.id)
      .where('annulled_at', 'is not', null)
      .execute();
    expect(lists).toEqual([{ exhibitor_id: bruno.id, annulled_reason: REASON }]);
  });

  it('leaves the annulled votes out of the nominee’s page and of "Posibles duplicados"', async () => {
    const event = await seedEvent(app.db);
    const seed = async (fullName: string, list: { fiscalId: string; name: string }[]) => {
      const exhibitor = await seedExhibitor(app.db, { fullName });
      await seedMembership(app.db, event.id, exhibitor.id);
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: list,
      });
      return exhibitor;
    };
    await seed('Ana', [{ fiscalId: A, name: 'Soluciones Andinas' }]);
    const bruno = await seed('Bruno', [
      { fiscalId: B, name: 'Soluciones Andinas' },
      { fiscalId: A, name: 'Soluciones Andinas' },
    ]);
    const groups = async () =>
      (
        await app.api.call(duplicates, { params: { eventId: event.id, category: 'consumption' } })
      ).groups.map((group) => group.nominees.map((n) => n.fiscalId).sort());
    expect(await groups()).toEqual([[A, B]]);
    const votersOfA = async () =>
      (
        await app.api.call(nomineeVotes, {
          params: { eventId: event.id, category: 'consumption', fiscalId: A },
        })
      ).votes.map((vote) => vote.exhibitorName);
    expect((await votersOfA()).sort()).toEqual(['Ana', 'Bruno']);

    await annul(event.id, bruno.id);
    expect(await groups()).toEqual([]);
    expect(await votersOfA()).toEqual(['Ana']);
    // B has no vote that counts: it cannot be merged into, and a merge leaves Bruno's list alone.
    const into = await app.api.fail(merge, {
      params: { eventId: event.id, category: 'consumption' },
      body: { into: B, from: [A] },
    });
    expect(into.status).toBe(400);
    const nothing = await app.api.fail(merge, {
      params: { eventId: event.id, category: 'consumption' },
      body: { into: A, from: [B] },
    });
    expect(nothing.status).toBe(409);
  });

  it('refuses to undo a merge whose list was annulled since, keeping the annulment', async () => {
    const event = await seedEvent(app.db);
    const ana = await seedExhibitor(app.db, { fullName: 'Ana' });
    const bruno = await seedExhibitor(app.db, { fullName: 'Bruno' });
    for (const [exhibitor, list] of [
      [ana, [A, C]],
      [bruno, [B, C]],
    ] as const) {
      await seedMembership(app.db, event.id, exhibitor.id);
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: list.map((fiscalId) => ({ fiscalId })),
      });
    }
    const merged = await app.api.call(merge, {
      params: { eventId: event.id, category: 'consumption' },
      body: { into: A, from: [B] },
    });
    await annul(event.id, bruno.id);
    const undo = await app.api.fail(undoMerge, {
      params: { eventId: event.id, auditId: String(merged.auditId) },
    });
    expect([undo.status, undo.code, undo.message]).toEqual([409, 'undo_stale', MSG.undoStale]);
    // Ana only: A 5, C 4.
    expect((await totals(event.id)).map((r) => [r.fiscal_id, r.points])).toEqual([
      [A, 5],
      [C, 4],
    ]);
    await expectTotalsRebuildable();
  });

  it('keeps the totals exact when an exhibitor with an annulled list is removed', async () => {
    const { event, ana, bruno } = await threeLists();
    await annul(event.id, bruno.id);
    await app.api.call(removeExhibitor, { params: { eventId: event.id, exhibitorId: bruno.id } });
    await app.api.call(removeExhibitor, { params: { eventId: event.id, exhibitorId: ana.id } });
    // Carla alone: C 5, B 4, D 3.
    expect((await totals(event.id)).map((r) => [r.fiscal_id, r.points])).toEqual([
      [B, 4],
      [C, 5],
      [D, 3],
    ]);
    await expectTotalsRebuildable();
  });

  it('records both in "Historial" and marks the votes in "Exportar todo"', async () => {
    const { event, bruno } = await threeLists();
    await annul(event.id, bruno.id);
    app.t.clock.advance(60_000);
    await restore(event.id, bruno.id);
    app.t.clock.advance(60_000);
    await annul(event.id, bruno.id, 'Segunda revisión');

    const { entries } = await app.api.call(history, { params: { eventId: event.id }, query: {} });
    expect(entries.slice(0, 3).map((e) => [e.who, e.actionLabel, e.detail])).toEqual([
      [
        'Ana Administradora',
        'Votos anulados',
        'CONSUMO: la lista de Bruno Votante (2 votos) anulada · Motivo: Segunda revisión',
      ],
      [
        'Ana Administradora',
        'Votos restablecidos',
        `CONSUMO: la lista de Bruno Votante (2 votos) restablecida · Había sido anulada por: ${REASON}`,
      ],
      [
        'Ana Administradora',
        'Votos anulados',
        `CONSUMO: la lista de Bruno Votante (2 votos) anulada · Motivo: ${REASON}`,
      ],
    ]);

    const workbook = await openWorkbook(
      await app.api.call(exportEvent, { params: { eventId: event.id } }),
    );
    const votes = workbook.getWorksheet('Votos');
    const values = (n: number) => (votes?.getRow(n).values as unknown[]).slice(1);
    expect(values(1).at(-1)).toBe('Anulado');
    const rows = Array.from({ length: (votes?.rowCount ?? 1) - 1 }, (_, i) => values(i + 2)).map(
      (r) => [r[0], r[3], r[6], r.at(-1)],
    );
    expect(
      rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1])),
    ).toEqual([
      ['Ana Votante', 1, A, 'No'],
      ['Ana Votante', 2, B, 'No'],
      ['Ana Votante', 3, C, 'No'],
      ['Bruno Votante', 1, B, 'Sí: Segunda revisión'],
      ['Bruno Votante', 2, A, 'Sí: Segunda revisión'],
      ['Carla Votante', 1, C, 'No'],
      ['Carla Votante', 2, B, 'No'],
      ['Carla Votante', 3, D, 'No'],
    ]);
    // The workbook's ranking is without Bruno: B 4 + 4 = 8 ties C 8 on points; C has a 1st place.
    const ranking = workbook.getWorksheet('CONSUMO');
    const ranked = Array.from({ length: (ranking?.rowCount ?? 1) - 1 }, (_, i) =>
      (ranking?.getRow(i + 2).values as unknown[]).slice(1),
    ).map((r) => [r[0], r[1], r[9]]);
    expect(ranked).toEqual([
      [1, C, 8],
      [2, B, 8],
      [3, A, 5],
      [4, D, 3],
    ]);
  });
});
