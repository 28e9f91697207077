import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import {
  ROSTER_FILE_MESSAGES,
  ROSTER_MAX_BYTES,
  ROSTER_MAX_ROWS,
  ROSTER_TEMPLATE_HEADERS,
  type RosterFileErrorCode,
  type RosterRowStatus,
  type RosterSummary,
} from '../../../shared/roster-messages.ts';
import { emailField } from '../../../shared/schemas/common.ts';
import { writeWorkbook } from '../../lib/xlsx.ts';

/** One exhibitor row of an import file, as typed (trimmed). */
export interface RosterRow {
  /** The row number the user sees in the sheet: the header row is 1. */
  row: number;
  fullName: string;
  /** Trimmed, in the case it was typed; comparisons use the lower-cased address. */
  email: string;
  company: string;
}

export interface RosterFileError {
  code: RosterFileErrorCode;
  message: (typeof ROSTER_FILE_MESSAGES)[RosterFileErrorCode];
}

export type RosterFileResult =
  { ok: true; rows: RosterRow[] } | { ok: false; error: RosterFileError };

export interface RosterFile {
  /** The name the file had on the user's computer; its extension says which format to read. */
  fileName: string;
  bytes: Uint8Array;
}

/** A sheet reduced to its non-blank rows, each with its row number and trimmed cell texts. */
type Table = { row: number; cells: string[] }[];

const fileError = (code: RosterFileErrorCode): RosterFileResult => ({
  ok: false,
  error: { code, message: ROSTER_FILE_MESSAGES[code] },
});

/**
 * Reads the exhibitors of an import file: `.csv` (comma or semicolon, UTF-8 with or without BOM,
 * or Windows-1252) or `.xlsx` (its first sheet). Columns are found by their header wherever they
 * are; rows left blank are skipped. A file that cannot be read gives an error, never an exception.
 */
export async function readRosterFile(file: RosterFile): Promise<RosterFileResult> {
  if (file.bytes.length > ROSTER_MAX_BYTES) return fileError('tooLarge');
  const extension = path.extname(file.fileName).toLowerCase();
  if (extension !== '.csv' && extension !== '.xlsx') return fileError('unsupportedType');
  if (file.bytes.length === 0) return fileError('empty');
  // An .xlsx is a zip archive; a text file is neither a zip nor holds NUL bytes. A file renamed
  // to the other extension is refused rather than read as garbage.
  const isZip = startsWith(file.bytes, ZIP_SIGNATURE);
  const table =
    extension === '.xlsx'
      ? isZip
        ? await xlsxTable(file.bytes)
        : null
      : isZip || file.bytes.includes(0)
        ? null
        : csvTable(decodeText(file.bytes));
  if (!table) return fileError('unsupportedType');
  return rowsOf(table);
}

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/**
 * UTF-8 when the bytes are valid UTF-8 (its BOM dropped), else Windows-1252, which is what Excel in
 * Spanish writes when it saves "CSV (delimitado por comas)". Windows-1252 text with accents is
 * almost never valid UTF-8, so the check tells them apart.
 */
function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

const CSV_DELIMITERS = [';', ','] as const;

/**
 * The delimiter that splits the header into more columns. Excel writes semicolons where the decimal
 * separator is a comma, as in Spanish, and commas elsewhere; a header never holds the other one.
 */
function detectDelimiter(text: string): string {
  const header = text.split(/\r\n|\n|\r/).find((line) => line.trim() !== '') ?? '';
  let best: string = CSV_DELIMITERS[1];
  let bestCount = 0;
  for (const delimiter of CSV_DELIMITERS) {
    const count = csvRecords(header, delimiter)?.[0]?.length ?? 0;
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}

/** The records of a CSV text, or null when it is not well-formed CSV (an unclosed quote). */
function csvRecords(text: string, delimiter: string): string[][] | null {
  try {
    return parseCsv(text, {
      delimiter,
      bom: true,
      // Blank lines stay as records so that each record's index is its row number in Excel.
      skip_empty_lines: false,
      relax_column_count: true,
      relax_quotes: true,
    }) as string[][];
  } catch {
    return null;
  }
}

function csvTable(text: string): Table | null {
  const records = csvRecords(text, detectDelimiter(text));
  if (!records) return null;
  const table: Table = [];
  records.forEach((record, index) => {
    const cells = record.map((cell) => cell.trim());
    if (cells.some((cell) => cell !== '')) table.push({ row: index + 1, cells });
  });
  return table;
}

/** The first sheet of a workbook, or null when the bytes are not a workbook exceljs can read. */
async function xlsxTable(bytes: Uint8Array): Promise<Table | null> {
  // exceljs takes a third of a second to load: only imports pay for it, not every start.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's typings name their own Buffer (an ArrayBuffer); a copy of the bytes is one.
    await workbook.xlsx.load(bytes.slice().buffer);
  } catch {
    return null;
  }
  const sheet = workbook.worksheets[0];
  const table: Table = [];
  sheet?.eachRow((row, rowNumber) => {
    const cells: string[] = [];
    // `text` is what Excel shows: a hyperlinked address's text, a formula's result.
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cell.text.trim();
    });
    const filled = Array.from(cells, (cell) => cell ?? '');
    if (filled.some((cell) => cell !== '')) table.push({ row: rowNumber, cells: filled });
  });
  return table;
}

type RosterField = 'fullName' | 'email' | 'company';

/** The header names each field answers to, preferred first, as compared (see headerKey). */
const FIELD_HEADERS: Record<RosterField, string[]> = {
  fullName: ['nombre completo', 'nombre'],
  email: ['email', 'correo', 'e-mail'],
  company: ['empresa'],
};

/** A header as compared: no accents, lower case, spaces trimmed and collapsed. */
function headerKey(header: string): string {
  return header
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

function columnOf(headers: string[], field: RosterField): number {
  for (const name of FIELD_HEADERS[field]) {
    const index = headers.indexOf(name);
    if (index !== -1) return index;
  }
  return -1;
}

/** The first non-blank row is the header; every later one is an exhibitor. */
function rowsOf(table: Table): RosterFileResult {
  const [header, ...body] = table;
  if (!header) return fileError('empty');
  const headers = header.cells.map(headerKey);
  const emailColumn = columnOf(headers, 'email');
  if (emailColumn === -1) return fileError('noEmailColumn');
  if (body.length === 0) return fileError('empty');
  if (body.length > ROSTER_MAX_ROWS) return fileError('tooManyRows');
  const nameColumn = columnOf(headers, 'fullName');
  const companyColumn = columnOf(headers, 'company');
  const cell = (cells: string[], column: number) => (column === -1 ? '' : (cells[column] ?? ''));
  return {
    ok: true,
    rows: body.map(({ row, cells }) => ({
      row,
      fullName: cell(cells, nameColumn),
      email: cell(cells, emailColumn),
      company: cell(cells, companyColumn),
    })),
  };
}

export interface ClassifiedRosterRow extends RosterRow {
  status: RosterRowStatus;
  /** The address as stored (trimmed, lower case), or null when it is not a valid address. */
  normalizedEmail: string | null;
}

export interface RosterPreview {
  rows: ClassifiedRosterRow[];
  summary: RosterSummary;
}

export interface RosterContext {
  /** Addresses of the event's exhibitors, lower case as stored. */
  eventEmails: ReadonlySet<string>;
  /** Addresses of every administrator, lower case as stored. */
  adminEmails: ReadonlySet<string>;
}

/**
 * The "Estado" of each row. A row gets the first that applies, in this order:
 * 1. "Email inválido": no address, or one the app's forms would refuse;
 * 2. "Falta el nombre": no full name;
 * 3. "Es un administrador": an address can never be both;
 * 4. "Ya está en el evento": every row of an address the event already has;
 * 5. "Repetido en el archivo": an address an earlier "Nuevo" row already brings;
 * 6. "Nuevo".
 * So a row says the first thing to fix in it, and an address is added at most once: by its first
 * row that is complete, even when an earlier row of it lacked the name. Addresses compare trimmed
 * and case-insensitively. Only "Nuevo" rows are added; "Ya está en el evento" rows are counted as
 * already there; every other row counts as an error.
 */
export function classifyRosterRows(rows: RosterRow[], context: RosterContext): RosterPreview {
  const claimed = new Set<string>();
  const summary: RosterSummary = { nuevos: 0, yaEstaban: 0, conErrores: 0 };
  const classified = rows.map((row): ClassifiedRosterRow => {
    const parsed = emailField.safeParse(row.email);
    const normalizedEmail = parsed.success ? parsed.data : null;
    const status = statusOf(row, normalizedEmail, context, claimed);
    if (status === 'new') summary.nuevos += 1;
    else if (status === 'alreadyInEvent') summary.yaEstaban += 1;
    else summary.conErrores += 1;
    return { ...row, status, normalizedEmail };
  });
  return { rows: classified, summary };
}

function statusOf(
  row: RosterRow,
  email: string | null,
  context: RosterContext,
  claimed: Set<string>,
): RosterRowStatus {
  if (email === null) return 'invalidEmail';
  if (row.fullName === '') return 'missingName';
  if (context.adminEmails.has(email)) return 'isAdmin';
  if (context.eventEmails.has(email)) return 'alreadyInEvent';
  if (claimed.has(email)) return 'repeatedInFile';
  claimed.add(email);
  return 'new';
}

/** The file behind "Descargar plantilla": one sheet with the three headers and nothing else. */
export function rosterTemplateXlsx(): Promise<Buffer> {
  return writeWorkbook('Expositores', [...ROSTER_TEMPLATE_HEADERS], []);
}
