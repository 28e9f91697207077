/**
 * Issue 28 item 4 in the browser: an event that hides its results until the close shows, on its
 * category tab, "Los resultados se mostrarán después del cierre." and "Ver resultados ahora"
 * instead of any figure; the dialog "¿Ver resultados antes del cierre?" asks for a "Motivo"
 * (refused empty), and "Ver" shows the ranking and the event header's "Resultados vistos antes del
 * cierre por {nombre}". Axe on each screen, on a desktop and at 390 px.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import {
  DESKTOP,
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  tableRows,
} from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';

const SHOTS = '/tmp/shots-sealed';
const A = '20111111111';
const B = '20222222222';
const REASON = 'El comité pidió el avance para la prensa';
/** Each test walks several screens with an axe scan on each: more than the default minute. */
const SLOW = 240_000;

describe('results sealed until the close', () => {
  // Voting is open on this instant: the deadline below is a month later.
  const app = useBrowserApp({ now: '2026-06-01T12:00:00.000Z' });
  let eventId: string;

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const db = app.db;
    eventId = (
      await seedEvent(db, {
        name: 'Premios Sellados 2026',
        eventDate: '2026-07-15',
        voteDeadline: '2026-07-01',
      })
    ).id;
    await db.updateTable('events').set({ seal_results: 1 }).where('id', '=', eventId).execute();
    for (const [fullName, list] of [
      ['Ana Votante', [A, B]],
      ['Bruno Votante', [A]],
    ] as const) {
      const exhibitor = await seedExhibitor(db, { fullName });
      await seedMembership(db, eventId, exhibitor.id);
      await seedNominations(db, {
        eventId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: list.map((fiscalId) => ({ fiscalId, name: `Reseller ${fiscalId}` })),
      });
    }
  });

  it(
    'shows no figure at 390 px, and the event dialog says the results are hidden',
    async () => {
      const { context, page } = await app.adminPage(PHONE);
      await page.goto(`/admin/event/${eventId}/consumption`);
      await page.getByText(MSG.resultsSealedNotice).waitFor();
      expect(await page.getByRole('button', { name: 'Ver resultados ahora' }).count()).toBe(1);
      expect(await page.getByRole('table', { name: 'Votos' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Presentar' }).count()).toBe(0);
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await page.screenshot({ path: `${SHOTS}/sealed-phone.png`, fullPage: true });

      await page.setViewportSize(DESKTOP);
      await page.getByRole('button', { name: 'Editar evento' }).click();
      const dialog = page.getByRole('dialog', { name: 'Editar evento' });
      const checkbox = dialog.getByRole('checkbox', { name: 'Ocultar resultados hasta el cierre' });
      expect(await checkbox.isChecked()).toBe(true);
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await dialog.waitFor({ state: 'detached' });
      await context.close();
    },
    SLOW,
  );

  it(
    '"Ver resultados ahora" asks for a reason, then shows the ranking and who opened it',
    async () => {
      const { context, page } = await app.adminPage(PHONE);
      await page.goto(`/admin/event/${eventId}/consumption`);
      await page.getByRole('button', { name: 'Ver resultados ahora' }).click();
      const dialog = page.getByRole('dialog', { name: '¿Ver resultados antes del cierre?' });
      await dialog.getByRole('button', { name: 'Ver' }).click();
      await expect.poll(() => dialog.getByText(MSG.viewReasonRequired).count()).toBe(1);
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await page.screenshot({ path: `${SHOTS}/dialog-phone.png`, fullPage: true });
      await dialog.getByRole('textbox', { name: 'Motivo' }).fill(REASON);
      await dialog.getByRole('button', { name: 'Ver' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Resultados vistos antes del cierre por Ana Administradora').waitFor();
      await page.setViewportSize(DESKTOP);
      await page.getByRole('table', { name: 'Votos' }).locator('tbody tr').first().waitFor();
      // A 5 + 5 = 10, B 4.
      expect(
        (await tableRows(page, 'Votos', { exact: true })).map((cells) => [
          cells[2] ?? '',
          cells.at(-1) ?? '',
        ]),
      ).toEqual([
        [A, '10'],
        [B, '4'],
      ]);
      expect(await page.getByText(MSG.resultsSealedNotice).count()).toBe(0);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/viewed-desktop.png`, fullPage: true });
      await page.setViewportSize(PHONE);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await page.screenshot({ path: `${SHOTS}/viewed-phone.png`, fullPage: true });
      // The history says who opened them and why.
      await page.goto(`/admin/event/${eventId}/history`);
      await page.getByText(`Motivo: ${REASON}`).waitFor();
      await context.close();
    },
    SLOW,
  );
});
