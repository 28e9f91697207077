import { NOMINEE_FIELD_LABELS, type Nominee } from '../../../shared/schemas/nominee.ts';

/** The nominee form's fields, in the order the form shows them. */
export const NOMINEE_FIELDS = Object.keys(NOMINEE_FIELD_LABELS) as (keyof Nominee)[];

const DIGITS_ONLY: (keyof Nominee)[] = ['fiscalId', 'phone'];

/** How a field is typed: digits get a phone's number pad; lengths as the schema allows. */
export function nomineeInputAttributes(field: keyof Nominee) {
  return DIGITS_ONLY.includes(field)
    ? { inputMode: 'numeric' as const, pattern: '[0-9]*', maxLength: 20 }
    : { maxLength: 200 };
}
