import { NOMINEE_FIELD_LABELS, type Nominee } from '../../../shared/schemas/nominee.ts';

/** The nominee form's fields, in the order the form shows them. */
export const NOMINEE_FIELDS = Object.keys(NOMINEE_FIELD_LABELS) as (keyof Nominee)[];

/**
 * How a field is typed: the fiscal id gets a phone's number pad, the phone a phone's keypad
 * (`type=tel`, which has "+" and spaces). Both take what people paste (`30-70998877-4`,
 * `+54 341 456-7890`): no pattern, and room for the separators the schema drops.
 */
export function nomineeInputAttributes(field: keyof Nominee) {
  if (field === 'fiscalId') return { inputMode: 'numeric' as const, maxLength: 40 };
  if (field === 'phone') return { maxLength: 40 };
  return { maxLength: 200 };
}

/** The input's type: a phone's keypad for "Teléfono", the email keyboard for "Email". */
export const nomineeInputType = (field: keyof Nominee) =>
  field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text';
