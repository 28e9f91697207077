import {
  isFieldAsked,
  missingRequiredFields,
  type NomineeFieldSettings,
} from '../../../shared/nominee-fields.ts';
import {
  NOMINEE_FIELD_LABELS,
  nomineeInput,
  type Nominee,
  type NomineeInput,
} from '../../../shared/schemas/nominee.ts';

/** The nominee form's fields, in the order the form shows them. */
export const NOMINEE_FIELDS = Object.keys(NOMINEE_FIELD_LABELS) as (keyof Nominee)[];

/** The fields the event asks for ("Datos del nominado"), in the form's order. */
export const askedFields = (settings: NomineeFieldSettings) =>
  NOMINEE_FIELDS.filter((field) => isFieldAsked(field, settings));

export type NomineeFieldErrors = Partial<Record<keyof Nominee, string>>;

/**
 * The form's values checked as the server checks them: each field's first message from the
 * shared schema, then "Este campo es obligatorio" on the fields the event requires and left empty.
 */
export function checkNominee(
  values: NomineeInput,
  settings: NomineeFieldSettings,
): { values: Nominee } | { errors: NomineeFieldErrors } {
  const parsed = nomineeInput.safeParse(values);
  const errors: NomineeFieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof Nominee;
      errors[field] ??= issue.message;
    }
  }
  // Required-but-empty, read from what was typed (trimmed), also when another field is wrong.
  const typed = Object.fromEntries(
    NOMINEE_FIELDS.map((field) => [field, (values[field] ?? '').trim()]),
  ) as Nominee;
  for (const [field, message] of Object.entries(missingRequiredFields(typed, settings))) {
    errors[field as keyof Nominee] ??= message;
  }
  for (const field of NOMINEE_FIELDS) {
    if (!isFieldAsked(field, settings)) delete errors[field];
  }
  if (parsed.success && Object.keys(errors).length === 0) return { values: parsed.data };
  return { errors };
}

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
