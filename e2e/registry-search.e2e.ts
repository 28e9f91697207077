import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import { seedRegistry } from '../test/helpers/registry.ts';
import { expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-registry-search';
fs.mkdirSync(SHOTS, { recursive: true });

const CONSUMO = 'Nominación Reseller de CONSUMO';
const VALOR = 'Nominación Reseller de VALOR AGREGADO';

/** Five partners of the programme's registry, each with its default contact. */
const PARTNERS = [
  { fiscalId: '30710000011', name: 'Andes Sistemas', typed: 'and' },
  { fiscalId: '30710000022', name: 'Peña Informática', typed: 'pen' },
  { fiscalId: '30710000033', name: 'Río Datos', typed: 'rio' },
  { fiscalId: '30710000044', name: 'Sur Cómputos', typed: 'sur' },
  { fiscalId: '30710000055', name: 'Litoral Redes', typed: 'lit' },
].map((partner, index) => ({
  ...partner,
  registeredName: `${partner.name} S.A.`,
  location: 'Rosario',
  city: 'Santa Fe',
  contactName: `Contacto ${index + 1}`,
  contactPosition: 'Gerente de Canales',
  phone: `34144400${index}0`,
  email: `canales${index + 1}@partner.test`,
}));

/** What the exhibitor did with the keyboard and the screen: each key and each tap counts one. */
class Effort {
  keys = 0;
  taps = 0;
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }
  async type(text: string) {
    for (const character of text) await this.page.keyboard.press(character);
    this.keys += text.length;
  }
  async press(key: string) {
    await this.page.keyboard.press(key);
    this.keys += 1;
  }
  async tap(target: { click(): Promise<void> }) {
    await target.click();
    this.taps += 1;
  }
}

describe('"Buscar en el padrón": five nominees from the registry on a phone (issue 27)', () => {
  const NOW = '2026-06-01T15:00:00.000Z';
  const app = useBrowserApp({ now: NOW });

  it('fills CONSUMO by typing and choosing, then VALOR AGREGADO from "Mis nominaciones anteriores"', async () => {
    const db = app.db;
    await seedRegistry(db, [
      ...PARTNERS,
      // Names close to the partners', so that the typed text has company in the list.
      { fiscalId: '30710000066', name: 'Andina Servicios' },
      { fiscalId: '30710000077', name: 'Surco Digital' },
    ]);
    const event = await seedEvent(db, {
      name: 'Premios Padrón',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-01',
    });
    const exhibitor = await seedExhibitor(db, { fullName: 'Rita Rápida' });
    await seedMembership(db, event.id, exhibitor.id);
    const { context, page } = await app.exhibitorPage(exhibitor, PHONE);
    await page.goto(`/exh/event/${event.id}`);
    await page.getByRole('tab', { name: `${CONSUMO} 0/5`, exact: true }).waitFor();
    const dialog = page.getByRole('dialog', { name: 'Nominar a un reseller' });
    const combobox = dialog.getByRole('combobox', { name: 'Buscar en el padrón' });

    // CONSUMO: "Nominar", three letters, ArrowDown, Enter (chosen), Enter (saved).
    const first = new Effort(page);
    for (const [index, partner] of PARTNERS.entries()) {
      await first.tap(page.getByRole('button', { name: 'Nominar', exact: true }));
      await combobox.waitFor();
      // The dialog opens with the focus in the search: typing starts at once.
      await expect
        .poll(() => combobox.evaluate((input) => input === document.activeElement))
        .toBe(true);
      await first.type(partner.typed);
      const option = dialog.getByRole('option', {
        name: `${partner.name} · ${partner.fiscalId}`,
        exact: true,
      });
      await option.waitFor();
      if (index === 0) {
        expect(await combobox.getAttribute('aria-expanded')).toBe('true');
        await expectAccessible(page);
        await page.screenshot({ path: `${SHOTS}/options-390.png` });
      }
      await first.press('ArrowDown');
      expect(await combobox.getAttribute('aria-activedescendant')).toBe(
        await option.getAttribute('id'),
      );
      await first.press('Enter');
      const name = dialog.getByRole('textbox', { name: 'Nombre del reseller', exact: true });
      expect(await name.inputValue()).toBe(partner.name);
      expect(await name.getAttribute('readonly')).not.toBeNull();
      expect(await dialog.getByRole('textbox', { name: 'Email', exact: true }).inputValue()).toBe(
        partner.email,
      );
      await dialog.getByRole('button', { name: 'Cambiar', exact: true }).waitFor();
      if (index === 0) {
        expect(await hasHorizontalScroll(page)).toBe(false);
        await expectAccessible(page);
        await page.screenshot({ path: `${SHOTS}/chosen-390.png` });
      }
      await first.press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('tab', { name: `${CONSUMO} ${index + 1}/5`, exact: true }).waitFor();
    }
    console.log(
      `CONSUMO, 5 nominados desde el padrón: ${first.keys} teclas y ${first.taps} toques`,
    );
    expect([first.keys, first.taps]).toEqual([30, 5]);

    // VALOR AGREGADO: the same partners, from "Mis nominaciones anteriores", by taps alone.
    const second = new Effort(page);
    await second.tap(page.getByRole('tab', { name: `${VALOR} 0/5`, exact: true }));
    for (const [index, partner] of PARTNERS.entries()) {
      await second.tap(page.getByRole('button', { name: 'Nominar', exact: true }));
      await second.tap(combobox);
      const group = dialog.getByRole('group', { name: 'Mis nominaciones anteriores' });
      const option = group.getByRole('option', {
        name: `${partner.name} · ${partner.fiscalId}`,
        exact: true,
      });
      await option.waitFor();
      if (index === 0) {
        await expectAccessible(page);
        await page.screenshot({ path: `${SHOTS}/earlier-390.png` });
      }
      await second.tap(option);
      expect(
        await dialog
          .getByRole('textbox', { name: 'Nombre del contacto', exact: true })
          .inputValue(),
      ).toBe(partner.contactName);
      await second.tap(dialog.getByRole('button', { name: 'Guardar', exact: true }));
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('tab', { name: `${VALOR} ${index + 1}/5`, exact: true }).waitFor();
    }
    console.log(
      `VALOR AGREGADO, 5 nominados desde "Mis nominaciones anteriores": ${second.keys} teclas y ${second.taps} toques`,
    );
    expect([second.keys, second.taps]).toEqual([0, 21]);

    const stored = await db
      .selectFrom('nominations')
      .select(['category', 'list_order', 'fiscal_id', 'name', 'contact_name', 'email'])
      .where('event_id', '=', event.id)
      .orderBy('category')
      .orderBy('list_order')
      .execute();
    const expected = (category: string) =>
      PARTNERS.map((partner, index) => ({
        category,
        list_order: index + 1,
        fiscal_id: partner.fiscalId,
        name: partner.name,
        contact_name: partner.contactName,
        email: partner.email,
      }));
    expect(stored).toEqual([...expected('consumption'), ...expected('value')]);
    await context.close();
  });

  it('"Editar nominación": an administrator corrects a vote from the registry (no earlier nominees)', async () => {
    const db = app.db;
    await seedRegistry(db, [
      {
        fiscalId: '30720000011',
        name: 'Mesopotamia Software',
        contactName: 'Mónica Mesa',
        contactPosition: 'Directora',
        phone: '3434440000',
        email: 'monica@meso.test',
      },
    ]);
    const event = await seedEvent(db, {
      name: 'Premios Corrección',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-01',
    });
    const exhibitor = await seedExhibitor(db, { fullName: 'Lucía López' });
    await seedMembership(db, event.id, exhibitor.id);
    await seedNominations(db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30720000099', name: 'Meso Sofware Mal Escrito' }],
    });
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${event.id}/exhibitors`);
    await page.getByRole('link', { name: 'Lucía López' }).click();
    await page.getByRole('button', { name: 'Meso Sofware Mal Escrito' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar nominación' });
    const combobox = dialog.getByRole('combobox', { name: 'Buscar en el padrón' });
    await combobox.click();
    await page.keyboard.type('meso');
    const option = page.getByRole('option', {
      name: 'Mesopotamia Software · 30720000011',
      exact: true,
    });
    await option.waitFor();
    // The administrator's list has no "Mis nominaciones anteriores".
    expect(await page.getByText('Mis nominaciones anteriores').count()).toBe(0);
    await expectAccessible(page);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const fiscalId = dialog.getByRole('textbox', { name: 'ID fiscal', exact: true });
    await expect.poll(() => fiscalId.inputValue()).toBe('30720000011');
    expect(await fiscalId.getAttribute('readonly')).not.toBeNull();
    expect(
      await dialog.getByRole('textbox', { name: 'Nombre del contacto', exact: true }).inputValue(),
    ).toBe('Mónica Mesa');
    await dialog.getByRole('button', { name: 'Cambiar', exact: true }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/admin-correction.png` });
    await dialog.getByLabel('Motivo').selectOption({ label: 'ID fiscal equivocado' });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const stored = await db
      .selectFrom('nominations')
      .select(['fiscal_id', 'name', 'contact_name'])
      .where('event_id', '=', event.id)
      .execute();
    expect(stored).toEqual([
      { fiscal_id: '30720000011', name: 'Mesopotamia Software', contact_name: 'Mónica Mesa' },
    ]);
    await context.close();
  });
});
