/**
 * The check digit of an Argentine CUIT/CUIL (11 digits): the weights 5 4 3 2 7 6 5 4 3 2 over the
 * first ten digits, 11 minus the sum modulo 11; 11 gives 0 and 10 is never valid (AFIP issues
 * another prefix instead). "Validar CUIT" applies it only to ids of 11 digits: others (foreign
 * ids) are not CUITs and pass.
 */
const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

export function isValidCuit(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  const sum = WEIGHTS.reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
  const check = 11 - (sum % 11);
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === Number(digits[10]);
}

/** Whether `fiscalId` (digits only) is refused by "Validar CUIT": 11 digits, wrong check digit. */
export function failsCuitCheck(fiscalId: string, validate: boolean): boolean {
  return validate && /^\d{11}$/.test(fiscalId) && !isValidCuit(fiscalId);
}

/**
 * A fiscal id as people paste it, without the dashes and spaces they add ("20-12345678-6"): its
 * digits, or null when anything else is left ("ID fiscal inválido").
 */
export function fiscalIdDigits(pasted: string): string | null {
  const digits = pasted.replace(/[\s-]/g, '');
  return /^\d{1,20}$/.test(digits) ? digits : null;
}
