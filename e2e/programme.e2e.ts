/**
 * One whole programme, end to end, as its people run it (issue 32): an administrator creates the
 * event and imports a roster of 250; five exhibitors sign in with the emailed code on their phones
 * and nominate; the server is down across two reminder moments and comes back for the next ones;
 * voting closes; the ranking, a correction with its reason, the history, the workbook, a split
 * fiscal id merged and the merge undone, the ceremony; then duplicate, archive and anonymise. Time moves by restarting the real server on the
 * same database with its clock further on (test/helpers/clocked-server.ts); every mail goes
 * through a real SMTP server on loopback and is read.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_VALUE } from '../src/server/app.ts';
import { MSG } from '../src/shared/messages.ts';
import type { NomineeInput } from '../src/shared/schemas/nominee.ts';
import {
  expectAccessible,
  hasHorizontalScroll,
  PHONE,
  tableRows,
} from '../test/helpers/browser.ts';
import { useBrowserApp } from '../test/helpers/browser-fixture.ts';
import { nominateInDialog } from '../test/helpers/nominee-dialog.ts';

const EVENT = 'Premios Canal 2026';
const COPY = 'Premios Canal 2027';
/** Buenos Aires is UTC−3: 12:00Z is 09:00 there. */
const OPENING = '2026-06-01T12:00:00.000Z';
const DEADLINE = '2026-06-15';
const EVENT_DATE = '2026-06-20';
const typed = (iso: string) => iso.split('-').reverse().join('/');

const PEOPLE = [
  { name: 'Lucía Gómez', email: 'lucia@norte.test', company: 'Norte SA' },
  { name: 'Martín Pérez', email: 'martin@sur.test', company: 'Sur SRL' },
  { name: 'Álvaro Díaz', email: 'alvaro@este.test', company: 'Este SA' },
  { name: 'Sofía Ruiz', email: 'sofia@oeste.test', company: 'Oeste SA' },
  { name: 'Tomás Vega', email: 'tomas@centro.test', company: 'Centro SRL' },
] as const;
const [LUCIA, MARTIN, ALVARO, SOFIA, TOMAS] = PEOPLE;
/** The rest of a roster of 250, who never sign in. */
const OTHERS = Array.from({ length: 245 }, (_, i) => ({
  name: `Expositor ${i + 1}`,
  email: `expositor${i + 1}@feria.test`,
  company: `Empresa ${i + 1}`,
}));
const ROSTER = [...PEOPLE, ...OTHERS];

const reseller = (n: number): NomineeInput => ({
  name: `Reseller ${n}`,
  registeredName: `Reseller ${n} S.A.`,
  // Ids that "Posibles duplicados" does not group: they differ in more than one digit.
  fiscalId: `30${n}0000000${n}`,
  contactName: `Contacto ${n}`,
  contactPosition: 'Gerente',
  phone: '3414567890',
  email: `ventas${n}@reseller.test`,
  location: 'Rosario',
  city: 'Santa Fe',
});

/** Reseller 1 as Sofía typed it: the last digit of its id wrong, "SA" after its name. */
const SPLIT: NomineeInput = {
  ...reseller(1),
  name: 'Reseller 1 SA',
  fiscalId: `${reseller(1).fiscalId.slice(0, -1)}9`,
};

describe('a whole programme, end to end', { timeout: 240_000 }, () => {
  const app = useBrowserApp({ now: OPENING });
  let eventId: string;

  /** Every subject each person received so far, in order. */
  const subjects = (email: string) => app.smtp.allTo(email).map((mail) => mail.subject);

  afterAll(async () => {
    // PROGRAMME_MAIL_FILE=… keeps every mail of the run to read through (subject, recipient, text).
    const mailFile = process.env.PROGRAMME_MAIL_FILE;
    if (mailFile) {
      const text = app.smtp.messages.map(
        (m) => `To: ${m.to.join(', ')}\nSubject: ${m.subject}\n\n${m.text}`,
      );
      fs.writeFileSync(mailFile, text.join('\n\n-----\n\n'));
    }
  });

  /** An exhibitor on a phone: the emailed code, then their only event opens. */
  async function exhibitorSignsIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await app.context(PHONE);
    const page = await context.newPage();
    await page.goto('/signin');
    await page.getByLabel('Email').fill(email);
    const before = app.smtp.allTo(email).length;
    await page.getByRole('button', { name: 'siguiente' }).click();
    const mail = await app.smtp.waitFor(email, { count: before + 1, timeoutMs: 20_000 });
    const code = /^Su código de acceso: (\d{6})$/.exec(mail.subject)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain(code);
    await page.getByLabel('Dígito 1').click();
    await page.keyboard.type(code);
    await page.getByRole('button', { name: 'acceder' }).click();
    await page.waitForURL(`**/exh/event/${eventId}`);
    await page.getByRole('heading', { level: 1, name: EVENT }).waitFor();
    return { context, page };
  }

  /** Nominations through the API of the exhibitor's own signed-in browser. */
  async function nominate(
    context: BrowserContext,
    category: 'consumption' | 'value',
    numbers: number[],
  ): Promise<void> {
    const list = await context.request.get(`/api/exh/events/${eventId}`);
    let version = ((await list.json()) as { lists: Record<string, { version: number }> }).lists[
      category
    ]?.version;
    for (const n of numbers) {
      const saved = await context.request.post(`/api/exh/events/${eventId}/${category}/nominees`, {
        headers: { [CSRF_HEADER]: CSRF_VALUE },
        data: { ...reseller(n), version },
      });
      expect(saved.status()).toBe(200);
      version = ((await saved.json()) as { version: number }).version;
    }
  }

  it('the administrator creates the event with its four reminders', async () => {
    const { context, page } = await app.adminPage();
    await page.goto('/admin');
    await page.getByRole('button', { name: 'nuevo', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo evento' });
    await dialog.getByRole('textbox', { name: 'Nombre', exact: true }).fill(EVENT);
    await dialog.getByLabel('Fecha del evento').fill(typed(EVENT_DATE));
    await dialog.getByLabel('Fecha límite').fill(typed(DEADLINE));
    for (const reminder of [
      'Recordar 7 días antes',
      'Recordar 3 días antes',
      'Recordar 1 día antes',
    ]) {
      await dialog.getByRole('checkbox', { name: reminder }).check();
    }
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const event = await app.db
      .selectFrom('events')
      .select(['id', 'vote_deadline', 'event_date', 'reminders'])
      .where('name', '=', EVENT)
      .executeTakeFirstOrThrow();
    eventId = event.id;
    expect([event.vote_deadline, event.event_date]).toEqual([DEADLINE, EVENT_DATE]);
    expect(JSON.parse(event.reminders)).toEqual([
      'sevenDaysBefore',
      'threeDaysBefore',
      'oneDayBefore',
      'deadlineDay',
    ]);
    await context.close();
  });

  it('imports a roster of 250; each gets the invitation, in tú, with the closing time', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    await page.getByRole('button', { name: 'Importar', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar expositores' });
    const csv = [
      'Email;Empresa;Nombre completo',
      ...ROSTER.map((p) => `${p.email};${p.company};${p.name}`),
    ].join('\r\n');
    await dialog.getByLabel('Archivo').setInputFiles({
      name: 'expositores.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${csv}\r\n`, 'utf8'),
    });
    await dialog.getByText('250 nuevos, 0 ya estaban, 0 con errores', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Confirmar importación' }).click();
    await page.getByText('Se agregaron 250 expositores.', { exact: true }).waitFor();
    await page.getByText('250 expositores', { exact: true }).waitFor();
    await expect
      .poll(
        () =>
          app.smtp.messages.filter((m) => m.subject === `Invitación a votar en ${EVENT}`).length,
        {
          timeout: 60_000,
        },
      )
      .toBe(250);
    for (const person of PEOPLE) {
      const mail = await app.smtp.waitFor(person.email, { timeoutMs: 20_000 });
      expect(mail.subject).toBe(`Invitación a votar en ${EVENT}`);
      expect(mail.text).toContain(
        `Ana Administradora te invitó a nominar resellers en el evento ${EVENT}.`,
      );
      expect(mail.text).toContain(
        'La votación cierra el 15/6/2026 a las 23:59 (hora de Buenos Aires).',
      );
      expect(mail.text).toContain(`${app.server.url}/signin`);
    }
    await context.close();
  });

  it('five exhibitors sign in with the emailed code on their phones; four nominate', async () => {
    // Lucía nominates on the screen, then fills both lists.
    const lucia = await exhibitorSignsIn(LUCIA.email);
    await nominateInDialog(lucia.page, reseller(1));
    expect(await hasHorizontalScroll(lucia.page)).toBe(false);
    await expectAccessible(lucia.page);
    await nominate(lucia.context, 'consumption', [2, 3, 4, 5]);
    await nominate(lucia.context, 'value', [1, 2, 3, 4, 5]);
    await lucia.page.reload();
    await lucia.page
      .getByText('¡Listo! Tus nominaciones están guardadas.', { exact: true })
      .waitFor();
    await lucia.context.close();

    // Martín puts Reseller 1 first and 2 second; Álvaro signs in and leaves without voting.
    const martin = await exhibitorSignsIn(MARTIN.email);
    await nominate(martin.context, 'consumption', [1, 2]);
    await martin.context.close();
    const alvaro = await exhibitorSignsIn(ALVARO.email);
    await alvaro.context.close();
    // Sofía nominates Reseller 1 under another fiscal id (a typo in its last digit): a split nominee.
    const sofia = await exhibitorSignsIn(SOFIA.email);
    const saved = await sofia.context.request.post(
      `/api/exh/events/${eventId}/consumption/nominees`,
      {
        headers: { [CSRF_HEADER]: CSRF_VALUE },
        data: { ...SPLIT, version: 0 },
      },
    );
    expect(saved.status()).toBe(200);
    await sofia.context.close();
    const tomas = await exhibitorSignsIn(TOMAS.email);
    await tomas.context.close();
  });

  it('the server is down across the 7- and 3-day reminders; at the 1-day one only the incomplete get it', async () => {
    await app.restartAt('2026-06-14T12:30:00.000Z');
    const tomorrow = `Mañana cierra la votación de ${EVENT}`;
    for (const person of [MARTIN, ALVARO, SOFIA, TOMAS]) {
      await expect
        .poll(() => subjects(person.email).filter((s) => s === tomorrow).length, {
          timeout: 30_000,
        })
        .toBe(1);
    }
    // Everybody but Lucía, whose lists are full.
    await expect
      .poll(() => app.smtp.messages.filter((m) => m.subject === tomorrow).length, {
        timeout: 60_000,
      })
      .toBe(249);
    const martinMail = app.smtp.allTo(MARTIN.email).find((mail) => mail.subject === tomorrow);
    expect(martinMail?.text).toContain('Nominaciones en CONSUMO: 2 de 5.');
    expect(martinMail?.text).toContain('Nominaciones en VALOR AGREGADO: 0 de 5.');
    // The receipts of the saves before the outage go out now; Lucía's lists are full: no reminder.
    await expect
      .poll(() => subjects(LUCIA.email), { timeout: 30_000 })
      .toEqual([
        `Invitación a votar en ${EVENT}`,
        expect.stringMatching(/^Su código de acceso: \d{6}$/),
        `Tus nominaciones en ${EVENT}`,
      ]);
    await expect
      .poll(() => subjects(MARTIN.email), { timeout: 30_000 })
      .toContain(`Tus nominaciones en ${EVENT}`);
    // Nobody gets the reminders of the moments the outage crossed: they would arrive days late.
    for (const person of PEOPLE) {
      expect(
        subjects(person.email).filter((s) => /^Faltan [37] días para el cierre/.test(s)),
      ).toEqual([]);
    }
  });

  it('participation counts this event\'s sign-ins; "Recordar a los incompletos" reaches all but Lucía', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/participation`);
    for (const figure of ['Invitados: 250', 'Ingresaron: 5', 'Sin votos: 247']) {
      await page.getByText(figure, { exact: true }).waitFor();
    }
    await page.getByText('2 %', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Recordar a los incompletos' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar recordatorio' });
    await dialog
      .getByText('Se enviará un recordatorio a 249 expositores.', { exact: true })
      .waitFor();
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await page.getByText('Se envió el recordatorio a 249 expositores.', { exact: true }).waitFor();
    const subject = `Recordatorio: completa tus nominaciones en ${EVENT}`;
    for (const person of [MARTIN, ALVARO, SOFIA, TOMAS]) {
      await expect
        .poll(() => subjects(person.email).filter((s) => s === subject).length, {
          timeout: 30_000,
        })
        .toBe(1);
    }
    await expect
      .poll(() => app.smtp.messages.filter((m) => m.subject === subject).length, {
        timeout: 60_000,
      })
      .toBe(249);
    expect(subjects(LUCIA.email)).not.toContain(subject);
    await context.close();
  });

  it('on the deadline day everybody is reminded; after the close nobody is', async () => {
    await app.restartAt('2026-06-15T12:30:00.000Z');
    const today = `Hoy cierra la votación de ${EVENT}`;
    for (const person of PEOPLE) {
      await expect
        .poll(() => subjects(person.email).filter((s) => s === today).length, { timeout: 30_000 })
        .toBe(1);
    }
    // All 250, before the server stops again: a reminder still waiting at the close is dropped.
    await expect
      .poll(() => app.smtp.messages.filter((m) => m.subject === today).length, { timeout: 60_000 })
      .toBe(250);
    const mail = app.smtp.allTo(LUCIA.email).find((m) => m.subject === today);
    expect(mail?.text).toContain(
      `Hoy, 15/6/2026, es el último día para realizar cambios en tus nominaciones de ${EVENT}.`,
    );

    await app.restartAt('2026-06-16T12:30:00.000Z');
    const sent = app.smtp.messages.length;
    // Nothing is due any more: the outbox holds no message for this event still to send.
    const pending = await app.db
      .selectFrom('mail_outbox')
      .select(['template', 'to_address'])
      .where('event_id', '=', eventId)
      .where('status', '=', 'pending')
      .execute();
    expect(pending).toEqual([]);
    expect(app.smtp.messages.length).toBe(sent);
  });

  it('the ranking, a correction with its reason, the history and the workbook', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/consumption`);
    await page.getByRole('link', { name: 'Reseller 1', exact: true }).waitFor();
    const ranking = await tableRows(page, 'Votos', { exact: true });
    // Reseller 1: 5 (Lucía 1°) + 5 (Martín 1°) = 10 points.
    expect(ranking[0]?.[1]).toBe('Reseller 1');
    expect(ranking[0]).toContain('10');

    await page.getByRole('link', { name: 'Reseller 1', exact: true }).click();
    await page
      .getByRole('heading', { level: 1, name: `Votos para el id fiscal: ${reseller(1).fiscalId}` })
      .waitFor();
    // After the close the administrator still corrects, with a reason.
    await page
      .getByRole('row', { name: /Martín Pérez/ })
      .getByRole('button', { name: 'Reseller 1' })
      .click();
    const edit = page.getByRole('dialog', { name: 'Editar voto' });
    await edit.getByLabel('Nombre del reseller').fill('Reseller Uno');
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.getByText('Elija un motivo.', { exact: true }).waitFor();
    await edit.getByLabel('Motivo').selectOption({ label: 'Error de tipeo' });
    await edit.getByRole('button', { name: 'Guardar' }).click();
    await edit.waitFor({ state: 'hidden' });

    await page.goto(`/admin/event/${eventId}/history`);
    const history = page.getByRole('table', { name: 'Historial' });
    await history.getByRole('cell', { name: 'Voto corregido', exact: true }).waitFor();
    const [correction] = await tableRows(page, 'Historial', { exact: true });
    expect(correction?.[1]).toBe('Ana Administradora');
    expect(correction?.[3]).toContain('Nombre del reseller: Reseller 1 → Reseller Uno');
    expect(correction?.[3]).toContain('Motivo: Error de tipeo');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportar todo' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${EVENT}-completo.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path()) ?? '');
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'CONSUMO',
      'VALOR AGREGADO',
      'Votos',
      'Participación',
      'Correcciones',
    ]);
    const corrections: string[] = [];
    workbook
      .getWorksheet('Correcciones')
      ?.eachRow((row) => corrections.push((row.values as unknown[]).slice(1).join(' | ')));
    expect(corrections.filter((row) => row.includes('Error de tipeo'))).toHaveLength(1);
    await context.close();
  });

  it('"Posibles duplicados" finds the split id; the merge adds its points, and undoing it takes them back', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/consumption`);
    await page.getByRole('link', { name: 'Reseller 1', exact: true }).waitFor();
    const points = async (name: string) =>
      (await tableRows(page, 'Votos', { exact: true })).find((row) => row[1] === name)?.at(-1);
    expect([await points('Reseller 1'), await points('Reseller 1 SA')]).toEqual(['10', '5']);
    await page.getByRole('button', { name: 'Posibles duplicados (1)' }).click();
    const list = page.getByRole('dialog', { name: 'Posibles duplicados' });
    const group = await tableRows(page, 'Grupo 1', { exact: true });
    expect(group.map((cells) => cells[0]).sort()).toEqual([reseller(1).fiscalId, SPLIT.fiscalId]);
    await list.getByRole('button', { name: 'Unificar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unificar nominados' });
    await dialog
      .getByRole('radiogroup', { name: 'ID fiscal que queda' })
      .getByRole('radio', { name: new RegExp(`^${reseller(1).fiscalId} `) })
      .check();
    await dialog.getByRole('button', { name: 'Unificar' }).click();
    await page.getByText(MSG.mergeDone).waitFor();
    await expect.poll(() => points('Reseller 1')).toBe('15');
    expect(await points('Reseller 1 SA')).toBeUndefined();

    await page.goto(`/admin/event/${eventId}/history`);
    const history = page.getByRole('table', { name: 'Historial' });
    await history.getByRole('cell', { name: 'Nominados unificados', exact: true }).waitFor();
    await history.getByRole('button', { name: 'Deshacer' }).click();
    await page.getByText(MSG.undoDone).waitFor();
    await history.getByRole('cell', { name: 'Unificación deshecha', exact: true }).waitFor();
    expect(await history.getByRole('button', { name: 'Deshacer' }).count()).toBe(0);
    await page.goto(`/admin/event/${eventId}/consumption`);
    await page.getByRole('link', { name: 'Reseller 1 SA', exact: true }).waitFor();
    expect([await points('Reseller 1'), await points('Reseller 1 SA')]).toEqual(['10', '5']);
    await context.close();
  });

  it('the ceremony reveals from 5° to 1° with PageDown', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/present/consumption`);
    await page.getByRole('heading', { name: 'CONSUMO' }).waitFor();
    await page.getByRole('button', { name: 'Siguiente' }).waitFor();
    for (let i = 0; i < 5; i++) await page.keyboard.press('PageDown');
    await page.getByText('Reseller 1', { exact: false }).first().waitFor();
    await context.close();
  });

  it('duplicates for next year (members copied, no sign-in, no mail); archives and anonymises', async () => {
    const { context, page } = await app.adminPage();
    await page.goto(`/admin/event/${eventId}/exhibitors`);
    await page.getByRole('button', { name: 'Duplicar evento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Duplicar evento' });
    await dialog.getByRole('textbox', { name: 'Nombre', exact: true }).fill(COPY);
    await dialog.getByLabel('Fecha del evento').fill(typed('2027-06-20'));
    await dialog.getByLabel('Fecha límite').fill(typed('2027-06-15'));
    const before = app.smtp.messages.length;
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText(MSG.eventDuplicated, { exact: true }).waitFor();
    await page.waitForURL(
      (url) => url.pathname.endsWith('/exhibitors') && !url.pathname.includes(eventId),
    );
    const copyId = /\/admin\/event\/([^/]+)\/exhibitors/.exec(page.url())?.[1] ?? '';
    expect(copyId).not.toBe(eventId);
    await page.goto(`/admin/event/${copyId}/participation`);
    await page.getByText('Invitados: 250', { exact: true }).waitFor();
    await page.getByText('Ingresaron: 0', { exact: true }).waitFor();
    expect(app.smtp.messages.length).toBe(before);

    // The event date passes: the event can be archived, then anonymised.
    await context.close();
    await app.restartAt('2026-06-21T12:30:00.000Z');
    const later = await app.adminPage();
    await later.page.goto(`/admin/event/${eventId}/exhibitors`);
    await later.page.getByRole('button', { name: 'Archivar evento' }).click();
    await later.page
      .getByRole('dialog', { name: '¿Archivar evento?' })
      .getByRole('button', { name: 'Archivar' })
      .click();
    await later.page.getByText(MSG.eventArchivedNotice, { exact: true }).waitFor();
    await later.page.getByRole('button', { name: 'Anonimizar datos personales' }).click();
    const anonymise = later.page.getByRole('dialog', { name: '¿Anonimizar datos personales?' });
    await anonymise.getByText('Se conservan:').waitFor();
    await anonymise.getByRole('button', { name: 'Anonimizar' }).click();
    await later.page.getByText(MSG.eventAnonymisedNotice, { exact: true }).waitFor();
    const contacts = await app.db
      .selectFrom('nominations')
      .select(['email', 'fiscal_id'])
      .where('event_id', '=', eventId)
      .execute();
    expect(contacts.length).toBe(13);
    expect(contacts.filter((row) => row.email.endsWith('@reseller.test'))).toEqual([]);
    expect(contacts.filter((row) => row.fiscal_id === reseller(1).fiscalId)).toHaveLength(3);
    await later.context.close();

    // Every mail of the programme, per person (a receipt and a reminder due at one restart may go
    // out in either order).
    const sorted = (list: unknown[]) => [...list].map(String).sort();
    const invitation = `Invitación a votar en ${EVENT}`;
    const receipt = `Tus nominaciones en ${EVENT}`;
    const tomorrow = `Mañana cierra la votación de ${EVENT}`;
    const incomplete = `Recordatorio: completa tus nominaciones en ${EVENT}`;
    const today = `Hoy cierra la votación de ${EVENT}`;
    // Martín's list was corrected, Sofía's merged and the merge undone: each is told, once.
    const changed = `Se modificaron tus nominaciones en ${EVENT}`;
    const martinChange = app.smtp.allTo(MARTIN.email).find((mail) => mail.subject === changed);
    expect(martinChange?.text).toContain(
      [
        'Después:',
        '1. Reseller Uno (ID fiscal 30100000001)',
        '2. Reseller 2 (ID fiscal 30200000002)',
      ].join('\n\n'),
    );
    expect(martinChange?.text).toMatch(
      /Modificado por Ana Administradora el \d{1,2}\/\d{1,2}\/2026 \d\d:\d\d \(hora de Buenos Aires\)\. Motivo: Error de tipeo/,
    );
    const sofiaChange = app.smtp.allTo(SOFIA.email).find((mail) => mail.subject === changed);
    expect(sofiaChange?.text).toContain('Motivo: Nominados unificados por ser el mismo reseller:');
    expect(sofiaChange?.text).toContain('Motivo: Unificación deshecha:');
    expect(
      sorted(
        subjects(LUCIA.email).map((s) => (/^Su código de acceso: \d{6}$/.test(s) ? 'código' : s)),
      ),
    ).toEqual(sorted([invitation, 'código', receipt, today]));
    expect(
      sorted(
        subjects(MARTIN.email).map((s) => (/^Su código de acceso: \d{6}$/.test(s) ? 'código' : s)),
      ),
    ).toEqual(sorted([invitation, 'código', receipt, tomorrow, incomplete, today, changed]));
    expect(
      sorted(
        subjects(ALVARO.email).map((s) => (/^Su código de acceso: \d{6}$/.test(s) ? 'código' : s)),
      ),
    ).toEqual(sorted([invitation, 'código', tomorrow, incomplete, today]));
    expect(
      sorted(
        subjects(SOFIA.email).map((s) => (/^Su código de acceso: \d{6}$/.test(s) ? 'código' : s)),
      ),
    ).toEqual(sorted([invitation, 'código', receipt, tomorrow, incomplete, today, changed]));
    expect(
      sorted(
        subjects(TOMAS.email).map((s) => (/^Su código de acceso: \d{6}$/.test(s) ? 'código' : s)),
      ),
    ).toEqual(sorted([invitation, 'código', tomorrow, incomplete, today]));
    // Nobody of the roster got anything but the invitation and the reminders.
    for (const other of [OTHERS[0], OTHERS[244]]) {
      expect(sorted(subjects(other?.email ?? ''))).toEqual(
        sorted([invitation, tomorrow, incomplete, today]),
      );
    }
  });
});
