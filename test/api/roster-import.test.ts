import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROSTER_FILE_MESSAGES, rosterSummaryText } from '../../src/shared/roster-messages.ts';
import { MSG } from '../../src/shared/messages.ts';
import { createTestApp, TEST_NOW, type Session, type TestApp } from '../helpers/app.ts';
import { multipart } from '../helpers/multipart.ts';
import { seedAdmin, seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

const csv = (text: string) => Buffer.from(text, 'utf8');

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
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof seedAdmin>>;
  let as: Session;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await seedAdmin(t.deps.db, { fullName: 'Ana Administradora' });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    t.clock.set(TEST_NOW);
    as = await t.signIn({ role: 'admin', adminId: admin.id });
  });

  const upload = (url: string, fileName: string, data: Buffer) =>
    t.request({
      method: 'POST',
      url,
      as,
      ...multipart([{ name: 'file', filename: fileName, data }]),
    });
  const preview = (eventId: string, fileName: string, data: Buffer) =>
    upload(`/api/events/${eventId}/exhibitors/import/preview`, fileName, data);
  const confirm = (eventId: string, fileName: string, data: Buffer, query = '') =>
    upload(`/api/events/${eventId}/exhibitors/import${query}`, fileName, data);

  async function eventWithOneMember() {
    const event = await seedEvent(t.deps.db, { name: 'Premios Importación' });
    const member = await seedExhibitor(t.deps.db, { email: `ya.estaba.${event.id}@empresa.test` });
    await seedMembership(t.deps.db, event.id, member.id);
    const otherAdmin = await seedAdmin(t.deps.db, { email: `admin.${event.id}@premios.test` });
    return { event, taken: { member: member.email, admin: otherAdmin.email } };
  }

  const members = async (eventId: string) =>
    (
      await t.deps.db
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
    const response = await preview(event.id, 'expositores.csv', mixedFile(taken));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.rows.map((r: { row: number; status: string }) => [r.row, r.status])).toEqual([
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
    const response = await confirm(event.id, 'expositores.csv', mixedFile(taken));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      added: 2,
      summary: { nuevos: 2, yaEstaban: 1, conErrores: 4 },
    });
    expect(await members(event.id)).toEqual([
      ['nueva.dos@empresa.test', 'Nueva Dos', 'Acme'],
      ['nueva.uno@empresa.test', 'Nueva Uno', 'Acme'],
      [taken.member, expect.any(String), expect.any(String)],
    ]);
    const mail = await t.deps.db
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
    await t.deliverMail();
    expect((await t.smtp.waitFor('nueva.uno@empresa.test')).text).toContain('Premios Importación');
    const audit = await t.deps.db
      .selectFrom('audit_log')
      .select(['actor_id', 'details'])
      .where('event_id', '=', event.id)
      .where('action', '=', 'exhibitors.imported')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_id).toBe(admin.id);
    expect(JSON.parse(audit[0]?.details ?? '{}')).toMatchObject({
      fileName: 'expositores.csv',
      added: ['nueva.uno@empresa.test', 'nueva.dos@empresa.test'],
      invitationsSent: true,
    });

    // The same file again: everybody is already there, nothing is added or sent.
    const again = await confirm(event.id, 'expositores.csv', mixedFile(taken));
    expect(again.json()).toEqual({
      added: 0,
      summary: { nuevos: 0, yaEstaban: 4, conErrores: 3 },
    });
  });

  it('queues no invitation when "Enviar invitaciones" is unchecked, and reuses an exhibitor of another event', async () => {
    const { event } = await eventWithOneMember();
    const elsewhere = await seedExhibitor(t.deps.db, {
      email: `de.otro.evento.${event.id}@empresa.test`,
      fullName: 'Nombre Original',
    });
    const file = csv(
      `Nombre completo,Email,Empresa\nOtro Nombre,${elsewhere.email},Otra\nSolo Nuevo,solo.nuevo.${event.id}@empresa.test,S\n`,
    );
    const response = await confirm(event.id, 'lista.csv', file, '?sendInvitations=false');
    expect(response.json().added).toBe(2);
    const invitations = await t.deps.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('event_id', '=', event.id)
      .where('template', '=', 'exhibitor-invitation')
      .execute();
    expect(invitations).toEqual([]);
    const reused = await t.deps.db
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
    const response = await preview(event.id, 'Expositores.XLSX', data);
    expect(response.statusCode).toBe(200);
    expect(response.json().rows).toEqual([
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
      for (const response of [
        await preview(event.id, name, data),
        await confirm(event.id, name, data),
      ]) {
        expect(response.statusCode).toBe(status);
        expect(response.json().error).toMatchObject({ message, fields: { file: message } });
      }
      expect(await members(event.id)).toEqual(before);
    },
  );

  it('answers 400 in Spanish to a request without a file or with a broken multipart body', async () => {
    const { event } = await eventWithOneMember();
    const noFile = await t.request({
      method: 'POST',
      url: `/api/events/${event.id}/exhibitors/import/preview`,
      as,
      ...multipart([{ name: 'nota', data: Buffer.from('hola') }]),
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error.message).toBe(MSG.noLogoFile);
    const broken = await t.request({
      method: 'POST',
      url: `/api/events/${event.id}/exhibitors/import`,
      as,
      payload: Buffer.from(
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nEmail',
      ),
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.message).toBe(MSG.invalidUpload);
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
    const added = replies.map((reply) => (reply.statusCode === 200 ? reply.json().added : 0));
    // Each attempt either added the whole file or found everybody there; an attempt that lost a
    // race on PostgreSQL is refused whole (409) rather than half-stored.
    expect(added.reduce((sum, n) => sum + n, 0)).toBe(30);
    for (const reply of replies) expect([200, 409]).toContain(reply.statusCode);
    expect((await members(event.id)).length).toBe(31);
    const invitations = await t.deps.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('event_id', '=', event.id)
      .where('template', '=', 'exhibitor-invitation')
      .execute();
    expect(invitations).toHaveLength(30);
  });

  it('gives the template with the three headers', async () => {
    const response = await t.request({ method: 'GET', url: '/api/exhibitors/import-template', as });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="plantilla-expositores.xlsx"; filename*=UTF-8''plantilla-expositores.xlsx`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload);
    expect(workbook.worksheets[0]?.getRow(1).values).toEqual([
      undefined,
      'Nombre completo',
      'Email',
      'Empresa',
    ]);
  });
});
