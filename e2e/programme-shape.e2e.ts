/**
 * Issue 26 items 3 and 4 in the browser: "Datos del nominado" in the event dialog and its effect
 * on the exhibitor's form (a field not asked is absent, an optional one may stay empty), and an
 * event's own logo ("Logo del evento") on its exhibitor's screen; on a desktop and at 390 px,
 * each with an accessibility scan.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../src/shared/messages.ts';
import {
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  screenshotsIn,
} from '../test/helpers/browser.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../test/helpers/seed.ts';
import { dateIn, settled, useBrowserApp } from '../test/helpers/browser-fixture.ts';

const shot = screenshotsIn('/tmp/shots-programme-shape');

describe('programme shape: nominee fields and event logo (issue 26, items 3 and 4)', () => {
  const app = useBrowserApp();
  let exhibitor: Awaited<ReturnType<typeof seedExhibitor>>;
  let event: { id: string; name: string };

  beforeAll(async () => {
    const db = app.db;
    event = await seedEvent(db, {
      name: 'Premios a Medida',
      eventDate: dateIn(30),
      voteDeadline: dateIn(20),
    });
    exhibitor = await seedExhibitor(db, { fullName: 'Lucía López', email: 'lucia@norte.test' });
    await seedMembership(db, event.id, exhibitor.id);
  });

  // Each walks an administrator's and an exhibitor's screens: more than the default minute on a
  // loaded machine.
  it(
    '"Datos del nominado": a field not asked is absent from the exhibitor\'s form, an optional one saves empty',
    { timeout: 180_000 },
    async () => {
      const { context, page } = await app.adminPage(PHONE);
      await page.goto(`/admin/event/${event.id}/exhibitors`);
      await page.getByRole('button', { name: 'Editar evento' }).click();
      const edit = page.getByRole('dialog', { name: 'Editar evento' });
      await settled(edit);
      const section = edit.getByRole('group', { name: 'Datos del nominado' });
      for (const label of [
        'Nombre del contacto',
        'Cargo del contacto',
        'Teléfono',
        'Email',
        'Localidad',
        'Región',
      ]) {
        const select = section.getByRole('combobox', { name: label, exact: true });
        expect(await select.inputValue()).toBe('required');
        expect(await select.locator('option:checked').innerText()).toBe('Obligatorio');
      }
      // Always asked: no select for them.
      expect(await section.getByRole('combobox', { name: 'ID fiscal' }).count()).toBe(0);
      await section.getByRole('combobox', { name: 'Teléfono' }).selectOption({ label: 'Opcional' });
      await section.getByRole('combobox', { name: 'Región' }).selectOption({ label: 'No se pide' });
      expect(await hasHorizontalScroll(page)).toBe(false);
      await expectAccessible(page);
      await shot(page, 'event-dialog-fields-390');
      await edit.getByRole('button', { name: 'Guardar' }).click();
      await edit.waitFor({ state: 'hidden' });

      // "Historial" says what changed.
      await page.goto(`/admin/event/${event.id}/history`);
      await page
        .getByText('Teléfono: Obligatorio → Opcional; Región: Obligatorio → No se pide')
        .first()
        .waitFor();
      await context.close();

      const exh = await app.exhibitorPage(exhibitor, PHONE);
      await exh.page.goto(`/exh/event/${event.id}`);
      await exh.page.getByRole('heading', { level: 1, name: event.name }).waitFor();
      await exh.page.getByRole('button', { name: 'Nominar' }).click();
      const dialog = exh.page.getByRole('dialog', { name: 'Nominar a un reseller' });
      await dialog.waitFor();
      // "Región" is not asked: absent. The other eight are there.
      expect(await dialog.getByRole('textbox', { name: 'Región' }).count()).toBe(0);
      for (const label of [
        'Nombre del reseller',
        'Razón social',
        'ID fiscal',
        'Teléfono',
        'Email',
      ]) {
        expect(await dialog.getByRole('textbox', { name: label, exact: true }).count()).toBe(1);
      }
      // Required fields say so; "Teléfono" does not.
      const phone = dialog.getByRole('textbox', { name: 'Teléfono', exact: true });
      expect(await phone.getAttribute('required')).toBeNull();
      expect(
        await dialog
          .getByRole('textbox', { name: 'Localidad', exact: true })
          .getAttribute('required'),
      ).not.toBeNull();
      const values: [string, string][] = [
        ['Nombre del reseller', 'Sur Redes'],
        ['Razón social', 'Sur Redes S.A.'],
        ['ID fiscal', '30-71234567-8'],
        ['Nombre del contacto', 'Nora Núñez'],
        ['Cargo del contacto', 'Gerente'],
        ['Email', 'nora@surredes.test'],
      ];
      for (const [label, value] of values) {
        await dialog.getByRole('textbox', { name: label, exact: true }).fill(value);
      }
      // "Localidad" is still required: the form says so before sending.
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.getByText(MSG.requiredField).waitFor();
      expect(await dialog.getByText(MSG.requiredField).count()).toBe(1);
      // A phone given must still be digits.
      await phone.fill('llamar');
      await dialog.getByRole('textbox', { name: 'Localidad', exact: true }).fill('Rosario');
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.getByText(MSG.digitsOnly).waitFor();
      await expectAccessible(exh.page);
      await shot(exh.page, 'exhibitor-form-fields-390');
      await phone.fill('');
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await exh.page.getByRole('tabpanel').getByText('Sur Redes').first().waitFor();
      expect(await hasHorizontalScroll(exh.page)).toBe(false);
      const stored = await app.db
        .selectFrom('nominations')
        .select(['fiscal_id', 'phone', 'city', 'location'])
        .where('event_id', '=', event.id)
        .execute();
      expect(stored).toEqual([
        { fiscal_id: '30712345678', phone: '', city: '', location: 'Rosario' },
      ]);
      await exh.context.close();
    },
  );

  it(
    '"Logo del evento": the exhibitor\'s screen of the event shows it, the event list keeps the programme\'s',
    { timeout: 180_000 },
    async () => {
      const logo = await sharp({
        create: {
          width: 90,
          height: 30,
          channels: 4,
          background: { r: 200, g: 30, b: 30, alpha: 1 },
        },
      })
        .png()
        .toBuffer();
      const { context, page } = await app.adminPage();
      await page.goto(`/admin/event/${event.id}/exhibitors`);
      await page.getByRole('button', { name: 'Logo del evento' }).click();
      const dialog = page.getByRole('dialog', { name: 'Logo del evento' });
      await settled(dialog);
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.getByText(MSG.noLogoFile).waitFor();
      await expectAccessible(page);
      const jpeg = Buffer.concat([
        Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
        Buffer.alloc(500, 9),
      ]);
      await dialog
        .getByLabel('Logo')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: jpeg });
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.getByText(MSG.logoNotPng).waitFor();
      await dialog
        .getByLabel('Logo')
        .setInputFiles({ name: 'evento.png', mimeType: 'image/png', buffer: logo });
      await dialog.getByRole('button', { name: 'Guardar' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await context.close();

      const exh = await app.exhibitorPage(exhibitor, PHONE);
      await exh.page.goto(`/exh/event/${event.id}`);
      await exh.page.getByRole('heading', { level: 1, name: event.name }).waitFor();
      const barLogo = exh.page.getByRole('banner').getByRole('img', { name: 'Logo' });
      await expect
        .poll(() => barLogo.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBe(90);
      expect(await hasHorizontalScroll(exh.page)).toBe(false);
      await expectAccessible(exh.page);
      await shot(exh.page, 'exhibitor-event-logo-390');
      // The list of events is not the event's: the programme's logo.
      await exh.page.goto('/exh');
      await exh.page.getByRole('heading', { level: 1, name: 'Mis eventos' }).waitFor();
      await expect
        .poll(() => barLogo.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .not.toBe(90);
      await exh.context.close();

      // "Quitar": back to the programme's logo.
      const again = await app.adminPage(PHONE);
      await again.page.goto(`/admin/event/${event.id}/exhibitors`);
      await again.page.getByRole('button', { name: 'Logo del evento' }).click();
      const remove = again.page.getByRole('dialog', { name: 'Logo del evento' });
      await settled(remove);
      expect(await hasHorizontalScroll(again.page)).toBe(false);
      await expectAccessible(again.page);
      await shot(again.page, 'event-logo-dialog-390');
      await remove.getByRole('button', { name: 'Quitar' }).click();
      await remove.waitFor({ state: 'hidden' });
      await again.context.close();
      const after = await app.exhibitorPage(exhibitor, PHONE);
      await after.page.goto(`/exh/event/${event.id}`);
      await after.page.getByRole('heading', { level: 1, name: event.name }).waitFor();
      await expect
        .poll(() =>
          after.page
            .getByRole('banner')
            .getByRole('img', { name: 'Logo' })
            .evaluate((img: HTMLImageElement) => img.naturalWidth),
        )
        .not.toBe(90);
      await after.context.close();
    },
  );
});
