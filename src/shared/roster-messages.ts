import { MSG } from './messages.ts';

/**
 * Importing exhibitors from a file: its limits, why a file is refused (catalogue messages), the
 * "Estado" of each row of the preview and its summary line.
 */

/** Largest file accepted, in bytes (5 MB). */
export const ROSTER_MAX_BYTES = 5 * 1024 * 1024;
/** Most exhibitor rows one file may hold (the header row not counted). */
export const ROSTER_MAX_ROWS = 5000;
/** Most columns a row may have (the header's and every other). */
export const ROSTER_MAX_COLUMNS = 100;
/**
 * Longest cell text kept, once trimmed: longer ones are cut there and end in "…". It is above every
 * field's own limit (200 for names, 254 for addresses), so a cut cell always fails its field's rule
 * and is never stored cut; and it bounds what the preview echoes back.
 */
export const ROSTER_MAX_CELL_CHARS = 256;
/**
 * An .xlsx is a zip archive: what its directory says it unpacks to, in total, and how much any part
 * over 1 MB may be compressed. A real roster of 5,000 rows unpacks to a few megabytes at ratios
 * under 20 (Excel's 400,000 rows: 36 MB); a decompression bomb packs hundreds of megabytes into a
 * few kilobytes. Reading stops at row 5,001 and keeps only the cells it needs, so what is within
 * these bounds costs time in proportion, never memory.
 */
export const ROSTER_MAX_UNPACKED_BYTES = 50 * 1024 * 1024;
export const ROSTER_MAX_PACKING_RATIO = 100;

/** The headers of the template, which are also the preferred names of the columns. */
export const ROSTER_TEMPLATE_HEADERS = ['Nombre completo', 'Email', 'Empresa'] as const;

export const ROSTER_FILE_MESSAGES = {
  unsupportedType: MSG.rosterUnsupportedType,
  empty: MSG.rosterEmpty,
  noEmailColumn: MSG.rosterNoEmailColumn,
  tooManyRows: MSG.rosterTooManyRows,
  tooLarge: MSG.rosterTooLarge,
  tooManyColumns: MSG.rosterTooManyColumns,
  unpackedTooLarge: MSG.rosterUnpackedTooLarge,
} as const;

export type RosterFileErrorCode = keyof typeof ROSTER_FILE_MESSAGES;

export const ROSTER_ROW_STATUSES = [
  'new',
  'alreadyInEvent',
  'missingEmail',
  'invalidEmail',
  'missingName',
  'invalidName',
  'invalidCompany',
  'repeatedInFile',
  'isAdmin',
] as const;
export type RosterRowStatus = (typeof ROSTER_ROW_STATUSES)[number];

/** The "Estado" column of the preview. */
export const ROSTER_ROW_STATUS_LABELS: Record<RosterRowStatus, string> = {
  new: 'Nuevo',
  alreadyInEvent: 'Ya está en el evento',
  missingEmail: 'Falta el email',
  invalidEmail: 'Email inválido',
  missingName: 'Falta el nombre',
  invalidName: 'Nombre inválido',
  invalidCompany: 'Empresa inválida',
  repeatedInFile: 'Repetido en el archivo',
  isAdmin: 'Es un administrador',
};

export interface RosterSummary {
  nuevos: number;
  yaEstaban: number;
  conErrores: number;
}

/** The line under the preview: "{n} nuevos, {m} ya estaban, {k} con errores". */
export function rosterSummaryText(summary: RosterSummary): string {
  return `${summary.nuevos} nuevos, ${summary.yaEstaban} ya estaban, ${summary.conErrores} con errores`;
}

/**
 * The toast after an import: how many exhibitors it added, and how many of them got no invitation
 * because their address already had its invitations for the hour.
 */
export function rosterImportedText(added: number, invitationsWithheld = 0): string {
  const addedText = added === 1 ? 'Se agregó 1 expositor.' : `Se agregaron ${added} expositores.`;
  if (invitationsWithheld === 0) return addedText;
  const withheldText =
    invitationsWithheld === 1
      ? '1 invitación no se envió: la dirección ya recibió varias en la última hora. Puede reenviarla más tarde.'
      : `${invitationsWithheld} invitaciones no se enviaron: las direcciones ya recibieron varias en la última hora. Puede reenviarlas más tarde.`;
  return `${addedText} ${withheldText}`;
}

/** A row as "Descargar filas omitidas" writes it. */
export interface SkippedRosterRow {
  row: number;
  fullName: string;
  email: string;
  company: string;
  status: RosterRowStatus;
  message?: string;
}

/** The name of the file of skipped rows. */
export const SKIPPED_ROWS_FILE_NAME = 'filas-omitidas.csv';

/** A CSV field, quoted when it holds the delimiter, a quote or a line break. */
const csvField = (value: string | number): string => {
  const text = String(value);
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * "Descargar filas omitidas": the rows an import did not add, with the file's row number and their
 * "Estado" (and the form's message for a name or company it refused). Semicolons and a byte order
 * mark, as Excel in Spanish opens a CSV; after correcting it, the same file can be imported again
 * (its "Fila" and "Estado" columns are named as ignored).
 */
export function skippedRowsCsv(rows: readonly SkippedRosterRow[]): string {
  const lines = [
    ['Fila', ...ROSTER_TEMPLATE_HEADERS, 'Estado'],
    ...rows.map((row) => [
      row.row,
      row.fullName,
      row.email,
      row.company,
      ROSTER_ROW_STATUS_LABELS[row.status] + (row.message ? `: ${row.message}` : ''),
    ]),
  ];
  return `\uFEFF${lines.map((line) => line.map(csvField).join(';')).join('\r\n')}\r\n`;
}

/** Rows with an error first (in file order), then the rest: what needs attention is on top. */
export function errorsFirst<Row extends { row: number; status: RosterRowStatus }>(
  rows: readonly Row[],
): Row[] {
  const isError = (row: Row) => row.status !== 'new' && row.status !== 'alreadyInEvent';
  return [...rows].sort((a, b) => Number(isError(b)) - Number(isError(a)) || a.row - b.row);
}

/** "Columna ignorada: {header}": a column of the file the import does not read. */
export const ignoredColumnText = (header: string) => `Columna ignorada: ${header}`;
