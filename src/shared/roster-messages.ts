/**
 * The texts of importing exhibitors from a file: why a file is refused, the "Estado" of each row of
 * the preview and its summary line. Kept apart until they join the message catalogue.
 */

/** Largest file accepted, in bytes (5 MB). */
export const ROSTER_MAX_BYTES = 5 * 1024 * 1024;
/** Most exhibitor rows one file may hold (the header row not counted). */
export const ROSTER_MAX_ROWS = 5000;

/** The headers of the template, which are also the preferred names of the columns. */
export const ROSTER_TEMPLATE_HEADERS = ['Nombre completo', 'Email', 'Empresa'] as const;

export const ROSTER_FILE_MESSAGES = {
  unsupportedType: 'El archivo debe ser CSV o Excel (.xlsx).',
  empty: 'El archivo está vacío.',
  noEmailColumn: 'El archivo no tiene una columna "Email".',
  tooManyRows: 'El archivo tiene más de 5.000 filas.',
  tooLarge: 'El archivo supera el tamaño máximo de 5 MB.',
} as const;

export type RosterFileErrorCode = keyof typeof ROSTER_FILE_MESSAGES;

export const ROSTER_ROW_STATUSES = [
  'new',
  'alreadyInEvent',
  'invalidEmail',
  'missingName',
  'repeatedInFile',
  'isAdmin',
] as const;
export type RosterRowStatus = (typeof ROSTER_ROW_STATUSES)[number];

/** The "Estado" column of the preview. */
export const ROSTER_ROW_STATUS_LABELS: Record<RosterRowStatus, string> = {
  new: 'Nuevo',
  alreadyInEvent: 'Ya está en el evento',
  invalidEmail: 'Email inválido',
  missingName: 'Falta el nombre',
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
