import { MSG } from './messages.ts';

/*
 * The programme's reseller registry ("Padrón de resellers", issue 27): the rules events take from
 * it, its import's limits, the "Estado" of each row of the import's preview and its summary line.
 */

/** "Resellers nominables" of the event dialogs: anyone, or only fiscal ids of the registry. */
export const NOMINABLE_RESELLERS = ['any', 'registry'] as const;
export type NominableResellers = (typeof NOMINABLE_RESELLERS)[number];
export const NOMINABLE_RESELLERS_LABELS: Record<NominableResellers, string> = {
  any: 'Cualquiera',
  registry: 'Solo los del padrón',
};

/** Rows of the registry's table per page. */
export const REGISTRY_PAGE_SIZE = 25;

/** Largest import file accepted, in bytes (10 MB: 20,000 rows of nine fields fit in 3). */
export const REGISTRY_MAX_BYTES = 10 * 1024 * 1024;
/** Most rows one import file may hold (the header row not counted). */
export const REGISTRY_MAX_ROWS = 20_000;

/** The headers of the template, which are also the preferred names of the columns. */
export const REGISTRY_TEMPLATE_HEADERS = [
  'ID fiscal',
  'Nombre del reseller',
  'Razón social',
  'Localidad',
  'Región',
  'Nombre del contacto',
  'Cargo del contacto',
  'Teléfono',
  'Email',
] as const;

export const REGISTRY_FILE_MESSAGES = {
  unsupportedType: MSG.rosterUnsupportedType,
  empty: MSG.rosterEmpty,
  noFiscalIdColumn: MSG.registryNoFiscalIdColumn,
  tooManyRows: MSG.registryTooManyRows,
  tooLarge: MSG.registryTooLarge,
  tooManyColumns: MSG.rosterTooManyColumns,
  unpackedTooLarge: MSG.rosterUnpackedTooLarge,
} as const;
export type RegistryFileErrorCode = keyof typeof REGISTRY_FILE_MESSAGES;

export const REGISTRY_ROW_STATUSES = [
  'new',
  'update',
  'unchanged',
  'invalidFiscalId',
  'missingName',
  'invalidValue',
  'repeatedInFile',
] as const;
export type RegistryRowStatus = (typeof REGISTRY_ROW_STATUSES)[number];

/** The "Estado" column of the preview. */
export const REGISTRY_ROW_STATUS_LABELS: Record<RegistryRowStatus, string> = {
  new: 'Nuevo',
  update: 'Actualiza',
  unchanged: 'Sin cambios',
  invalidFiscalId: 'ID fiscal inválido',
  missingName: 'Falta el nombre',
  // A value the registry's form would refuse (an email, a phone, a text too long): with its message.
  invalidValue: 'Dato inválido',
  repeatedInFile: 'Repetido en el archivo',
};

/** Statuses whose row the import writes; the others but "Sin cambios" are errors. */
export const isRegistryRowError = (status: RegistryRowStatus): boolean =>
  status !== 'new' && status !== 'update' && status !== 'unchanged';

export interface RegistrySummary {
  nuevos: number;
  actualizados: number;
  sinCambios: number;
  conErrores: number;
}

/** The line under the preview: "{n} nuevos, {m} actualizados, {k} con errores". */
export function registrySummaryText(summary: RegistrySummary): string {
  return `${summary.nuevos} nuevos, ${summary.actualizados} actualizados, ${summary.conErrores} con errores`;
}

/** The toast after an import. */
export function registryImportedText(summary: RegistrySummary): string {
  return `Padrón importado: ${registrySummaryText(summary)}.`;
}
