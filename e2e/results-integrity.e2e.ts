import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
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

const SHOTS = '/tmp/shots-results-integrity';
const T1 = '2026-01-01T10:00:00.000Z';
const T2 = '2026-01-02T10:00:00.000Z';
const T3 = '2026-01-03T10:00:00.000Z';
/** One reseller, typed two ways: with its fiscal id, and with leading zeros a spreadsheet kept. */
const W = '30712345678';
const W2 = '0030712345678';
const R = '20999999999';
const X = '20333333333';
const Y = '20444444444';

describe('results integrity: counts and tie-breaks, duplicates and merging, history, whole-event export', () => {
  const app = useBrowserApp();
  let eventId: string;
  const eventName = 'Premios Íntegros 2026';

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const db = app.db;
    eventId = (await seedEvent(db, { name: eventName })).id;
    const lists: [string, [string, string, string][]][] = [
      [
        'Elena Uno',
        [
          [R, 'Rival', T1],
          [W, 'Omega', T1],
          [X, 'Equis', T2],
        ],
      ],
      [
        'Ernesto Dos',
        [
          [R, 'Rival', T2],
          [W2, 'Omega SA', T2],
          [Y, 'Yota', T2],
        ],
      ],
      [
        'Eva Tres',
        [
          [W, 'Omega', T3],
          [R, 'Rival', T3],
        ],
      ],
      [
        'Emilio Cuatro',
        [
          [W2, 'Omega S.A.', T3],
          [X, 'Equis', T3],
        ],
      ],
    ];
    for (const [fullName, nominees] of lists) {
      const exhibitor = await seedExhibitor(db, { fullName });
      await seedMembership(db, eventId, exhibitor.id);
      await seedNominations(db, {
        eventId,
        exhibitorId: exhibitor.id,
        category: 'consumption',
        nominees: nominees.map(([fiscalId, name, nominatedAt]) => ({
          fiscalId,
          name,
          nominatedAt,
        })),
      });
    }
  });

  async function openRanking(page: Page, rows: number) {
    await page.goto(`/admin/event/${eventId}/consumption`);
    await page
      .getByRole('table', { name: 'Votos' })
      .locator('tbody tr')
      .nth(rows - 1)
      .waitFor();
  }

  const BEFORE = [
    ['1°', 'Rival', R, `contacto${R}@reseller.test`, '3', '2', '1', '0', '0', '0', '14'],
    ['2°', 'Omega', W, `contacto${W}@reseller.test`, '2', '1', '1', '0', '0', '0', '9'],
    ['3°', 'Omega SA', W2, `contacto${W2}@reseller.test`, '2', '1', '1', '0', '0', '0', '9'],
    ['4°', 'Equis', X, `contacto${X}@reseller.test`, '2', '0', '1', '1', '0', '0', '7'],
    ['5°', 'Yota', Y, `contacto${Y}@reseller.test`, '1', '0', '0', '1', '0', '0', '3'],
  ];

  it('shows votes, per-place counts and points, and names the criterion that broke a tie', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await app.adminPage(viewport);
      await openRanking(page, 5);
      const rows = await tableRows(page, 'Votos', { exact: true });
      if (viewport === DESKTOP) {
        const headers = await page
          .getByRole('table', { name: 'Votos' })
          .getByRole('columnheader')
          .allInnerTexts();
        expect(headers).toEqual([
          'Puesto',
          'Nombre',
          'ID fiscal',
          'Email',
          'Votos',
          '1°',
          '2°',
          '3°',
          '4°',
          '5°',
          'Puntos',
        ]);
        expect(rows).toEqual(BEFORE);
      }
      // Omega SA (W2) has Omega (W)'s points, places and nominations, but was nominated later.
      const notes = page.getByRole('region', { name: 'Desempates' });
      expect(await notes.getByRole('listitem').allInnerTexts()).toEqual([
        '3° Omega SA: Primera nominación',
      ]);
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      const name = viewport === PHONE ? 'phone' : 'desktop';
      await page.screenshot({ path: `${SHOTS}/ranking-${name}.png`, fullPage: true });
      await context.close();
    }
  });

  it('marks rows that share a position', async () => {
    const db = app.db;
    const tiedEvent = (await seedEvent(db, { name: 'Premios Empatados' })).id;
    const e1 = await seedExhibitor(db);
    const e2 = await seedExhibitor(db);
    for (const [exhibitor, first, second] of [
      [e1, R, X],
      [e2, X, R],
    ] as const) {
      await seedMembership(db, tiedEvent, exhibitor.id);
      await seedNominations(db, {
        eventId: tiedEvent,
        exhibitorId: exhibitor.id,
        category: 'value',
        nominees: [
          { fiscalId: first, name: `Nominado ${first}`, nominatedAt: T1 },
          { fiscalId: second, name: `Nominado ${second}`, nominatedAt: T1 },
        ],
      });
    }
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${tiedEvent}/value`);
    await page.getByRole('table', { name: 'Votos' }).locator('tbody tr').nth(1).waitFor();
    const rows = await tableRows(page, 'Votos', { exact: true });
    expect(rows.map((cells) => cells[0])).toEqual(['1°\nempate', '1°\nempate']);
    const notes = page.getByRole('region', { name: 'Desempates' });
    expect(await notes.getByRole('listitem').allInnerTexts()).toEqual([
      `1° ${rows[1]?.[1] ?? ''}: Empate`,
    ]);
    await context.close();
  });

  it('merges two split fiscal ids from "Posibles duplicados" and the winner changes', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page } = await app.adminPage(viewport);
      const name = viewport === PHONE ? 'phone' : 'desktop';
      await openRanking(page, 5);
      await page.getByRole('button', { name: 'Posibles duplicados' }).click();
      const list = page.getByRole('dialog', { name: 'Posibles duplicados' });
      await list.getByRole('table', { name: 'Grupo 1' }).waitFor();
      expect(await list.getByRole('button', { name: 'Unificar' }).count()).toBe(1);
      const group = await tableRows(page, 'Grupo 1', { exact: true });
      expect(group.map((cells) => cells[0]).sort()).toEqual([W2, W]);
      expect(group.map((cells) => cells[2])).toEqual(['9', '9']);
      await list.getByText('Mismo ID fiscal sin ceros a la izquierda ni símbolos').waitFor();
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await page.screenshot({ path: `${SHOTS}/duplicates-${name}.png`, fullPage: true });

      await list.getByRole('button', { name: 'Unificar' }).click();
      const dialog = page.getByRole('dialog', { name: 'Unificar nominados' });
      await dialog.waitFor();
      const choice = dialog.getByRole('radiogroup', { name: 'ID fiscal que queda' });
      await choice.getByRole('radio', { name: new RegExp(`^${W} `) }).check();
      await dialog.getByRole('table', { name: 'Después' }).getByText(`${W} · Omega`).waitFor();
      expect((await tableRows(page, 'Después', { exact: true }))[0]).toEqual([
        '1°',
        `${W} · Omega`,
        '18',
      ]);
      expect((await tableRows(page, 'Antes', { exact: true }))[0]).toEqual(['1°', R, '14']);
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await page.screenshot({ path: `${SHOTS}/merge-${name}.png`, fullPage: true });
      if (viewport === PHONE) {
        // Cancelling returns to the groups and changes nothing.
        await dialog.getByRole('button', { name: 'Cancelar' }).click();
        await list.waitFor();
        await list.getByRole('button', { name: 'Cerrar' }).click();
        await list.waitFor({ state: 'hidden' });
        await context.close();
        continue;
      }

      await dialog.getByRole('button', { name: 'Unificar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText(MSG.mergeDone).waitFor();
      await expect
        .poll(async () => (await tableRows(page, 'Votos', { exact: true }))[0]?.slice(0, 2))
        .toEqual(['1°', 'Omega']);
      expect(await tableRows(page, 'Votos', { exact: true })).toEqual([
        ['1°', 'Omega', W, `contacto${W}@reseller.test`, '4', '2', '2', '0', '0', '0', '18'],
        ['2°', 'Rival', R, `contacto${R}@reseller.test`, '3', '2', '1', '0', '0', '0', '14'],
        ['3°', 'Equis', X, `contacto${X}@reseller.test`, '2', '0', '1', '1', '0', '0', '7'],
        ['4°', 'Yota', Y, `contacto${Y}@reseller.test`, '1', '0', '0', '1', '0', '0', '3'],
      ]);
      const stored = await app.db
        .selectFrom('nominations')
        .select('fiscal_id')
        .where('event_id', '=', eventId)
        .where('fiscal_id', '=', W2)
        .execute();
      expect(stored).toEqual([]);
      await page.getByRole('button', { name: 'Posibles duplicados' }).click();
      await page
        .getByRole('dialog', { name: 'Posibles duplicados' })
        .getByText(MSG.noDuplicates)
        .waitFor();
      await context.close();
    }
  });

  it('undoes the merge from "Historial"; a correction with its reason shows there and in the workbook; undo is refused after a later change', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/history`);
    await page.getByRole('heading', { name: 'Historial', level: 2 }).waitFor();
    expect(await page.getByRole('tab', { name: 'Historial' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const history = page.getByRole('table', { name: 'Historial' });
    await history
      .getByRole('cell', { name: 'Nominados unificados', exact: true })
      .first()
      .waitFor();
    const headers = await history.getByRole('columnheader').allInnerTexts();
    expect(headers).toEqual(['Fecha', 'Quién', 'Acción', 'Detalle']);
    const [merged] = await tableRows(page, 'Historial', { exact: true });
    // The administrator by name; the nominees by the names the lists held, then their ids.
    expect(merged?.slice(1, 3)).toEqual(['Ana Administradora', 'Nominados unificados']);
    expect(merged?.[3]).toMatch(
      new RegExp(
        `^CONSUMO: Omega[^(]*\\(${W2}\\) → Omega[^(]*\\(${W}\\); 2 listas modificadas\nDeshacer$`,
      ),
    );
    expect(merged?.[0]).toMatch(/^\d{1,2}-\d{1,2}-\d{4} \d{2}:\d{2}$/);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/history-desktop.png`, fullPage: true });

    await history.getByRole('button', { name: 'Deshacer' }).click();
    await page.getByText(MSG.undoDone).waitFor();
    await history
      .getByRole('cell', { name: 'Unificación deshecha', exact: true })
      .first()
      .waitFor();
    await openRanking(page, 5);
    expect(await tableRows(page, 'Votos', { exact: true })).toEqual(BEFORE);

    // Merge again, then correct one of the merged votes: that merge can no longer be undone.
    await page.getByRole('button', { name: 'Posibles duplicados' }).click();
    await page
      .getByRole('dialog', { name: 'Posibles duplicados' })
      .getByRole('button', { name: 'Unificar' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Unificar nominados' });
    await dialog.getByRole('radio', { name: new RegExp(`^${W} `) }).check();
    await dialog.getByRole('table', { name: 'Después' }).getByText(`${W} · Omega`).waitFor();
    await dialog.getByRole('button', { name: 'Unificar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Omega', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: `Votos para el id fiscal: ${W}` }).waitFor();
    await page.getByRole('table').locator('tbody tr').nth(3).waitFor();
    await page.getByRole('button', { name: 'Omega SA', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Editar voto' });
    await edit.getByLabel('Nombre del reseller').fill('Omega Corregida');
    await edit.getByLabel('Nombre del contacto').fill('Lucía Fernández');
    await edit.getByLabel('Motivo').selectOption({ label: 'Error de tipeo' });
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });

    await page.goto(`/admin/event/${eventId}/history`);
    await history.getByRole('cell', { name: 'Voto corregido', exact: true }).first().waitFor();
    const [correction] = await tableRows(page, 'Historial', { exact: true });
    expect(correction?.slice(1)).toEqual([
      'Ana Administradora',
      'Voto corregido',
      expect.stringMatching(
        new RegExp(
          `^CONSUMO, puesto \\d, Omega SA \\(${W}\\): Nombre del reseller: Omega SA → Omega Corregida; Nombre del contacto: Carla Contacto → Lucía Fernández · Motivo: Error de tipeo$`,
        ),
      ),
    ]);
    // Each changed field reads "{campo}: {antes} → {después}" with the form's label.
    await history
      .getByRole('cell', { name: /Nombre del contacto: Carla Contacto → Lucía Fernández/ })
      .waitFor();
    await expectAccessible(page);
    await history.getByRole('button', { name: 'Deshacer' }).first().click();
    await page.getByText(MSG.undoStale).waitFor();

    // Filter by action, then search.
    await page.getByLabel('Acción').selectOption({ label: 'Voto corregido' });
    await expect
      .poll(async () => (await tableRows(page, 'Historial', { exact: true })).length)
      .toBe(1);
    await page.getByLabel('Acción').selectOption({ label: 'Todas' });
    await page.getByLabel('Buscar').fill('corregida');
    await page.getByLabel('Buscar').press('Enter');
    await expect
      .poll(async () =>
        (await tableRows(page, 'Historial', { exact: true })).map((cells) => cells[2]),
      )
      .toEqual(['Voto corregido']);
    await page.getByLabel('Buscar').fill('nada parecido');
    await page.getByLabel('Buscar').press('Enter');
    await page.getByText(MSG.noHistory).waitFor();

    // The whole event in one workbook, with the correction and its reason.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar todo' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${eventName}-completo.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path()) ?? '');
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'CONSUMO',
      'VALOR AGREGADO',
      'Votos',
      'Participación',
      'Correcciones',
    ]);
    const corrections: unknown[][] = [];
    workbook
      .getWorksheet('Correcciones')
      ?.eachRow((row) => corrections.push((row.values as unknown[]).slice(1)));
    const vote = corrections.find((row) => row[2] === 'Voto corregido');
    expect(vote?.slice(1, 4)).toEqual(['Ana Administradora', 'Voto corregido', 'Error de tipeo']);
    expect(String(vote?.[5])).toContain('Omega SA');
    expect(String(vote?.[6])).toContain('Omega Corregida');
    await context.close();
  });

  it('fits the history tab and the event header on a 390 px phone', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${eventId}/history`);
    // On a phone the action and who go under the date; their own columns are hidden.
    await page
      .getByRole('table', { name: 'Historial' })
      .getByText('Voto corregido', { exact: true })
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Exportar todo' }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/history-phone.png`, fullPage: true });
    await context.close();
  });

  it('pages a long history with "Cargar más"', async () => {
    const db = app.db;
    const rows = Array.from({ length: 60 }, (_, i) => ({
      event_id: eventId,
      at: `2026-02-01T10:${String(i).padStart(2, '0')}:00.000Z`,
      actor_role: 'admin',
      actor_id: app.admin.id,
      actor_email: app.admin.email,
      action: 'event.updated',
      entity_type: 'event',
      entity_id: eventId,
      details: JSON.stringify({
        before: { name: 'Cambio', eventDate: '2026-09-01', voteDeadline: '2026-08-01' },
        after: { name: `Cambio ${i}`, eventDate: '2026-09-01', voteDeadline: '2026-08-01' },
      }),
    }));
    await db.insertInto('audit_log').values(rows).execute();
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/history`);
    const table = page.getByRole('table', { name: 'Historial' });
    await table.getByText('Nombre: Cambio → Cambio 59').waitFor();
    expect(await table.locator('tbody tr').count()).toBe(50);
    await page.getByRole('button', { name: 'Cargar más' }).click();
    await table.getByText('Nombre: Cambio → Cambio 0', { exact: true }).waitFor();
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(60);
    await context.close();
  });

  it("refuses a correction when the exhibitor's list changed meanwhile, says so and shows the list as it is", async () => {
    const db = app.db;
    // Voting is still open in this event, so the exhibitor can move an entry while the
    // administrator's dialog is open.
    const openEvent = await seedEvent(db, {
      name: 'Premios Abiertos 2099',
      eventDate: '2099-12-20',
      voteDeadline: '2099-12-10',
    });
    const exhibitor = await seedExhibitor(db, { fullName: 'Elisa Cambiante' });
    await seedMembership(db, openEvent.id, exhibitor.id);
    await seedNominations(db, {
      eventId: openEvent.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '20500000001', name: 'Uno' },
        { fiscalId: '20500000002', name: 'Dos' },
        { fiscalId: '20500000003', name: 'Tres' },
      ],
    });
    const stored = async () =>
      (
        await db
          .selectFrom('nominations')
          .select(['fiscal_id', 'name'])
          .where('event_id', '=', openEvent.id)
          .orderBy('list_order')
          .execute()
      ).map((row) => `${row.fiscal_id} ${row.name}`);

    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${openEvent.id}/exhibitors/${exhibitor.id}`);
    const table = page.getByRole('table', { name: 'Nominación Reseller de CONSUMO' });
    await table.locator('tbody tr').nth(2).waitFor();
    await table.getByRole('button', { name: 'Dos', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Editar nominación' });
    await edit.getByLabel('ID fiscal').fill('20500000009');
    await edit.getByLabel('Nombre del reseller').fill('Nueve');
    await edit.getByLabel('Motivo').selectOption({ label: 'ID fiscal equivocado' });

    // Meanwhile the exhibitor moves "Dos" up: "Uno" is now at the place the dialog corrects.
    const { context: exhibitorContext } = await app.exhibitorPage(exhibitor);
    const moved = await exhibitorContext.request.post(
      `${app.server.url}/api/exh/events/${openEvent.id}/consumption/nominees/20500000002/move`,
      {
        headers: { 'x-requested-with': 'premios', origin: app.server.url },
        data: { direction: 'up', version: 1 },
      },
    );
    expect(moved.status()).toBe(200);
    await exhibitorContext.close();
    const afterMove = await stored();
    expect(afterMove).toEqual(['20500000002 Dos', '20500000001 Uno', '20500000003 Tres']);

    await edit.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('alert').filter({ hasText: MSG.staleList }).waitFor();
    await edit.waitFor({ state: 'hidden' });
    // The list on screen is the stored one, and "Uno" was not replaced.
    await expect
      .poll(async () =>
        (await tableRows(page, 'Nominación Reseller de CONSUMO', { exact: true })).map(
          (cells) => cells[0],
        ),
      )
      .toEqual(['Dos', 'Uno', 'Tres']);
    expect(await stored()).toEqual(afterMove);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/correction-stale.png`, fullPage: true });
    await context.close();
  });
});
