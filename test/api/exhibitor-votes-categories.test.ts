/**
 * Issue 26 item 2 on the exhibitor-votes page: the response carries every category of the event,
 * keyed by address, so a third category's list is shown, corrected ("Editar voto") and annulled
 * ("Anular votos" / "Restablecer") like the two default ones, and its ranking follows. Points are
 * "Por puesto" with 3 nominees (3, 2, 1), computed by hand below.
 */
import { describe, expect, it } from 'vitest';
import { annulList, restoreList } from '../../src/shared/api/annulment.ts';
import { categoryRanking, editVote, exhibitorVotes } from '../../src/shared/api/results.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedCategory } from '../helpers/categories.ts';
import { listIn } from '../helpers/exhibitor-votes.ts';
import { nominee } from '../helpers/nomination-load.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

const A = '20111111111';
const B = '20222222222';
const C = '20333333333';
const D = '20444444444';
const REASON = 'Votó con la cuenta de otra empresa';

describe('the exhibitor-votes page of an event with a third category', () => {
  const app = useTestApp();

  /** Ana: A, B, C and Bruno: A, C in "SEGURIDAD" (3 nominees, "Por puesto"); Ana: A in CONSUMO. */
  async function seeded() {
    const event = await seedEvent(app.db, { name: 'Premios Tres Categorías' });
    await seedCategory(app.db, event.id, {
      address: 'seguridad',
      name: 'SEGURIDAD',
      nomineeLimit: 3,
      scoring: 'place',
      position: 3,
    });
    const member = async (fullName: string, list: string[]) => {
      const exhibitor = await seedExhibitor(app.db, { fullName });
      await seedMembership(app.db, event.id, exhibitor.id);
      await seedNominations(app.db, {
        eventId: event.id,
        exhibitorId: exhibitor.id,
        category: 'seguridad',
        nominees: list.map((fiscalId) => ({ fiscalId })),
      });
      return exhibitor;
    };
    const ana = await member('Ana Votante', [A, B, C]);
    const bruno = await member('Bruno Votante', [A, C]);
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: ana.id,
      category: 'consumption',
      nominees: [{ fiscalId: D }],
    });
    return { eventId: event.id, ana, bruno };
  }

  const read = (eventId: string, exhibitorId: string) =>
    app.api.call(exhibitorVotes, { params: { eventId, exhibitorId } });

  /** Fiscal id and points of each row of the category's ranking, in ranking order. */
  async function points(eventId: string): Promise<[string, number][]> {
    const ranking = await app.api.call(categoryRanking, {
      params: { eventId, category: 'seguridad' },
      query: {},
    });
    return ranking.rows.map((row) => [row.fiscalId, row.points]);
  }

  it('carries every category of the event, in the event’s order, with its list', async () => {
    const { eventId, ana, bruno } = await seeded();
    const shown = await read(eventId, ana.id);
    expect(Object.keys(shown.lists)).toEqual(['consumption', 'value', 'seguridad']);
    expect(listIn(shown, 'seguridad').nominees.map((n) => [n.order, n.fiscalId])).toEqual([
      [1, A],
      [2, B],
      [3, C],
    ]);
    expect(listIn(shown, 'seguridad')).toMatchObject({ version: 1, annulment: null });
    expect(listIn(shown, 'consumption').nominees.map((n) => n.fiscalId)).toEqual([D]);
    // A category without a saved list: empty, version 0, counting.
    expect(listIn(shown, 'value')).toEqual({ nominees: [], version: 0, annulment: null });
    const other = await read(eventId, bruno.id);
    expect(listIn(other, 'seguridad').nominees.map((n) => n.fiscalId)).toEqual([A, C]);
    expect(listIn(other, 'consumption')).toEqual({ nominees: [], version: 0, annulment: null });
  });

  it('corrects an entry of the third category, and its ranking follows', async () => {
    const { eventId, bruno } = await seeded();
    // A: 3 + 3; C: 1 + 2; B: 2.
    expect(await points(eventId)).toEqual([
      [A, 6],
      [C, 3],
      [B, 2],
    ]);
    const shown = await read(eventId, bruno.id);
    const corrected = await app.api.call(editVote, {
      params: { eventId, exhibitorId: bruno.id, category: 'seguridad', order: 2 },
      body: {
        ...nominee(D),
        name: 'Reseller Corregido',
        reason: 'wrongFiscalId',
        version: listIn(shown, 'seguridad').version,
      },
    });
    expect([corrected.nominee.fiscalId, corrected.nominee.name, corrected.version]).toEqual([
      D,
      'Reseller Corregido',
      2,
    ]);
    const after = await read(eventId, bruno.id);
    expect(listIn(after, 'seguridad').nominees.map((n) => [n.order, n.fiscalId])).toEqual([
      [1, A],
      [2, D],
    ]);
    expect(listIn(after, 'seguridad').version).toBe(2);
    // Bruno's C (2nd, 2 points) is now D's: A 6; B 2, D 2; C 1.
    const ranked = new Map(await points(eventId));
    expect(Object.fromEntries(ranked)).toEqual({ [A]: 6, [B]: 2, [D]: 2, [C]: 1 });
  });

  it('annuls and restores a list of the third category, and its ranking follows', async () => {
    const { eventId, ana } = await seeded();
    const annulled = await app.api.call(annulList, {
      params: { eventId, exhibitorId: ana.id, category: 'seguridad' },
      body: { reason: REASON },
    });
    expect(annulled.annulment?.reason).toBe(REASON);
    const shown = await read(eventId, ana.id);
    expect(listIn(shown, 'seguridad').annulment).toEqual(annulled.annulment);
    // The list is kept as it was; the other categories still count.
    expect(listIn(shown, 'seguridad').nominees.map((n) => n.fiscalId)).toEqual([A, B, C]);
    expect(listIn(shown, 'consumption').annulment).toBeNull();
    // Only Bruno's A, C counts: A 3, C 2.
    expect(await points(eventId)).toEqual([
      [A, 3],
      [C, 2],
    ]);
    const stored = await app.db
      .selectFrom('nomination_lists')
      .select(['annulled_reason'])
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', ana.id)
      .where('category', '=', 'seguridad')
      .executeTakeFirstOrThrow();
    expect(stored.annulled_reason).toBe(REASON);

    const restored = await app.api.call(restoreList, {
      params: { eventId, exhibitorId: ana.id, category: 'seguridad' },
    });
    expect(restored.annulment).toBeNull();
    expect(listIn(await read(eventId, ana.id), 'seguridad').annulment).toBeNull();
    expect(await points(eventId)).toEqual([
      [A, 6],
      [C, 3],
      [B, 2],
    ]);
  });
});
