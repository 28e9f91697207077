import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import {
  DESKTOP,
  expectAccessible,
  hasHorizontalScroll,
  tableRows,
  PHONE,
} from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-results';
const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-02T10:00:00.000Z';
const T3 = '2026-01-03T10:00:00.000Z';
const A = '20111111111';
const B = '20222222222';
const C = '20333333333';
const D = '20444444444';
const E = '20555555555';

async function readXlsx(path: string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const rows: unknown[][] = [];
  workbook.getWorksheet('data')?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { names: workbook.worksheets.map((w) => w.name), rows };
}

describe('results: rankings, nominee and exhibitor votes, vote correction, exports', () => {
  const app = useBrowserApp();
  let eventId: string;
  let e3: { id: string };
  let outsider: { id: string };
  const eventName = 'Premios Año 2026';

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const db = app.db;
    eventId = (await seedEvent(db, { name: eventName })).id;
    const e1 = await seedExhibitor(db, { fullName: 'Elena Uno' });
    const e2 = await seedExhibitor(db, { fullName: 'Ernesto Dos' });
    e3 = await seedExhibitor(db, { fullName: 'Eva Tres' });
    outsider = await seedExhibitor(db, { fullName: 'Otro Evento' });
    for (const e of [e1, e2, e3]) await seedMembership(db, eventId, e.id);
    // Alfa 5 + 4 and Beta 4 + 5, both first nominated at T1: tied on everything (1°, 1°).
    await seedNominations(db, {
      eventId,
      exhibitorId: e1.id,
      category: 'consumption',
      nominees: [
        { fiscalId: A, name: 'Alfa Uno', nominatedAt: T2 },
        { fiscalId: B, name: 'Beta Uno', nominatedAt: T2 },
        { fiscalId: C, name: 'Gama', nominatedAt: T2 },
      ],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: e2.id,
      category: 'consumption',
      nominees: [
        { fiscalId: B, name: 'Beta Dos', nominatedAt: T1 },
        { fiscalId: A, name: 'Alfa Dos', nominatedAt: T1 },
        { fiscalId: D, name: 'Delta', nominatedAt: T1 },
      ],
    });
    await seedNominations(db, {
      eventId,
      exhibitorId: e3.id,
      category: 'consumption',
      nominees: [
        { fiscalId: C, name: 'Gama Tres', nominatedAt: T3 },
        { fiscalId: D, name: 'Delta Tres', nominatedAt: T3 },
        { fiscalId: E, name: 'Épsilon', nominatedAt: T3 },
      ],
    });
  });

  it('shows the CONSUMO ranking with shared places and the tie rule, and exports the same rows', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/consumption`);
    await page.getByRole('heading', { name: 'Votos', level: 2 }).waitFor();
    await page.getByRole('table', { name: 'Votos' }).locator('tbody tr').nth(4).waitFor();
    const cells = await tableRows(page, 'Votos');
    // Votos, 1° … 5° and Puntos: Alfa Dos was named 1st once and 2nd once.
    expect(cells[0]).toEqual([
      '1°\nempate',
      'Alfa Dos',
      A,
      `contacto${A}@reseller.test`,
      '2',
      '1',
      '1',
      '0',
      '0',
      '0',
      '9',
    ]);
    const rows = cells.map((row) => [row[0], row[1], row[3], row[10]]);
    expect(rows).toEqual([
      ['1°\nempate', 'Alfa Dos', `contacto${A}@reseller.test`, '9'],
      ['1°\nempate', 'Beta Dos', `contacto${B}@reseller.test`, '9'],
      ['3°', 'Gama', `contacto${C}@reseller.test`, '8'],
      ['4°', 'Delta', `contacto${D}@reseller.test`, '7'],
      ['5°', 'Épsilon', `contacto${E}@reseller.test`, '3'],
    ]);
    expect(await page.getByText(MSG.rankingTieRule).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/ranking-desktop.png`, fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${eventName}-consumption.xlsx`);
    const file = await readXlsx((await download.path()) ?? '');
    expect(file.names).toEqual(['data']);
    expect(file.rows[0]).toEqual([
      'Nombre del reseller',
      'Razón social',
      'ID fiscal',
      'Nombre del contacto',
      'Cargo del contacto',
      'Teléfono',
      'Email',
      'Localidad',
      'Ciudad',
      'Puntos',
    ]);
    expect(file.rows.slice(1).map((r) => [r[0], r[6], String(r[9])])).toEqual(
      rows.map(([, name, email, points]) => [name, email, points]),
    );
    await context.close();
  });

  it('shows "No hay votos" for a category without votes and the not-found text for another', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/value`);
    await page.getByText(MSG.noVotes).waitFor();
    await page.getByRole('button', { name: 'Actualizar', exact: true }).click();
    await page.getByText(MSG.noVotes).waitFor();
    await page.goto(`/admin/event/${eventId}/otra`);
    await page.getByText(MSG.pageNotFound).waitFor();
    await context.close();
  });

  it('opens the nominee page from the ranking, survives a reload, exports, and refuses a duplicate fiscal id', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/consumption`);
    await page.getByRole('link', { name: 'Delta' }).click();
    await page.waitForURL(`**/admin/event/${eventId}/nominee?category=consumption&fiscalId=${D}`);
    const heading = page.getByRole('heading', { level: 1, name: `Votos para el id fiscal: ${D}` });
    await heading.waitFor();
    await page.reload();
    await heading.waitFor();
    await page.getByRole('table').locator('tbody tr').nth(1).waitFor();
    expect(await tableRows(page, `Votos para el id fiscal: ${D}`)).toEqual([
      // Who voted, their company and the place in their list, then the nominee as they typed it.
      [
        'Ernesto Dos',
        'Distribuidora Norte',
        '3°',
        'Delta',
        'Carla Contacto',
        `contacto${D}@reseller.test`,
        '1155550000',
      ],
      [
        'Eva Tres',
        'Distribuidora Norte',
        '2°',
        'Delta Tres',
        'Carla Contacto',
        `contacto${D}@reseller.test`,
        '1155550000',
      ],
    ]);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/nominee-desktop.png`, fullPage: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${D}-resultados.xlsx`);
    const file = await readXlsx((await download.path()) ?? '');
    expect(file.names).toEqual(['data']);
    expect(file.rows.map((r) => r[0])).toEqual(['Nombre del reseller', 'Delta', 'Delta Tres']);
    expect(file.rows[0]).not.toContain('ID fiscal');
    expect(file.rows[0]).not.toContain('Puntos');

    // Eva Tres's list also has Épsilon: her Delta entry may not take Épsilon's fiscal id.
    await page.getByRole('button', { name: 'Delta Tres' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar voto' });
    await dialog.waitFor();
    await expectAccessible(page);
    await dialog.getByLabel('ID fiscal').fill(E);
    await dialog.getByLabel('Motivo').selectOption({ label: 'ID fiscal equivocado' });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText(MSG.adminDuplicateFiscalId).first().waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const stored = await app.db
      .selectFrom('nominations')
      .select(['list_order', 'fiscal_id'])
      .where('exhibitor_id', '=', e3.id)
      .orderBy('list_order')
      .execute();
    expect(stored.map((r) => r.fiscal_id)).toEqual([C, D, E]);

    await page.getByRole('button', { name: 'Atras' }).click();
    await page.waitForURL(`**/admin/event/${eventId}/consumption`);
    await context.close();
  });

  it("corrects an exhibitor's nomination, which moves the ranking and is audited", async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors/${e3.id}`);
    await page.getByRole('heading', { level: 1, name: 'Votos de Eva Tres' }).waitFor();
    const consumptionTab = page.getByRole('tab', { name: 'Nominación Reseller de CONSUMO' });
    expect(await consumptionTab.getAttribute('aria-selected')).toBe('true');
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/exhibitor-desktop.png`, fullPage: true });

    await page.getByRole('button', { name: 'Gama Tres' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar nominación' });
    await dialog.waitFor();
    await dialog.getByLabel('Nombre del reseller').fill('Alfa Tres');
    await dialog.getByLabel('ID fiscal').fill(A);
    // "Otro" asks for its detail before anything is sent.
    await dialog.getByLabel('Motivo').selectOption({ label: 'Otro' });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText(MSG.requiredField).first().waitFor();
    await dialog.getByLabel('Detalle').fill('Lo pidió el comité');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Alfa Tres' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/event/${eventId}/exhibitors/${e3.id}`);

    await page.getByRole('tab', { name: 'Nominación Reseller de VALOR AGREGADO' }).click();
    await page.getByText(MSG.noVotesForNominee).waitFor();

    await page.goto(`/admin/event/${eventId}/consumption`);
    await page.getByRole('table', { name: 'Votos' }).locator('tbody tr').nth(4).waitFor();
    expect((await tableRows(page, 'Votos')).map((row) => [row[0], row[1], row[10]])).toEqual([
      ['1°', 'Alfa Dos', '14'],
      ['2°', 'Beta Dos', '9'],
      ['3°', 'Delta', '7'],
      ['4°', 'Gama', '3'],
      ['5°', 'Épsilon', '3'],
    ]);
    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'vote.edit')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({
      reason: 'other',
      detail: 'Lo pidió el comité',
      before: { fiscalId: C, name: 'Gama Tres' },
      after: { fiscalId: A, name: 'Alfa Tres' },
    });
    await context.close();
  });

  // Two viewports × two pages of 100 rows of ten columns, each scanned by axe: more than the
  // default minute on a shared two-core machine.
  it('pages a long ranking: 100 rows a page, positions go on, a tie spans the page boundary', async () => {
    // 26 exhibitors name 5 resellers each, all at the same instant: the 26 rows of each place tie
    // (1°, 27°, 53°, 79°, 105°), and the 4th-place group spans rows 79-104, across pages 1 and 2.
    const db = app.db;
    const longEventId = (await seedEvent(db, { name: 'Premios Largos' })).id;
    for (let i = 0; i < 26; i++) {
      const exhibitor = await seedExhibitor(db);
      await seedMembership(db, longEventId, exhibitor.id);
      await seedNominations(db, {
        eventId: longEventId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: [1, 2, 3, 4, 5].map((place) => ({
          fiscalId: `30${place}${String(i).padStart(8, '0')}`,
          name: `Reseller ${place}-${i}`,
          nominatedAt: T1,
        })),
      });
    }
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await app.adminPage(viewport);
      await page.goto(`/admin/event/${longEventId}/consumption`);
      const table = page.getByRole('table', { name: 'Votos' });
      await table.locator('tbody tr').nth(99).waitFor();
      expect(await table.locator('tbody tr').count()).toBe(100);
      await page.getByText('1–100 de 130').waitFor();
      const rows = await tableRows(page, 'Votos');
      expect(rows.at(-1)?.[0]).toBe('79°\nempate');
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);

      await page.getByRole('button', { name: 'Ir a la página siguiente' }).click();
      await page.getByText('101–130 de 130').waitFor();
      await page.waitForURL(/pagina=2/);
      await expect.poll(() => table.locator('tbody tr').count()).toBe(30);
      const second = await tableRows(page, 'Votos');
      // Every row of this ranking shares its position with others.
      expect(second.slice(0, 5).map((cells) => cells[0]?.split('\n')[0])).toEqual([
        '79°',
        '79°',
        '79°',
        '79°',
        '105°',
      ]);
      expect(second.at(-1)?.[0]).toBe('105°\nempate');
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      const name = viewport === PHONE ? 'phone' : 'desktop';
      await page.screenshot({ path: `${SHOTS}/ranking-page2-${name}.png`, fullPage: true });

      // A reload keeps the page; going back to page 1 drops the parameter.
      await page.reload();
      await page.getByText('101–130 de 130').waitFor();
      await page.getByRole('button', { name: 'Ir a la página anterior' }).click();
      await page.getByText('1–100 de 130').waitFor();
      expect(new URL(page.url()).search).toBe('');
      await context.close();
    }
  }, 120_000);

  it('says "No se encontró el expositor" for an exhibitor outside the event', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors/${outsider.id}`);
    await page.getByRole('heading', { level: 1, name: MSG.exhibitorNotFound }).waitFor();
    await context.close();
  });

  it('fits a 390 px phone without sideways scrolling', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${eventId}/consumption`);
    await page.getByRole('table', { name: 'Votos' }).locator('tbody tr').nth(4).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/ranking-phone.png`, fullPage: true });

    await page.goto(`/admin/event/${eventId}/nominee?category=consumption&fiscalId=${A}`);
    await page.getByRole('table').locator('tbody tr').nth(2).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/nominee-phone.png`, fullPage: true });

    await page.goto(`/admin/event/${eventId}/exhibitors/${e3.id}`);
    await page.getByRole('heading', { level: 1, name: 'Votos de Eva Tres' }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/exhibitor-phone.png`, fullPage: true });

    await page.getByRole('button', { name: 'Alfa Tres' }).click();
    await page.getByRole('dialog', { name: 'Editar nominación' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/edit-phone.png`, fullPage: true });
    await context.close();
  });
});
