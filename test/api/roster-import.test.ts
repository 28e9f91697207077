import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_VALUE } from '../../src/server/app.ts';
import { signInWithCode, startSignIn } from '../../src/shared/api/auth.ts';
import type { InputOf } from '../../src/shared/api/define.ts';
import { importRoster, previewRoster, rosterTemplate } from '../../src/shared/api/exhibitors.ts';
import { getSession } from '../../src/shared/api/session.ts';
import { CURRENT_USER_COOKIE, SESSION_COOKIE } from '../../src/shared/constants.ts';
import {
  ROSTER_FILE_MESSAGES,
  ROSTER_ROW_STATUS_LABELS,
  rosterSummaryText,
} from '../../src/shared/roster-messages.ts';
import { MSG } from '../../src/shared/messages.ts';
import { sessionResponse } from '../../src/shared/schemas/session.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { answered, failureOf, refused } from '../helpers/client.ts';
import { multipart } from '../helpers/multipart.ts';
import { seedAdmin, seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';
import { openWorkbook } from '../helpers/workbook.ts';

const csv = (text: string) => Buffer.from(text, 'utf8');

/** The session cookie a fetch response set, as a Cookie header. */
function sessionCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error('no session cookie');
  return cookie.slice(0, cookie.indexOf(';'));
}

/** A file with one row of every "Estado", in the order a user might type them. */
const mixedFile = (taken: { member: string; admin: string }) =>
  csv(
    [
      'Empresa;E-mail;Nombre completo',
      'Acme;nueva.uno@empresa.test;Nueva Uno',
      'Acme; NUEVA.DOS@empresa.test ;Nueva Dos',
      `Acme;${taken.member};Ya Estaba`,
      'Acme;no-es-un-email;Sin Email',
      'Acme;sin.nombre@empresa.test;',
      'Acme;nueva.uno@empresa.test;Nueva Uno Otra Vez',
      `Acme;${taken.admin};Es Admin`,
    ].join('\n'),
  );

describe('importing exhibitors from a file', () => {
  const app = useTestApp();

  const preview = (eventId: string, filename: string, data: Buffer) =>
    app.api.send(previewRoster, { params: { eventId } }, { file: { filename, data } });
  const confirm = (
    eventId: string,
    filename: string,
    data: Buffer,
    query?: InputOf<typeof importRoster>['query'],
  ) =>
    app.api.send(
      importRoster,
      { params: { eventId }, ...(query ? { query } : {}) },
      { file: { filename, data } },
    );

  async function eventWithOneMember() {
    const event = await seedEvent(app.db, { name: 'Premios Importación' });
    const member = await seedExhibitor(app.db, { email: `ya.estaba.${event.id}@empresa.test` });
    await seedMembership(app.db, event.id, member.id);
    const otherAdmin = await seedAdmin(app.db, { email: `admin.${event.id}@premios.test` });
    return { event, taken: { member: member.email, admin: otherAdmin.email } };
  }

  const members = async (eventId: string) =>
    (
      await app.db
        .selectFrom('event_exhibitors as m')
        .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
        .select(['x.email', 'x.full_name', 'x.company'])
        .where('m.event_id', '=', eventId)
        .orderBy('x.email')
        .execute()
    ).map((row) => [row.email, row.full_name, row.company]);

  it('previews every row with its Estado and stores nothing', async () => {
    const { event, taken } = await eventWithOneMember();
    const before = await members(event.id);
    const response = answered(await preview(event.id, 'expositores.csv', mixedFile(taken)));
    expect(response.status).toBe(200);
    const body = response.data;
    expect(body.rows.map((r) => [r.row, r.status])).toEqual([
      [2, 'new'],
      [3, 'new'],
      [4, 'alreadyInEvent'],
      [5, 'invalidEmail'],
      [6, 'missingName'],
      [7, 'repeatedInFile'],
      [8, 'isAdmin'],
    ]);
    expect(body.rows[1]).toEqual({
      row: 3,
      fullName: 'Nueva Dos',
      email: 'NUEVA.DOS@empresa.test',
      company: 'Acme',
      status: 'new',
    });
    expect(body.summary).toEqual({ nuevos: 2, yaEstaban: 1, conErrores: 4 });
    expect(rosterSummaryText(body.summary)).toBe('2 nuevos, 1 ya estaban, 4 con errores');
    expect(await members(event.id)).toEqual(before);
  });

  it('adds every Nuevo row in one go, with invitations and reminders, audited as one import', async () => {
    const { event, taken } = await eventWithOneMember();
    const response = answered(await confirm(event.id, 'expositores.csv', mixedFile(taken)));
    expect(response.status).toBe(200);
    const { skipped, ...counts } = response.data;
    expect(counts).toEqual({
      added: 2,
      summary: { nuevos: 2, yaEstaban: 1, conErrores: 4 },
    });
    // Every row not added, with its Estado ("Descargar filas omitidas").
    expect(skipped.map((row: { row: number; status: string }) => [row.row, row.status])).toEqual([
      [4, 'alreadyInEvent'],
      [5, 'invalidEmail'],
      [6, 'missingName'],
      [7, 'repeatedInFile'],
      [8, 'isAdmin'],
    ]);
    expect(await members(event.id)).toEqual([
      ['nueva.dos@empresa.test', 'Nueva Dos', 'Acme'],
      ['nueva.uno@empresa.test', 'Nueva Uno', 'Acme'],
      [taken.member, expect.any(String), expect.any(String)],
    ]);
    const mail = await app.db
      .selectFrom('mail_outbox')
      .select(['template', 'to_address'])
      .where('event_id', '=', event.id)
      .orderBy('template')
      .orderBy('to_address')
      .execute();
    expect(mail).toEqual([
      { template: 'exhibitor-invitation', to_address: 'nueva.dos@empresa.test' },
      { template: 'exhibitor-invitation', to_address: 'nueva.uno@empresa.test' },
      { template: 'voting-reminder', to_address: 'nueva.dos@empresa.test' },
      { template: 'voting-reminder', to_address: 'nueva.uno@empresa.test' },
    ]);
    await app.t.deliverMail();
    expect((await app.t.smtp.waitFor('nueva.uno@empresa.test')).text).toContain(
      'Premios Importación',
    );
    const audit = await app.db
      .selectFrom('audit_log')
      .select(['actor_id', 'details'])
      .where('event_id', '=', event.id)
      .where('action', '=', 'exhibitors.imported')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_id).toBe(app.admin.id);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({
      fileName: 'expositores.csv',
      added: ['nueva.uno@empresa.test', 'nueva.dos@empresa.test'],
      invitationsSent: true,
    });

    // The same file again: everybody is already there, nothing is added or sent.
    const again = answered(await confirm(event.id, 'expositores.csv', mixedFile(taken))).data;
    expect(again).toMatchObject({
      added: 0,
      summary: { nuevos: 0, yaEstaban: 4, conErrores: 3 },
    });
    expect(again.skipped).toHaveLength(7);
  });

  it('queues no invitation when "Enviar invitaciones" is unchecked, and reuses an exhibitor of another event', async () => {
    const { event } = await eventWithOneMember();
    const elsewhere = await seedExhibitor(app.db, {
      email: `de.otro.evento.${event.id}@empresa.test`,
      fullName: 'Nombre Original',
    });
    const file = csv(
      `Nombre completo,Email,Empresa\nOtro Nombre,${elsewhere.email},Otra\nSolo Nuevo,solo.nuevo.${event.id}@empresa.test,S\n`,
    );
    const response = await confirm(event.id, 'lista.csv', file, { sendInvitations: 'false' });
    expect(answered(response).data.added).toBe(2);
    const invitations = await app.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('event_id', '=', event.id)
      .where('template', '=', 'exhibitor-invitation')
      .execute();
    expect(invitations).toEqual([]);
    const reused = await app.db
      .selectFrom('exhibitors')
      .select(['id', 'full_name'])
      .where('email', '=', elsewhere.email)
      .execute();
    expect(reused).toEqual([{ id: elsewhere.id, full_name: 'Nombre Original' }]);
  });

  it('reads an xlsx first sheet by its headers', async () => {
    const { event } = await eventWithOneMember();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Hoja1');
    sheet.addRow(['  CORREO ', 'Nombre', 'Empresa']);
    sheet.addRow([`xlsx.${event.id}@empresa.test`, 'Desde Excel', 'Libro']);
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    const response = answered(await preview(event.id, 'Expositores.XLSX', data));
    expect(response.status).toBe(200);
    expect(response.data.rows).toEqual([
      {
        row: 2,
        fullName: 'Desde Excel',
        email: `xlsx.${event.id}@empresa.test`,
        company: 'Libro',
        status: 'new',
      },
    ]);
  });

  it.each([
    [
      'not CSV or xlsx',
      'lista.txt',
      csv('Email\na@b.test'),
      400,
      ROSTER_FILE_MESSAGES.unsupportedType,
    ],
    ['empty', 'lista.csv', Buffer.alloc(0), 400, ROSTER_FILE_MESSAGES.empty],
    [
      'without an Email column',
      'lista.csv',
      csv('Nombre;Empresa\nAna;Acme'),
      400,
      ROSTER_FILE_MESSAGES.noEmailColumn,
    ],
    [
      'over 5,000 rows',
      'lista.csv',
      csv(['Email', ...Array.from({ length: 5001 }, (_, i) => `x${i}@e.test`)].join('\n')),
      400,
      ROSTER_FILE_MESSAGES.tooManyRows,
    ],
    [
      'over 5 MB',
      'lista.csv',
      Buffer.alloc(5 * 1024 * 1024 + 1, 'a'),
      413,
      ROSTER_FILE_MESSAGES.tooLarge,
    ],
  ])(
    'refuses a file %s with a Spanish message and stores nothing',
    async (_, name, data, status, message) => {
      const { event } = await eventWithOneMember();
      const before = await members(event.id);
      for (const failure of [
        refused(await preview(event.id, name, data)),
        refused(await confirm(event.id, name, data)),
      ]) {
        expect(failure.status).toBe(status);
        expect(failure).toMatchObject({ message, fields: { file: message } });
      }
      expect(await members(event.id)).toEqual(before);
    },
  );

  it('answers 400 in Spanish to a request without a file or with a broken multipart body', async () => {
    const { event } = await eventWithOneMember();
    // Neither can the typed client send: a form without the file's field, a cut multipart body.
    const noFile = await app.t.request({
      method: 'POST',
      url: `/api/events/${event.id}/exhibitors/import/preview`,
      as: app.as,
      ...multipart([{ name: 'nota', data: Buffer.from('hola') }]),
    });
    expect(noFile.statusCode).toBe(400);
    expect(failureOf(noFile).message).toBe(MSG.noLogoFile);
    const broken = await app.t.request({
      method: 'POST',
      url: `/api/events/${event.id}/exhibitors/import`,
      as: app.as,
      payload: Buffer.from(
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nEmail',
      ),
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(broken.statusCode).toBe(400);
    expect(failureOf(broken).message).toBe(MSG.invalidUpload);
  });

  it('adds each address once when the same file is confirmed 10 times at once', async () => {
    const { event } = await eventWithOneMember();
    const file = csv(
      [
        'Nombre completo,Email,Empresa',
        ...Array.from({ length: 30 }, (_, i) => `P ${i},par${i}.${event.id}@e.test,E`),
      ].join('\n'),
    );
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => confirm(event.id, 'lista.csv', file)),
    );
    const added = replies.map((reply) => (reply.ok ? reply.data.added : 0));
    // Each attempt either added the whole file or found everybody there; an attempt that lost a
    // race on PostgreSQL is refused whole (409) rather than half-stored.
    expect(added.reduce((sum, n) => sum + n, 0)).toBe(30);
    for (const reply of replies) expect([200, 409]).toContain(reply.status);
    expect((await members(event.id)).length).toBe(31);
    const invitations = await app.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('event_id', '=', event.id)
      .where('template', '=', 'exhibitor-invitation')
      .execute();
    expect(invitations).toHaveLength(30);
  });

  it("checks each row's name and company with the exhibitor form's rules: Nombre inválido, Empresa inválida, nothing of them stored", async () => {
    const { event } = await eventWithOneMember();
    const address = (n: number) => `forma.${n}.${event.id}@empresa.test`;
    const longName = 'N'.repeat(300);
    const hugeName = `Ana\u0001${'x'.repeat(300_000)}`;
    const file = csv(
      [
        'Nombre completo;Email;Empresa',
        `${longName};${address(1)};Acme`,
        `Ana\u0007Pérez;${address(2)};Acme`,
        `Luis Gómez;${address(3)};${'E'.repeat(201)}`,
        `Eva Díaz;${address(4)};Beta\u001fSA`,
        `${hugeName};${address(5)};Acme`,
        `${'B'.repeat(200)};${address(6)};${'C'.repeat(200)}`,
      ].join('\n'),
    );
    const before = await members(event.id);
    const previewed = answered(await preview(event.id, 'forma.csv', file));
    expect(previewed.status).toBe(200);
    const rows = previewed.data.rows;
    expect(rows.map((r) => [r.row, ROSTER_ROW_STATUS_LABELS[r.status], r.message])).toEqual([
      [2, 'Nombre inválido', MSG.invalidInput],
      [3, 'Nombre inválido', MSG.invalidCharacters],
      [4, 'Empresa inválida', MSG.invalidInput],
      [5, 'Empresa inválida', MSG.invalidCharacters],
      // Too long and with a control character: the form's first message is the length's.
      [6, 'Nombre inválido', MSG.invalidInput],
      [7, 'Nuevo', undefined],
    ]);
    // What is echoed back is cut at 256 characters: never the 300,000 of the file.
    expect(rows[0]?.fullName).toBe(`${'N'.repeat(256)}…`);
    expect(rows[4]?.fullName).toBe(`${hugeName.slice(0, 256)}…`);
    expect(previewed.data.summary).toEqual({ nuevos: 1, yaEstaban: 0, conErrores: 5 });
    expect(await members(event.id)).toEqual(before);

    const confirmed = answered(await confirm(event.id, 'forma.csv', file));
    expect(confirmed.data).toEqual({
      added: 1,
      summary: { nuevos: 1, yaEstaban: 0, conErrores: 5 },
      skipped: rows.filter((row) => row.status !== 'new'),
    });
    const stored = await app.db
      .selectFrom('exhibitors')
      .select(['email', 'full_name', 'company'])
      .where('email', 'in', [1, 2, 3, 4, 5, 6].map(address))
      .execute();
    expect(stored).toEqual([
      { email: address(6), full_name: 'B'.repeat(200), company: 'C'.repeat(200) },
    ]);
  });

  it('reads a cell of an xlsx no further than 256 characters and refuses the name it held', async () => {
    const { event } = await eventWithOneMember();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Hoja1');
    sheet.addRow(['Email', 'Nombre completo', 'Empresa']);
    sheet.addRow([`largo.${event.id}@empresa.test`, 'Z'.repeat(100_000), 'Acme']);
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    const response = answered(await preview(event.id, 'largo.xlsx', data));
    expect(response.status).toBe(200);
    expect(response.data.rows).toEqual([
      {
        row: 2,
        fullName: `${'Z'.repeat(256)}…`,
        email: `largo.${event.id}@empresa.test`,
        company: 'Acme',
        status: 'invalidName',
        message: MSG.invalidInput,
      },
    ]);
  });

  it('signs in an exhibitor whose stored name is 300,000 characters: the display cookie carries 200', async () => {
    // Such a name got in through the import before it applied the form's rules; the cookie that
    // showed it made the sign-in answer's headers larger than any HTTP client accepts.
    const hugeName = `Ana\u0001${'x'.repeat(300_000)}`;
    const exhibitor = await seedExhibitor(app.db, {
      email: `nombre.enorme.${Date.now()}@empresa.test`,
      fullName: hugeName,
    });
    await app.t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.t.app.server.address() as AddressInfo).port}`;
    // Over real HTTP, which the typed client (light-my-request) does not speak: the contract's
    // paths, its bodies typed.
    const post = <E extends typeof startSignIn | typeof signInWithCode>(
      endpoint: E,
      body: InputOf<E>['body'],
    ) =>
      fetch(`${base}${endpoint.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_VALUE },
        body: JSON.stringify(body),
      });
    expect((await post(startSignIn, { email: exhibitor.email })).status).toBe(200);
    await app.t.deliverMail();
    const code = /\b(\d{6})\b/.exec(app.t.smtp.latestTo(exhibitor.email)?.text ?? '')?.[1] ?? '';
    const signedIn = await post(signInWithCode, { email: exhibitor.email, code });
    expect(signedIn.status).toBe(200);
    const display = signedIn.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith(`${CURRENT_USER_COOKIE}=`));
    expect(display).toBeDefined();
    expect(display!.length).toBeLessThan(4096);
    const value = display!.slice(CURRENT_USER_COOKIE.length + 1, display!.indexOf(';'));
    expect(JSON.parse(decodeURIComponent(value))).toEqual({
      role: 'exh',
      email: exhibitor.email,
      fullName: `${hugeName.slice(0, 199)}…`,
    });
    // The session works: the name the app shows from it is the stored one, whole.
    const session = sessionCookieOf(signedIn);
    const me = await fetch(`${base}${getSession.path}`, { headers: { cookie: session } });
    expect(sessionResponse.parse(await me.json()).user?.fullName).toBe(hugeName);
  });

  it('gives the template with the three headers', async () => {
    const { status, data, response } = answered(await app.api.send(rosterTemplate, {}));
    expect(status).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="plantilla-expositores.xlsx"; filename*=UTF-8''plantilla-expositores.xlsx`,
    );
    const workbook = await openWorkbook(data);
    expect(workbook.worksheets[0]?.getRow(1).values).toEqual([
      undefined,
      'Nombre completo',
      'Email',
      'Empresa',
    ]);
  });
});
