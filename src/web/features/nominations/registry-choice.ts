import type { NomineeInput } from '../../../shared/schemas/nominee.ts';
import type { RegistrySearchEntry } from '../../../shared/schemas/registry-search.ts';

/** The fields a chosen entry fills and that stay read-only until "Cambiar". */
export const REGISTRY_FIELDS = ['name', 'registeredName', 'fiscalId', 'location', 'city'] as const;

/** Whether a field of the form is one of the reseller's own, filled from the chosen entry. */
export const isRegistryField = (field: string): boolean =>
  (REGISTRY_FIELDS as readonly string[]).includes(field);

/** Whether the form holds a reseller (chosen from the registry, or stored when editing). */
export const hasRegistryFields = (values: NomineeInput): boolean =>
  REGISTRY_FIELDS.some((field) => (values[field] ?? '').trim() !== '');

const CONTACT_FIELDS = ['contactName', 'contactPosition', 'phone', 'email'] as const;

/**
 * The form's values once an entry of "Buscar en el padrón" is chosen: its five reseller fields,
 * and its contact (the registry's default one, or the one typed in an earlier nomination) when
 * it has one; otherwise what was typed in the contact fields stays.
 */
export function valuesFromEntry(entry: RegistrySearchEntry, typed: NomineeInput): NomineeInput {
  const values: NomineeInput = { ...typed };
  for (const field of REGISTRY_FIELDS) values[field] = entry[field];
  if (CONTACT_FIELDS.some((field) => entry[field] !== '')) {
    for (const field of CONTACT_FIELDS) values[field] = entry[field];
  }
  return values;
}

/** The form's values after "Cambiar": the chosen entry's reseller fields emptied again. */
export function valuesWithoutEntry(typed: NomineeInput): NomineeInput {
  const values: NomineeInput = { ...typed };
  for (const field of REGISTRY_FIELDS) values[field] = '';
  return values;
}
