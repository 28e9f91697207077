import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { calendarDateIn } from '../src/shared/dates.ts';
import {
  bulkRemovalText,
  bulkRemovedText,
  bulkResentText,
  exhibitorAddedText,
  exhibitorEditedText,
  INVITATION_NOTICE,
} from '../src/shared/roster-texts.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import {
  DESKTOP,
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  screenshotsIn,
  tableRows,
} from '../test/helpers/browser.ts';
import { useBrowserApp, visible } from '../test/helpers/browser-fixture.ts';

/*
 * Issue 32, items 1 and 2 in the browser: an import that names what it leaves out, and an
 * exhibitors tab built for 250 people (count, search, filter, pages, Spanish order, bulk actions).
 */

const ZONE = 'America/Argentina/Buenos_Aires';
const shot = screenshotsIn('/tmp/shots-roster');

function dateIn(days: number): string {
  const today = calendarDateIn(new Date(), ZONE);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

async function settled(dialog: Locator): Promise<void> {
  await dialog.waitFor();
  await expect
    .poll(() => dialog.evaluate((el) => getComputedStyle(el.parentElement ?? el).opacity))
    .toBe('1');
}

/** The names in the exhibitors table, in order (the name cell follows the checkbox). */
async function names(page: Page): Promise<string[]> {
  return (await tableRows(page, 'Expositores', { exact: true })).map((cells) => cells[1] ?? '');
}

/** True when the element lies wholly inside the viewport, without scrolling anything. */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  return Boolean(
    box &&
    viewport &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + box.height <= viewport.height &&
    box.x + box.width <= viewport.width,
  );
}

describe('roster for 250 and an import that loses nothing', { timeout: 240_000 }, () => {
  const app = useBrowserApp();
  let eventId: string;

  beforeAll(async () => {
    eventId = (
      await seedEvent(app.db, {
        name: 'Gala 250',
        eventDate: dateIn(20),
        voteDeadline: dateIn(10),
      })
    ).id;
    // 58 exhibitors named "Persona 00" … "Persona 57", and four whose names sort with accents.
    const db = app.db;
    for (let i = 0; i < 58; i++) {
      const n = String(i).padStart(2, '0');
      const person = await seedExhibitor(db, {
        fullName: `Persona ${n}`,
        email: `persona${n}@lista.test`,
        company: `Empresa ${i % 5}`,
      });
      await seedMembership(db, eventId, person.id);
    }
    for (const [fullName, email, company] of [
      ['Álvarez Ana', 'alvarez@sur.test', 'Peñalba SRL'],
      ['Aaron Abad', 'aaron@sur.test', 'Sur SA'],
      ['Ñandú Núñez', 'nandu@sur.test', 'Sur SA'],
      ['Zoe Zárate', 'zoe@sur.test', 'Sur SA'],
    ] as const) {
      const person = await seedExhibitor(db, { fullName, email, company });
      await seedMembership(db, eventId, person.id);
      if (fullName === 'Ñandú Núñez') {
        await seedNominations(db, {
          eventId,
          exhibitorId: person.id,
          category: 'consumption',
          nominees: [{ fiscalId: '30711111111' }, { fiscalId: '30722222222' }],
        });
      }
    }
  });

  const members = async () =>
    (
      await app.db
        .selectFrom('event_exhibitors')
        .select('exhibitor_id')
        .where('event_id', '=', eventId)
        .execute()
    ).length;

  it('counts, sorts as Spanish does, pages, searches and filters on the server', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    await visible(page, '62 expositores');
    // Accents aside: "Álvarez" among the A's, "Ñandú" after the N's and before the P's.
    expect((await names(page)).slice(0, 4)).toEqual([
      'Aaron Abad',
      'Álvarez Ana',
      'Ñandú Núñez',
      'Persona 00',
    ]);
    expect(await names(page)).toHaveLength(50);
    await visible(page, '1–50 de 62');
    await expectAccessible(page);
    await shot(page, 'roster-desktop');

    await page.getByRole('button', { name: 'Ir a la página siguiente' }).click();
    await visible(page, '51–62 de 62');
    expect((await names(page)).slice(-3)).toEqual(['Persona 56', 'Persona 57', 'Zoe Zárate']);

    // "Buscar": name, email or company, ignoring accents; Enter searches.
    const search = page.getByRole('searchbox', { name: 'Buscar' });
    await search.fill('penalba');
    await search.press('Enter');
    await visible(page, '1 coincide con la búsqueda');
    expect(await names(page)).toEqual(['Álvarez Ana']);
    await search.fill('');
    await search.press('Enter');

    // "Invitación": a new exhibitor's invitation goes out and shows as "Enviada".
    await page.getByRole('button', { name: 'Expositor', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Nuevo votante' });
    await settled(add);
    await visible(add, INVITATION_NOTICE.add);
    await add.getByLabel('Nombre completo').fill('Bruno Nuevo');
    await add.getByLabel('Email').fill('bruno@nuevo.test');
    await add.getByLabel('Empresa').fill('Nuevo SA');
    await add.getByRole('button', { name: 'Guardar' }).click();
    await add.waitFor({ state: 'hidden' });
    await visible(page, exhibitorAddedText('Bruno Nuevo'));
    await app.smtp.waitFor('bruno@nuevo.test');
    await visible(page, '63 expositores');
    const filter = page.getByRole('combobox', { name: 'Invitación' });
    await filter.click();
    const options = await page.getByRole('option').allInnerTexts();
    expect(options.map((o) => o.trim())).toEqual(['Todas', 'Pendiente', 'Enviada', 'Con error']);
    await page.getByRole('option', { name: 'Enviada' }).click();
    await expect.poll(() => names(page), { timeout: 30_000 }).toEqual(['Bruno Nuevo']);
    await filter.click();
    await page.getByRole('option', { name: 'Pendiente' }).click();
    await visible(page, '62 coinciden con la búsqueda');

    // Editing says what happened, and the dialog says when an invitation goes.
    await filter.click();
    await page.getByRole('option', { name: 'Enviada' }).click();
    await page
      .getByRole('row', { name: /Bruno Nuevo/ })
      .getByRole('button', { name: 'Editar expositor' })
      .click();
    const edit = page.getByRole('dialog', { name: 'Editar expositor' });
    await settled(edit);
    await visible(edit, INVITATION_NOTICE.edit);
    await expectAccessible(page);
    await edit.getByLabel('Email').fill('bruno@otro.test');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });
    await visible(page, exhibitorEditedText('Bruno Nuevo', 'bruno@otro.test'));
    await app.smtp.waitFor('bruno@otro.test');
    await context.close();
  });

  it('re-sends and removes the ticked exhibitors, saying how many and what is lost', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    await visible(page, '63 expositores');
    const resendButton = page.getByRole('button', { name: 'Reenviar invitaciones' });
    expect(await resendButton.isDisabled()).toBe(true);

    await page.getByRole('checkbox', { name: 'Seleccionar Aaron Abad' }).check();
    await page.getByRole('checkbox', { name: 'Seleccionar Álvarez Ana' }).check();
    await visible(page, '2 seleccionados');
    await resendButton.click();
    await visible(page, bulkResentText(2, 0));
    expect((await app.smtp.waitFor('aaron@sur.test')).subject).toBe(
      'Invitación a votar en Gala 250',
    );
    await app.smtp.waitFor('alvarez@sur.test');
    expect(await page.getByRole('checkbox', { name: 'Seleccionar Aaron Abad' }).isChecked()).toBe(
      false,
    );

    // "Seleccionar todos" ticks the rows on screen: here, the three found by a search.
    const search = page.getByRole('searchbox', { name: 'Buscar' });
    await search.fill('sur.test');
    await search.press('Enter');
    await visible(page, '4 coinciden con la búsqueda');
    await page.getByRole('checkbox', { name: 'Seleccionar Zoe Zárate' }).check();
    await page.getByRole('checkbox', { name: 'Seleccionar todos' }).check();
    await visible(page, '4 seleccionados');
    await page.getByRole('checkbox', { name: 'Seleccionar Aaron Abad' }).uncheck();
    await visible(page, '3 seleccionados');
    await page.getByRole('button', { name: 'Eliminar expositores' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Eliminar expositores?' });
    await settled(confirm);
    await visible(confirm, bulkRemovalText(3, 2));
    await expectAccessible(page);
    await shot(page, 'roster-bulk-remove');
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await visible(page, bulkRemovedText(3, 2));
    await expect.poll(() => names(page), { timeout: 30_000 }).toEqual(['Aaron Abad']);
    expect(await members()).toBe(60);
    await context.close();
  });

  it('fits a 390 px phone: count, search, filter, checkboxes, pages', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    await visible(page, '60 expositores');
    await page.getByRole('checkbox', { name: 'Seleccionar Aaron Abad' }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'roster-phone');
    await context.close();
  });

  it('imports a file that names its columns otherwise: ignored columns named, errors first, skipped rows downloadable', async () => {
    const lines = [
      'Nombre y apellido;Correo electrónico;Compañía;Teléfono',
      ...Array.from(
        { length: 40 },
        (_, i) => `Importada ${String(i).padStart(2, '0')};importada${i}@carga.test;Carga SA;341`,
      ),
      'Sin Correo;;Carga SA;341',
      'Mal Correo;mal@;Carga SA;341',
    ];
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page } = await app.adminPage(viewport);
      await page.goto(`/admin/event/${eventId}/exhibitors`);
      await page.getByRole('button', { name: 'Importar', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Importar expositores' });
      await settled(dialog);
      await dialog.getByLabel('Archivo').setInputFiles({
        name: 'carga.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'),
      });
      await visible(dialog, '40 nuevos, 0 ya estaban, 2 con errores');
      await visible(dialog, 'Columna ignorada: Teléfono');
      // The rows to fix come first; "Confirmar importación" is in view without scrolling.
      const rows = await tableRows(dialog, 'Vista previa');
      expect(rows.slice(0, 2).map((cells) => [cells[0], cells.at(-1)])).toEqual([
        ['42', 'Falta el email'],
        ['43', 'Email inválido'],
      ]);
      expect(rows).toHaveLength(42);
      const confirmButton = dialog.getByRole('button', { name: 'Confirmar importación' });
      expect(await inViewport(page, confirmButton)).toBe(true);
      await dialog.getByRole('checkbox', { name: 'Mostrar solo errores' }).check();
      expect((await tableRows(dialog, 'Vista previa')).map((cells) => cells[0])).toEqual([
        '42',
        '43',
      ]);
      await expectAccessible(page);
      await shot(page, `import-columns-${viewport.width}`);
      if (viewport === PHONE) {
        await dialog.getByRole('button', { name: 'Cancelar' }).click();
        await context.close();
        continue;
      }

      await confirmButton.click();
      await visible(page, 'Se agregaron 40 expositores.');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Descargar filas omitidas' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('filas-omitidas.csv');
      expect(fs.readFileSync(await download.path(), 'utf8')).toBe(
        '\uFEFFFila;Nombre completo;Email;Empresa;Estado\r\n' +
          '42;Sin Correo;;Carga SA;Falta el email\r\n' +
          '43;Mal Correo;mal@;Carga SA;Email inválido\r\n',
      );
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Cerrar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await visible(page, '100 expositores');
      const company = await app.db
        .selectFrom('exhibitors')
        .select('company')
        .where('email', '=', 'importada7@carga.test')
        .executeTakeFirstOrThrow();
      expect(company.company).toBe('Carga SA');
      await context.close();
    }
  });
});
