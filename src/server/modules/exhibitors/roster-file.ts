import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { finished } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse as parseCsvStream, type CastingFunction } from 'csv-parse';
import { parse as parseCsv } from 'csv-parse/sync';
import {
  ROSTER_FILE_MESSAGES,
  ROSTER_MAX_BYTES,
  ROSTER_MAX_COLUMNS,
  ROSTER_MAX_ROWS,
  ROSTER_TEMPLATE_HEADERS,
  type RosterFileErrorCode,
  type RosterRowStatus,
  type RosterSummary,
} from '../../../shared/roster-messages.ts';
import { emailField } from '../../../shared/schemas/common.ts';
import { exhibitorInput } from '../../../shared/schemas/exhibitors.ts';
import { writeWorkbook } from '../../lib/xlsx.ts';
import {
  cellText,
  readFirstSheet,
  type SheetLimits,
  type SheetResult,
  type SheetRow,
} from './roster-xlsx.ts';

/** One exhibitor row of an import file, as typed (trimmed, cut at ROSTER_MAX_CELL_CHARS). */
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
  | {
      ok: true;
      rows: RosterRow[];
      /** The headers, as typed, of the columns the import does not read ("Columna ignorada"). */
      ignoredColumns: string[];
    }
  | { ok: false; error: RosterFileError };

export interface RosterFile {
  /** The name the file had on the user's computer; its extension says which format to read. */
  fileName: string;
  bytes: Uint8Array;
}

const fileError = (code: RosterFileErrorCode): RosterFileResult => ({
  ok: false,
  error: { code, message: ROSTER_FILE_MESSAGES[code] },
});

/**
 * Rows (blank ones included) read at most. Blank rows are skipped and not counted as exhibitors,
 * but a file cannot make us go through millions of them: past this many it has more than 5,000.
 */
const MAX_LINES = 10 * ROSTER_MAX_ROWS;

const SHEET_LIMITS: SheetLimits = {
  // The header, 5,000 exhibitors and one more: enough to tell that there are too many.
  maxRows: ROSTER_MAX_ROWS + 2,
  maxLines: MAX_LINES,
  maxColumns: ROSTER_MAX_COLUMNS,
};

/**
 * Reads the exhibitors of an import file: `.csv` (comma or semicolon, UTF-8 with or without BOM,
 * or Windows-1252) or `.xlsx` (its first sheet). Columns are found by their header wherever they
 * are; rows left blank are skipped. A file that cannot be read gives an error, never an exception.
 * Reading is bounded whatever the file holds (rows, columns, cell length, what an .xlsx unpacks
 * to) and yields to other requests as it goes.
 */
export async function readRosterFile(file: RosterFile): Promise<RosterFileResult> {
  if (file.bytes.length > ROSTER_MAX_BYTES) return fileError('tooLarge');
  const extension = path.extname(file.fileName).toLowerCase();
  if (extension !== '.csv' && extension !== '.xlsx') return fileError('unsupportedType');
  if (file.bytes.length === 0) return fileError('empty');
  // An .xlsx is a zip archive; a text file is neither a zip nor holds NUL bytes. A file renamed
  // to the other extension is refused rather than read as garbage.
  const isZip = startsWith(file.bytes, ZIP_SIGNATURE);
  const sheet: SheetResult =
    extension === '.xlsx'
      ? isZip
        ? await readFirstSheet(file.bytes, SHEET_LIMITS)
        : { ok: false, code: 'unsupportedType' }
      : isZip || file.bytes.includes(0)
        ? { ok: false, code: 'unsupportedType' }
        : await csvSheet(file.bytes, SHEET_LIMITS);
  if (!sheet.ok) return fileError(sheet.code);
  return rowsOf(sheet.rows, sheet.stoppedEarly);
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
function textDecoder(bytes: Uint8Array): TextDecoder {
  return new TextDecoder(isUtf8(bytes) ? 'utf-8' : 'windows-1252');
}

const CSV_DELIMITERS = [';', ','] as const;

/**
 * How much of the file is looked at to pick the delimiter: the header with room to spare (it is
 * short, and blank lines before it are few). csv-parse takes long on one huge field.
 */
const HEADER_SEARCH_BYTES = 4 * 1024;

/** Refuses, as csv-parse reads them, the fields past ROSTER_MAX_COLUMNS: parsing stops there. */
class TooManyColumns extends Error {}
const boundedColumns: CastingFunction = (value, context) => {
  if (context.index >= ROSTER_MAX_COLUMNS) throw new TooManyColumns();
  return value;
};

const CSV_OPTIONS = {
  bom: true,
  // Blank lines stay as records so that each record's index is its row number in Excel.
  skip_empty_lines: false,
  relax_column_count: true,
  relax_quotes: true,
  cast: boundedColumns,
};

/**
 * The delimiter that splits the header into more columns. Excel writes semicolons where the decimal
 * separator is a comma, as in Spanish, and commas elsewhere; a header never holds the other one.
 */
function detectDelimiter(text: string): string {
  const header = text.split(/\r\n|\n|\r/).find((line) => line.trim() !== '') ?? '';
  let best: string = CSV_DELIMITERS[1];
  let bestCount = 0;
  for (const delimiter of CSV_DELIMITERS) {
    const count = headerColumns(header, delimiter);
    if (count > bestCount) {
      best = delimiter;
      bestCount = count;
    }
  }
  return best;
}

function headerColumns(line: string, delimiter: string): number {
  try {
    const records = parseCsv(line, { ...CSV_OPTIONS, delimiter }) as string[][];
    return records[0]?.length ?? 0;
  } catch (error) {
    return error instanceof TooManyColumns ||
      (error as { cause?: unknown }).cause instanceof TooManyColumns
      ? ROSTER_MAX_COLUMNS + 1
      : 0;
  }
}

/** Bytes decoded and parsed at a time; between two, other requests get their turn. */
const CSV_CHUNK_BYTES = 4 * 1024;

/**
 * The non-blank records of a CSV file, decoded and parsed a chunk at a time and no further than
 * the limits need; refused when it is not well-formed CSV (an unclosed quote) or has too many
 * columns.
 */
async function csvSheet(bytes: Uint8Array, limits: SheetLimits): Promise<SheetResult> {
  const decoder = textDecoder(bytes);
  const start = new TextDecoder(decoder.encoding).decode(bytes.subarray(0, HEADER_SEARCH_BYTES));
  const parser = parseCsvStream({ ...CSV_OPTIONS, delimiter: detectDelimiter(start) });
  const rows: SheetRow[] = [];
  let lines = 0;
  let stoppedEarly = false;
  let failure: unknown = null;
  parser.on('error', (error) => {
    failure = error;
  });
  parser.on('data', (record: string[]) => {
    if (stoppedEarly) return;
    lines += 1;
    if (lines > limits.maxLines) {
      stoppedEarly = true;
      return;
    }
    const cells = record.map(cellText);
    if (!cells.some((cell) => cell !== '')) return;
    rows.push({ row: lines, cells });
    if (rows.length >= limits.maxRows) stoppedEarly = true;
  });
  for (let offset = 0; offset < bytes.length; offset += CSV_CHUNK_BYTES) {
    const chunk = bytes.subarray(offset, offset + CSV_CHUNK_BYTES);
    parser.write(decoder.decode(chunk, { stream: true }));
    await nextTurn();
    if (stoppedEarly || failure) break;
  }
  if (!stoppedEarly && !failure) {
    parser.end(decoder.decode());
    await finished(parser).catch((error: unknown) => {
      failure = error;
    });
  } else {
    parser.destroy();
  }
  if (failure) {
    const tooWide =
      failure instanceof TooManyColumns ||
      (failure as { cause?: unknown }).cause instanceof TooManyColumns;
    return { ok: false, code: tooWide ? 'tooManyColumns' : 'unsupportedType' };
  }
  return { ok: true, rows, stoppedEarly };
}

type RosterField = 'fullName' | 'email' | 'company';

/**
 * The header names each field answers to, preferred first, as compared (see headerKey): the names
 * people give these columns in the spreadsheets they already have (issue 32: a "Compañía" column
 * was once dropped without a word and "Correo electrónico" refused).
 */
export const FIELD_HEADERS: Record<RosterField, string[]> = {
  fullName: ['nombre completo', 'nombre y apellido', 'nombre'],
  email: ['email', 'correo electronico', 'correo', 'e-mail', 'mail'],
  company: ['empresa', 'compania', 'razon social', 'organizacion'],
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

/**
 * The first non-blank row is the header; every later one is an exhibitor. `stoppedEarly`: reading
 * stopped before the end because the file has more rows than allowed.
 */
function rowsOf(table: SheetRow[], stoppedEarly: boolean): RosterFileResult {
  const [header, ...body] = table;
  if (!header) return stoppedEarly ? fileError('tooManyRows') : fileError('empty');
  const headers = header.cells.map(headerKey);
  const emailColumn = columnOf(headers, 'email');
  if (emailColumn === -1) return fileError('noEmailColumn');
  if (stoppedEarly || body.length > ROSTER_MAX_ROWS) return fileError('tooManyRows');
  if (body.length === 0) return fileError('empty');
  const nameColumn = columnOf(headers, 'fullName');
  const companyColumn = columnOf(headers, 'company');
  const cell = (cells: string[], column: number) => (column === -1 ? '' : (cells[column] ?? ''));
  const used = new Set([emailColumn, nameColumn, companyColumn]);
  return {
    ok: true,
    rows: body.map(({ row, cells }) => ({
      row,
      fullName: cell(cells, nameColumn),
      email: cell(cells, emailColumn),
      company: cell(cells, companyColumn),
    })),
    // Named so that nothing a file holds is dropped without a word; a column without a header
    // holds nothing anyone named, and is left out of the list.
    ignoredColumns: header.cells.filter((text, index) => !used.has(index) && text !== ''),
  };
}

export interface ClassifiedRosterRow extends RosterRow {
  status: RosterRowStatus;
  /** For "Nombre inválido" and "Empresa inválida": what the exhibitor form says of that value. */
  message?: string;
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
 * 1. "Falta el email": no address; "Email inválido": one the app's forms would refuse;
 * 2. "Falta el nombre": no full name;
 * 3. "Nombre inválido": a name the exhibitor form would refuse (longer than 200 characters,
 *    characters a text may not hold), with the form's message;
 * 4. "Empresa inválida": likewise for a company; a file without the company stays allowed
 *    (docs/decisions/0012);
 * 5. "Es un administrador": an address can never be both;
 * 6. "Ya está en el evento": every row of an address the event already has;
 * 7. "Repetido en el archivo": an address an earlier "Nuevo" row already brings;
 * 8. "Nuevo".
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
    const { status, message } = statusOf(row, normalizedEmail, context, claimed);
    if (status === 'new') summary.nuevos += 1;
    else if (status === 'alreadyInEvent') summary.yaEstaban += 1;
    else summary.conErrores += 1;
    return { ...row, status, ...(message === undefined ? {} : { message }), normalizedEmail };
  });
  return { rows: classified, summary };
}

/** The exhibitor form's message for a value of one of its fields, or undefined when it passes. */
function formMessage(field: 'fullName' | 'company', value: string): string | undefined {
  const checked = exhibitorInput.shape[field].safeParse(value);
  return checked.success ? undefined : checked.error.issues[0]?.message;
}

function statusOf(
  row: RosterRow,
  email: string | null,
  context: RosterContext,
  claimed: Set<string>,
): { status: RosterRowStatus; message?: string } {
  if (row.email === '') return { status: 'missingEmail' };
  if (email === null) return { status: 'invalidEmail' };
  if (row.fullName === '') return { status: 'missingName' };
  const nameMessage = formMessage('fullName', row.fullName);
  if (nameMessage !== undefined) return { status: 'invalidName', message: nameMessage };
  const companyMessage = row.company === '' ? undefined : formMessage('company', row.company);
  if (companyMessage !== undefined) return { status: 'invalidCompany', message: companyMessage };
  if (context.adminEmails.has(email)) return { status: 'isAdmin' };
  if (context.eventEmails.has(email)) return { status: 'alreadyInEvent' };
  if (claimed.has(email)) return { status: 'repeatedInFile' };
  claimed.add(email);
  return { status: 'new' };
}

/**
 * The row under the template's headers, showing what each column holds. Its address is at a
 * domain reserved for examples (RFC 2606), so a template imported unchanged mails nobody real.
 */
export const ROSTER_TEMPLATE_EXAMPLE = [
  'María José Álvarez',
  'maria.alvarez@example.com',
  'Distribuidora Ejemplo SA',
] as const;

/** The file behind "Descargar plantilla": one sheet with the three headers and one example row. */
export function rosterTemplateXlsx(): Promise<Buffer> {
  return writeWorkbook('Expositores', [...ROSTER_TEMPLATE_HEADERS], [[...ROSTER_TEMPLATE_EXAMPLE]]);
}
