import { z } from 'zod';
import {
  optionalEmailField,
  optionalPastedDigitsField,
  optionalText,
  pastedDigitsField,
  requiredText,
} from './common.ts';

/**
 * The nine fields of the nominee form, in the form's and the exports' order. The reseller's name,
 * legal name and fiscal id are always required; the other six may be empty here, each checked
 * when given (digits for the phone, an address for the email). Whether the event requires them
 * ("Datos del nominado") is checked against its settings: `missingRequiredFields` in
 * ../nominee-fields.ts, by the server on every save and correction and by the forms.
 */
export const nomineeInput = z.object({
  name: requiredText(),
  registeredName: requiredText(),
  fiscalId: pastedDigitsField(20),
  contactName: optionalText(),
  contactPosition: optionalText(),
  phone: optionalPastedDigitsField(20),
  email: optionalEmailField,
  location: optionalText(),
  city: optionalText(),
});
export type NomineeInput = z.input<typeof nomineeInput>;
export type Nominee = z.output<typeof nomineeInput>;

/**
 * A nominee as listed: the fields plus its 1-based order in the list. Answers are serialised
 * through it, so it names the fields without the form's rules (stored values were checked on the
 * way in).
 */
export const nomineeView = z.object({
  name: z.string(),
  registeredName: z.string(),
  fiscalId: z.string(),
  contactName: z.string(),
  contactPosition: z.string(),
  phone: z.string(),
  email: z.string(),
  location: z.string(),
  city: z.string(),
  order: z.number().int(),
});
export type NomineeView = z.output<typeof nomineeView>;

/** Form labels, in the order of the form; browser tests find the fields by these names. */
export const NOMINEE_FIELD_LABELS: Record<keyof Nominee, string> = {
  name: 'Nombre del reseller',
  registeredName: 'Razón social',
  fiscalId: 'ID fiscal',
  contactName: 'Nombre del contacto',
  contactPosition: 'Cargo del contacto',
  phone: 'Teléfono',
  email: 'Email',
  location: 'Localidad',
  city: 'Región',
};

export const emptyNominee: NomineeInput = {
  name: '',
  registeredName: '',
  fiscalId: '',
  contactName: '',
  contactPosition: '',
  phone: '',
  email: '',
  location: '',
  city: '',
};
