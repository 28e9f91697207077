/**
 * Issue 28 item 2 in the browser: an administrator annuls an exhibitor's CONSUMO list from the
 * exhibitor-votes page ("Anular votos" → "Motivo" → "Anular"), sees "Anulado: {motivo}", the
 * category tab's "Listas anuladas: 1" and the ranking without the list; the exhibitor's screen
 * shows "Tu lista fue anulada por la organización: {motivo}"; "Restablecer" → "¿Restablecer
 * votos?" puts it back. Axe on each screen, on a desktop and at 390 px.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
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

const SHOTS = '/tmp/shots-annul';
const A = '20111111111';
const B = '20222222222';
const REASON = 'Votó con la cuenta de otra empresa';
/** Each test walks several screens with an axe scan on each: more than the default minute. */
const SLOW = 240_000;

describe('annulling and restoring an exhibitor’s list', () => {
  const app = useBrowserApp();
  let eventId: string;
  let bruno: { id: string; email: string; fullName: string };

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const db = app.db;
    eventId = (await seedEvent(db, { name: 'Premios Anulables 2026' })).id;
    // Ana: A, B; Bruno: B, A. A 5 + 4 = 9 and B 4 + 5 = 9: tied on everything, A listed first.
    const ana = await seedExhibitor(db, { fullName: 'Ana Votante' });
    bruno = await seedExhibitor(db, { fullName: 'Bruno Votante' });
    for (const [exhibitor, list] of [
      [ana, [A, B]],
      [bruno, [B, A]],
    ] as const) {
      await seedMembership(db, eventId, exhibitor.id);
      await seedNominations(db, {
        eventId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: list.map((fiscalId) => ({ fiscalId, name: `Reseller ${fiscalId}` })),
      });
    }
  });
  /** Fiscal id and points of each ranking row, read from the desktop table's columns. */
  async function rankingPoints(page: Page): Promise<string[][]> {
    await page.setViewportSize(DESKTOP);
    await page.goto(`/admin/event/${eventId}/consumption`);
    await page.getByRole('table', { name: 'Votos' }).locator('tbody tr').first().waitFor();
    return (await tableRows(page, 'Votos', { exact: true })).map((cells) => [
      cells[2] ?? '',
      cells.at(-1) ?? '',
    ]);
  }

  it(
    'annuls from the exhibitor-votes page, and the list counts for nothing',
    async () => {
      const { context, page } = await app.adminPage();
      expect(await rankingPoints(page)).toEqual([
        [A, '9'],
        [B, '9'],
      ]);
      await page.goto(`/admin/event/${eventId}/exhibitors/${bruno.id}`);
      await page.getByRole('button', { name: 'Anular votos' }).click();
      const dialog = page.getByRole('dialog', { name: 'Anular votos' });
      // The reason is required: an empty one is refused in the dialog.
      await dialog.getByRole('button', { name: 'Anular' }).click();
      await expect.poll(() => dialog.getByText(MSG.annulReasonRequired).count()).toBe(1);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/annul-dialog-desktop.png` });
      await dialog.getByRole('textbox', { name: 'Motivo' }).fill(REASON);
      await dialog.getByRole('button', { name: 'Anular' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText(`Anulado: ${REASON}`).waitFor();
      expect(await page.getByRole('button', { name: 'Restablecer' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Anular votos' }).count()).toBe(0);
      // The list is kept as it was, its entries no longer offered for correction.
      expect(
        (await tableRows(page, 'Nominación Reseller de CONSUMO')).map((cells) => cells[0]),
      ).toEqual([`Reseller ${B}`, `Reseller ${A}`]);
      expect(await page.getByRole('button', { name: `Reseller ${B}` }).count()).toBe(0);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/annulled-desktop.png`, fullPage: true });

      // Without Bruno: A 5, B 4; the tab says one list is annulled.
      expect(await rankingPoints(page)).toEqual([
        [A, '5'],
        [B, '4'],
      ]);
      await page.getByText('Listas anuladas: 1').waitFor();
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/ranking-desktop.png`, fullPage: true });
      await context.close();
    },
    SLOW,
  );

  it(
    'shows the annulment to the exhibitor, who can change nothing, at 390 px',
    async () => {
      const { context, page } = await app.exhibitorPage(bruno, PHONE);
      await page.goto(`/exh/event/${eventId}`);
      await page.getByText(`Tu lista fue anulada por la organización: ${REASON}`).waitFor();
      expect(await page.getByRole('button', { name: 'Nominar' }).count()).toBe(0);
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await page.screenshot({ path: `${SHOTS}/exhibitor-phone.png`, fullPage: true });
      await context.close();
    },
    SLOW,
  );

  it(
    'restores from the exhibitor-votes page at 390 px, and the list counts again',
    async () => {
      const { context, page } = await app.adminPage(PHONE);
      await page.goto(`/admin/event/${eventId}/exhibitors/${bruno.id}`);
      await page.getByText(`Anulado: ${REASON}`).waitFor();
      expect(await hasHorizontalScroll(page)).toBe(false);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/annulled-phone.png`, fullPage: true });
      await page.getByRole('button', { name: 'Restablecer' }).click();
      const dialog = page.getByRole('dialog', { name: '¿Restablecer votos?' });
      await dialog.waitFor();
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/restore-dialog-phone.png` });
      // "Cancelar" changes nothing.
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByText(`Anulado: ${REASON}`).count()).toBe(1);
      await page.getByRole('button', { name: 'Restablecer' }).click();
      await dialog.getByRole('button', { name: 'Restablecer' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Anular votos' }).waitFor();
      expect(await page.getByText(`Anulado: ${REASON}`).count()).toBe(0);
      await page.screenshot({ path: `${SHOTS}/restored-phone.png`, fullPage: true });
      expect(await rankingPoints(page)).toEqual([
        [A, '9'],
        [B, '9'],
      ]);
      expect(await page.getByText(/^Listas anuladas/).count()).toBe(0);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await context.close();
    },
    SLOW,
  );
});
