import { z } from 'zod';
import type { CatalogueMessage } from '../errors.ts';
import { MSG } from '../messages.ts';
import { isValidIsoDate } from '../dates.ts';

// Before its first object parse Zod probes for eval (`Function('')`) to pick a faster parser. In
// the browser the page's CSP (script-src 'self') refuses it and Chromium reports a Content Security
// Policy issue; forms do not need the speed. The server keeps the faster parser.
if (typeof window !== 'undefined') z.config({ jitless: true });

const EXPECTED: Partial<Record<string, CatalogueMessage>> = {
  object: MSG.expectedObject,
  string: MSG.expectedText,
  number: MSG.expectedNumber,
  int: MSG.expectedNumber,
  array: MSG.expectedList,
  boolean: MSG.expectedBoolean,
};

// Every message Zod gives is one of the catalogue's, in Spanish, and says what is wrong: a value
// missing, or of the wrong kind (an array where an object goes, a number where a text goes).
// Schemas that name a more precise message keep it; this covers the rest.
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type') {
      if (issue.input === undefined) return MSG.requiredField;
      return EXPECTED[issue.expected] ?? MSG.invalidInput;
    }
    // One of a list of texts (a category, a direction): say so when it is not even a text.
    if (issue.code === 'invalid_value' && issue.values.every((v) => typeof v === 'string')) {
      if (issue.input === undefined) return MSG.requiredField;
      if (typeof issue.input !== 'string') return MSG.expectedText;
    }
    return MSG.invalidInput;
  },
});

/**
 * A schema-level message for a missing value only: a value of the wrong kind keeps the message
 * that names its kind.
 */
export const whenMissing =
  (message: CatalogueMessage) =>
  (issue: { input?: unknown }): CatalogueMessage | undefined =>
    issue.input === undefined ? message : undefined;

const requiredString = () => z.string({ error: whenMissing(MSG.requiredField) });

/**
 * Characters that XML 1.0 cannot hold (control codes, U+FFFE, U+FFFF, unpaired surrogates): a
 * name holding one would make every xlsx export that shows it a file Excel refuses.
 */
export const XML_INVALID_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
export const hasOnlyTextCharacters = (value: string): boolean => !XML_INVALID_CHARACTER.test(value);

/** A required single-line text: trimmed, not empty, bounded, characters any export can hold. */
export const requiredText = (max = 200) =>
  requiredString()
    .trim()
    .min(1, MSG.requiredField)
    .max(max, MSG.invalidInput)
    .refine(hasOnlyTextCharacters, MSG.invalidCharacters);

export const emailField = requiredString()
  .trim()
  .min(1, MSG.requiredField)
  .max(254, MSG.invalidEmail)
  .pipe(z.email(MSG.invalidEmail))
  .transform((value) => value.toLowerCase());

/** Digit strings stay strings, so fiscal ids and phones keep their leading zeros. */
export const digitsField = (max = 30) =>
  requiredString()
    .trim()
    .min(1, MSG.requiredField)
    .max(max, MSG.invalidInput)
    .regex(/^\d+$/, MSG.digitsOnly);

/**
 * A fiscal id or phone as people paste it (`30-70998877-4`, `+54 341 456-7890`): spaces, dashes,
 * dots, slashes, parentheses and a leading "+" are dropped and the digits stored (design.md
 * section 5). Letters are refused; so is a value with no digit at all.
 */
export const pastedDigitsField = (max = 30) =>
  requiredString()
    .trim()
    .min(1, MSG.requiredField)
    // Separators may double the length of what is pasted, no more.
    .max(max * 2, MSG.invalidInput)
    .regex(/^\+?[\d\s\-./()]+$/, MSG.digitsOnly)
    .transform((value) => value.replace(/\D/g, ''))
    .pipe(z.string().min(1, MSG.digitsOnly).max(max, MSG.invalidInput));

/**
 * A text the event may not require ("Opcional", "No se pide"): trimmed, empty when left out,
 * otherwise the same bounds and characters as a required one.
 */
const optionalString = z
  .string({ error: whenMissing(MSG.requiredField) })
  .optional()
  .transform((value) => (value ?? '').trim());

export const optionalText = (max = 200) =>
  optionalString.pipe(
    z.string().max(max, MSG.invalidInput).refine(hasOnlyTextCharacters, MSG.invalidCharacters),
  );

/** An email the event may not require: empty, or a valid address (lower-cased). */
export const optionalEmailField = optionalString.pipe(
  z
    .string()
    .max(254, MSG.invalidEmail)
    .refine((value) => value === '' || z.email().safeParse(value).success, MSG.invalidEmail)
    .transform((value) => value.toLowerCase()),
);

/** A phone the event may not require: empty, or pasted digits as `pastedDigitsField` takes them. */
export const optionalPastedDigitsField = (max = 30) =>
  optionalString.pipe(
    z
      .string()
      .max(max * 2, MSG.invalidInput)
      .refine(
        (value) => value === '' || /^\+?[\d\s\-./()]*\d[\d\s\-./()]*$/.test(value),
        MSG.digitsOnly,
      )
      .transform((value) => value.replace(/\D/g, ''))
      .pipe(z.string().max(max, MSG.invalidInput)),
  );

export const isoDateField = requiredString()
  .min(1, MSG.requiredField)
  .refine(isValidIsoDate, MSG.invalidDates);

/**
 * A category's address (docs/decisions/0034): lowercase ASCII words joined by hyphens, as made from
 * its name. Whether the event has it is the route's check (404 otherwise).
 */
export const categoryField = z
  .string()
  .max(60)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

export const idParam = z.string().regex(/^[0-9a-f-]{36}$/, MSG.apiNotFound);

export const okResponse = z.object({ ok: z.literal(true) });
export const OK: z.output<typeof okResponse> = { ok: true };
