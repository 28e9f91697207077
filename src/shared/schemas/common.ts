import { z } from 'zod';
import { MSG } from '../messages.ts';
import { CATEGORIES } from '../constants.ts';
import { isValidIsoDate } from '../dates.ts';

// Before its first object parse Zod probes for eval (`Function('')`) to pick a faster parser. In
// the browser the page's CSP (script-src 'self') refuses it and Chromium reports a Content Security
// Policy issue; forms do not need the speed. The server keeps the faster parser.
if (typeof window !== 'undefined') z.config({ jitless: true });

/** A required single-line text: trimmed, not empty, bounded. */
export const requiredText = (max = 200) =>
  z.string(MSG.requiredField).trim().min(1, MSG.requiredField).max(max, MSG.invalidInput);

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
