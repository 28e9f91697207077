/**
 * "Posibles duplicados" from the registry (issue 27 item 6): a typed fiscal id (one not in the
 * registry) whose name or razón social matches a registry entry's once normalised, as the
 * existing "Mismo nombre o razón social" rule compares them, is suggested for merging into that
 * entry, whether or not the entry has votes; the merge is the audited, undoable one. Annulled
 * lists count for nothing here as everywhere. On both engines (TEST_DB_ENGINE).
 */
import { describe, expect, it } from 'vitest';
import { annulList, restoreList } from '../../src/shared/api/annulment.ts';
import {
  categoryRanking,
  duplicates,
  merge,
  mergePreview,
  undoMerge,
} from '../../src/shared/api/results.ts';
import { MSG } from '../../src/shared/messages.ts';
import type { MergeInput } from '../../src/shared/schemas/results.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, refused } from '../helpers/client.ts';
import { clearRegistry, seedRegistry } from '../helpers/registry.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../helpers/seed.ts';

/** Registry entries: Peña without votes, Andes with votes, Lejano whose only match is annulled. */
const PENA = '30711111115';
const ANDES = '30722222224';
const LEJANO = '30733333333';
/** Typed ids, none in the registry. */
const TYPED_PENA = '20111111119';
const TYPED_ANDES = '27222222226';
const NEAR_MISS = '27333333334';
const ANNULLED_LEJANO = '20444444448';

const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-02T10:00:00.000Z';

describe('"Posibles duplicados" suggests merging a typed id into the registry entry of its name', () => {
  const app = useTestApp();

  async function world() {
    await clearRegistry(app.db);
    await seedRegistry(app.db, [
      {
        fiscalId: PENA,
        name: 'Distribuidora Peña S.R.L.',
        registeredName: 'Peña Distribución S.A.',
      },
      { fiscalId: ANDES, name: 'Andes Sistemas', registeredName: 'Sistemas Andinos S.R.L.' },
      { fiscalId: LEJANO, name: 'Lejano Informática' },
    ]);
    const eventId = (await seedEvent(app.db)).id;
    const elena = (await seedExhibitor(app.db, { fullName: 'Elena Uno' })).id;
    const ernesto = (await seedExhibitor(app.db, { fullName: 'Ernesto Dos' })).id;
    const ines = (await seedExhibitor(app.db, { fullName: 'Inés Anulada' })).id;
    for (const id of [elena, ernesto, ines]) await seedMembership(app.db, eventId, id);
    await seedNominations(app.db, {
      eventId,
      exhibitorId: elena,
      category: 'consumption',
      nominees: [
        // Typed as people type it: the registry's name without accents, punctuation or case.
        { fiscalId: TYPED_PENA, name: 'DISTRIBUIDORA PENA SRL', nominatedAt: T1 },
        { fiscalId: ANDES, name: 'Andes', nominatedAt: T1 },
      ],
    });
    await seedNominations(app.db, {
      eventId,
      exhibitorId: ernesto,
      category: 'consumption',
      nominees: [
        // Matches the registry's razón social of Andes, not the name its votes were typed with.
        { fiscalId: TYPED_ANDES, name: 'Sistemas Andinos', nominatedAt: T2 },
        // Close to Peña's razón social but not the same name: no suggestion.
        { fiscalId: NEAR_MISS, name: 'Peña Distribuciones', nominatedAt: T2 },
      ],
    });
    await seedNominations(app.db, {
      eventId,
      exhibitorId: ines,
      category: 'consumption',
      nominees: [{ fiscalId: ANNULLED_LEJANO, name: 'Lejano Informatica SA', nominatedAt: T2 }],
    });
    await app.api.call(annulList, {
      params: { eventId, exhibitorId: ines, category: 'consumption' },
      body: { reason: 'Lista de prueba' },
    });
    return { eventId, elena, ernesto, ines };
  }

  const groupsOf = async (eventId: string) =>
    (await app.api.call(duplicates, { params: { eventId, category: 'consumption' } })).groups;
  const rowsOf = (eventId: string) =>
    app.db
      .selectFrom('nominations')
      .select(['exhibitor_id', 'list_order', 'fiscal_id', 'name'])
      .where('event_id', '=', eventId)
      .where('annulled', '=', 0)
      .orderBy('exhibitor_id')
      .orderBy('list_order')
      .execute();
  const send = (eventId: string, body: MergeInput) =>
    app.api.send(merge, { params: { eventId, category: 'consumption' }, body });

  it('groups a typed id with the registry entry of its name, with or without votes, named as the registry', async () => {
    const { eventId } = await world();
    expect(await groupsOf(eventId)).toEqual([
      {
        nominees: [
          {
            fiscalId: TYPED_PENA,
            name: 'DISTRIBUIDORA PENA SRL',
            registeredName: `Razón Social ${TYPED_PENA} S.A.`,
            points: 5,
            position: 1,
            inRegistry: false,
          },
          // No votes yet: 0 points, no position; its names are the registry's.
          {
            fiscalId: PENA,
            name: 'Distribuidora Peña S.R.L.',
            registeredName: 'Peña Distribución S.A.',
            points: 0,
            position: null,
            inRegistry: true,
          },
        ],
        reasons: ['registryName'],
      },
      {
        nominees: [
          {
            fiscalId: TYPED_ANDES,
            name: 'Sistemas Andinos',
            registeredName: `Razón Social ${TYPED_ANDES} S.A.`,
            points: 5,
            position: 2,
            inRegistry: false,
          },
          {
            fiscalId: ANDES,
            name: 'Andes Sistemas',
            registeredName: 'Sistemas Andinos S.R.L.',
            points: 4,
            position: 3,
            inRegistry: true,
          },
        ],
        reasons: ['registryName'],
      },
    ]);
  });

  it('leaves out a near name, an annulled list, and an empty registry; the annulled one comes back with its list', async () => {
    const { eventId, ines } = await world();
    const ids = (groups: Awaited<ReturnType<typeof groupsOf>>) =>
      groups.flatMap((group) => group.nominees.map((nominee) => nominee.fiscalId));
    const suggested = ids(await groupsOf(eventId));
    for (const id of [NEAR_MISS, LEJANO, ANNULLED_LEJANO]) expect(suggested).not.toContain(id);
    await app.api.call(restoreList, {
      params: { eventId, exhibitorId: ines, category: 'consumption' },
    });
    const restored = await groupsOf(eventId);
    expect(
      restored.find((group) => group.nominees.some((n) => n.fiscalId === LEJANO)),
    ).toMatchObject({
      nominees: [
        { fiscalId: ANNULLED_LEJANO, inRegistry: false },
        { fiscalId: LEJANO, points: 0, position: null, inRegistry: true },
      ],
      reasons: ['registryName'],
    });
    // Without a registry, only the rules among voted ids are left (none here).
    await clearRegistry(app.db);
    expect(await groupsOf(eventId)).toEqual([]);
  });

  it('is for administrators only: an exhibitor is refused and learns nothing', async () => {
    const { eventId, elena } = await world();
    const exh = await app.exhibitor(elena);
    const failure = await exh.fail(duplicates, { params: { eventId, category: 'consumption' } });
    expect(failure.status).toBe(403);
    expect(JSON.stringify(failure)).not.toContain(PENA);
  });

  it('previews and merges a typed id into a registry entry without votes, audited, told, and undone', async () => {
    const { eventId, elena } = await world();
    const body = { into: PENA, from: [TYPED_PENA] };
    const preview = await app.api.call(mergePreview, {
      params: { eventId, category: 'consumption' },
      body,
    });
    expect(preview.before.map((row) => row.fiscalId)).not.toContain(PENA);
    expect(preview.after.find((row) => row.fiscalId === PENA)).toEqual({
      fiscalId: PENA,
      position: 1,
      points: 5,
    });
    expect(preview.after.map((row) => row.fiscalId)).not.toContain(TYPED_PENA);

    const { auditId, lists } = answered(await send(eventId, body)).data;
    expect(lists).toBe(1);
    // The vote moves to the registry's id; the row keeps what Elena typed (nominations copy, never follow).
    expect((await rowsOf(eventId)).filter((row) => row.exhibitor_id === elena)).toEqual([
      { exhibitor_id: elena, list_order: 1, fiscal_id: PENA, name: 'DISTRIBUIDORA PENA SRL' },
      { exhibitor_id: elena, list_order: 2, fiscal_id: ANDES, name: 'Andes' },
    ]);
    const ranking = await app.api.call(categoryRanking, {
      params: { eventId, category: 'consumption' },
      query: {},
    });
    expect(ranking.rows.find((row) => row.fiscalId === PENA)?.points).toBe(5);
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['action', 'entity_id'])
      .where('id', '=', auditId)
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({ action: 'nominee.merge', entity_id: `consumption/${PENA}` });
    // Elena is told, the target named as the registry has it.
    const told = await app.db
      .selectFrom('list_changes')
      .select('reason')
      .where('event_id', '=', eventId)
      .where('exhibitor_id', '=', elena)
      .execute();
    expect(told.map((row) => row.reason)).toEqual([
      `Nominados unificados por ser el mismo reseller: DISTRIBUIDORA PENA SRL (${TYPED_PENA}) → Distribuidora Peña S.R.L. (${PENA})`,
    ]);
    // The suggestion is gone with the typed id.
    expect((await groupsOf(eventId)).flatMap((g) => g.nominees.map((n) => n.fiscalId))).toEqual([
      TYPED_ANDES,
      ANDES,
    ]);

    await app.api.call(undoMerge, { params: { eventId, auditId: String(auditId) } });
    expect((await rowsOf(eventId)).filter((row) => row.exhibitor_id === elena)).toEqual([
      { exhibitor_id: elena, list_order: 1, fiscal_id: TYPED_PENA, name: 'DISTRIBUIDORA PENA SRL' },
      { exhibitor_id: elena, list_order: 2, fiscal_id: ANDES, name: 'Andes' },
    ]);
    expect((await groupsOf(eventId))[0]?.nominees.map((n) => n.fiscalId)).toEqual([
      TYPED_PENA,
      PENA,
    ]);
  });

  it('refuses a target with no votes that is not in the registry, and changes nothing', async () => {
    const { eventId } = await world();
    const before = await rowsOf(eventId);
    const body = { into: '30799999990', from: [TYPED_PENA] };
    for (const endpoint of [mergePreview, merge]) {
      const failure = await app.api.fail(endpoint, {
        params: { eventId, category: 'consumption' },
        body,
      });
      expect([failure.status, failure.message, failure.fields]).toEqual([
        400,
        MSG.mergeUnknownInto,
        { into: MSG.mergeUnknownInto },
      ]);
    }
    expect(await rowsOf(eventId)).toEqual(before);
  });

  it('two administrators merging the same typed id into the registry at once: one merges, the other is told', async () => {
    const { eventId } = await world();
    const answers = await Promise.all([
      send(eventId, { into: PENA, from: [TYPED_PENA] }),
      send(eventId, { into: PENA, from: [TYPED_PENA] }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const loser = refused(answers.find((answer) => !answer.ok) ?? answers[0]!);
    expect([loser.code, loser.message]).toEqual(['nothing_to_merge', MSG.mergeNothingLeft]);
    const merges = await app.db
      .selectFrom('audit_log')
      .select('id')
      .where('event_id', '=', eventId)
      .where('action', '=', 'nominee.merge')
      .execute();
    expect(merges).toHaveLength(1);
    const fiscalIds = (await rowsOf(eventId)).map((row) => row.fiscal_id);
    expect(fiscalIds.filter((id) => id === PENA)).toHaveLength(1);
    expect(fiscalIds).not.toContain(TYPED_PENA);
  });
});
