/**
 * Issue 28 item 3 in the browser: the event's tab "Integridad" (before "Historial") with a planted
 * pair of identical lists under "Listas idénticas", each exhibitor a link to their votes; "Sin
 * alertas" under each heading of a clean event. Axe on each, on a desktop and at 390 px.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import { useBrowserApp, visible } from '../test/helpers/browser-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';

const SHOTS = '/tmp/shots-integrity';
const LIST = ['20111111112', '20222222223', '20333333334', '20444444445', '20555555556'];
const HEADINGS = ['Listas idénticas', 'Mismo dispositivo', 'Nominaciones a la propia empresa'];
const SLOW = 240_000;

describe('the "Integridad" tab', () => {
  const app = useBrowserApp();
  let plantedId: string;
  let cleanId: string;
  let bruno: { id: string };

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const db = app.db;
    plantedId = (await seedEvent(db, { name: 'Premios Coordinados 2026' })).id;
    cleanId = (await seedEvent(db, { name: 'Premios Limpios 2026' })).id;
    const ana = await seedExhibitor(db, { fullName: 'Ana Idéntica', company: 'Norte SA' });
    bruno = await seedExhibitor(db, { fullName: 'Bruno Idéntico', company: 'Sur SRL' });
    const carla = await seedExhibitor(db, { fullName: 'Carla Distinta', company: 'Este SA' });
    for (const [exhibitor, list] of [
      [ana, LIST],
      [bruno, LIST],
      [carla, [...LIST].reverse().slice(0, 3)],
    ] as const) {
      await seedMembership(db, plantedId, exhibitor.id);
      await seedNominations(db, {
        eventId: plantedId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: list.map((fiscalId) => ({ fiscalId, name: `Reseller ${fiscalId.slice(-1)}` })),
      });
    }
    // The clean event: two different lists.
    for (const [exhibitor, list] of [
      [ana, LIST.slice(0, 2)],
      [carla, LIST.slice(2, 4)],
    ] as const) {
      await seedMembership(db, cleanId, exhibitor.id);
      await seedNominations(db, {
        eventId: cleanId,
        exhibitorId: exhibitor.id,
        category: 'value',
        nominees: list.map((fiscalId) => ({ fiscalId })),
      });
    }
  });

  it(
    'lists the identical pair, each exhibitor leading to their votes',
    async () => {
      const { context, page } = await app.adminPage();
      await page.goto(`/admin/event/${plantedId}/exhibitors`);
      await page.getByRole('tab', { name: 'Historial' }).waitFor();
      const tabs = await page.getByRole('tab').allTextContents();
      expect(tabs.indexOf('Integridad')).toBe(tabs.indexOf('Historial') - 1);
      await page.getByRole('tab', { name: 'Integridad' }).click();
      for (const name of HEADINGS) await page.getByRole('heading', { name }).waitFor();
      await visible(page, '2 expositores con la misma lista, en el mismo orden');
      const pair = page.getByRole('listitem').filter({ hasText: 'en el mismo orden' });
      expect(await pair.getByRole('link').allTextContents()).toEqual([
        'Ana Idéntica',
        'Bruno Idéntico',
      ]);
      // Carla's three ids in another order are no alert; the other two headings have none.
      expect(await page.getByText('Carla Distinta').count()).toBe(0);
      expect(await page.getByText('Sin alertas', { exact: true }).count()).toBe(2);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/planted-desktop.png`, fullPage: true });

      await pair.getByRole('link', { name: 'Bruno Idéntico' }).click();
      await page.waitForURL(`**/admin/event/${plantedId}/exhibitors/${bruno.id}`);
      await page.getByRole('heading', { name: 'Votos de Bruno Idéntico' }).waitFor();
      await context.close();
    },
    SLOW,
  );

  it(
    'reads at 390 px without scrolling sideways',
    async () => {
      const { context, page } = await app.adminPage(PHONE);
      await page.goto(`/admin/event/${plantedId}/integrity`);
      await visible(page, '2 expositores con la misma lista, en el mismo orden');
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await page.screenshot({ path: `${SHOTS}/planted-phone.png`, fullPage: true });
      await context.close();
    },
    SLOW,
  );

  it(
    'says "Sin alertas" under each heading of a clean event',
    async () => {
      for (const viewport of [undefined, PHONE]) {
        const { context, page } = await app.adminPage(viewport);
        await page.goto(`/admin/event/${cleanId}/integrity`);
        for (const name of HEADINGS) await page.getByRole('heading', { name }).waitFor();
        await expect
          .poll(() => page.getByText('Sin alertas', { exact: true }).count())
          .toBe(HEADINGS.length);
        await expectAccessible(page);
        expect(await hasHorizontalScroll(page)).toBe(false);
        await page.screenshot({
          path: `${SHOTS}/clean-${viewport ? 'phone' : 'desktop'}.png`,
          fullPage: true,
        });
        await context.close();
      }
    },
    SLOW,
  );
});
