/*
 * The public mail providers (docs/decisions/0035): an address at one of them says nothing of the
 * company behind it, so "Nominaciones a la propia empresa" never compares such domains. Kept here
 * only: the server's alert and the manual's wording follow this list.
 */

/** The providers, by the first label of their domains (gmail.com, hotmail.com.ar, yahoo.es…). */
export const PUBLIC_MAIL_PROVIDERS = [
  'gmail',
  'googlemail',
  'hotmail',
  'outlook',
  'live',
  'msn',
  'yahoo',
  'ymail',
  'icloud',
  'me',
  'mac',
  'aol',
  'protonmail',
  'proton',
  'gmx',
  'zoho',
  'yandex',
  'mail',
  // Argentine providers whose addresses people keep for years, whatever their employer.
  'fibertel',
  'arnet',
  'speedy',
  'ciudad',
] as const;

const PROVIDERS: ReadonlySet<string> = new Set(PUBLIC_MAIL_PROVIDERS);

/** What follows a provider's name: `com`, a country (`ar`, `es`), or both (`com.ar`, `co.uk`). */
const GENERIC_OR_COUNTRY = /^(?:(?:com|net|co)(?:\.[a-z]{2})?|[a-z]{2})$/;

/** The domain of an email address, lower-cased; null when there is none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  return domain.includes('.') ? domain : null;
}

/** Whether `domain` is one of the public providers or one of their country variants. */
export function isPublicMailDomain(domain: string): boolean {
  const dot = domain.indexOf('.');
  if (dot < 0) return false;
  return PROVIDERS.has(domain.slice(0, dot)) && GENERIC_OR_COUNTRY.test(domain.slice(dot + 1));
}
