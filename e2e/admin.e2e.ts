import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { calendarDateIn, formatDisplayDate, formatMailDate } from '../src/shared/dates.ts';
import { MSG } from '../src/shared/messages.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import { expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import { dateIn, settled, useBrowserApp } from '../test/helpers/browser-fixture.ts';

const ZONE = 'America/Argentina/Buenos_Aires';
const SHOTS = '/tmp/shots-admin';

const typed = (iso: string) => iso.split('-').reverse().join('/');

/** A real RGBA PNG of the given size and colour. */
function png(width: number, height: number, rgba: number[]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const row = Buffer.from([0, ...Array.from({ length: width }, () => rgba).flat()]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('administration', () => {
  const app = useBrowserApp();

  const visible = (page: Page, text: string) =>
    expect
      .poll(() => page.getByText(text, { exact: true }).first().isVisible(), { timeout: 10_000 })
      .toBe(true);

  it('creates, validates, searches, edits and deletes events through the dialogs', async () => {
    const { context, page } = await app.adminPage();
    await page.goto('/admin');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Eventos', level: 1 }).isVisible())
      .toBe(true);
    await visible(page, MSG.noEvents);
    await expectAccessible(page);

    // Every field is required.
    await page.getByRole('button', { name: 'nuevo', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo evento' });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => dialog.getByText(MSG.requiredField).count()).toBe(3);
    await settled(dialog);
    await expectAccessible(page);

    // A date before today.
    await dialog
      .getByRole('textbox', { name: 'Nombre', exact: true })
      .fill('Premios Energía Austral');
    await dialog.getByLabel('Fecha del evento').fill(typed(dateIn(-1)));
    await dialog.getByLabel('Fecha límite').fill(typed(dateIn(-3)));
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(page, MSG.invalidDates);

    // The deadline must come before the event.
    await dialog.getByLabel('Fecha del evento').fill(typed(dateIn(30)));
    await dialog.getByLabel('Fecha límite').fill(typed(dateIn(30)));
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(page, MSG.deadlineAfterEvent);

    // A failed save.
    await page.route('**/api/events', (route) =>
      route.request().method() === 'POST' ? route.abort() : route.fallback(),
    );
    await dialog.getByLabel('Fecha límite').fill(typed(dateIn(20)));
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(page, MSG.genericErrorDot);
    await page.unroute('**/api/events');

    // Typed digit by digit, as a person does (the field moves from day to month to year).
    const deadline = dialog.getByLabel('Fecha límite');
    await deadline.fill('');
    await deadline.click();
    await page.keyboard.press('Home');
    await page.keyboard.type(typed(dateIn(20)).replaceAll('/', ''));
    expect(await deadline.inputValue()).toBe(typed(dateIn(20)));
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const energy = page.getByRole('link', { name: 'Premios Energía Austral' });
    await energy.waitFor();
    const row = page.getByRole('row', { name: /Premios Energía Austral/ });
    expect(await row.getByRole('cell').allInnerTexts()).toEqual([
      'Premios Energía Austral',
      formatDisplayDate(dateIn(20)),
      formatDisplayDate(dateIn(30)),
      // "Estado": open, and nobody has voted yet.
      'Abierta\n0 % votó',
    ]);

    // A second event, its event date picked from the calendar.
    await page.getByRole('button', { name: 'nuevo', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Cumbre Canal');
    await dialog.getByLabel('Fecha límite').fill(typed(dateIn(1)));
    await dialog.getByRole('button', { name: 'Elige fecha' }).first().click();
    const calendar = page.getByRole('dialog').filter({ has: page.getByRole('grid') });
    await calendar.waitFor();
    const picked = dateIn(2);
    const current = calendarDateIn(new Date(), ZONE);
    if (picked.slice(0, 7) !== current.slice(0, 7)) {
      await calendar.getByRole('button', { name: 'Mes siguiente' }).click();
    }
    await calendar
      .getByRole('gridcell', { name: String(Number(picked.slice(8))), exact: true })
      .click();
    await calendar.waitFor({ state: 'hidden' });
    expect(await dialog.getByLabel('Fecha del evento').inputValue()).toBe(typed(picked));
    await page.screenshot({ path: `${SHOTS}/event-dialog.png` });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Cumbre Canal' }).waitFor();

    // Ordered by event date.
    const names = () =>
      page.getByRole('table', { name: 'Eventos' }).getByRole('link').allInnerTexts();
    expect(await names()).toEqual(['Cumbre Canal', 'Premios Energía Austral']);

    // Search on Enter, ignoring case and accents.
    const search = page.getByLabel('Buscar');
    await search.fill('enérgia');
    expect(await names()).toHaveLength(2);
    await search.press('Enter');
    await expect.poll(names).toEqual(['Premios Energía Austral']);
    await search.fill('no existe');
    await search.press('Enter');
    await visible(page, MSG.noEvents);
    await search.fill('');
    await search.press('Enter');
    await expect.poll(names).toHaveLength(2);
    await page.screenshot({ path: `${SHOTS}/events-list.png` });

    // The event page: redirected to its exhibitors tab, header with the dates.
    await energy.click();
    await page.waitForURL(/\/admin\/event\/[0-9a-f-]{36}\/exhibitors$/);
    const eventUrl = page.url().replace(/\/exhibitors$/, '');
    await expect
      .poll(() =>
        page.getByRole('heading', { level: 1, name: 'Premios Energía Austral' }).isVisible(),
      )
      .toBe(true);
    await visible(page, `Fecha: ${formatDisplayDate(dateIn(30))}`);
    await visible(page, `Límite: ${formatDisplayDate(dateIn(20))}`);
    await expect
      .poll(() => page.getByRole('tab', { name: 'Expositores' }).getAttribute('aria-selected'))
      .toBe('true');
    await expectAccessible(page);

    // Tabs have their own URLs.
    await page.getByRole('tab', { name: 'Nominación Reseller CONSUMO' }).click();
    await page.waitForURL(`${eventUrl}/consumption`);
    await page.getByRole('tab', { name: 'Nominación Reseller VALOR AGREGADO' }).click();
    await page.waitForURL(`${eventUrl}/value`);
    await page.getByRole('tab', { name: 'Expositores' }).click();
    await page.waitForURL(`${eventUrl}/exhibitors`);

    // Edit: same rules, new values shown at once.
    await page.getByRole('button', { name: 'Editar evento' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar evento' });
    expect(await edit.getByRole('textbox', { name: 'Nombre', exact: true }).inputValue()).toBe(
      'Premios Energía Austral',
    );
    expect(await edit.getByLabel('Fecha del evento').inputValue()).toBe(typed(dateIn(30)));
    await edit.getByLabel('Fecha límite').fill(typed(dateIn(31)));
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await visible(page, MSG.deadlineAfterEvent);
    await edit
      .getByRole('textbox', { name: 'Nombre', exact: true })
      .fill('Premios Energía Austral 2026');
    await edit.getByLabel('Fecha límite').fill(typed(dateIn(25)));
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });
    await expect
      .poll(() =>
        page.getByRole('heading', { level: 1, name: 'Premios Energía Austral 2026' }).isVisible(),
      )
      .toBe(true);
    await visible(page, `Límite: ${formatDisplayDate(dateIn(25))}`);
    await page.screenshot({ path: `${SHOTS}/event-page.png` });

    // A failed deletion: a toast for 3 seconds, and the event stays.
    await page.route('**/api/events/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, body: '{}', contentType: 'application/json' })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Eliminar evento' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Eliminar evento?' });
    await confirm.getByText('Esta acción no puede revertirse').waitFor();
    await settled(confirm);
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    const failure = page.getByText(MSG.deleteEventFailed);
    await failure.waitFor();
    const shownAt = Date.now();
    await failure.waitFor({ state: 'hidden', timeout: 8000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(2500);
    expect(shownFor).toBeLessThan(4500);
    await page.unroute('**/api/events/*');

    // Cancel keeps it; "Eliminar" deletes it and lands on /admin with a confirmation.
    await page.getByRole('button', { name: 'Eliminar evento' }).click();
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Eliminar evento' }).click();
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await page.waitForURL(`${app.server.url}/admin`);
    await visible(page, MSG.eventDeleted);
    await expect.poll(names).toEqual(['Cumbre Canal']);
    const left = await app.db.selectFrom('events').select('name').execute();
    expect(left.map((e) => e.name)).toEqual(['Cumbre Canal']);

    // A missing event, and "Atras".
    await page.goto(eventUrl);
    await visible(page, MSG.eventNotFound);
    await page.getByRole('button', { name: 'Atras' }).click();
    await page.waitForURL(`${app.server.url}/admin`);
    await context.close();
  });

  it('adds exhibitors with an emailed invitation, re-sends it and removes them with their nominations', async () => {
    const event = await seedEvent(app.db, {
      name: 'Gala de Canales',
      eventDate: dateIn(40),
      voteDeadline: dateIn(35),
    });
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${event.id}`);
    await page.waitForURL(`**/admin/event/${event.id}/exhibitors`);
    await visible(page, MSG.noExhibitors);

    await page.getByRole('button', { name: 'Expositor', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo votante' });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => dialog.getByText(MSG.requiredField).count()).toBe(3);
    await dialog.getByLabel('Nombre completo').fill('Esteban Quito');
    await dialog.getByLabel('Email').fill('no-es-un-mail');
    await dialog.getByLabel('Empresa').fill('Quito SRL');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(page, MSG.invalidEmail);
    await settled(dialog);
    await expectAccessible(page);

    await dialog.getByLabel('Email').fill('Esteban.Quito@Empresa.test');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const link = page.getByRole('link', { name: 'Esteban Quito' });
    await link.waitFor();
    const esteban = await app.db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', '=', 'esteban.quito@empresa.test')
      .executeTakeFirstOrThrow();
    expect(await link.getAttribute('href')).toBe(
      `/admin/event/${event.id}/exhibitors/${esteban.id}`,
    );

    // The invitation arrives, and the row says so.
    const mail = await app.smtp.waitFor('esteban.quito@empresa.test');
    expect(mail.subject).toBe('Invitación a votar en Gala de Canales');
    expect(mail.text).toContain('Ana Administradora');
    expect(mail.text).toContain(`hasta el ${formatMailDate(dateIn(35))}`);
    expect(mail.text).toContain(`${app.server.url}/signin`);
    const row = page.getByRole('row', { name: /Esteban Quito/ });
    await expect.poll(() => row.getByText('enviada').isVisible(), { timeout: 10_000 }).toBe(true);

    // The invited exhibitor signs in with an emailed code and finds the event at /exh.
    const invitee = await app.context();
    const exhPage = await invitee.newPage();
    await exhPage.goto(
      new URL(/https?:\/\/\S+\/signin/.exec(mail.text)?.[0] ?? '/signin').pathname,
    );
    await exhPage.getByLabel('Email').fill('esteban.quito@empresa.test');
    await exhPage.getByRole('button', { name: 'siguiente' }).click();
    await exhPage.waitForURL('**/signin/code');
    const codeMail = await app.smtp.waitFor('esteban.quito@empresa.test', { count: 2 });
    const code = /\b(\d{6})\b/.exec(codeMail.text)?.[1] ?? '';
    await exhPage.getByLabel('Dígito 1').click();
    await exhPage.keyboard.type(code);
    await exhPage.getByRole('button', { name: 'acceder' }).click();
    // Their only event opens as soon as they sign in.
    await exhPage.waitForURL(`**/exh/event/${event.id}`);
    await invitee.close();

    // The same address again, an administrator's address, a failure.
    const addAgain = async (email: string) => {
      await page.getByRole('button', { name: 'Expositor', exact: true }).click();
      await dialog.getByLabel('Nombre completo').fill('Otra Persona');
      await dialog.getByLabel('Email').fill(email);
      await dialog.getByLabel('Empresa').fill('Otra SA');
      await dialog.getByRole('button', { name: 'Guardar' }).click();
    };
    await addAgain('esteban.quito@empresa.test');
    await visible(page, MSG.exhibitorAlreadyInEvent);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await addAgain(app.admin.email);
    await visible(page, MSG.exhibitorEmailIsAdmin);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await page.route('**/api/events/*/exhibitors', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, body: '{}', contentType: 'application/json' })
        : route.fallback(),
    );
    await addAgain('nueva@empresa.test');
    await visible(page, MSG.genericError);
    await page.unroute('**/api/events/*/exhibitors');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await page.screenshot({ path: `${SHOTS}/exhibitors-tab.png` });

    // Re-send: a second email; a refused re-send says the notification failed.
    await row.getByRole('button', { name: 'Reenviar invitación' }).click();
    await visible(page, MSG.invitationResent);
    const resent = await app.smtp.waitFor('esteban.quito@empresa.test', { count: 3 });
    expect(resent.subject).toBe('Invitación a votar en Gala de Canales');
    await page.route('**/invitation', (route) => route.abort());
    await row.getByRole('button', { name: 'Reenviar invitación' }).click();
    await visible(page, MSG.notificationFailed);
    await page.unroute('**/invitation');

    // A message that finally failed shows "error" and the notification message.
    const member = await app.db
      .selectFrom('event_exhibitors')
      .select('invitation_message_id')
      .where('exhibitor_id', '=', esteban.id)
      .executeTakeFirstOrThrow();
    // The worker marks the message sent just after the SMTP server has it: wait for that, so the
    // failure set here is not overwritten.
    await expect
      .poll(async () => {
        const message = await app.db
          .selectFrom('mail_outbox')
          .select('status')
          .where('id', '=', member.invitation_message_id)
          .executeTakeFirstOrThrow();
        return message.status;
      })
      .toBe('sent');
    await app.db
      .updateTable('mail_outbox')
      .set({ status: 'failed' })
      .where('id', '=', member.invitation_message_id)
      .execute();
    await page.reload();
    await expect.poll(() => row.getByText('error', { exact: true }).isVisible()).toBe(true);
    await row.getByText(MSG.notificationFailed).waitFor();
    await expectAccessible(page);

    // Removing asks, saying how many nominations go with it.
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: esteban.id,
      category: 'consumption',
      nominees: [{ fiscalId: '30711111111' }, { fiscalId: '30722222222' }],
    });
    await row.getByRole('button', { name: 'Eliminar expositor' }).click();
    const confirm = page.getByRole('dialog', { name: '¿Eliminar expositor?' });
    await confirm.getByText(/se descartarán sus 2 nominaciones/).waitFor();
    await settled(confirm);
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await visible(page, MSG.noExhibitors);
    const nominations = await app.db
      .selectFrom('nominations')
      .select('fiscal_id')
      .where('event_id', '=', event.id)
      .execute();
    expect(nominations).toEqual([]);
    await context.close();
  });

  it('fits a 390 px phone: list, event header, tabs and exhibitors', async () => {
    const event = await seedEvent(app.db, {
      name: 'Encuentro Nacional de Partners de Tecnología',
      eventDate: dateIn(50),
      voteDeadline: dateIn(45),
    });
    const exhibitor = await seedExhibitor(app.db, {
      fullName: 'Maximiliano Bartolomé Fernández',
      email: 'maximiliano.bartolome.fernandez@distribuidora-del-norte.test',
    });
    await seedMembership(app.db, event.id, exhibitor.id);
    const { context, page } = await app.adminPage(PHONE);
    await page.goto('/admin');
    await page.getByRole('link', { name: event.name }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/phone-events.png`, fullPage: true });
    await expectAccessible(page);
    await page.getByRole('link', { name: event.name }).click();
    await page.getByRole('link', { name: exhibitor.fullName }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.screenshot({ path: `${SHOTS}/phone-exhibitors.png`, fullPage: true });
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Editar evento' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar evento' });
    await settled(edit);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/phone-edit.png`, animations: 'disabled' });
    await context.close();
  });

  it('refuses a JPEG renamed to .png and puts a real PNG in the top bar, the landing and emails', async () => {
    const { context, page } = await app.adminPage();
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Actualizar logo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Actualizar logo' });
    await dialog.getByText('fondo transparente', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(page, MSG.noLogoFile);
    await settled(dialog);
    await expectAccessible(page);

    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
      Buffer.alloc(500, 9),
    ]);
    await dialog
      .getByLabel('Logo')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: jpeg });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(page, MSG.logoNotPng);
    await dialog
      .getByLabel('Logo')
      .setInputFiles({ name: 'logo.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(page, MSG.logoNotPng);

    const logo = png(120, 40, [0, 150, 80, 255]);
    await dialog
      .getByLabel('Logo')
      .setInputFiles({ name: 'nuevo.png', mimeType: 'image/png', buffer: logo });
    const reloaded = page.waitForEvent('load');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await reloaded;
    const topBarLogo = page.getByRole('banner').getByRole('img', { name: 'Logo' });
    await expect
      .poll(() => topBarLogo.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(120);
    // Stored re-encoded: other bytes, the same pixels.
    const served = Buffer.from(await (await fetch(`${app.server.url}/api/logo`)).arrayBuffer());
    const pixels = async (image: Buffer) =>
      [...(await sharp(image).ensureAlpha().raw().toBuffer())].join(',');
    expect(await pixels(served)).toBe(await pixels(logo));

    const visitor = await app.context();
    const landing = await visitor.newPage();
    await landing.goto('/');
    const landingLogo = landing.getByRole('img', { name: 'Logo' });
    await expect
      .poll(() => landingLogo.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(120);
    await visitor.close();

    // Emails embed the logo as it is now.
    const event = await seedEvent(app.db, {
      name: 'Con logo nuevo',
      eventDate: dateIn(20),
      voteDeadline: dateIn(10),
    });
    const response = await page.request.post(
      `${app.server.url}/api/events/${event.id}/exhibitors`,
      {
        headers: { 'x-requested-with': 'premios' },
        data: { fullName: 'Lola Logo', email: 'lola@empresa.test', company: 'Logo SA' },
      },
    );
    expect(response.status()).toBe(201);
    const mail = await app.smtp.waitFor('lola@empresa.test');
    expect(mail.raw.replace(/\r?\n/g, '')).toContain(served.toString('base64'));
    await context.close();
  });
});
