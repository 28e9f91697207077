import { beforeAll, describe, expect, it } from 'vitest';
import { addNominee, myEvent, previewEvent } from '../../src/shared/api/nominations.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedCategory } from '../helpers/categories.ts';
import { answered, type TestClient } from '../helpers/client.ts';
import { nomineeInput as nominee } from '../helpers/nominee.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

/**
 * The exhibitor's event answers every category's list by its address (issue 26 item 2): the
 * screen draws one tab per category from it; the two default addresses are always there.
 */
describe("the exhibitor's event carries every category's list", () => {
  const app = useTestApp();
  let eventId: string;
  let exhibitor: TestClient;

  beforeAll(async () => {
    eventId = (await seedEvent(app.db, { name: 'Premios Tres' })).id;
    await seedCategory(app.db, eventId, {
      address: 'seguridad',
      name: 'SEGURIDAD',
      description: 'Solo partners certificados.',
      nomineeLimit: 3,
      scoring: 'one',
      position: 3,
    });
    const id = (await seedExhibitor(app.db, { fullName: 'Lucía López' })).id;
    await seedMembership(app.db, eventId, id);
    exhibitor = await app.exhibitor(id);
  });

  it('lists a third category, empty and then as saved', async () => {
    const before = answered(await exhibitor.send(myEvent, { params: { eventId } })).data;
    expect(Object.keys(before.lists)).toEqual(['consumption', 'value', 'seguridad']);
    expect(before.lists.seguridad).toEqual({
      category: 'seguridad',
      version: 0,
      savedAt: null,
      nominees: [],
    });
    expect(before.categories.map((category) => category.address)).toEqual([
      'consumption',
      'value',
      'seguridad',
    ]);
    answered(
      await exhibitor.send(addNominee, {
        params: { eventId, category: 'seguridad' },
        body: { ...nominee('20000000001'), version: 0 },
      }),
    );
    const after = answered(await exhibitor.send(myEvent, { params: { eventId } })).data;
    expect(after.lists.seguridad?.version).toBe(1);
    expect(after.lists.seguridad?.nominees.map((row) => [row.fiscalId, row.order])).toEqual([
      ['20000000001', 1],
    ]);
    expect(after.lists.consumption.nominees).toEqual([]);
  });

  it('"Vista previa" lists every category empty', async () => {
    const preview = answered(await app.api.send(previewEvent, { params: { eventId } })).data;
    expect(Object.keys(preview.lists)).toEqual(['consumption', 'value', 'seguridad']);
    expect(preview.lists.seguridad?.nominees).toEqual([]);
  });
});
