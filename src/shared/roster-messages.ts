import { MSG } from './messages.ts';

/**
 * Importing exhibitors from a file: its limits, why a file is refused (catalogue messages), the
 * "Estado" of each row of the preview and its summary line.
 */

/** Largest file accepted, in bytes (5 MB). */
export const ROSTER_MAX_BYTES = 5 * 1024 * 1024;
/** Most exhibitor rows one file may hold (the header row not counted). */
export const ROSTER_MAX_ROWS = 5000;

/** The headers of the template, which are also the preferred names of the columns. */
export const ROSTER_TEMPLATE_HEADERS = ['Nombre completo', 'Email', 'Empresa'] as const;

export const ROSTER_FILE_MESSAGES = {
  unsupportedType: MSG.rosterUnsupportedType,
  empty: MSG.rosterEmpty,
  noEmailColumn: MSG.rosterNoEmailColumn,
  tooManyRows: MSG.rosterTooManyRows,
  tooLarge: MSG.rosterTooLarge,
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
