import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  ROSTER_FILE_MESSAGES,
  ROSTER_MAX_BYTES,
  ROSTER_ROW_STATUS_LABELS,
  rosterSummaryText,
} from '../../../shared/roster-messages.ts';
import {
  classifyRosterRows,
  readRosterFile,
  rosterTemplateXlsx,
  type RosterFileResult,
  type RosterRow,
} from './roster-file.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
const BOM = '\uFEFF';

/** The bytes Excel in Spanish writes for "CSV (delimitado por comas)": Windows-1252. */
function windows1252(text: string): Uint8Array {
  // Every character used here is in Latin-1, where Windows-1252 has the same bytes.
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

async function xlsx(rows: (string | null)[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Hoja1');
  rows.forEach((row, index) => {
    row.forEach((value, column) => {
      if (value !== null) sheet.getCell(index + 1, column + 1).value = value;
    });
  });
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

function rowsOf(result: RosterFileResult): RosterRow[] {
  if (!result.ok) throw new Error(`expected rows, got ${result.error.message}`);
  return result.rows;
}

function errorOf(result: RosterFileResult): string {
  if (result.ok) throw new Error('expected a file error');
  return result.error.message;
}

describe('readRosterFile: CSV', () => {
  it('reads a semicolon file in UTF-8 with BOM, rows numbered as the sheet shows them', async () => {
    const text = `${BOM}Nombre completo;Email;Empresa\r\nAna Pérez;Ana@Example.com ;Acme\r\nLuis Gómez;luis@example.com;Beta SA\r\n`;
    const rows = rowsOf(await readRosterFile({ fileName: 'lista.csv', bytes: utf8(text) }));
    expect(rows).toEqual([
      { row: 2, fullName: 'Ana Pérez', email: 'Ana@Example.com', company: 'Acme' },
      { row: 3, fullName: 'Luis Gómez', email: 'luis@example.com', company: 'Beta SA' },
    ]);
  });

  it('reads a comma file without BOM, quoted fields keeping their commas and semicolons', async () => {
    const text =
      'Nombre completo,Email,Empresa\n"Pérez, Ana",ana@example.com,"Acme; Sucursal Sur"\n';
    const rows = rowsOf(await readRosterFile({ fileName: 'lista.CSV', bytes: utf8(text) }));
    expect(rows).toEqual([
      { row: 2, fullName: 'Pérez, Ana', email: 'ana@example.com', company: 'Acme; Sucursal Sur' },
    ]);
  });

  it('reads Windows-1252 as Excel in Spanish saves it', async () => {
    const text = 'Nombre completo;Email;Empresa\r\nJosé Peña;jose@example.com;Año Nuevo SRL\r\n';
    const rows = rowsOf(await readRosterFile({ fileName: 'lista.csv', bytes: windows1252(text) }));
    expect(rows).toEqual([
      { row: 2, fullName: 'José Peña', email: 'jose@example.com', company: 'Año Nuevo SRL' },
    ]);
  });

  it('finds columns by header in any order, ignoring case, accents and spaces', async () => {
    const text = ' EMPRESA ;  correo;NÓMBRE COMPLETO \nAcme;ana@example.com;Ana Pérez\n';
    const rows = rowsOf(await readRosterFile({ fileName: 'x.csv', bytes: utf8(text) }));
    expect(rows).toEqual([
      { row: 2, fullName: 'Ana Pérez', email: 'ana@example.com', company: 'Acme' },
    ]);
  });

  it('takes "Nombre" and "E-mail" as the name and email columns, and no "Empresa" as empty', async () => {
    const text = 'E-mail,Nombre\nana@example.com,Ana\n';
    const rows = rowsOf(await readRosterFile({ fileName: 'x.csv', bytes: utf8(text) }));
    expect(rows).toEqual([{ row: 2, fullName: 'Ana', email: 'ana@example.com', company: '' }]);
  });

  it.each([
    ['Nombre y apellido;Correo electrónico;Compañía', 'Correo electrónico'],
    ['Nombre completo;Correo;Razón social', 'Correo'],
    ['Nombre;Mail;Organización', 'Mail'],
    ['NOMBRE Y APELLIDO;E-Mail;Empresa', 'E-Mail'],
  ])('reads the columns of the header "%s"', async (header) => {
    const text = `${header}\nAna Pérez;ana@example.com;Acme SA\n`;
    const read = await readRosterFile({ fileName: 'x.csv', bytes: utf8(text) });
    expect(read).toEqual({
      ok: true,
      rows: [{ row: 2, fullName: 'Ana Pérez', email: 'ana@example.com', company: 'Acme SA' }],
      ignoredColumns: [],
    });
  });

  it('names, as typed, every column with a header that it does not read', async () => {
    const text =
      'Nombre;Teléfono;Email;Correo;;Nombre completo;Cargo\nAna;341;ana@example.com;otra@example.com;x;Ana Pérez;CEO\n';
    const read = await readRosterFile({ fileName: 'x.csv', bytes: utf8(text) });
    expect(read).toMatchObject({
      ok: true,
      rows: [{ row: 2, fullName: 'Ana Pérez', email: 'ana@example.com', company: '' }],
      ignoredColumns: ['Nombre', 'Teléfono', 'Correo', 'Cargo'],
    });
  });

  it('prefers "Nombre completo" over "Nombre" when both are there', async () => {
    const text = 'Nombre;Email;Nombre completo\nAna;ana@example.com;Ana Pérez\n';
    const rows = rowsOf(await readRosterFile({ fileName: 'x.csv', bytes: utf8(text) }));
    expect(rows[0]?.fullName).toBe('Ana Pérez');
  });

  it('skips blank rows (also the ";;" Excel writes for them) without renumbering the rest', async () => {
    const text =
      'Nombre completo;Email;Empresa\n\nAna;ana@example.com;Acme\n;;\n"Luis\nGómez";luis@example.com;Beta\nEva;eva@example.com;Gama\n';
    const rows = rowsOf(await readRosterFile({ fileName: 'x.csv', bytes: utf8(text) }));
    expect(rows.map((row) => [row.row, row.fullName])).toEqual([
      [3, 'Ana'],
      [5, 'Luis\nGómez'],
      [6, 'Eva'],
    ]);
  });

  it('keeps short rows: missing cells are empty', async () => {
    const text = 'Nombre completo;Email;Empresa\nAna;ana@example.com\n';
    const rows = rowsOf(await readRosterFile({ fileName: 'x.csv', bytes: utf8(text) }));
    expect(rows).toEqual([{ row: 2, fullName: 'Ana', email: 'ana@example.com', company: '' }]);
  });
});

describe('readRosterFile: xlsx', () => {
  it('reads the first sheet, columns in another order with accented, upper-case headers', async () => {
    const workbook = new ExcelJS.Workbook();
    const first = workbook.addWorksheet('Expositores');
    first.addRow(['EMPRÉSA', '  E-MAIL ', 'Nombre Completo']);
    first.addRow(['Acme', 'Ana@Example.com', 'Ana Pérez']);
    first.addRow([]);
    first.addRow([
      'Beta',
      { text: 'luis@example.com', hyperlink: 'mailto:luis@example.com' },
      'Luis',
    ]);
    first.addRow(['Gama', 'eva@example.com', { formula: '"Eva "&"Díaz"', result: 'Eva Díaz' }]);
    workbook.addWorksheet('Otra').addRow(['Email']);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const rows = rowsOf(await readRosterFile({ fileName: 'Lista.XLSX', bytes }));
    expect(rows).toEqual([
      { row: 2, fullName: 'Ana Pérez', email: 'Ana@Example.com', company: 'Acme' },
      { row: 4, fullName: 'Luis', email: 'luis@example.com', company: 'Beta' },
      { row: 5, fullName: 'Eva Díaz', email: 'eva@example.com', company: 'Gama' },
    ]);
  });

  it('takes the header from the first non-blank row and keeps sheet row numbers', async () => {
    const bytes = await xlsx([[], ['Correo', 'Nombre'], ['ana@example.com', 'Ana']]);
    const rows = rowsOf(await readRosterFile({ fileName: 'x.xlsx', bytes }));
    expect(rows).toEqual([{ row: 3, fullName: 'Ana', email: 'ana@example.com', company: '' }]);
  });

  it('reads the downloaded template once its example row is replaced', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await rosterTemplateXlsx()) as unknown as ArrayBuffer);
    workbook.worksheets[0]?.spliceRows(2, 1, ['Ana Pérez', 'ana@example.com', 'Acme']);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const rows = rowsOf(await readRosterFile({ fileName: 'plantilla.xlsx', bytes }));
    expect(rows).toEqual([
      { row: 2, fullName: 'Ana Pérez', email: 'ana@example.com', company: 'Acme' },
    ]);
  });
});

describe('readRosterFile: files refused', () => {
  const header = 'Nombre completo;Email;Empresa\n';

  it.each([
    ['lista.pdf', utf8('%PDF-1.7')],
    ['lista.xls', utf8(header)],
    ['lista.txt', utf8(header)],
    ['lista', utf8(header)],
  ])('"%s" is neither CSV nor xlsx', async (fileName, bytes) => {
    expect(errorOf(await readRosterFile({ fileName, bytes }))).toBe(
      'El archivo debe ser CSV o Excel (.xlsx).',
    );
  });

  it('refuses a text file named .xlsx, a workbook named .csv and a broken workbook', async () => {
    const workbook = await xlsx([['Email'], ['ana@example.com']]);
    const broken = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]);
    for (const file of [
      { fileName: 'x.xlsx', bytes: utf8(`${header}Ana;ana@example.com;Acme\n`) },
      { fileName: 'x.csv', bytes: workbook },
      { fileName: 'x.xlsx', bytes: broken },
      { fileName: 'x.csv', bytes: new Uint8Array([0xff, 0xfe, 0x45, 0x00, 0x6d, 0x00]) },
    ]) {
      expect(errorOf(await readRosterFile(file))).toBe(ROSTER_FILE_MESSAGES.unsupportedType);
    }
  });

  it('refuses a CSV with an unclosed quote as not CSV', async () => {
    const bytes = utf8(`${header}"Ana;ana@example.com;Acme\n`);
    expect(errorOf(await readRosterFile({ fileName: 'x.csv', bytes }))).toBe(
      'El archivo debe ser CSV o Excel (.xlsx).',
    );
  });

  it('refuses an empty file, one with only blank lines or a BOM, and one with only the header', async () => {
    for (const file of [
      { fileName: 'x.csv', bytes: new Uint8Array() },
      { fileName: 'x.xlsx', bytes: new Uint8Array() },
      { fileName: 'x.csv', bytes: utf8(`${BOM}\r\n  \r\n;;\r\n`) },
      { fileName: 'x.csv', bytes: utf8(header) },
      { fileName: 'x.xlsx', bytes: await xlsx([]) },
      { fileName: 'x.xlsx', bytes: await xlsx([['Nombre completo', 'Email', 'Empresa']]) },
    ]) {
      expect(errorOf(await readRosterFile(file))).toBe('El archivo está vacío.');
    }
  });

  it('refuses a file without an "Email" column', async () => {
    const csv = utf8('Nombre completo;Dirección;Empresa\nAna;ana@example.com;Acme\n');
    expect(errorOf(await readRosterFile({ fileName: 'x.csv', bytes: csv }))).toBe(
      'El archivo no tiene una columna "Email".',
    );
    const workbook = await xlsx([
      ['Nombre', 'Empresa'],
      ['Ana', 'Acme'],
    ]);
    expect(errorOf(await readRosterFile({ fileName: 'x.xlsx', bytes: workbook }))).toBe(
      ROSTER_FILE_MESSAGES.noEmailColumn,
    );
  });

  it('accepts 5,000 rows and refuses 5,001', async () => {
    const lines = (count: number) =>
      Array.from({ length: count }, (_, i) => `Persona ${i};p${i}@example.com;Acme`).join('\n');
    const ok = await readRosterFile({ fileName: 'x.csv', bytes: utf8(header + lines(5000)) });
    expect(rowsOf(ok)).toHaveLength(5000);
    const tooMany = await readRosterFile({ fileName: 'x.csv', bytes: utf8(header + lines(5001)) });
    expect(errorOf(tooMany)).toBe('El archivo tiene más de 5.000 filas.');
  });

  it('accepts 5 MB and refuses a byte more, whatever the file says', async () => {
    const filler = (size: number) => {
      const bytes = new Uint8Array(size).fill(0x20);
      bytes.set(utf8(`${header}Ana;ana@example.com;Acme\n`));
      return bytes;
    };
    expect(
      rowsOf(await readRosterFile({ fileName: 'x.csv', bytes: filler(ROSTER_MAX_BYTES) })),
    ).toHaveLength(1);
    const tooLarge = await readRosterFile({
      fileName: 'x.csv',
      bytes: filler(ROSTER_MAX_BYTES + 1),
    });
    expect(errorOf(tooLarge)).toBe('El archivo supera el tamaño máximo de 5 MB.');
  });
});

describe('readRosterFile: bounds', () => {
  it('accepts 100 columns and refuses 101, in CSV and in xlsx', async () => {
    const headers = (count: number) => [
      'Email',
      ...Array.from({ length: count - 1 }, (_, i) => `C${i}`),
    ];
    const csvOf = (count: number) => utf8(`${headers(count).join(';')}\nana@example.com\n`);
    expect(rowsOf(await readRosterFile({ fileName: 'x.csv', bytes: csvOf(100) }))).toHaveLength(1);
    expect(errorOf(await readRosterFile({ fileName: 'x.csv', bytes: csvOf(101) }))).toBe(
      'El archivo tiene más de 100 columnas.',
    );
    const wide = await xlsx([headers(101), ['ana@example.com']]);
    expect(errorOf(await readRosterFile({ fileName: 'x.xlsx', bytes: wide }))).toBe(
      ROSTER_FILE_MESSAGES.tooManyColumns,
    );
  });

  it('cuts a cell at 256 characters once trimmed, ending it in "…"', async () => {
    const name = `  ${'a'.repeat(255)}b${'c'.repeat(10)}  `;
    const bytes = utf8(
      `Email;Nombre\nana@example.com;${name}\nluis@example.com;${'d'.repeat(256)}\n`,
    );
    const rows = rowsOf(await readRosterFile({ fileName: 'x.csv', bytes }));
    expect(rows.map((row) => row.fullName)).toEqual([`${'a'.repeat(255)}b…`, 'd'.repeat(256)]);
  });
});

describe('classifyRosterRows', () => {
  const context = {
    eventEmails: new Set(['ya@example.com']),
    adminEmails: new Set(['admin@example.com']),
  };
  const row = (n: number, fullName: string, email: string): RosterRow => ({
    row: n,
    fullName,
    email,
    company: 'Acme',
  });

  it('gives every row its "Estado" and sums them up', () => {
    const preview = classifyRosterRows(
      [
        row(2, 'Ana', 'ana@example.com'),
        row(3, 'Yanina', ' YA@example.com '),
        row(4, 'Sin arroba', 'ana.example.com'),
        row(5, '', 'nombre@example.com'),
        row(6, 'Ana otra vez', 'ANA@EXAMPLE.COM'),
        row(7, 'Admin', 'Admin@Example.com'),
        row(8, 'Sin email', ''),
      ],
      context,
    );
    expect(preview.rows.map((r) => [r.row, ROSTER_ROW_STATUS_LABELS[r.status]])).toEqual([
      [2, 'Nuevo'],
      [3, 'Ya está en el evento'],
      [4, 'Email inválido'],
      [5, 'Falta el nombre'],
      [6, 'Repetido en el archivo'],
      [7, 'Es un administrador'],
      [8, 'Falta el email'],
    ]);
    expect(preview.summary).toEqual({ nuevos: 1, yaEstaban: 1, conErrores: 5 });
    expect(rosterSummaryText(preview.summary)).toBe('1 nuevos, 1 ya estaban, 5 con errores');
  });

  it('keeps the address as typed and gives the stored form beside it', () => {
    const [ana, invalid] = classifyRosterRows(
      [row(2, 'Ana', 'Ana@Example.COM'), row(3, 'Luis', 'luis@')],
      context,
    ).rows;
    expect(ana).toMatchObject({ email: 'Ana@Example.COM', normalizedEmail: 'ana@example.com' });
    expect(invalid).toMatchObject({
      email: 'luis@',
      normalizedEmail: null,
      status: 'invalidEmail',
    });
  });

  it('uses the precedence: invalid email, missing name, administrator, in the event, repeated', () => {
    const statuses = classifyRosterRows(
      [
        row(2, '', 'not-an-email'),
        row(3, '', 'admin@example.com'),
        row(4, '', 'ya@example.com'),
        row(5, 'Admin', 'admin@example.com'),
        row(6, 'Admin otra vez', 'admin@example.com'),
        row(7, 'Ya', 'ya@example.com'),
        row(8, 'Ya otra vez', 'ya@example.com'),
      ],
      context,
    ).rows.map((r) => r.status);
    expect(statuses).toEqual([
      'invalidEmail',
      'missingName',
      'missingName',
      'isAdmin',
      'isAdmin',
      'alreadyInEvent',
      'alreadyInEvent',
    ]);
  });

  it('adds an address by its first complete row, even after a row of it without a name', () => {
    const statuses = classifyRosterRows(
      [
        row(2, '', 'eva@example.com'),
        row(3, 'Eva', 'eva@example.com'),
        row(4, 'Eva Díaz', 'Eva@example.com'),
      ],
      context,
    ).rows.map((r) => r.status);
    expect(statuses).toEqual(['missingName', 'new', 'repeatedInFile']);
  });

  it('refuses an address longer than the forms accept', () => {
    const long = `${'a'.repeat(250)}@example.com`;
    const [only] = classifyRosterRows([row(2, 'Ana', long)], context).rows;
    expect(only?.status).toBe('invalidEmail');
  });
});

describe('rosterTemplateXlsx', () => {
  it('is a workbook whose first sheet has the three headers and one example row', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await rosterTemplateXlsx()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBe(2);
    expect(sheet?.getRow(1).values).toEqual([undefined, 'Nombre completo', 'Email', 'Empresa']);
    expect(sheet?.getRow(2).values).toEqual([
      undefined,
      'María José Álvarez',
      'maria.alvarez@example.com',
      'Distribuidora Ejemplo SA',
    ]);
  });

  it('reads back as one new exhibitor at an address reserved for examples', async () => {
    const bytes = new Uint8Array(await rosterTemplateXlsx());
    const read = await readRosterFile({ fileName: 'plantilla-expositores.xlsx', bytes });
    expect(read).toEqual({
      ok: true,
      rows: [
        {
          row: 2,
          fullName: 'María José Álvarez',
          email: 'maria.alvarez@example.com',
          company: 'Distribuidora Ejemplo SA',
        },
      ],
      ignoredColumns: [],
    });
  });
});

describe('speed', () => {
  const people = Array.from({ length: 2000 }, (_, i) => [
    `Persona Número ${i}`,
    `persona${i}@example.com`,
    `Empresa ${i % 50}`,
  ]);
  const context = {
    eventEmails: new Set(Array.from({ length: 1000 }, (_, i) => `persona${i * 2}@example.com`)),
    adminEmails: new Set<string>(),
  };

  // Their speed is a budget of `npm run bench` (a 2,000-row file previewed and imported).
  it('parses and classifies 2,000 CSV rows', async () => {
    const text = ['Nombre completo;Email;Empresa', ...people.map((p) => p.join(';'))].join('\r\n');
    const bytes = windows1252(text);
    const preview = classifyRosterRows(
      rowsOf(await readRosterFile({ fileName: 'x.csv', bytes })),
      context,
    );
    expect(preview.summary).toEqual({ nuevos: 1000, yaEstaban: 1000, conErrores: 0 });
  });

  it('parses and classifies 2,000 xlsx rows', async () => {
    const bytes = await xlsx([['Nombre completo', 'Email', 'Empresa'], ...people]);
    const preview = classifyRosterRows(
      rowsOf(await readRosterFile({ fileName: 'x.xlsx', bytes })),
      context,
    );
    expect(preview.summary).toEqual({ nuevos: 1000, yaEstaban: 1000, conErrores: 0 });
  });
});
