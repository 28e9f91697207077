/**
 * Why two fiscal ids of a category are probably the same reseller, as the "Posibles duplicados"
 * dialog says it. Kept apart until they join the message catalogue.
 */
export const DUPLICATE_REASONS = [
  'sameDigits',
  'lastDigit',
  'oneDigitApart',
  'sameName',
  'registryName',
] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

export const DUPLICATE_REASON_LABELS: Record<DuplicateReason, string> = {
  sameDigits: 'Mismo ID fiscal sin ceros a la izquierda ni símbolos',
  lastDigit: 'Solo difieren en el último dígito',
  oneDigitApart: 'Difieren en un dígito',
  sameName: 'Mismo nombre o razón social',
  registryName: 'Mismo nombre que un reseller del padrón',
};
