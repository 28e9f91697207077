import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import { seedRegistry } from '../test/helpers/registry.ts';
import {
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  tableRows,
} from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-registry-only';
fs.mkdirSync(SHOTS, { recursive: true });

const CONSUMO = 'Nominación Reseller de CONSUMO';
const RESELLER_FIELDS = [
  'Nombre del reseller',
  'Razón social',
  'ID fiscal',
  'Localidad',
  'Región',
] as const;

describe('"Solo los del padrón" and duplicates from the registry on a phone (issue 27 items 3 and 6)', () => {
  const NOW = '2026-06-01T15:00:00.000Z';
  const app = useBrowserApp({ now: NOW });

  it('offers the exhibitor only the search; the reseller is read-only from the registry, the contact editable', async () => {
    const db = app.db;
    await seedRegistry(db, [
      {
        fiscalId: '30730000011',
        name: 'Andes Sistemas',
        registeredName: 'Sistemas Andinos S.R.L.',
        location: 'Rosario',
        city: 'Santa Fe',
        contactName: 'Pablo Padrón',
        contactPosition: 'Gerente de Canales',
        phone: '3414440000',
        email: 'pablo@andes.test',
      },
      { fiscalId: '30730000022', name: 'Andina Servicios' },
    ]);
    const event = await seedEvent(db, { name: 'Premios Solo Padrón' });
    await db
      .updateTable('events')
      .set({ nominable_resellers: 'registry' })
      .where('id', '=', event.id)
      .execute();
    const exhibitor = await seedExhibitor(db, { fullName: 'Rita Registro' });
    await seedMembership(db, event.id, exhibitor.id);
    const { context, page } = await app.exhibitorPage(exhibitor, PHONE);
    await page.goto(`/exh/event/${event.id}`);
    await page.getByRole('tab', { name: `${CONSUMO} 0/5`, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Nominar', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Nominar a un reseller' });
    const combobox = dialog.getByRole('combobox', { name: 'Buscar en el padrón' });
    await combobox.waitFor();

    // Before a choice: the search and its hint, no reseller field to type in.
    await dialog.getByText(MSG.registryOnlyHint).waitFor();
    for (const label of RESELLER_FIELDS) {
      expect(await dialog.getByRole('textbox', { name: label, exact: true }).count()).toBe(0);
    }
    await dialog.getByRole('textbox', { name: 'Nombre del contacto', exact: true }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/before-choice-390.png`, fullPage: true });

    // Saved without a choice: the search says so and takes the focus; nothing is stored.
    await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();
    await dialog.getByText(MSG.registryChoiceRequired).waitFor();
    expect(await combobox.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() => combobox.evaluate((input) => input === document.activeElement))
      .toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/no-choice-390.png`, fullPage: true });

    // With the keyboard: three letters, ArrowDown, Enter.
    await page.keyboard.type('and');
    const option = dialog.getByRole('option', {
      name: 'Andes Sistemas · 30730000011',
      exact: true,
    });
    await option.waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await combobox.getAttribute('aria-activedescendant')).toBe(
      await option.getAttribute('id'),
    );
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Cambiar', exact: true }).waitFor();
    expect(await dialog.getByText(MSG.registryChoiceRequired).count()).toBe(0);
    const expected = ['Andes Sistemas', 'Sistemas Andinos S.R.L.', '30730000011', 'Rosario'];
    for (const [index, label] of RESELLER_FIELDS.entries()) {
      const field = dialog.getByRole('textbox', { name: label, exact: true });
      expect(await field.getAttribute('readonly'), label).not.toBeNull();
      if (index < expected.length) expect(await field.inputValue()).toBe(expected[index]);
    }
    // The contact comes from the registry and stays editable.
    const phone = dialog.getByRole('textbox', { name: 'Teléfono', exact: true });
    expect(await phone.getAttribute('readonly')).toBeNull();
    await phone.fill('3414449999');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/chosen-390.png`, fullPage: true });
    await dialog.getByRole('button', { name: 'Guardar', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: `${CONSUMO} 1/5`, exact: true }).waitFor();
    const stored = await db
      .selectFrom('nominations')
      .select(['fiscal_id', 'name', 'registered_name', 'contact_name', 'phone'])
      .where('event_id', '=', event.id)
      .execute();
    expect(stored).toEqual([
      {
        fiscal_id: '30730000011',
        name: 'Andes Sistemas',
        registered_name: 'Sistemas Andinos S.R.L.',
        contact_name: 'Pablo Padrón',
        phone: '3414449999',
      },
    ]);

    // "Editar reseller": the reseller as stored, read-only; the contact editable.
    await page.getByRole('button', { name: 'Editar', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Editar reseller' });
    const storedName = edit.getByRole('textbox', { name: 'Nombre del reseller', exact: true });
    expect(await storedName.inputValue()).toBe('Andes Sistemas');
    expect(await storedName.getAttribute('readonly')).not.toBeNull();
    const contact = edit.getByRole('textbox', { name: 'Nombre del contacto', exact: true });
    expect(await contact.getAttribute('readonly')).toBeNull();
    await expectAccessible(page);
    await edit.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await edit.waitFor({ state: 'hidden' });
    await context.close();

    // The administrator's "Editar nominación" of this event: the same rule, from the registry.
    const admin = await app.adminPage(PHONE);
    await admin.page.goto(`/admin/event/${event.id}/exhibitors`);
    await admin.page.getByRole('link', { name: 'Rita Registro' }).click();
    await admin.page.getByRole('button', { name: 'Andes Sistemas' }).click();
    const correction = admin.page.getByRole('dialog', { name: 'Editar nominación' });
    await correction.getByText(MSG.registryOnlyHint).waitFor();
    const fiscalId = correction.getByRole('textbox', { name: 'ID fiscal', exact: true });
    expect(await fiscalId.inputValue()).toBe('30730000011');
    expect(await fiscalId.getAttribute('readonly')).not.toBeNull();
    await correction.getByRole('combobox', { name: 'Buscar en el padrón' }).click();
    await admin.page.keyboard.type('andina');
    await admin.page
      .getByRole('option', { name: 'Andina Servicios · 30730000022', exact: true })
      .waitFor();
    await admin.page.keyboard.press('ArrowDown');
    await admin.page.keyboard.press('Enter');
    await expect.poll(() => fiscalId.inputValue()).toBe('30730000022');
    expect(await fiscalId.getAttribute('readonly')).not.toBeNull();
    expect(await hasHorizontalScroll(admin.page)).toBe(false);
    await expectAccessible(admin.page);
    await admin.page.screenshot({ path: `${SHOTS}/admin-correction-390.png`, fullPage: true });
    await correction.getByLabel('Motivo').selectOption({ label: 'ID fiscal equivocado' });
    await correction.getByRole('button', { name: 'Guardar' }).click();
    await correction.waitFor({ state: 'hidden' });
    const corrected = await db
      .selectFrom('nominations')
      .select(['fiscal_id', 'name'])
      .where('event_id', '=', event.id)
      .execute();
    expect(corrected).toEqual([{ fiscal_id: '30730000022', name: 'Andina Servicios' }]);
    await admin.context.close();
  });

  it('shows the administrator a typed id that matches a registry entry without votes, and merges it there', async () => {
    const db = app.db;
    const PENA = '30740000015';
    const TYPED = '20740000019';
    await seedRegistry(db, [
      {
        fiscalId: PENA,
        name: 'Distribuidora Peña S.R.L.',
        registeredName: 'Peña Distribución S.A.',
      },
    ]);
    const event = await seedEvent(db, { name: 'Premios Duplicados del Padrón' });
    const exhibitor = await seedExhibitor(db, { fullName: 'Tomás Tipeo' });
    await seedMembership(db, event.id, exhibitor.id);
    await seedNominations(db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [{ fiscalId: TYPED, name: 'DISTRIBUIDORA PENA SRL' }],
    });
    const { context, page } = await app.adminPage(PHONE);
    await page.goto(`/admin/event/${event.id}/consumption`);
    await page.getByRole('button', { name: 'Posibles duplicados (1)', exact: true }).click();
    const list = page.getByRole('dialog', { name: 'Posibles duplicados' });
    await list.getByRole('table', { name: 'Grupo 1' }).waitFor();
    await list.getByText('Mismo nombre que un reseller del padrón').waitFor();
    const group = await tableRows(page, 'Grupo 1', { exact: true });
    expect(group.map((cells) => [cells[0], cells[2]])).toEqual([
      [TYPED, '5'],
      [PENA, '0'],
    ]);
    expect(group[1]?.[1]).toContain('· en el padrón');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/duplicates-390.png`, fullPage: true });

    await list.getByRole('button', { name: 'Unificar', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Unificar nominados' });
    const choice = dialog.getByRole('radiogroup', { name: 'ID fiscal que queda' });
    // The registry's id is the one that stays unless another is chosen.
    expect(await choice.getByRole('radio', { name: new RegExp(`^${PENA} `) }).isChecked()).toBe(
      true,
    );
    await dialog
      .getByRole('table', { name: 'Después' })
      .getByText(`${PENA} · Distribuidora Peña S.R.L.`)
      .waitFor();
    expect((await tableRows(page, 'Después', { exact: true }))[0]).toEqual([
      '1°',
      `${PENA} · Distribuidora Peña S.R.L.`,
      '5',
    ]);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/merge-390.png`, fullPage: true });
    await dialog.getByRole('button', { name: 'Unificar', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText(MSG.mergeDone).waitFor();
    const stored = await db
      .selectFrom('nominations')
      .select(['fiscal_id', 'name'])
      .where('event_id', '=', event.id)
      .execute();
    expect(stored).toEqual([{ fiscal_id: PENA, name: 'DISTRIBUIDORA PENA SRL' }]);
    await context.close();
  });
});
