/**
 * Issue 26 items 1 and 2 in the browser: an administrator adds a third category ("Categorías",
 * "Nueva categoría") of 3 nominees scored "Un punto por nominación" with a description; the
 * exhibitor sees its tab and description, fills it and is refused a 4th; the category's tab shows
 * "1°" to "3°" and the ranking; "Presentar" reveals it. At 390 px, each screen with an axe scan.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import { nominateInDialog, resellerInput } from '../test/helpers/nominee-dialog.ts';
import { expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../test/helpers/seed.ts';
import { dateIn, settled, useBrowserApp } from '../test/helpers/browser-fixture.ts';

const NAME = 'MEJOR PARTNER DE SEGURIDAD';
const ADDRESS = 'mejor-partner-de-seguridad';
const DESCRIPTION = 'Resellers con una práctica de seguridad certificada.';

const NOMINEES = [
  resellerInput('Alfa Seguridad', '30711111111'),
  resellerInput('Beta Redes', '30722222222'),
  resellerInput('Gamma Cloud', '30733333333'),
];

describe('categories per event (issue 26, items 1 and 2)', () => {
  const app = useBrowserApp();
  let exhibitor: Awaited<ReturnType<typeof seedExhibitor>>;
  let event: { id: string; name: string };

  beforeAll(async () => {
    event = await seedEvent(app.db, {
      name: 'Premios con Categorías',
      eventDate: dateIn(30),
      voteDeadline: dateIn(20),
    });
    exhibitor = await seedExhibitor(app.db, { fullName: 'Lucía López', email: 'lucia@norte.test' });
    await seedMembership(app.db, event.id, exhibitor.id);
  });

  it(
    'a third category of 3 nominees, one point each: added, nominated, ranked and presented',
    { timeout: 240_000 },
    async () => {
      // The administrator adds it on the tab "Categorías".
      const admin = await app.adminPage(PHONE);
      const page = admin.page;
      await page.goto(`/admin/event/${event.id}/exhibitors`);
      await page.getByRole('tab', { name: 'Categorías' }).click();
      const table = page.getByRole('table', { name: 'Categorías' });
      await table.getByRole('row').filter({ hasText: 'VALOR AGREGADO' }).waitFor();
      const headers = await table.getByRole('columnheader').allInnerTexts();
      expect(headers.slice(0, 3)).toEqual(['Categoría', 'Nominaciones', 'Puntaje']);
      // The first row cannot go up, the last cannot go down: they say why.
      const first = table.getByRole('row').filter({ hasText: 'CONSUMO' });
      expect(await first.getByRole('button', { name: 'Subir' }).isDisabled()).toBe(true);

      await page.getByRole('button', { name: 'Nueva categoría' }).click();
      const dialog = page.getByRole('dialog', { name: 'Nueva categoría' });
      await settled(dialog);
      // A name the event already has is refused by the server, in Spanish, in the dialog.
      await dialog.getByRole('textbox', { name: 'Nombre' }).fill('consumo');
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.getByText(MSG.categoryNameTaken).waitFor();
      await dialog.getByRole('textbox', { name: 'Nombre' }).fill(NAME);
      await dialog.getByRole('textbox', { name: 'Descripción' }).fill(DESCRIPTION);
      await dialog.getByRole('spinbutton', { name: 'Nominaciones por expositor' }).fill('3');
      await dialog
        .getByRole('combobox', { name: 'Puntaje' })
        .selectOption({ label: 'Un punto por nominación' });
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const added = table.getByRole('row').filter({ hasText: NAME });
      await added.waitFor();
      expect(await added.getByRole('cell').nth(1).innerText()).toBe('3');
      expect(await added.getByRole('cell').nth(2).innerText()).toBe('Un punto por nominación');
      // The event's tabs follow, in order.
      await page.getByRole('tab', { name: `Nominación Reseller ${NAME}` }).waitFor();
      const tabs = await page.getByRole('tab').allInnerTexts();
      expect(tabs.filter((tab) => tab.startsWith('Nominación Reseller'))).toEqual([
        'Nominación Reseller CONSUMO',
        'Nominación Reseller VALOR AGREGADO',
        `Nominación Reseller ${NAME}`,
      ]);
      await expectAccessible(page);
      expect(await hasHorizontalScroll(page)).toBe(false);

      // The exhibitor sees its tab and its description, fills it and is refused a 4th.
      const exh = await app.exhibitorPage(exhibitor, PHONE);
      await exh.page.goto(`/exh/event/${event.id}`);
      await exh.page.getByRole('heading', { level: 1, name: event.name }).waitFor();
      const exhTabs = await exh.page.getByRole('tab').allInnerTexts();
      expect(exhTabs).toEqual([
        'Nominación Reseller de CONSUMO 0/5',
        'Nominación Reseller de VALOR AGREGADO 0/5',
        `Nominación Reseller de ${NAME} 0/3`,
      ]);
      await exh.page.getByRole('tab', { name: `Nominación Reseller de ${NAME} 0/3` }).click();
      await exh.page.getByRole('tabpanel').getByText(DESCRIPTION).waitFor();
      await expectAccessible(exh.page);
      for (const nominee of NOMINEES) await nominateInDialog(exh.page, nominee);
      await exh.page.getByRole('tab', { name: `Nominación Reseller de ${NAME} 3/3` }).waitFor();
      await exh.page.getByRole('tabpanel').getByText(MSG.nominationLimit).waitFor();
      expect(await exh.page.getByRole('button', { name: 'Nominar' }).count()).toBe(0);
      // The other lists are not full: no "¡Listo!".
      expect(await exh.page.getByText(MSG.exhListsComplete).count()).toBe(0);
      await expectAccessible(exh.page);
      expect(await hasHorizontalScroll(exh.page)).toBe(false);
      const stored = await app.db
        .selectFrom('nominations')
        .select(['fiscal_id', 'list_order'])
        .where('event_id', '=', event.id)
        .where('category', '=', ADDRESS)
        .orderBy('list_order')
        .execute();
      expect(stored.map((row) => [row.fiscal_id, Number(row.list_order)])).toEqual([
        ['30711111111', 1],
        ['30722222222', 2],
        ['30733333333', 3],
      ]);
      await exh.context.close();

      // Its tab: "1°" to "3°", one point each.
      await page.getByRole('tab', { name: `Nominación Reseller ${NAME}` }).click();
      await page.waitForURL(`**/admin/event/${event.id}/${ADDRESS}`);
      const ranking = page.getByRole('table', { name: 'Votos' });
      await ranking.getByRole('row').filter({ hasText: 'Gamma Cloud' }).waitFor();
      const rankingHeaders = await ranking.getByRole('columnheader').allInnerTexts();
      expect(rankingHeaders.filter((header) => /^\d+°$/.test(header))).toEqual(['1°', '2°', '3°']);
      const alfa = ranking.getByRole('row').filter({ hasText: 'Alfa Seguridad' });
      expect((await alfa.getByRole('cell').last().innerText()).trim()).toBe('1');
      await expectAccessible(page);

      // "Presentar" reveals 3° to 1°; it is the last category: nothing follows it.
      await page.goto(`/admin/event/${event.id}/present/${ADDRESS}`);
      await page.getByText(`Nominación Reseller ${NAME}`).first().waitFor();
      const next = page.getByRole('button', { name: 'Siguiente', exact: true });
      for (let press = 0; press < 3; press++) await next.click();
      for (const nominee of NOMINEES) await page.getByText(nominee.name).first().waitFor();
      expect(await next.isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: /^Continuar con/ }).count()).toBe(0);
      await expectAccessible(page);
      await admin.context.close();
    },
  );

  it('a category with nominations cannot change its shape nor be deleted, and says why', async () => {
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${event.id}/categories`);
    const table = page.getByRole('table', { name: 'Categorías' });
    const row = table.getByRole('row').filter({ hasText: NAME });
    await row.waitFor();
    const remove = row.getByRole('button', { name: 'Eliminar categoría' });
    expect(await remove.isDisabled()).toBe(true);
    expect(await remove.getAttribute('aria-describedby')).not.toBeNull();
    await row.getByRole('button', { name: 'Editar categoría' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar categoría' });
    await settled(dialog);
    expect(
      await dialog.getByRole('spinbutton', { name: 'Nominaciones por expositor' }).isDisabled(),
    ).toBe(true);
    expect(await dialog.getByRole('combobox', { name: 'Puntaje' }).isDisabled()).toBe(true);
    await dialog.getByText(MSG.categoryShapeFrozen).first().waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();

    // An empty category can go: "¿Eliminar categoría?".
    await table
      .getByRole('row')
      .filter({ hasText: 'VALOR AGREGADO' })
      .getByRole('button', { name: 'Eliminar categoría' })
      .click();
    const confirm = page.getByRole('dialog', { name: '¿Eliminar categoría?' });
    await settled(confirm);
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Nominación Reseller VALOR AGREGADO' }).waitFor({
      state: 'detached',
    });
    expect(await table.getByRole('row').filter({ hasText: 'VALOR AGREGADO' }).count()).toBe(0);
    await context.close();
  });
});
