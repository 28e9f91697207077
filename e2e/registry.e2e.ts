import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  screenshotsIn,
} from '../test/helpers/browser.ts';
import { settled, useBrowserApp, visible } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-registry';
const shot = screenshotsIn(SHOTS);

/**
 * "Padrón de resellers" on a phone (390 px), by role and accessible name only: the top bar's
 * "Padrón", adding, searching, editing, "Validar CUIT en el padrón", importing a file with its
 * preview, and removing; each screen scanned by axe.
 */
describe('the reseller registry page', () => {
  const app = useBrowserApp({ admin: { email: 'ana@premios.test' } });
  let page: Page;

  beforeAll(async () => {
    ({ page } = await app.adminPage(PHONE));
  });

  it('adds, finds, edits, imports and removes entries on a phone', async () => {
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Padrón' }).click();
    await page.getByRole('heading', { name: 'Padrón de resellers' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/resellers');
    await visible(page, 'El padrón está vacío.');

    // Add one by hand.
    await page.getByRole('button', { name: 'Agregar al padrón' }).click();
    const add = page.getByRole('dialog', { name: 'Nuevo reseller del padrón' });
    await settled(add);
    await add.getByRole('textbox', { name: 'Nombre del reseller' }).fill('Núñez Informática');
    await add.getByRole('textbox', { name: 'Razón social' }).fill('Núñez SRL');
    await add.getByRole('textbox', { name: 'ID fiscal' }).fill('20-11111111-2');
    await add.getByRole('textbox', { name: 'Región' }).fill('Centro');
    await expectAccessible(page);
    await shot(page, 'registry-add-phone');
    await add.getByRole('button', { name: 'Guardar' }).click();
    await add.waitFor({ state: 'hidden' });
    const table = page.getByRole('table', { name: 'Padrón de resellers' });
    await table.getByRole('cell', { name: '20111111112' }).waitFor();
    // On a phone "Razón social" and "Región" step aside; the rest fit without sideways scroll.
    const headers = (
      await table.getByRole('columnheader').filter({ visible: true }).allInnerTexts()
    ).map((h) => h.trim());
    expect(headers).toEqual(['ID fiscal', 'Nombre del reseller', 'Nominaciones', 'Acciones']);

    // The same fiscal id again: refused on its field.
    await page.getByRole('button', { name: 'Agregar al padrón' }).click();
    const again = page.getByRole('dialog', { name: 'Nuevo reseller del padrón' });
    await settled(again);
    await again.getByRole('textbox', { name: 'Nombre del reseller' }).fill('Otro');
    await again.getByRole('textbox', { name: 'ID fiscal' }).fill('20111111112');
    await again.getByRole('button', { name: 'Guardar' }).click();
    await visible(again, 'Ese ID fiscal ya está en el padrón.');
    await again.getByRole('button', { name: 'Cancelar' }).click();
    await again.waitFor({ state: 'hidden' });

    // "Validar CUIT en el padrón": a wrong check digit refused with the CUIT message.
    // The setting is the server's: the box shows it once saved.
    await page.getByRole('checkbox', { name: 'Validar CUIT en el padrón' }).click();
    await expect
      .poll(() => page.getByRole('checkbox', { name: 'Validar CUIT en el padrón' }).isChecked())
      .toBe(true);
    await page.getByRole('button', { name: 'Agregar al padrón' }).click();
    const wrong = page.getByRole('dialog', { name: 'Nuevo reseller del padrón' });
    await settled(wrong);
    await wrong.getByRole('textbox', { name: 'Nombre del reseller' }).fill('Mal Dígito');
    await wrong.getByRole('textbox', { name: 'ID fiscal' }).fill('20111111113');
    await wrong.getByRole('button', { name: 'Guardar' }).click();
    await visible(wrong, 'El ID fiscal no es un CUIT válido.');
    await wrong.getByRole('button', { name: 'Cancelar' }).click();
    await wrong.waitFor({ state: 'hidden' });
    await page.getByRole('checkbox', { name: 'Validar CUIT en el padrón' }).click();
    await expect
      .poll(() => page.getByRole('checkbox', { name: 'Validar CUIT en el padrón' }).isChecked())
      .toBe(false);

    // Import: a file with a new row, an update and an error.
    await page.getByRole('button', { name: 'Importar' }).click();
    const importing = page.getByRole('dialog', { name: 'Importar padrón' });
    await settled(importing);
    await importing.getByRole('button', { name: 'Descargar plantilla' }).waitFor();
    await importing.getByLabel('Archivo').setInputFiles({
      name: 'padron.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'ID fiscal;Nombre del reseller;Razón social;Región',
          '30712345671;Andina Redes;Andina SA;Cuyo',
          '20111111112;Núñez Informática;Núñez SRL;Norte',
          'ABC;Sin Id;X;Y',
        ].join('\n'),
      ),
    });
    await visible(importing, '1 nuevos, 1 actualizados, 1 con errores');
    const preview = importing.getByRole('table', { name: 'Vista previa' });
    expect((await preview.getByRole('columnheader').allInnerTexts()).map((h) => h.trim())).toEqual([
      'Fila',
      'ID fiscal',
      'Nombre del reseller',
      'Estado',
    ]);
    await visible(preview, 'ID fiscal inválido');
    await visible(preview, 'Nuevo');
    await visible(preview, 'Actualiza');
    await expectAccessible(page);
    await shot(page, 'registry-import-phone');
    await importing.getByRole('button', { name: 'Confirmar importación' }).click();
    await importing.waitFor({ state: 'hidden' });
    await table.getByRole('cell', { name: '30712345671' }).waitFor();

    // "Buscar": a word of the company name, accents ignored.
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('andina');
    await page.getByRole('searchbox', { name: 'Buscar' }).press('Enter');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await table.getByRole('cell', { name: 'Andina Redes' }).waitFor();
    await visible(page, '1 coincide con la búsqueda');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await shot(page, 'registry-phone');

    // Edit it.
    await table.getByRole('button', { name: 'Editar en el padrón' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar reseller del padrón' });
    await settled(edit);
    await edit.getByRole('textbox', { name: 'Nombre del reseller' }).fill('Andina Redes Cuyo');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });
    await table.getByRole('cell', { name: 'Andina Redes Cuyo' }).waitFor();

    // Remove it.
    await table.getByRole('button', { name: 'Quitar del padrón' }).click();
    const remove = page.getByRole('dialog', { name: '¿Quitar del padrón?' });
    await settled(remove);
    await expectAccessible(page);
    await remove.getByRole('button', { name: 'Quitar' }).click();
    await remove.waitFor({ state: 'hidden' });
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await visible(page, 'El padrón está vacío.');
    const stored = await app.db
      .selectFrom('resellers')
      .select('fiscal_id')
      .orderBy('fiscal_id')
      .execute();
    expect(stored.map((row) => row.fiscal_id)).toEqual(['20111111112']);
  }, 240_000);

  it('the event dialog offers "Resellers nominables" and "Validar CUIT"', async () => {
    await page.goto('/admin');
    await page.getByRole('button', { name: 'nuevo', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo evento' });
    await settled(dialog);
    const select = dialog.getByRole('combobox', { name: 'Resellers nominables' });
    expect(await select.inputValue()).toBe('any');
    expect((await select.locator('option').allInnerTexts()).map((t) => t.trim())).toEqual([
      'Cualquiera',
      'Solo los del padrón',
    ]);
    expect(await dialog.getByRole('checkbox', { name: 'Validar CUIT' }).isChecked()).toBe(false);
    await expectAccessible(page);
  });
});
