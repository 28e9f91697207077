import ExcelJS from 'exceljs';
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { deadlineClosingText, mailDeadlineClosingText } from '../src/shared/deadline-zone.ts';
import { seedEvent, seedExhibitor, seedMembership, seedNominations } from '../test/helpers/seed.ts';
import {
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  screenshotsIn,
  tableRows,
} from '../test/helpers/browser.ts';
import { dateIn, settled, useBrowserApp, visible } from '../test/helpers/browser-fixture.ts';

const ZONE = 'America/Argentina/Buenos_Aires';
const SHOTS = '/tmp/shots-turnout';
const shot = screenshotsIn(SHOTS);
const EVENT_NAME = 'Gala de Canales 2026';

/**
 * An import file as an administrator's spreadsheet gives it: semicolons, a BOM, headers in
 * another order and case, and every kind of row the preview names.
 */
function rosterCsv(adminEmail: string): Buffer {
  const lines = [
    'email ; EMPRESA ; Nombre Completo',
    'lucia@norte.test;Norte SA;Lucía Gómez',
    ' MARTIN@sur.test ;Sur SRL;Martín Pérez',
    'ya@empresa.test;Vieja SA;Yanina Antigua',
    'LUCIA@norte.test;Norte SA;Lucía Repetida',
    'sin-arroba;Falla SA;Sergio Sinarroba',
    'falta@nombre.test;Anónima SA;',
    `${adminEmail};Premios;Ana Administradora`,
  ];
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

describe('turnout: import, edit, participation, reminders', () => {
  const app = useBrowserApp();
  let eventId: string;
  const voteDeadline = dateIn(10);

  beforeAll(async () => {
    eventId = (
      await seedEvent(app.db, {
        name: EVENT_NAME,
        eventDate: dateIn(20),
        voteDeadline,
      })
    ).id;
    const already = await seedExhibitor(app.db, {
      email: 'ya@empresa.test',
      fullName: 'Yanina Antigua',
      company: 'Vieja SA',
    });
    await seedMembership(app.db, eventId, already.id);
  });

  const exhibitorEmails = async () =>
    (
      await app.db
        .selectFrom('event_exhibitors')
        .innerJoin('exhibitors', 'exhibitors.id', 'event_exhibitors.exhibitor_id')
        .select('exhibitors.email')
        .where('event_exhibitors.event_id', '=', eventId)
        .orderBy('exhibitors.email')
        .execute()
    ).map((row) => row.email);

  it('imports a CSV: preview with every Estado and the summary, then only the new rows', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    await page.getByRole('link', { name: 'Yanina Antigua' }).waitFor();

    await page.getByRole('button', { name: 'Importar', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar expositores' });
    await settled(dialog);
    expect(await dialog.getByRole('checkbox', { name: 'Enviar invitaciones' }).isChecked()).toBe(
      true,
    );
    expect(await dialog.getByRole('button', { name: 'Confirmar importación' }).isDisabled()).toBe(
      true,
    );
    await dialog.getByRole('button', { name: 'Descargar plantilla' }).waitFor();
    await expectAccessible(page);

    // A file that is not a roster changes nothing and says why.
    await dialog.getByLabel('Archivo').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a spreadsheet'),
    });
    await visible(dialog, 'El archivo debe ser CSV o Excel (.xlsx).');

    await dialog.getByLabel('Archivo').setInputFiles({
      name: 'expositores.csv',
      mimeType: 'text/csv',
      buffer: rosterCsv(app.admin.email),
    });
    await visible(dialog, '2 nuevos, 1 ya estaban, 4 con errores');
    const columns = await dialog
      .getByRole('table', { name: 'Vista previa' })
      .getByRole('columnheader')
      .allInnerTexts();
    expect(columns.map((c) => c.trim())).toEqual([
      'Fila',
      'Nombre completo',
      'Email',
      'Empresa',
      'Estado',
    ]);
    // Addresses as written (trimmed); the comparison ignores their case.
    // Rows with an error first, each part in the file's order.
    expect(await tableRows(dialog, 'Vista previa')).toEqual([
      ['5', 'Lucía Repetida', 'LUCIA@norte.test', 'Norte SA', 'Repetido en el archivo'],
      ['6', 'Sergio Sinarroba', 'sin-arroba', 'Falla SA', 'Email inválido'],
      ['7', '', 'falta@nombre.test', 'Anónima SA', 'Falta el nombre'],
      ['8', 'Ana Administradora', app.admin.email, 'Premios', 'Es un administrador'],
      ['2', 'Lucía Gómez', 'lucia@norte.test', 'Norte SA', 'Nuevo'],
      ['3', 'Martín Pérez', 'MARTIN@sur.test', 'Sur SRL', 'Nuevo'],
      ['4', 'Yanina Antigua', 'ya@empresa.test', 'Vieja SA', 'Ya está en el evento'],
    ]);
    await shot(page, 'import-preview-desktop');
    // The preview stored nothing.
    expect(await exhibitorEmails()).toEqual(['ya@empresa.test']);
    await expectAccessible(page);

    await dialog.getByRole('button', { name: 'Confirmar importación' }).click();
    await visible(page, 'Se agregaron 2 expositores.');
    // Rows were left out: the dialog offers them as a file (e2e/roster.e2e.ts downloads it).
    await dialog.getByRole('button', { name: 'Descargar filas omitidas' }).waitFor();
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Lucía Gómez' }).waitFor();
    await page.getByRole('link', { name: 'Martín Pérez' }).waitFor();
    expect(await exhibitorEmails()).toEqual([
      'lucia@norte.test',
      'martin@sur.test',
      'ya@empresa.test',
    ]);
    // Each new exhibitor gets the invitation; nobody else does.
    expect((await app.smtp.waitFor('lucia@norte.test')).subject).toBe(
      `Invitación a votar en ${EVENT_NAME}`,
    );
    expect((await app.smtp.waitFor('martin@sur.test')).subject).toBe(
      `Invitación a votar en ${EVENT_NAME}`,
    );
    expect(app.smtp.allTo('ya@empresa.test')).toEqual([]);
    expect(app.smtp.allTo('falta@nombre.test')).toEqual([]);
    await context.close();
  });

  it("edits an exhibitor's email, and they sign in at the new address", async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    const row = page.getByRole('row', { name: /Lucía Gómez/ });
    await row.getByRole('button', { name: 'Editar expositor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar expositor' });
    await settled(dialog);
    expect(await dialog.getByLabel('Nombre completo').inputValue()).toBe('Lucía Gómez');
    expect(await dialog.getByLabel('Email').inputValue()).toBe('lucia@norte.test');
    expect(await dialog.getByLabel('Empresa').inputValue()).toBe('Norte SA');
    await expectAccessible(page);

    // Another exhibitor's address is refused and nothing changes.
    await dialog.getByLabel('Email').fill('martin@sur.test');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await visible(dialog, 'El mail ingresado ya está registrado como expositor');

    await dialog.getByLabel('Email').fill('Lucia.Gomez@Norte.test');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await visible(row, 'lucia.gomez@norte.test');
    expect(await exhibitorEmails()).toEqual([
      'lucia.gomez@norte.test',
      'martin@sur.test',
      'ya@empresa.test',
    ]);
    const invitation = await app.smtp.waitFor('lucia.gomez@norte.test');
    expect(invitation.subject).toBe(`Invitación a votar en ${EVENT_NAME}`);
    expect(invitation.text).toContain(`${mailDeadlineClosingText(voteDeadline, ZONE)}.`);
    await context.close();

    // The exhibitor signs in at the new address with the emailed code.
    const invitee = await app.context(PHONE);
    const exhPage = await invitee.newPage();
    await exhPage.goto('/signin');
    await exhPage.getByLabel('Email').fill('lucia.gomez@norte.test');
    await exhPage.getByRole('button', { name: 'siguiente' }).click();
    await exhPage.waitForURL('**/signin/code');
    await expect
      .poll(
        () =>
          app.smtp
            .allTo('lucia.gomez@norte.test')
            .some((mail) => mail.subject.startsWith('Su código de acceso')),
        { timeout: 10_000 },
      )
      .toBe(true);
    const codeMail = app.smtp
      .allTo('lucia.gomez@norte.test')
      .find((mail) => mail.subject.startsWith('Su código de acceso'));
    const code = /\b(\d{6})\b/.exec(codeMail?.text ?? '')?.[1] ?? '';
    await exhPage.getByLabel('Dígito 1').click();
    await exhPage.keyboard.type(code);
    await exhPage.getByRole('button', { name: 'acceder' }).click();
    // Their only event opens as soon as they sign in.
    await exhPage.waitForURL(`**/exh/event/${eventId}`);

    // Under "Tienes hasta …", the closing time in the programme's zone.
    await visible(exhPage, deadlineClosingText(voteDeadline, ZONE));
    expect(deadlineClosingText(voteDeadline, ZONE)).toMatch(
      /^La votación cierra el \d{1,2}-\d{1,2}-\d{4} a las 23:59 \(hora de Buenos Aires\)$/,
    );
    await expectAccessible(exhPage);
    expect(await hasHorizontalScroll(exhPage)).toBe(false);
    await shot(exhPage, 'exh-deadline-zone-phone');
    await invitee.close();
  });

  it('shows participation before and after an exhibitor votes; filters, searches, exports', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    await page.getByRole('tab', { name: 'Participación' }).waitFor();
    const tabs = await page.getByRole('tab').allInnerTexts();
    expect(tabs.slice(0, 2)).toEqual(['Expositores', 'Participación']);
    await page.getByRole('tab', { name: 'Participación' }).click();
    await page.waitForURL(`**/admin/event/${eventId}/participation`);

    // Both imported invitations and the edited one were delivered; the seeded exhibitor has none.
    await visible(page, 'Invitados: 3');
    await visible(page, 'Invitación entregada: 2');
    for (const figure of [
      'Invitación con error: 0',
      'Ingresaron: 1',
      'Votaron en CONSUMO: 0',
      'Votaron en VALOR AGREGADO: 0',
      'Sin votos: 3',
    ]) {
      await visible(page, figure);
    }
    const columns = await page
      .getByRole('table', { name: 'Participación' })
      .getByRole('columnheader')
      .allInnerTexts();
    expect(columns.map((c) => c.trim())).toEqual([
      'Nombre completo',
      'Email',
      'Empresa',
      'Invitación',
      'Último ingreso',
      'CONSUMO',
      'VALOR AGREGADO',
    ]);
    const lucia = page.getByRole('row', { name: /Lucía Gómez/ });
    expect((await lucia.getByRole('cell').allInnerTexts()).slice(5)).toEqual(['0 de 5', '0 de 5']);
    expect(await lucia.getByRole('cell').nth(4).innerText()).toMatch(
      /^\d{1,2}-\d{1,2}-\d{4} \d{2}:\d{2}$/,
    );
    await expectAccessible(page);
    await shot(page, 'participation-desktop');

    // Lucía nominates three resellers in CONSUMO.
    const exhibitor = await app.db
      .selectFrom('exhibitors')
      .select('id')
      .where('email', '=', 'lucia.gomez@norte.test')
      .executeTakeFirstOrThrow();
    await seedNominations(app.db, {
      eventId,
      exhibitorId: exhibitor.id,
      category: 'consumption',
      nominees: [
        { fiscalId: '20111111111' },
        { fiscalId: '20222222222' },
        { fiscalId: '20333333333' },
      ],
    });
    await page.reload();
    await visible(page, 'Votaron en CONSUMO: 1');
    await visible(page, 'Votaron en VALOR AGREGADO: 0');
    await visible(page, 'Sin votos: 2');
    expect((await lucia.getByRole('cell').allInnerTexts()).slice(5)).toEqual(['3 de 5', '0 de 5']);

    // "Mostrar": only those without votes.
    await page.getByRole('combobox', { name: 'Mostrar' }).click();
    const options = await page.getByRole('option').allInnerTexts();
    expect(options).toEqual(['Todos', 'Sin votos', 'Incompletos', 'Completos']);
    await page.getByRole('option', { name: 'Sin votos' }).click();
    await expect
      .poll(async () => (await tableRows(page, 'Participación')).map((r) => r[0]))
      .toEqual(['Martín Pérez', 'Yanina Antigua']);

    // "Buscar" by company, ignoring case and accents, within the filter.
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('vieja');
    await expect
      .poll(async () => (await tableRows(page, 'Participación')).map((r) => r[0]))
      .toEqual(['Yanina Antigua']);

    // The export holds what the screen shows.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${EVENT_NAME}-participacion.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path()) ?? '');
    const rows: unknown[][] = [];
    workbook.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      'Nombre completo',
      'Email',
      'Empresa',
      'Invitación',
      'Último ingreso (hora de Buenos Aires)',
      'CONSUMO',
      'VALOR AGREGADO',
    ]);
    expect(rows.slice(1).map((row) => row[1])).toEqual(['ya@empresa.test']);
    await context.close();

    // On a phone: the tab fits the width; the screenshot is looked at by a person.
    const phone = await app.adminPage(PHONE);
    await phone.page.goto(`/admin/event/${eventId}/participation`);
    await visible(phone.page, 'Sin votos: 2');
    expect(await hasHorizontalScroll(phone.page)).toBe(false);
    await expectAccessible(phone.page);
    await shot(phone.page, 'participation-phone');
    await phone.context.close();
  });

  it('reminds those who have not voted, once per 12 hours', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/participation`);
    await page.getByRole('button', { name: 'Recordar a quienes no votaron' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar recordatorio' });
    await settled(dialog);
    await visible(dialog, 'Se enviará un recordatorio a 2 expositores.');
    await expectAccessible(page);

    // "Cancelar" sends nothing.
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Recordar a quienes no votaron' }).click();
    await visible(dialog, 'Se enviará un recordatorio a 2 expositores.');
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await visible(page, 'Se envió el recordatorio a 2 expositores.');
    await dialog.waitFor({ state: 'hidden' });

    const subject = `Recordatorio: todavía no votaste en ${EVENT_NAME}`;
    for (const address of ['martin@sur.test', 'ya@empresa.test']) {
      await expect
        .poll(() => app.smtp.allTo(address).filter((m) => m.subject === subject).length, {
          timeout: 10_000,
        })
        .toBe(1);
      const mail = app.smtp.allTo(address).find((m) => m.subject === subject);
      expect(mail?.text).toContain(`${mailDeadlineClosingText(voteDeadline, ZONE)}.`);
      expect(mail?.text).toContain(`${app.server.url}/signin`);
    }
    // Lucía has voted: no reminder for her.
    expect(app.smtp.allTo('lucia.gomez@norte.test').filter((m) => m.subject === subject)).toEqual(
      [],
    );

    // Asked again at once: both are skipped, and the dialog says why.
    await page.getByRole('button', { name: 'Recordar a quienes no votaron' }).click();
    await visible(
      dialog,
      'Se enviará un recordatorio a 0 expositores. Se omiten 2 que ya recibieron un recordatorio en las últimas 12 horas.',
    );
    expect(await dialog.getByRole('button', { name: 'Enviar' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await context.close();
  });

  it('offers the four reminders in the event dialogs, the deadline-day one checked', async () => {
    const { context, page } = await app.adminPage();
    await page.goto('/admin');
    await page.getByRole('button', { name: 'nuevo', exact: true }).click();
    const created = page.getByRole('dialog', { name: 'Nuevo evento' });
    await settled(created);
    const checked = async (dialog: Locator) => {
      const states: [string, boolean][] = [];
      for (const label of [
        'Recordar 7 días antes',
        'Recordar 3 días antes',
        'Recordar 1 día antes',
        'Recordar el día del cierre',
      ]) {
        states.push([label, await dialog.getByRole('checkbox', { name: label }).isChecked()]);
      }
      return states;
    };
    expect(await checked(created)).toEqual([
      ['Recordar 7 días antes', false],
      ['Recordar 3 días antes', false],
      ['Recordar 1 día antes', false],
      ['Recordar el día del cierre', true],
    ]);
    await expectAccessible(page);
    await created.getByRole('button', { name: 'Cancelar' }).click();

    // An edit saves the choice, and the dialog opens with it next time.
    await page.goto(`/admin/event/${eventId}/participation`);
    await page.getByRole('button', { name: 'Editar evento' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar evento' });
    await settled(edit);
    await edit.getByRole('checkbox', { name: 'Recordar 3 días antes' }).check();
    await edit.getByRole('checkbox', { name: 'Recordar el día del cierre' }).uncheck();
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });
    const stored = await context.request.get(`/api/events/${eventId}`);
    expect(((await stored.json()) as { reminders: string[] }).reminders).toEqual([
      'threeDaysBefore',
    ]);
    await page.reload();
    await page.getByRole('button', { name: 'Editar evento' }).click();
    await settled(edit);
    expect(await checked(edit)).toEqual([
      ['Recordar 7 días antes', false],
      ['Recordar 3 días antes', true],
      ['Recordar 1 día antes', false],
      ['Recordar el día del cierre', false],
    ]);
    await context.close();
  });

  it('shows an invitation the mail server refused, with its reply, until the address is fixed', async () => {
    app.smtp.rejectRecipient('rosa@nortte.test');
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    await page.getByRole('button', { name: 'Expositor', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Nuevo votante' });
    await add.getByLabel('Nombre completo').fill('Rosa Rebote');
    await add.getByLabel('Email').fill('rosa@nortte.test');
    await add.getByLabel('Empresa').fill('Norte SA');
    await add.getByRole('button', { name: 'Guardar' }).click();
    await add.waitFor({ state: 'hidden' });
    const exhibitorRow = page.getByRole('row', { name: /Rosa Rebote/ });
    await visible(exhibitorRow, 'error');

    await page.goto(`/admin/event/${eventId}/participation`);
    await visible(page, 'Invitación con error: 1');
    const row = page.getByRole('row', { name: /Rosa Rebote/ });
    await visible(row, '550 Buzón inexistente');
    await expectAccessible(page);

    // The address is corrected: the new invitation arrives and the error is gone.
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    await exhibitorRow.getByRole('button', { name: 'Editar expositor' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar expositor' });
    await edit.getByLabel('Email').fill('rosa@norte.test');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });
    expect((await app.smtp.waitFor('rosa@norte.test')).subject).toBe(
      `Invitación a votar en ${EVENT_NAME}`,
    );
    await page.goto(`/admin/event/${eventId}/participation`);
    await visible(page, 'Invitación con error: 0');
    await visible(page.getByRole('row', { name: /Rosa Rebote/ }), 'enviada');
    await context.close();
  });
});
