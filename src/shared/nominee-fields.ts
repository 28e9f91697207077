import { z } from 'zod';
import { MSG } from './messages.ts';
import { NOMINEE_FIELD_LABELS, type Nominee } from './schemas/nominee.ts';

/*
 * Which of the nominee form's fields an event asks for ("Datos del nominado" in the event
 * dialogs). "Nombre del reseller", "Razón social" and "ID fiscal" are always asked: they are what
 * the ranking counts and shows. Each of the other six is required (the specification's form and a
 * new event's default), optional, or not asked at all (hidden from the exhibitor's form and the
 * administrator's correction).
 */

/** The fields an event may make optional or leave out, in the form's order. */
export const CONFIGURABLE_NOMINEE_FIELDS = [
  'contactName',
  'contactPosition',
  'phone',
  'email',
  'location',
  'city',
] as const satisfies readonly (keyof Nominee)[];
export type ConfigurableNomineeField = (typeof CONFIGURABLE_NOMINEE_FIELDS)[number];

export const FIELD_REQUIREMENTS = ['required', 'optional', 'hidden'] as const;
export type FieldRequirement = (typeof FIELD_REQUIREMENTS)[number];

/** The options of each field's select in "Datos del nominado". */
export const FIELD_REQUIREMENT_LABELS: Record<FieldRequirement, string> = {
  required: 'Obligatorio',
  optional: 'Opcional',
  hidden: 'No se pide',
};

export type NomineeFieldSettings = Record<ConfigurableNomineeField, FieldRequirement>;

/** The specification's form: every field required. What a new event gets unless told otherwise. */
export const DEFAULT_NOMINEE_FIELDS: NomineeFieldSettings = {
  contactName: 'required',
  contactPosition: 'required',
  phone: 'required',
  email: 'required',
  location: 'required',
  city: 'required',
};

const requirement = z.enum(FIELD_REQUIREMENTS);

/** The settings as an event dialog sends them: one requirement per field, all six named. */
export const nomineeFieldSettings = z.object({
  contactName: requirement,
  contactPosition: requirement,
  phone: requirement,
  email: requirement,
  location: requirement,
  city: requirement,
}) satisfies z.ZodType<NomineeFieldSettings>;

/**
 * Stored settings (a JSON text) as settings: a field it does not name, or names with a value this
 * version does not know, is required, as for events from before the settings existed.
 */
export function readNomineeFieldSettings(stored: string): NomineeFieldSettings {
  const parsed = storedSettings.safeParse(parseJson(stored));
  const record = parsed.success ? parsed.data : {};
  const settings = { ...DEFAULT_NOMINEE_FIELDS };
  for (const field of CONFIGURABLE_NOMINEE_FIELDS) {
    const value = requirement.safeParse(record[field]);
    if (value.success) settings[field] = value.data;
  }
  return settings;
}

/** Stored settings read field by field: any object, each value checked on its own. */
const storedSettings = z.record(z.string(), z.unknown());

/** A stored JSON text as a value, or undefined when it is not JSON at all. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const nomineeFieldSettingsColumn = (settings: NomineeFieldSettings): string =>
  JSON.stringify(settings);

/** Whether the form shows the field: always for the three fixed ones, else unless "No se pide". */
export function isFieldAsked(field: keyof Nominee, settings: NomineeFieldSettings): boolean {
  return !(CONFIGURABLE_NOMINEE_FIELDS as readonly string[]).includes(field)
    ? true
    : settings[field as ConfigurableNomineeField] !== 'hidden';
}

/** Whether the form requires the field: always for the three fixed ones, else when "Obligatorio". */
export function isFieldRequired(field: keyof Nominee, settings: NomineeFieldSettings): boolean {
  return !(CONFIGURABLE_NOMINEE_FIELDS as readonly string[]).includes(field)
    ? true
    : settings[field as ConfigurableNomineeField] === 'required';
}

/**
 * "Este campo es obligatorio" on each required field left empty (the values' format was checked
 * by the form's schema already); none when all are given.
 */
export function missingRequiredFields(
  values: Nominee,
  settings: NomineeFieldSettings,
): Partial<Record<keyof Nominee, typeof MSG.requiredField>> {
  const missing: Partial<Record<keyof Nominee, typeof MSG.requiredField>> = {};
  for (const field of CONFIGURABLE_NOMINEE_FIELDS) {
    if (settings[field] === 'required' && values[field] === '') missing[field] = MSG.requiredField;
  }
  return missing;
}

/**
 * The values to store: a field the event does not ask keeps what the entry held (`kept`, an edit
 * or a correction) or stays empty (a new entry), whatever was sent for it. So a field set to "No
 * se pide" after nominations exist loses nothing, and shows again if it is asked again.
 */
export function withUnaskedFieldsKept(
  values: Nominee,
  settings: NomineeFieldSettings,
  kept?: Nominee,
): Nominee {
  const result = { ...values };
  for (const field of CONFIGURABLE_NOMINEE_FIELDS) {
    if (settings[field] === 'hidden') result[field] = kept?.[field] ?? '';
  }
  return result;
}

/** "Nombre del contacto: Obligatorio → No se pide; …" for every field whose setting changed. */
export function nomineeFieldChanges(
  before: NomineeFieldSettings,
  after: NomineeFieldSettings,
): string[] {
  return CONFIGURABLE_NOMINEE_FIELDS.filter((field) => before[field] !== after[field]).map(
    (field) =>
      `${NOMINEE_FIELD_LABELS[field]}: ${FIELD_REQUIREMENT_LABELS[before[field]]} → ${
        FIELD_REQUIREMENT_LABELS[after[field]]
      }`,
  );
}
