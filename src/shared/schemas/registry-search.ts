import { z } from 'zod';
import { MSG } from '../messages.ts';
import { hasOnlyTextCharacters } from './common.ts';

/** How many entries "Buscar en el padrón" lists at most, per group. */
export const REGISTRY_SEARCH_LIMIT = 8;

/** The registry is searched from this many characters on (fewer list nothing from it). */
export const REGISTRY_SEARCH_MIN_LENGTH = 2;

/** `?q=…`: what was typed in "Buscar en el padrón" (name, company name or fiscal id). */
export const registrySearchQuery = z.object({
  q: z
    .string(MSG.invalidInput)
    .trim()
    .max(100, MSG.invalidInput)
    .refine(hasOnlyTextCharacters, MSG.invalidCharacters)
    .default(''),
});
export type RegistrySearchQuery = z.input<typeof registrySearchQuery>;

/** A reseller the combobox offers: the nominee form's fields it fills. */
export const registrySearchEntry = z.object({
  fiscalId: z.string(),
  name: z.string(),
  registeredName: z.string(),
  location: z.string(),
  city: z.string(),
  contactName: z.string(),
  contactPosition: z.string(),
  phone: z.string(),
  email: z.string(),
});
export type RegistrySearchEntry = z.output<typeof registrySearchEntry>;

/**
 * The combobox's two groups: registry entries ("{Nombre del reseller} · {ID fiscal}", with the
 * entry's default contact), and, for an exhibitor only, "Mis nominaciones anteriores": resellers
 * this exhibitor nominated before, each with the contact they typed then. An administrator's
 * answer never has the second group.
 */
export const registrySearchResponse = z.object({
  registry: z.array(registrySearchEntry),
  earlier: z.array(registrySearchEntry),
});
export type RegistrySearchResponse = z.output<typeof registrySearchResponse>;

/** The option's text: "{Nombre del reseller} · {ID fiscal}". */
export const registryOptionLabel = (entry: Pick<RegistrySearchEntry, 'name' | 'fiscalId'>) =>
  `${entry.name} · ${entry.fiscalId}`;
