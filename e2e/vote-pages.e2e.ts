import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import {
  DESKTOP,
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  tableRows,
} from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-vote-pages';
/** One reseller typed two ways (leading zeros a spreadsheet kept), and a rival. */
const W = '30712345678';
const W2 = '0030712345678';
const R = '20999999999';
/** Elena nominated first: the nominee page lists the earliest nomination first. */
const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-02T10:00:00.000Z';

describe('vote pages that say who', () => {
  const app = useBrowserApp();
  let eventId: string;
  let elena: { id: string };

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const db = app.db;
    eventId = (await seedEvent(db, { name: 'Premios con Nombres 2026' })).id;
    elena = await seedExhibitor(db, { fullName: 'Elena Uno', company: 'Redes del Sur' });
    const ernesto = await seedExhibitor(db, { fullName: 'Ernesto Dos', company: 'Datos Andinos' });
    for (const [exhibitor, nominees] of [
      [
        elena,
        [
          { fiscalId: W, name: 'Omega', nominatedAt: T1 },
          { fiscalId: R, name: 'Rival', nominatedAt: T1 },
        ],
      ],
      [
        ernesto,
        [
          { fiscalId: R, name: 'Rival', nominatedAt: T2 },
          { fiscalId: W2, name: 'Omega SA', nominatedAt: T2 },
        ],
      ],
    ] as const) {
      await seedMembership(db, eventId, exhibitor.id);
      await seedNominations(db, {
        eventId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: [...nominees],
      });
    }
  });

  it('the ranking shows "ID fiscal", so two rows of one reseller show why they are two, and counts "Posibles duplicados"', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await app.adminPage(viewport);
      await page.goto(`/admin/event/${eventId}/consumption`);
      const table = page.getByRole('table', { name: 'Votos', exact: true });
      await table.locator('tbody tr').nth(2).waitFor();
      expect(await table.getByRole('columnheader', { name: 'ID fiscal' }).isVisible()).toBe(true);
      const rows = await tableRows(page, 'Votos', { exact: true });
      // On a phone the contact's email goes under the name: the name is its first line.
      expect(rows.map((cells) => [cells[1]?.split('\n')[0], cells[2]])).toEqual([
        ['Rival', R],
        ['Omega', W],
        ['Omega SA', W2],
      ]);
      // One group (Omega and Omega SA): the count is part of the button's text and name.
      const duplicates = page.getByRole('button', { name: 'Posibles duplicados (1)', exact: true });
      await duplicates.waitFor();
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      const name = viewport === PHONE ? 'phone' : 'desktop';
      await page.screenshot({ path: `${SHOTS}/ranking-${name}.png`, fullPage: true });
      await duplicates.click();
      await page.getByRole('dialog', { name: 'Posibles duplicados' }).waitFor();
      await context.close();
    }
    // Two viewports, each scanned by axe: more than the default minute on a shared machine.
  }, 150_000);

  it('the nominee page names each vote\'s exhibitor, company and place, and "Editar voto" says whose vote it is', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await app.adminPage(viewport);
      await page.goto(`/admin/event/${eventId}/consumption`);
      await page.getByRole('link', { name: 'Rival' }).click();
      await page
        .getByRole('heading', { level: 1, name: `Votos para el id fiscal: ${R}` })
        .waitFor();
      const table = page.getByRole('table', { name: `Votos para el id fiscal: ${R}` });
      await table.locator('tbody tr').nth(1).waitFor();
      const headers = (await table.getByRole('columnheader').allInnerTexts()).map((h) => h.trim());
      const rows = await tableRows(table.page(), `Votos para el id fiscal: ${R}`);
      if (viewport === PHONE) {
        // The company column gives way on a phone (hidden, so out of the accessibility tree); the
        // company goes under the exhibitor's name.
        expect(headers.slice(0, 3)).toEqual(['Expositor', 'Puesto', 'Reseller']);
        expect(rows.map((cells) => cells.slice(0, 3))).toEqual([
          ['Elena Uno\nRedes del Sur', '2°', 'Rival'],
          ['Ernesto Dos\nDatos Andinos', '1°', 'Rival'],
        ]);
      } else {
        expect(headers.slice(0, 4)).toEqual(['Expositor', 'Empresa', 'Puesto', 'Reseller']);
        expect(rows.map((cells) => cells.slice(0, 4))).toEqual([
          ['Elena Uno', 'Redes del Sur', '2°', 'Rival'],
          ['Ernesto Dos', 'Datos Andinos', '1°', 'Rival'],
        ]);
      }
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      const name = viewport === PHONE ? 'phone' : 'desktop';
      await page.screenshot({ path: `${SHOTS}/nominee-${name}.png`, fullPage: true });

      await table
        .getByRole('row')
        .filter({ hasText: 'Ernesto Dos' })
        .getByRole('button', { name: 'Rival' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Editar voto' });
      await dialog.getByText('Voto de Ernesto Dos, puesto 1°', { exact: true }).waitFor();
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/edit-vote-${name}.png`, fullPage: true });
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await context.close();
    }
  }, 150_000);

  it('"Editar nominación" names the exhibitor and the place', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${eventId}/exhibitors/${elena.id}`);
    await page.getByRole('heading', { level: 1, name: 'Votos de Elena Uno' }).waitFor();
    await page.getByRole('button', { name: 'Rival' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar nominación' });
    await dialog.getByText('Voto de Elena Uno, puesto 2°', { exact: true }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/edit-nomination-phone.png`, fullPage: true });
    await context.close();
  });
});
