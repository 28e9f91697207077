import { z } from 'zod';
import { MSG } from '../messages.ts';
import { CATEGORIES } from '../constants.ts';
import { isValidIsoDate } from '../dates.ts';

// Before its first object parse Zod probes for eval (`Function('')`) to pick a faster parser. In
// the browser the page's CSP (script-src 'self') refuses it and Chromium reports a Content Security
// Policy issue; forms do not need the speed. The server keeps the faster parser.
if (typeof window !== 'undefined') z.config({ jitless: true });

/**
 * Characters that XML 1.0 cannot hold (control codes, U+FFFE, U+FFFF, unpaired surrogates): a
 * name holding one would make every xlsx export that shows it a file Excel refuses.
 */
export const XML_INVALID_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
export const hasOnlyTextCharacters = (value: string): boolean => !XML_INVALID_CHARACTER.test(value);

/** A required single-line text: trimmed, not empty, bounded, characters any export can hold. */
export const requiredText = (max = 200) =>
  z
    .string(MSG.requiredField)
    .trim()
    .min(1, MSG.requiredField)
    .max(max, MSG.invalidInput)
    .refine(hasOnlyTextCharacters, MSG.invalidCharacters);

export const emailField = z
  .string(MSG.requiredField)
  .trim()
  .min(1, MSG.requiredField)
  .max(254, MSG.invalidEmail)
  .pipe(z.email(MSG.invalidEmail))
  .transform((value) => value.toLowerCase());

/** Digit strings stay strings, so fiscal ids and phones keep their leading zeros. */
export const digitsField = (max = 30) =>
  z
    .string(MSG.requiredField)
    .trim()
    .min(1, MSG.requiredField)
    .max(max, MSG.invalidInput)
    .regex(/^\d+$/, MSG.digitsOnly);

export const isoDateField = z
  .string(MSG.requiredField)
  .min(1, MSG.requiredField)
  .refine(isValidIsoDate, MSG.invalidDates);

export const categoryField = z.enum(CATEGORIES, MSG.invalidInput);

export const idParam = z.string().regex(/^[0-9a-f-]{36}$/, MSG.apiNotFound);

export const okResponse = z.object({ ok: z.literal(true) });
