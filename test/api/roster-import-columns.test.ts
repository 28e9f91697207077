import ExcelJS from 'exceljs';
import { answered } from '../helpers/client.ts';
import { describe, expect, it } from 'vitest';
import { importRoster, previewRoster, rosterTemplate } from '../../src/shared/api/exhibitors.ts';
import {
  ignoredColumnText,
  ROSTER_ROW_STATUS_LABELS,
  skippedRowsCsv,
} from '../../src/shared/roster-messages.ts';
import { openWorkbook } from '../helpers/workbook.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent } from '../helpers/seed.ts';

/*
 * Issue 32, item 1: an import never loses data silently. The column names people really use are
 * read, a column the import does not read is named, an empty address says so, and the rows left
 * out come back with their "Estado".
 */

const csv = (text: string) => Buffer.from(text, 'utf8');

describe('import columns and skipped rows', () => {
  const app = useTestApp();

  const preview = (eventId: string, filename: string, data: Buffer) =>
    app.api.send(previewRoster, { params: { eventId } }, { file: { filename, data } });
  const confirm = (eventId: string, filename: string, data: Buffer) =>
    app.api.send(
      importRoster,
      { params: { eventId }, query: { sendInvitations: 'false' } },
      { file: { filename, data } },
    );

  const stored = async (eventId: string) =>
    (
      await app.db
        .selectFrom('event_exhibitors as m')
        .innerJoin('exhibitors as x', 'x.id', 'm.exhibitor_id')
        .select(['x.email', 'x.full_name', 'x.company'])
        .where('m.event_id', '=', eventId)
        .orderBy('x.email')
        .execute()
    ).map((row) => [row.email, row.full_name, row.company]);

  it.each([
    ['Nombre y apellido', 'Correo electrónico', 'Compañía'],
    ['Nombre completo', 'Correo', 'Empresa'],
    ['Nombre', 'Mail', 'Razón social'],
    ['NOMBRE', 'E-mail', 'Organización'],
  ])('reads "%s", "%s" and "%s" as name, email and company', async (name, email, company) => {
    const event = await seedEvent(app.db);
    const file = csv(`${company};${name};${email}\nCanal Sur SA;Álvaro Núñez;alvaro@sur.test\n`);
    const previewed = await preview(event.id, 'lista.csv', file);
    expect(previewed.status).toBe(200);
    expect(answered(previewed).data).toEqual({
      rows: [
        {
          row: 2,
          fullName: 'Álvaro Núñez',
          email: 'alvaro@sur.test',
          company: 'Canal Sur SA',
          status: 'new',
        },
      ],
      summary: { nuevos: 1, yaEstaban: 0, conErrores: 0 },
      ignoredColumns: [],
    });
    expect((await confirm(event.id, 'lista.csv', file)).status).toBe(200);
    expect(await stored(event.id)).toEqual([['alvaro@sur.test', 'Álvaro Núñez', 'Canal Sur SA']]);
  });

  it('names every column it does not read, as typed, in an xlsx too', async () => {
    const event = await seedEvent(app.db);
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Hoja1').addRows([
      ['Nombre', 'Teléfono', 'Correo electrónico', 'Email', 'Compañía', 'Cargo', 'Nombre completo'],
      ['Ana', '341 555', 'ana@uno.test', 'otra@uno.test', 'Uno SA', 'CEO', 'Ana Pérez'],
    ]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const previewed = await preview(event.id, 'lista.xlsx', bytes);
    expect(previewed.status).toBe(200);
    const body = answered(previewed).data;
    // "Email" is preferred to "Correo electrónico", "Nombre completo" to "Nombre".
    expect(body.rows).toEqual([
      {
        row: 2,
        fullName: 'Ana Pérez',
        email: 'otra@uno.test',
        company: 'Uno SA',
        status: 'new',
      },
    ]);
    expect(body.ignoredColumns).toEqual(['Nombre', 'Teléfono', 'Correo electrónico', 'Cargo']);
    expect(body.ignoredColumns.map(ignoredColumnText)).toEqual([
      'Columna ignorada: Nombre',
      'Columna ignorada: Teléfono',
      'Columna ignorada: Correo electrónico',
      'Columna ignorada: Cargo',
    ]);
  });

  it('says "Falta el email" for a row without an address, "Email inválido" for a wrong one', async () => {
    const event = await seedEvent(app.db);
    const file = csv(
      'Nombre completo;Email;Empresa\nSin Correo;;Uno SA\nMal Correo;mal@;Uno SA\nBien;bien@uno.test;Uno SA\n',
    );
    const { rows } = answered(await preview(event.id, 'lista.csv', file)).data;
    expect(rows.map((row) => [row.row, ROSTER_ROW_STATUS_LABELS[row.status]])).toEqual([
      [2, 'Falta el email'],
      [3, 'Email inválido'],
      [4, 'Nuevo'],
    ]);
    const confirmed = await confirm(event.id, 'lista.csv', file);
    expect(confirmed.status).toBe(200);
    expect(answered(confirmed).data.summary).toEqual({ nuevos: 1, yaEstaban: 0, conErrores: 2 });
    expect(await stored(event.id)).toEqual([['bien@uno.test', 'Bien', 'Uno SA']]);
  });

  it('answers the import with every row left out, as the import found it, to download', async () => {
    const event = await seedEvent(app.db);
    const file = csv(
      [
        'Nombre completo;Email;Empresa',
        'Uno;uno@uno.test;Uno SA',
        'Sin Correo;;"Dos; SA"',
        ';sin.nombre@uno.test;Tres SA',
        'Uno Otra Vez;UNO@uno.test;Uno SA',
      ].join('\n'),
    );
    const confirmed = await confirm(event.id, 'lista.csv', file);
    expect(confirmed.status).toBe(200);
    const body = answered(confirmed).data;
    expect(body.added).toBe(1);
    expect(body.skipped).toEqual([
      { row: 3, fullName: 'Sin Correo', email: '', company: 'Dos; SA', status: 'missingEmail' },
      {
        row: 4,
        fullName: '',
        email: 'sin.nombre@uno.test',
        company: 'Tres SA',
        status: 'missingName',
      },
      {
        row: 5,
        fullName: 'Uno Otra Vez',
        email: 'UNO@uno.test',
        company: 'Uno SA',
        status: 'repeatedInFile',
      },
    ]);
    // The file "Descargar filas omitidas" saves: Excel's Spanish CSV, each row with its Estado.
    expect(skippedRowsCsv(body.skipped)).toBe(
      '\uFEFFFila;Nombre completo;Email;Empresa;Estado\r\n' +
        '3;Sin Correo;;"Dos; SA";Falta el email\r\n' +
        '4;;sin.nombre@uno.test;Tres SA;Falta el nombre\r\n' +
        '5;Uno Otra Vez;UNO@uno.test;Uno SA;Repetido en el archivo\r\n',
    );
    // Imported again unchanged, every row is now left out: the one added is already there.
    const again = answered(await confirm(event.id, 'lista.csv', file)).data;
    expect(again.added).toBe(0);
    expect(again.skipped.map((row) => [row.row, row.status])).toEqual([
      [2, 'alreadyInEvent'],
      [3, 'missingEmail'],
      [4, 'missingName'],
      [5, 'alreadyInEvent'],
    ]);
  });

  it('gives the template with its headers and one example row at a reserved address', async () => {
    const template = await app.api.call(rosterTemplate, {});
    const workbook = await openWorkbook(template);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBe(2);
    expect(sheet?.getRow(2).values).toEqual([
      undefined,
      'María José Álvarez',
      'maria.alvarez@example.com',
      'Distribuidora Ejemplo SA',
    ]);
    // Previewed as it comes, it is one new exhibitor and no ignored column.
    const event = await seedEvent(app.db);
    const previewed = await preview(event.id, 'plantilla-expositores.xlsx', template);
    expect(answered(previewed).data).toMatchObject({
      summary: { nuevos: 1, yaEstaban: 0, conErrores: 0 },
      ignoredColumns: [],
    });
  });
});
