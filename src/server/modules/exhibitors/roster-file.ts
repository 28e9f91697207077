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
  headerKey,
  readSheetFile,
  type SheetFile,
  type SheetLimits,
  type SheetRow,
} from '../../lib/sheet-file.ts';

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

/** An import file as uploaded. */
export type RosterFile = SheetFile;

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
 * Reads the exhibitors of an import file (`readSheetFile`: `.csv` or `.xlsx`, bounded whatever the
 * file holds). Columns are found by their header wherever they are; rows left blank are skipped. A
 * file that cannot be read gives an error, never an exception.
 */
export async function readRosterFile(file: RosterFile): Promise<RosterFileResult> {
  const sheet = await readSheetFile(file, { ...SHEET_LIMITS, maxBytes: ROSTER_MAX_BYTES });
  if (!sheet.ok) return fileError(sheet.code);
  return rowsOf(sheet.rows, sheet.stoppedEarly);
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
