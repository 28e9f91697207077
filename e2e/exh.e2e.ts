import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_USER_COOKIE } from '../src/shared/constants.ts';
import { MSG } from '../src/shared/messages.ts';
import { NOMINEE_FIELD_LABELS, type NomineeInput } from '../src/shared/schemas/nominee.ts';
import { resellerInput } from '../test/helpers/nominee-dialog.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import { expectAccessible, hasHorizontalScroll, PHONE } from '../test/helpers/browser.ts';
import type { RunningServer } from '../test/helpers/server.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';

const SHOTS = '/tmp/shots-exh';
fs.mkdirSync(SHOTS, { recursive: true });

const CONSUMO = 'Nominación Reseller de CONSUMO';
const VALOR = 'Nominación Reseller de VALOR AGREGADO';

async function seedExhibitorIn(db: RunningServer['database']['db'], eventIds: string[]) {
  const exhibitor = await seedExhibitor(db, { fullName: 'Esteban Expositor' });
  for (const id of eventIds) await seedMembership(db, id, exhibitor.id);
  return exhibitor;
}

/** The reseller names of the visible list, top to bottom, each with its "Orden" cell. */
async function listed(page: Page): Promise<string[]> {
  const rows = page.getByRole('tabpanel').getByRole('row');
  const count = await rows.count();
  const names: string[] = [];
  for (let i = 1; i < count; i++) {
    const cells = rows.nth(i).getByRole('cell');
    if ((await cells.count()) < 2) continue; // the empty-state row
    const order = (await cells.nth(0).innerText()).trim();
    const name = (await cells.nth(1).innerText()).split('\n')[0]?.trim();
    names.push(`${order}. ${name}`);
  }
  return names;
}

const row = (page: Page, name: string): Locator =>
  page.getByRole('tabpanel').getByRole('row').filter({ hasText: name });

async function fillNominee(dialog: Locator, values: NomineeInput) {
  for (const [field, label] of Object.entries(NOMINEE_FIELD_LABELS)) {
    const input = dialog.getByRole('textbox', { name: label, exact: true });
    if (await input.isEditable()) await input.fill(values[field as keyof NomineeInput] ?? '');
  }
}

async function nominate(page: Page, values: NomineeInput) {
  await page.getByRole('button', { name: 'Nominar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nominar a un reseller' });
  await fillNominee(dialog, values);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await row(page, values.name).waitFor();
}

describe('exhibitor area while voting is open', () => {
  // The server's clock is before the deadline; the browser's own clock (today) may well be after
  // it: the screen must follow the server.
  const NOW = '2026-06-01T15:00:00.000Z';
  const app = useBrowserApp({ admin: false, now: NOW });
  let event: { id: string; name: string };
  let otherEvent: { id: string; name: string };
  let foreignEvent: { id: string; name: string };
  let exhibitor: { id: string; email: string; fullName: string };

  beforeAll(async () => {
    const db = app.db;
    event = await seedEvent(db, {
      name: 'Premios Partners 2026',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-01',
    });
    otherEvent = await seedEvent(db, {
      name: 'Expo Canal Norte',
      eventDate: '2026-09-10',
      voteDeadline: '2026-09-01',
    });
    foreignEvent = await seedEvent(db, { name: 'Evento de Otros', eventDate: '2026-08-20' });
    exhibitor = await seedExhibitorIn(app.db, [event.id, otherEvent.id]);
    const stranger = await seedExhibitor(db);
    await seedMembership(db, foreignEvent.id, stranger.id);
  });

  it('lists only the exhibitor’s events as large links', async () => {
    const { context, page } = await app.exhibitorPage(exhibitor);
    await page.goto('/exh');
    await page.getByRole('heading', { level: 1, name: 'Mis eventos' }).waitFor();
    await page.getByRole('link', { name: event.name }).waitFor();
    expect(await page.getByRole('link', { name: otherEvent.name }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: foreignEvent.name }).count()).toBe(0);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/my-events-desktop.png`, fullPage: true });
    await page.getByRole('link', { name: event.name }).click();
    await page.waitForURL(`**/exh/event/${event.id}`);
    await page.getByRole('heading', { level: 1, name: event.name }).waitFor();
    await context.close();
  });

  it('opens a deep link with only the session cookie (the display cookie lost), not the home page', async () => {
    const { context, page } = await app.exhibitorPage(exhibitor);
    await context.clearCookies({ name: CURRENT_USER_COOKIE });
    await page.goto(`/exh/event/${event.id}`);
    await page.getByRole('heading', { level: 1, name: event.name }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/exh/event/${event.id}`);
    await context.close();
  });

  it('shows "No se econtró el evento" for an event of someone else, never its data', async () => {
    const { context, page } = await app.exhibitorPage(exhibitor);
    await page.goto(`/exh/event/${foreignEvent.id}`);
    await page.getByRole('heading', { level: 1, name: MSG.eventNotFound }).waitFor();
    expect(await page.getByText(foreignEvent.name).count()).toBe(0);
    await expectAccessible(page);
    await context.close();
  });

  it('nominates, refuses duplicates and a sixth, moves, removes and keeps it all after a reload', async () => {
    const { context, page } = await app.exhibitorPage(exhibitor);
    await page.goto(`/exh/event/${event.id}`);
    await page.getByRole('heading', { level: 1, name: event.name }).waitFor();
    await page.getByText('Tienes hasta 1-7-2026 para realizar cambios').waitFor();
    expect(await page.getByRole('tab', { name: CONSUMO }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await page.getByText(MSG.noNominations).waitFor();
    for (const name of ['Orden', 'Reseller', 'Contacto', 'Email']) {
      expect(await page.getByRole('columnheader', { name, exact: true }).isVisible()).toBe(true);
    }
    expect(await page.getByText(MSG.votingClosed).count()).toBe(0);
    await expectAccessible(page);

    // The form checks digits and email before sending (separators are fine, letters are not).
    await page.getByRole('button', { name: 'Nominar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nominar a un reseller' });
    await fillNominee(dialog, {
      ...resellerInput('Alfa Sistemas', '30-70000O1'),
      phone: 'once 5555',
      email: 'alfa@',
    });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.getByText(MSG.digitsOnly).first().waitFor();
    expect(await dialog.getByText(MSG.digitsOnly).count()).toBe(2);
    expect(await dialog.getByText(MSG.invalidEmail).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/nominate-dialog-errors-desktop.png` });
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const consumo = [
      resellerInput('Alfa Sistemas', '307000001'),
      resellerInput('Beta Redes', '307000002'),
      resellerInput('Gamma Datos', '307000003'),
      resellerInput('Delta Cloud', '307000004'),
      resellerInput('Epsilon Soft', '307000005'),
    ];
    for (const values of consumo) await nominate(page, values);
    expect(await listed(page)).toEqual([
      '1. Alfa Sistemas',
      '2. Beta Redes',
      '3. Gamma Datos',
      '4. Delta Cloud',
      '5. Epsilon Soft',
    ]);
    await page.getByText(MSG.nominationLimit).waitFor();
    expect(await page.getByRole('button', { name: 'Nominar' }).count()).toBe(0);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/nomination-full-desktop.png`, fullPage: true });

    // The other category is a list of its own.
    await page.getByRole('tab', { name: VALOR }).click();
    await page.getByText(MSG.noNominations).waitFor();
    await nominate(page, resellerInput('Zeta Integra', '307000001'));
    await nominate(page, resellerInput('Eta Servicios', '307000006'));
    await page.getByRole('button', { name: 'Nominar' }).click();
    const duplicate = page.getByRole('dialog', { name: 'Nominar a un reseller' });
    await fillNominee(duplicate, resellerInput('Eta Otra Vez', '307000006'));
    await duplicate.getByRole('button', { name: 'Guardar' }).click();
    await duplicate.getByRole('alert').filter({ hasText: MSG.duplicateFiscalId }).waitFor();
    await duplicate.getByRole('button', { name: 'Cancelar' }).click();
    await duplicate.waitFor({ state: 'hidden' });
    expect(await listed(page)).toEqual(['1. Zeta Integra', '2. Eta Servicios']);

    // Edit keeps the position; the fiscal id cannot be changed.
    await row(page, 'Zeta Integra').getByRole('button', { name: 'Editar' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar reseller' });
    const fiscal = edit.getByRole('textbox', { name: 'ID fiscal', exact: true });
    expect(await fiscal.inputValue()).toBe('307000001');
    expect(await fiscal.isEditable()).toBe(false);
    await edit
      .getByRole('textbox', { name: 'Nombre del reseller', exact: true })
      .fill('Zeta Integradores');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });
    await row(page, 'Zeta Integradores').waitFor();
    expect(await listed(page)).toEqual(['1. Zeta Integradores', '2. Eta Servicios']);

    // Move and remove in CONSUMO.
    await page.getByRole('tab', { name: CONSUMO }).click();
    await row(page, 'Alfa Sistemas').getByRole('button', { name: 'Bajar' }).click();
    await expect
      .poll(() => listed(page))
      .toEqual([
        '1. Beta Redes',
        '2. Alfa Sistemas',
        '3. Gamma Datos',
        '4. Delta Cloud',
        '5. Epsilon Soft',
      ]);
    await row(page, 'Epsilon Soft').getByRole('button', { name: 'Subir' }).click();
    await expect
      .poll(() => listed(page))
      .toEqual([
        '1. Beta Redes',
        '2. Alfa Sistemas',
        '3. Gamma Datos',
        '4. Epsilon Soft',
        '5. Delta Cloud',
      ]);
    await row(page, 'Alfa Sistemas').getByRole('button', { name: 'Eliminar' }).click();
    const confirm = page.getByRole('dialog', { name: MSG.confirmRemoveNominee });
    await confirm.getByText(MSG.confirmRemoveNomineeText, { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect
      .poll(() => listed(page))
      .toEqual(['1. Beta Redes', '2. Gamma Datos', '3. Epsilon Soft', '4. Delta Cloud']);
    // Room again: the limit message gives way to "Nominar".
    await page.getByRole('button', { name: 'Nominar' }).waitFor();
    expect(await page.getByText(MSG.nominationLimit).count()).toBe(0);

    await page.reload();
    await row(page, 'Beta Redes').waitFor();
    expect(await listed(page)).toEqual([
      '1. Beta Redes',
      '2. Gamma Datos',
      '3. Epsilon Soft',
      '4. Delta Cloud',
    ]);
    await page.getByRole('tab', { name: VALOR }).click();
    await row(page, 'Zeta Integradores').waitFor();
    expect(await listed(page)).toEqual(['1. Zeta Integradores', '2. Eta Servicios']);
    await page.screenshot({ path: `${SHOTS}/nomination-value-desktop.png`, fullPage: true });

    const stored = await app.db
      .selectFrom('nominations')
      .select(['category', 'list_order', 'fiscal_id'])
      .where('event_id', '=', event.id)
      .where('exhibitor_id', '=', exhibitor.id)
      .orderBy('category')
      .orderBy('list_order')
      .execute();
    expect(stored.map((r) => `${r.category} ${r.list_order} ${r.fiscal_id}`)).toEqual([
      'consumption 1 307000002',
      'consumption 2 307000003',
      'consumption 3 307000005',
      'consumption 4 307000004',
      'value 1 307000001',
      'value 2 307000006',
    ]);
    await context.close();
  });

  it('works on a phone: no sideways scroll, keyboard reordering, accessible dialogs', async () => {
    const phoneExhibitor = await seedExhibitorIn(app.db, [event.id]);
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: phoneExhibitor.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '20111111112', name: 'Reseller Con Un Nombre Bastante Largo S.R.L.' },
        {
          fiscalId: '20222222223',
          name: 'Segundo',
          email: 'direccion.de.correo.muy.larga.para.probar@reseller-ejemplo.test',
        },
        { fiscalId: '20333333334', name: 'Tercero' },
      ],
    });
    const { context, page } = await app.exhibitorPage(phoneExhibitor, PHONE);
    await page.goto(`/exh/event/${event.id}`);
    await row(page, 'Tercero').waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/nomination-phone.png`, fullPage: true });

    // Keyboard only: "Bajar" on the first row, then again on the same row wherever it went.
    await row(page, 'Bastante Largo').getByRole('button', { name: 'Bajar' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => listed(page))
      .toEqual(['1. Segundo', '2. Reseller Con Un Nombre Bastante Largo S.R.L.', '3. Tercero']);
    const focused = () =>
      page.evaluate(() => {
        const active = document.activeElement;
        return `${active?.getAttribute('aria-label')} @ ${active?.closest('tr')?.querySelector('td')?.textContent}`;
      });
    await expect.poll(focused).toBe('Bajar @ 2');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => listed(page))
      .toEqual(['1. Segundo', '2. Tercero', '3. Reseller Con Un Nombre Bastante Largo S.R.L.']);
    // At the bottom "Bajar" is disabled: focus moves to "Subir" of the same row.
    await expect.poll(focused).toBe('Subir @ 3');
    await page.keyboard.press('Space');
    await expect
      .poll(() => listed(page))
      .toEqual(['1. Segundo', '2. Reseller Con Un Nombre Bastante Largo S.R.L.', '3. Tercero']);

    await page.getByRole('button', { name: 'Nominar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nominar a un reseller' });
    await dialog.waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/nominate-dialog-phone.png` });
    await dialog.getByRole('button', { name: 'Cancelar' }).click();

    await row(page, 'Tercero').getByRole('button', { name: 'Editar' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar reseller' });
    await edit.waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await edit.getByRole('button', { name: 'Cancelar' }).click();

    await row(page, 'Tercero').getByRole('button', { name: 'Eliminar' }).click();
    const confirm = page.getByRole('dialog', { name: MSG.confirmRemoveNominee });
    await confirm.waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/remove-confirm-phone.png` });
    await confirm.getByRole('button', { name: 'Cancelar' }).click();

    await page.goto('/exh');
    await page.getByRole('link', { name: event.name }).waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/my-events-phone.png`, fullPage: true });
    await context.close();
  });

  it('never loses a change made in another tab: the stale screen reloads and says why', async () => {
    const twoTabs = await seedExhibitorIn(app.db, [event.id]);
    await seedNominations(app.db, {
      eventId: event.id,
      exhibitorId: twoTabs.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '401', name: 'Primero' },
        { fiscalId: '402', name: 'Segundo' },
      ],
    });
    const { context, page: tabA } = await app.exhibitorPage(twoTabs);
    const tabB = await context.newPage();
    for (const tab of [tabA, tabB]) {
      await tab.goto(`/exh/event/${event.id}`);
      await row(tab, 'Segundo').waitFor();
    }
    await nominate(tabA, resellerInput('Desde Otra Pestaña', '403'));
    // Tab B still shows two rows; its move is based on the old list and is refused.
    await row(tabB, 'Segundo').getByRole('button', { name: 'Subir' }).click();
    await tabB.getByText(MSG.staleList).waitFor();
    await row(tabB, 'Desde Otra Pestaña').waitFor();
    expect(await listed(tabB)).toEqual(['1. Primero', '2. Segundo', '3. Desde Otra Pestaña']);
    // Based on the reloaded list, the same move now goes through.
    await row(tabB, 'Segundo').getByRole('button', { name: 'Subir' }).click();
    await expect
      .poll(() => listed(tabB))
      .toEqual(['1. Segundo', '2. Primero', '3. Desde Otra Pestaña']);
    await expect.poll(() => tabB.getByText(MSG.staleList).count()).toBe(0);
    await context.close();
  });
});

describe('exhibitor area after the deadline', () => {
  // 2026-07-02 00:00:05 in Buenos Aires: the day after the 2026-07-01 deadline.
  const NOW = '2026-07-02T03:00:05.000Z';
  const app = useBrowserApp({ admin: false, now: NOW });

  it('hides every control, says voting has ended, and the API refuses writes with 409', async () => {
    const db = app.db;
    const event = await seedEvent(db, {
      name: 'Premios Cerrados',
      eventDate: '2026-07-15',
      voteDeadline: '2026-07-01',
    });
    const exhibitor = await seedExhibitorIn(app.db, [event.id]);
    await seedNominations(db, {
      eventId: event.id,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '501', name: 'Uno' },
        { fiscalId: '502', name: 'Dos' },
      ],
    });
    const { context, page } = await app.exhibitorPage(exhibitor, PHONE);
    await page.goto(`/exh/event/${event.id}`);
    await page.getByText(MSG.votingClosed).waitFor();
    await row(page, 'Dos').waitFor();
    expect(await listed(page)).toEqual(['1. Uno', '2. Dos']);
    for (const name of ['Nominar', 'Subir', 'Bajar', 'Editar', 'Eliminar']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    await page.getByRole('tab', { name: VALOR }).click();
    await page.getByText(MSG.noNominations).waitFor();
    expect(await page.getByRole('button', { name: 'Nominar' }).count()).toBe(0);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${SHOTS}/closed-phone.png`, fullPage: true });

    const response = await context.request.post(
      `${app.server.url}/api/exh/events/${event.id}/consumption/nominees/502/move`,
      {
        headers: { 'x-requested-with': 'premios', origin: app.server.url },
        data: { direction: 'up', version: 1 },
      },
    );
    expect(response.status()).toBe(409);
    expect(await response.json()).toEqual({
      error: { code: 'voting_closed', message: MSG.votingClosed },
    });
    const stored = await db
      .selectFrom('nominations')
      .select('fiscal_id')
      .where('event_id', '=', event.id)
      .orderBy('list_order')
      .execute();
    expect(stored.map((r) => r.fiscal_id)).toEqual(['501', '502']);
    await context.close();
  });
});
