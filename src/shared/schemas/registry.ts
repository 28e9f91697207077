import { z } from 'zod';
import { fiscalIdDigits } from '../cuit.ts';
import { MSG } from '../messages.ts';
import { REGISTRY_ROW_STATUSES } from '../registry.ts';
import {
  hasOnlyTextCharacters,
  optionalEmailField,
  optionalPastedDigitsField,
  optionalText,
  requiredText,
  whenMissing,
} from './common.ts';

/**
 * A registry entry as its form ("Nuevo reseller del padrón", "Editar reseller del padrón") sends
 * it: the nominee form's fields. The fiscal id is its digits once the dashes and spaces people
 * paste are removed (anything else: "ID fiscal inválido"); "Razón social" and the default contact
 * may be empty (decision 0029), each checked as the nominee form checks it when given.
 */
export const resellerInput = z.object({
  fiscalId: z
    .string({ error: whenMissing(MSG.requiredField) })
    .trim()
    .min(1, MSG.requiredField)
    .max(60, MSG.invalidFiscalId)
    .transform((value, context) => {
      const digits = fiscalIdDigits(value);
      if (digits === null) {
        context.addIssue({ code: 'custom', message: MSG.invalidFiscalId });
        return z.NEVER;
      }
      return digits;
    }),
  name: requiredText(),
  registeredName: optionalText(),
  location: optionalText(),
  city: optionalText(),
  contactName: optionalText(),
  contactPosition: optionalText(),
  phone: optionalPastedDigitsField(20),
  email: optionalEmailField,
});
export type ResellerInput = z.input<typeof resellerInput>;
export type Reseller = z.output<typeof resellerInput>;

export const emptyReseller: ResellerInput = {
  fiscalId: '',
  name: '',
  registeredName: '',
  location: '',
  city: '',
  contactName: '',
  contactPosition: '',
  phone: '',
  email: '',
};

/** A registry entry as listed, with how many stored nominations (any event) carry its fiscal id. */
export const resellerView = z.object({
  fiscalId: z.string(),
  name: z.string(),
  registeredName: z.string(),
  location: z.string(),
  city: z.string(),
  contactName: z.string(),
  contactPosition: z.string(),
  phone: z.string(),
  email: z.string(),
  nominations: z.number().int(),
});
export type ResellerView = z.output<typeof resellerView>;

/** `?page=N&q=…`: one page of the entries matching "Buscar". */
export const registryListQuery = z.object({
  page: z
    .string(MSG.invalidInput)
    .regex(/^[1-9]\d{0,5}$/, MSG.invalidInput)
    .transform(Number)
    .default(1),
  /** "Buscar": words of the name or company name, or the start of the fiscal id. */
  q: z
    .string(MSG.invalidInput)
    .trim()
    .max(200, MSG.invalidInput)
    .refine(hasOnlyTextCharacters, MSG.invalidCharacters)
    .default(''),
});
export type RegistryListQuery = z.input<typeof registryListQuery>;

/** One page of the registry by name; `total` matches the search, `all` counts the registry. */
export const registryListResponse = z.object({
  resellers: z.array(resellerView),
  total: z.number().int(),
  all: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** "Validar CUIT en el padrón". */
  validateCuit: z.boolean(),
});
export type RegistryListResponse = z.output<typeof registryListResponse>;

export const registrySettings = z.object({ validateCuit: z.boolean() });
export type RegistrySettings = z.output<typeof registrySettings>;

export const resellerParams = z.object({
  fiscalId: z.string().regex(/^\d{1,20}$/, MSG.apiNotFound),
});

const registrySummary = z.object({
  nuevos: z.number().int(),
  actualizados: z.number().int(),
  sinCambios: z.number().int(),
  conErrores: z.number().int(),
});

export const registryPreviewRow = z.object({
  row: z.number().int(),
  /** As typed in the file. */
  fiscalId: z.string(),
  name: z.string(),
  status: z.enum(REGISTRY_ROW_STATUSES),
  /** For "Dato inválido": which field and what its form says of the value. */
  message: z.string().optional(),
});
export type RegistryPreviewRow = z.output<typeof registryPreviewRow>;

export const registryPreviewResponse = z.object({
  rows: z.array(registryPreviewRow),
  summary: registrySummary,
  /** The headers, as typed, of the file's columns the import does not read. */
  ignoredColumns: z.array(z.string()),
});
export type RegistryPreviewResponse = z.output<typeof registryPreviewResponse>;

export const registryImportResponse = z.object({ summary: registrySummary });
export type RegistryImportResponse = z.output<typeof registryImportResponse>;
