/**
 * Issue 28 item 2 under concurrency: an exhibitor keeps saving (adds, moves, removes) while an
 * administrator annuls the list and later restores it, in parallel requests. On PostgreSQL they
 * really overlap (each request has its own connection), through both save paths: the one-statement
 * `premios_save_nominee` and, for an event whose "Datos del nominado" make a field optional, the
 * ordinary one. Afterwards:
 * - nominee_totals equals rebuildNomineeTotals' recomputation from scratch;
 * - every row's `annulled` flag agrees with its list's state;
 * - no save was accepted after the annulment: the list stored is the list the annulment recorded;
 * - every refused save was refused with the annulment's reason or as stale, never a 500.
 */
import { describe, expect, it } from 'vitest';
import { annulList, restoreList } from '../../src/shared/api/annulment.ts';
import {
  addNominee,
  moveNominee,
  myEvent,
  removeNominee,
} from '../../src/shared/api/nominations.ts';
import { readAuditDetails, AUDIT_ACTIONS } from '../../src/shared/audit-entries.ts';
import { rebuildNomineeTotals } from '../../src/server/modules/ranking/nominee-totals.ts';
import type { TestClient } from '../helpers/client.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { nominee } from '../helpers/nomination-load.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

const ROUNDS = 8;
const SAVES = 10;
const POOL = ['20111111111', '20222222222', '20333333333', '20444444444', '20555555555', '9'];
const REASON = 'Cuenta compartida';
const ANNULLED = `Tu lista fue anulada por la organización: ${REASON}`;

describe('annulling and restoring while the exhibitor saves', () => {
  const app = useTestApp();

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
   * The exhibitor's saves, one after another as a phone sends them, each based on the version
   * last answered (re-read after a stale refusal). `onSaved(n)` after the n-th accepted save lets
   * the administrator's request start in the middle of them. Answers every refusal's text.
   */
  async function keepSaving(
    exhibitor: TestClient,
    eventId: string,
    onSaved: (count: number) => void,
  ): Promise<string[]> {
    const refusals: string[] = [];
    const read = async () =>
      (await exhibitor.call(myEvent, { params: { eventId } })).lists.consumption;
    let list = await read();
    let saved = 0;
    for (let step = 0; step < SAVES; step++) {
      const params = { eventId, category: 'consumption' as const };
      const present = list.nominees.map((n) => n.fiscalId);
      const missing = POOL.filter((id) => !present.includes(id));
      const last = present.at(-1);
      const outcome =
        step % 3 === 0 && missing[0] && present.length < 5
          ? await exhibitor.send(addNominee, {
              params,
              body: { ...nominee(missing[0]), version: list.version },
            })
          : step % 3 === 1 && last && present.length > 1
            ? await exhibitor.send(moveNominee, {
                params: { ...params, fiscalId: last },
                body: { direction: 'up', version: list.version },
              })
            : last
              ? await exhibitor.send(removeNominee, {
                  params: { ...params, fiscalId: last },
                  query: { version: String(list.version) },
                })
              : await exhibitor.send(addNominee, {
                  params,
                  body: { ...nominee(POOL[0] ?? ''), version: list.version },
                });
      if (outcome.ok) {
        list = outcome.data;
        onSaved(++saved);
        continue;
      }
      refusals.push(`${outcome.status} ${outcome.code} ${outcome.message}`);
      if (outcome.code === 'stale_list') list = await read();
    }
    onSaved(Number.POSITIVE_INFINITY);
    return refusals;
  }

  /** Resolves once `count` saves were accepted (or the saver has finished). */
  function afterSaves(count: number) {
    let resolve: () => void = () => undefined;
    const reached = new Promise<void>((done) => (resolve = done));
    return { reached, onSaved: (n: number) => (n >= count ? resolve() : undefined) };
  }

  for (const path of ['one statement', 'ordinary'] as const) {
    it(`keeps the totals exact and the annulled list unchanged (${path} save)`, async () => {
      const event = await seedEvent(app.db);
      if (path === 'ordinary') {
        // An optional field sends every add to the ordinary path (premios_save_nominee: 'ordinary').
        await app.db
          .updateTable('events')
          .set({ nominee_fields: JSON.stringify({ phone: 'optional' }) })
          .where('id', '=', event.id)
          .execute();
      }
      // Others vote for the same ids, so the totals rows are shared with the racing list.
      for (let other = 0; other < 3; other++) {
        const { id } = await seedExhibitor(app.db);
        await seedMembership(app.db, event.id, id);
        await seedNominations(app.db, {
          eventId: event.id,
          exhibitorId: id,
          category: 'consumption',
          nominees: POOL.slice(other, other + 4).map((fiscalId) => ({ fiscalId })),
        });
      }
      for (let round = 0; round < ROUNDS; round++) {
        const racer = await seedExhibitor(app.db);
        await seedMembership(app.db, event.id, racer.id);
        await seedNominations(app.db, {
          eventId: event.id,
          exhibitorId: racer.id,
          category: 'consumption',
          nominees: POOL.slice(0, 3).map((fiscalId) => ({ fiscalId })),
        });
        const exhibitor = await app.exhibitor(racer.id);
        const list = { eventId: event.id, exhibitorId: racer.id, category: 'consumption' as const };
        const annulAt = afterSaves(round % 4);
        const [refusals, annulled] = await Promise.all([
          keepSaving(exhibitor, event.id, annulAt.onSaved),
          (async () => {
            await annulAt.reached;
            return app.api.send(annulList, { params: list, body: { reason: REASON } });
          })(),
        ]);
        expect(annulled.ok, JSON.stringify(annulled.ok ? '' : annulled.message)).toBe(true);
        for (const refusal of refusals) {
          expect([
            `409 list_annulled ${ANNULLED}`,
            expect.stringMatching(/^409 stale_list /),
          ]).toContainEqual(refusal);
        }
        // Nothing was accepted after the annulment: the list is the one it recorded.
        const entry = await app.db
          .selectFrom('audit_log')
          .select('details')
          .where('event_id', '=', event.id)
          .where('action', '=', 'list.annul')
          .where('entity_id', '=', `${racer.id}/consumption`)
          .executeTakeFirstOrThrow();
        const recorded = readAuditDetails(AUDIT_ACTIONS['list.annul'].details, entry.details);
        const stored = await app.db
          .selectFrom('nominations')
          .select(['fiscal_id', 'annulled'])
          .where('event_id', '=', event.id)
          .where('exhibitor_id', '=', racer.id)
          .where('category', '=', 'consumption')
          .orderBy('list_order')
          .execute();
        expect(stored.map((row) => row.fiscal_id)).toEqual(
          recorded?.entries.map((e) => e.fiscalId),
        );
        expect(stored.every((row) => Number(row.annulled) === 1)).toBe(true);
        // A save after the annulment is refused with its reason.
        const current = (await exhibitor.call(myEvent, { params: { eventId: event.id } })).lists
          .consumption;
        const late = await exhibitor.fail(moveNominee, {
          params: { eventId: event.id, category: 'consumption', fiscalId: POOL[0] ?? '' },
          body: { direction: 'down', version: current.version },
        });
        expect([late.status, late.code, late.message]).toEqual([409, 'list_annulled', ANNULLED]);

        // Restoring while the exhibitor saves again: their saves go through once it commits.
        if (round % 2 === 0) {
          const restoreAt = afterSaves(0);
          const [restored, refusedMeanwhile] = await Promise.all([
            (async () => {
              await restoreAt.reached;
              return app.api.send(restoreList, { params: list });
            })(),
            (async () => {
              restoreAt.onSaved(0);
              return keepSaving(exhibitor, event.id, () => undefined);
            })(),
          ]);
          expect(restored.ok).toBe(true);
          for (const refusal of refusedMeanwhile) {
            expect([
              `409 list_annulled ${ANNULLED}`,
              expect.stringMatching(/^409 stale_list /),
            ]).toContainEqual(refusal);
          }
          const flags = await app.db
            .selectFrom('nominations')
            .select('annulled')
            .where('event_id', '=', event.id)
            .where('exhibitor_id', '=', racer.id)
            .execute();
          expect(flags.every((row) => Number(row.annulled) === 0)).toBe(true);
        }
        await expectTotalsRebuildable();
      }
    });
  }
});
