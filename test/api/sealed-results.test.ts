/**
 * Issue 28 item 4: results sealed until the close (docs/decisions/0036). While a sealed event's
 * voting is open every route that answers figures of its results refuses with 409 and one Spanish
 * message; the close (its own hour in its zone, or "Cerrar votación ahora") or "Ver resultados
 * ahora" with its reason opens them for every administrator. What does not reveal counts stays:
 * participation, an exhibitor's own lists, a correction, an annulment, the history.
 */
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/server/modules/index.ts';
import type { Endpoint } from '../../src/shared/api/define.ts';
import { annulList } from '../../src/shared/api/annulment.ts';
import {
  closeVoting,
  createEvent,
  duplicateEvent,
  getEvent,
  updateEvent,
  viewResultsEarly,
} from '../../src/shared/api/events.ts';
import { participation } from '../../src/shared/api/participation.ts';
import { addReseller, listResellers } from '../../src/shared/api/registry.ts';
import {
  categoryRanking,
  duplicates,
  editVote,
  exhibitorVotes,
  exportEvent,
  exportNomineeVotes,
  exportRanking,
  history,
  merge,
  mergePreview,
  nomineeVotes,
  undoMerge,
} from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { errorOf, type TestClient } from '../helpers/client.ts';
import { seedAdmin, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';
import { listIn } from '../helpers/exhibitor-votes.ts';

const A = '20111111111';
const B = '20222222222';
const SEALED = 'Los resultados están ocultos hasta el cierre de la votación.';
const REASON = 'El comité necesita el avance para la prensa';
/** 2026-07-01 23:59 in Buenos Aires (UTC−3) is the last open minute; 03:00Z the first closed. */
const LAST_OPEN_MINUTE = '2026-07-02T02:59:30.000Z';
const CLOSED = '2026-07-02T03:00:00.000Z';

describe('results sealed until the close', () => {
  const app = useTestApp({ admin: { fullName: 'Ana Administradora' } });

  /** An event created through "Nuevo evento", its deadline 2026-07-01, with two lists in CONSUMO. */
  async function eventWithVotes(
    sealResults?: boolean,
    lists: readonly (readonly string[])[] = [[A, B], [B]],
  ) {
    const event = await app.api.call(createEvent, {
      body: {
        name: `Premios Sellados ${Math.random().toString(36).slice(2, 8)}`,
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
        ...(sealResults === undefined ? {} : { sealResults }),
      },
    });
    const voters = [];
    const names = ['Bruno Votante', 'Carla Votante'];
    for (const [index, list] of lists.entries()) {
      const fullName = names[index] ?? `Votante ${index}`;
      const exhibitor = await seedExhibitor(app.db, { fullName });
      await seedMembership(app.db, event.id, exhibitor.id);
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: list.map((fiscalId) => ({ fiscalId })),
      });
      voters.push(exhibitor);
    }
    return { event, voters };
  }

  /** One call of every route that answers figures of the results, as `client` makes it. */
  function resultsCalls(client: TestClient, eventId: string) {
    const category = 'consumption' as const;
    const calls: [Endpoint, () => Promise<{ ok: boolean }>][] = [
      [categoryRanking, () => client.send(categoryRanking, { params: { eventId, category } })],
      [exportRanking, () => client.send(exportRanking, { params: { eventId, category } })],
      [
        nomineeVotes,
        () => client.send(nomineeVotes, { params: { eventId, category, fiscalId: B } }),
      ],
      [
        exportNomineeVotes,
        () => client.send(exportNomineeVotes, { params: { eventId, category, fiscalId: B } }),
      ],
      [duplicates, () => client.send(duplicates, { params: { eventId, category } })],
      [
        mergePreview,
        () =>
          client.send(mergePreview, {
            params: { eventId, category },
            body: { into: B, from: [A] },
          }),
      ],
      [
        merge,
        () => client.send(merge, { params: { eventId, category }, body: { into: B, from: [A] } }),
      ],
      // No merge exists: once the results show, the undo's own 404 answers instead.
      [undoMerge, () => client.send(undoMerge, { params: { eventId, auditId: '999999' } })],
      [exportEvent, () => client.send(exportEvent, { params: { eventId } })],
    ];
    return calls;
  }

  it('knows every route that answers figures of the results, and each one is tested here', () => {
    const marked = apiRoutes
      .filter((route) => route.endpoint.showsResults)
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    const tested = resultsCalls(app.api, 'e')
      .map(([endpoint]) => `${endpoint.method} ${endpoint.path}`)
      .sort();
    expect(marked).toEqual(tested);
  });

  it('is off by default: a new event shows its results while voting is open', async () => {
    const { event } = await eventWithVotes();
    expect(event).toMatchObject({
      sealResults: false,
      resultsSealed: false,
      resultsViewedEarly: null,
    });
    const stored = await app.db
      .selectFrom('events')
      .select(['seal_results', 'results_viewed_at'])
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ seal_results: 0, results_viewed_at: null });
    const ranking = await app.api.call(categoryRanking, {
      params: { eventId: event.id, category: 'consumption' },
    });
    expect(ranking.rows.map((row) => [row.fiscalId, row.points])).toEqual([
      [B, 9],
      [A, 5],
    ]);
  });

  it('refuses every results route with 409 and its Spanish message while voting is open', async () => {
    const { event } = await eventWithVotes(true);
    expect(event).toMatchObject({ sealResults: true, resultsSealed: true });
    for (const [endpoint, send] of resultsCalls(app.api, event.id)) {
      const outcome = await send();
      expect(outcome, `${endpoint.method} ${endpoint.path}`).toMatchObject({
        ok: false,
        status: 409,
        code: 'results_sealed',
        message: SEALED,
      });
    }
    // The refused merge changed nothing.
    const stored = await app.db
      .selectFrom('nominations')
      .select('fiscal_id')
      .where('event_id', '=', event.id)
      .orderBy('fiscal_id')
      .execute();
    expect(stored.map((row) => row.fiscal_id)).toEqual([A, B, B]);
    // Still sealed in the last open minute of the deadline day, in the event's zone.
    await app.at(LAST_OPEN_MINUTE);
    const late = await app.api.fail(categoryRanking, {
      params: { eventId: event.id, category: 'consumption' },
    });
    expect(errorOf(late)).toEqual({ code: 'results_sealed', message: SEALED });
    expect(late.status).toBe(409);
  });

  it('keeps participation, the exhibitor’s lists, a correction, an annulment and the history', async () => {
    const { event, voters } = await eventWithVotes(true);
    const [bruno, carla] = voters;
    if (!bruno || !carla) throw new Error('two voters');
    const turnout = await app.api.call(participation, { params: { eventId: event.id } });
    expect(turnout.figures).toMatchObject({ votedConsumption: 2, votedValue: 0 });
    const lists = await app.api.call(exhibitorVotes, {
      params: { eventId: event.id, exhibitorId: bruno.id },
    });
    expect(listIn(lists, 'consumption').nominees.map((entry) => entry.fiscalId)).toEqual([A, B]);
    // A correction does not reveal counts: it stays possible while sealed (decision 0036).
    const [first] = listIn(lists, 'consumption').nominees;
    if (!first) throw new Error('Bruno voted');
    const corrected = await app.api.call(editVote, {
      params: { eventId: event.id, exhibitorId: bruno.id, category: 'consumption', order: 1 },
      body: {
        ...first,
        name: 'Reseller Corregido',
        reason: 'typo',
        version: listIn(lists, 'consumption').version,
      },
    });
    expect(corrected.nominee.name).toBe('Reseller Corregido');
    await app.api.call(annulList, {
      params: { eventId: event.id, exhibitorId: carla.id, category: 'consumption' },
      body: { reason: 'Votó dos veces' },
    });
    const entries = await app.api.call(history, { params: { eventId: event.id } });
    expect(entries.entries.map((entry) => entry.actionLabel)).toEqual([
      'Votos anulados',
      'Voto corregido',
      'Evento creado',
    ]);
  });

  it('shows the results after the close, by the clock in the event’s zone', async () => {
    const { event } = await eventWithVotes(true);
    await app.at(CLOSED);
    expect(await app.api.call(getEvent, { params: { eventId: event.id } })).toMatchObject({
      status: 'closed',
      sealResults: true,
      resultsSealed: false,
      resultsViewedEarly: null,
    });
    const ranking = await app.api.call(categoryRanking, {
      params: { eventId: event.id, category: 'consumption' },
    });
    expect(ranking.rows.map((row) => [row.fiscalId, row.points])).toEqual([
      [B, 9],
      [A, 5],
    ]);
    for (const [endpoint, send] of resultsCalls(app.api, event.id)) {
      const outcome = await send();
      const label = `${endpoint.method} ${endpoint.path}`;
      if (endpoint === undoMerge) {
        expect(outcome, label).toMatchObject({ ok: false, status: 404 });
      } else {
        expect(outcome, label).toMatchObject({ ok: true });
      }
    }
  });

  it('shows the results once voting is closed early ("Cerrar votación ahora")', async () => {
    const { event } = await eventWithVotes(true);
    const closed = await app.api.call(closeVoting, { params: { eventId: event.id } });
    expect(closed).toMatchObject({ status: 'closed', resultsSealed: false });
    const ranking = await app.api.call(categoryRanking, {
      params: { eventId: event.id, category: 'consumption' },
    });
    expect(ranking.rows).toHaveLength(2);
  });

  it('"Ver" opens them for every administrator, in the history with its reason and in the header', async () => {
    const { event } = await eventWithVotes(true);
    const viewed = await app.api.call(viewResultsEarly, {
      params: { eventId: event.id },
      body: { reason: `  ${REASON} ` },
    });
    expect(viewed).toMatchObject({
      resultsSealed: false,
      sealResults: true,
      resultsViewedEarly: { by: 'Ana Administradora', at: app.now, reason: REASON },
    });
    const stored = await app.db
      .selectFrom('events')
      .select([
        'results_viewed_at',
        'results_viewed_by',
        'results_viewed_by_name',
        'results_viewed_reason',
      ])
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      results_viewed_at: app.now,
      results_viewed_by: app.admin.id,
      results_viewed_by_name: 'Ana Administradora',
      results_viewed_reason: REASON,
    });
    const [entry] = (await app.api.call(history, { params: { eventId: event.id } })).entries;
    expect(entry).toMatchObject({
      who: 'Ana Administradora',
      action: 'event.results_viewed_early',
      actionLabel: 'Resultados vistos antes del cierre',
      detail: `Motivo: ${REASON}`,
    });
    // Another administrator sees them too, and the header's name.
    const other = await seedAdmin(app.db, { fullName: 'Beatriz Directora' });
    const beatriz = app.client(await app.t.signIn({ role: 'admin', adminId: other.id }));
    expect(await beatriz.call(getEvent, { params: { eventId: event.id } })).toMatchObject({
      resultsSealed: false,
      resultsViewedEarly: { by: 'Ana Administradora' },
    });
    for (const [endpoint, send] of resultsCalls(beatriz, event.id)) {
      const outcome = await send();
      const label = `${endpoint.method} ${endpoint.path}`;
      if (endpoint === undoMerge) {
        expect(outcome, label).toMatchObject({ ok: false, status: 404 });
      } else {
        expect(outcome, label).toMatchObject({ ok: true });
      }
    }
    // Nothing left to open: a second "Ver" is refused and records nothing.
    const again = await beatriz.fail(viewResultsEarly, {
      params: { eventId: event.id },
      body: { reason: 'Otra vez' },
    });
    expect(again.status).toBe(409);
    expect(errorOf(again)).toEqual({ code: 'results_not_sealed', message: MSG.resultsNotSealed });
  });

  it('refuses "Ver" without a reason, in Spanish, and changes nothing', async () => {
    const { event } = await eventWithVotes(true);
    for (const body of [{}, { reason: '' }, { reason: '   ' }]) {
      const response = await app.t.request({
        method: 'POST',
        url: `/api/events/${event.id}/results/view-early`,
        as: app.as,
        payload: body,
      });
      expect(response.statusCode).toBe(400);
      expect(JSON.parse(response.body)).toEqual({
        error: {
          code: 'invalid_input',
          message: 'Indique el motivo.',
          fields: { reason: 'Indique el motivo.' },
        },
      });
    }
    expect(
      await app.db
        .selectFrom('events')
        .select('results_viewed_at')
        .where('id', '=', event.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ results_viewed_at: null });
    const entries = await app.api.call(history, { params: { eventId: event.id } });
    expect(entries.entries.map((entry) => entry.action)).toEqual(['event.created']);
    expect(
      (await app.api.fail(categoryRanking, { params: { eventId: event.id, category: 'value' } }))
        .code,
    ).toBe('results_sealed');
  });

  it('records one viewing when two administrators press "Ver" at once', async () => {
    const { event } = await eventWithVotes(true);
    const other = await seedAdmin(app.db, { fullName: 'Beatriz Directora' });
    const beatriz = app.client(await app.t.signIn({ role: 'admin', adminId: other.id }));
    const outcomes = await Promise.all([
      app.api.send(viewResultsEarly, { params: { eventId: event.id }, body: { reason: 'Uno' } }),
      beatriz.send(viewResultsEarly, { params: { eventId: event.id }, body: { reason: 'Dos' } }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([200, 409]);
    const viewings = await app.db
      .selectFrom('audit_log')
      .select('details')
      .where('event_id', '=', event.id)
      .where('action', '=', 'event.results_viewed_early')
      .execute();
    expect(viewings).toHaveLength(1);
  });

  it('refuses exhibitors as before, and seals one event without touching another', async () => {
    const { event, voters } = await eventWithVotes(true);
    const open = await eventWithVotes(false);
    const [voter] = voters;
    const [otherVoter] = open.voters;
    if (!voter || !otherVoter) throw new Error('each event has voters');
    const exhibitor = await app.exhibitor(voter.id);
    const asExhibitor = await exhibitor.fail(categoryRanking, {
      params: { eventId: event.id, category: 'consumption' },
    });
    expect(asExhibitor.status).toBe(403);
    const viewing = await exhibitor.fail(viewResultsEarly, {
      params: { eventId: event.id },
      body: { reason: REASON },
    });
    expect(viewing.status).toBe(403);
    const outsider = await app.exhibitor(otherVoter.id);
    expect(
      (
        await outsider.fail(viewResultsEarly, {
          params: { eventId: event.id },
          body: { reason: REASON },
        })
      ).status,
    ).toBe(403);
    const signedOut = await app.signedOut.fail(categoryRanking, {
      params: { eventId: event.id, category: 'consumption' },
    });
    expect(signedOut.status).toBe(401);
    // The other event, not sealed, answers its figures meanwhile.
    const ranking = await app.api.call(categoryRanking, {
      params: { eventId: open.event.id, category: 'consumption' },
    });
    expect(ranking.rows).toHaveLength(2);
    // An event without the setting has nothing to open.
    const nothing = await app.api.fail(viewResultsEarly, {
      params: { eventId: open.event.id },
      body: { reason: REASON },
    });
    expect(errorOf(nothing)).toEqual({ code: 'results_not_sealed', message: MSG.resultsNotSealed });
    const missing = await app.api.fail(viewResultsEarly, {
      params: { eventId: 'no-existe' },
      body: { reason: REASON },
    });
    expect(missing.status).toBe(404);
  });

  it('records changing the setting in "Historial"; "Duplicar evento" copies it, never the viewing', async () => {
    const { event } = await eventWithVotes();
    const base = { name: event.name, eventDate: event.eventDate, voteDeadline: event.voteDeadline };
    const sealed = await app.api.call(updateEvent, {
      params: { eventId: event.id },
      body: { ...base, sealResults: true },
    });
    expect(sealed).toMatchObject({ sealResults: true, resultsSealed: true });
    const kept = await app.api.call(updateEvent, { params: { eventId: event.id }, body: base });
    expect(kept.sealResults).toBe(true);
    const [change] = (
      await app.api.call(history, { params: { eventId: event.id } })
    ).entries.filter((entry) => entry.action === 'event.updated' && entry.detail !== 'sin cambios');
    expect(change?.detail).toBe('Ocultar resultados hasta el cierre: No → Sí');
    await app.api.call(viewResultsEarly, {
      params: { eventId: event.id },
      body: { reason: REASON },
    });
    const copy = await app.api.call(duplicateEvent, {
      params: { eventId: event.id },
      body: {
        name: `${event.name} 2027`,
        eventDate: '2026-08-15',
        voteDeadline: '2026-08-01',
        copyExhibitors: true,
        sendInvitations: false,
      },
    });
    expect(copy).toMatchObject({
      sealResults: true,
      resultsSealed: true,
      resultsViewedEarly: null,
    });
    const unsealed = await app.api.call(updateEvent, {
      params: { eventId: copy.id },
      body: {
        name: copy.name,
        eventDate: copy.eventDate,
        voteDeadline: copy.voteDeadline,
        sealResults: false,
      },
    });
    expect(unsealed).toMatchObject({ sealResults: false, resultsSealed: false });
    const [off] = (await app.api.call(history, { params: { eventId: copy.id } })).entries;
    expect(off?.detail).toBe('Ocultar resultados hasta el cierre: Sí → No');
  });

  it('leaves a sealed event out of the registry’s "Nominaciones" until its results show', async () => {
    const C = '20333333333';
    await app.api.call(addReseller, {
      body: {
        fiscalId: C,
        name: 'Reseller Sellado',
        registeredName: 'Reseller Sellado S.A.',
        location: 'Palermo',
        city: 'Buenos Aires',
        contactName: 'Carla Contacto',
        contactPosition: 'Gerente',
        phone: '1155550000',
        email: 'carla@sellado.test',
      },
    });
    const sealed = await eventWithVotes(true, [[C], [C]]);
    await eventWithVotes(false, [[C]]);
    const nominationsOfC = async () =>
      (await app.api.call(listResellers, { query: { q: C } })).resellers.map((reseller) => [
        reseller.fiscalId,
        reseller.nominations,
      ]);
    expect(await nominationsOfC()).toEqual([[C, 1]]);
    await app.api.call(viewResultsEarly, {
      params: { eventId: sealed.event.id },
      body: { reason: REASON },
    });
    expect(await nominationsOfC()).toEqual([[C, 3]]);
  });
});
