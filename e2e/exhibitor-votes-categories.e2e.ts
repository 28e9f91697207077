/**
 * Issue 26 item 2 in the browser: the administrator's exhibitor-votes page has a tab per category
 * of the event, in its order; the third category's tab shows its list, which can be annulled
 * ("Anular votos") and restored ("Restablecer") like CONSUMO's. Axe at 390 px.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  tableRows,
} from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';
import { seedCategory } from '../test/helpers/categories.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';

const SHOTS = '/tmp/shots-exhibitor-votes-categories';
const A = '20111111111';
const B = '20222222222';
const REASON = 'Votó con la cuenta de otra empresa';
const SLOW = 240_000;

describe('the exhibitor-votes page of an event with a third category', () => {
  const app = useBrowserApp();
  let eventId: string;
  let ana: { id: string; email: string; fullName: string };

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    eventId = (await seedEvent(app.db, { name: 'Premios Tres Categorías' })).id;
    await seedCategory(app.db, eventId, {
      address: 'seguridad',
      name: 'SEGURIDAD',
      nomineeLimit: 3,
      scoring: 'place',
      position: 3,
    });
    ana = await seedExhibitor(app.db, { fullName: 'Ana Votante' });
    await seedMembership(app.db, eventId, ana.id);
    await seedNominations(app.db, {
      eventId,
      exhibitorId: ana.id,
      category: 'seguridad',
      nominees: [A, B].map((fiscalId) => ({ fiscalId, name: `Reseller ${fiscalId}` })),
    });
  });

  it(
    'opens the third category’s tab at 390 px, annuls and restores its list',
    async () => {
      const { context, page } = await app.adminPage(PHONE);
      await page.goto(`/admin/event/${eventId}/exhibitors/${ana.id}`);
      const tabs = page.getByRole('tablist', { name: 'Categorías' }).getByRole('tab');
      await tabs.first().waitFor();
      expect(await tabs.allTextContents()).toEqual([
        'Nominación Reseller de CONSUMO',
        'Nominación Reseller de VALOR AGREGADO',
        'Nominación Reseller de SEGURIDAD',
      ]);
      await page.getByRole('tab', { name: 'Nominación Reseller de SEGURIDAD' }).click();
      await page.getByRole('table', { name: 'Nominación Reseller de SEGURIDAD' }).waitFor();
      expect(
        (await tableRows(page, 'Nominación Reseller de SEGURIDAD')).map((cells) => cells[0]),
      ).toEqual([`Reseller ${A}`, `Reseller ${B}`]);
      // Each entry is offered for correction ("Editar voto" opens from its name).
      expect(await page.getByRole('button', { name: `Reseller ${A}` }).count()).toBe(1);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/third-tab-phone.png`, fullPage: true });

      await page.getByRole('button', { name: 'Anular votos' }).click();
      const dialog = page.getByRole('dialog', { name: 'Anular votos' });
      await dialog.getByRole('textbox', { name: 'Motivo' }).fill(REASON);
      await dialog.getByRole('button', { name: 'Anular' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText(`Anulado: ${REASON}`).waitFor();
      expect(await page.getByRole('button', { name: `Reseller ${A}` }).count()).toBe(0);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/third-annulled-phone.png`, fullPage: true });
      const stored = await app.db
        .selectFrom('nomination_lists')
        .select('annulled_reason')
        .where('event_id', '=', eventId)
        .where('exhibitor_id', '=', ana.id)
        .where('category', '=', 'seguridad')
        .executeTakeFirstOrThrow();
      expect(stored.annulled_reason).toBe(REASON);

      await page.getByRole('button', { name: 'Restablecer' }).click();
      const restore = page.getByRole('dialog', { name: '¿Restablecer votos?' });
      await restore.getByRole('button', { name: 'Restablecer' }).click();
      await restore.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Anular votos' }).waitFor();
      expect(await page.getByText(`Anulado: ${REASON}`).count()).toBe(0);
      await context.close();
    },
    SLOW,
  );
});
