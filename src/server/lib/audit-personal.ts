/**
 * Which values of the history's details are a person's data, by key: what anonymising an event
 * replaces. Scrubbing by key, not by searching for known values inside every text, keeps what is
 * no one's data even when it happens to contain a person's value ("Banana Corp" holds "Ana", the
 * fiscal id 30011122233 holds the phone "300"): reseller names, razón social and fiscal ids stay.
 * One list for every action, so that it can move into typed definitions of the audit entries.
 */

/** The neutral values that replace personal data (the email's domain can never receive mail). */
export const PLACEHOLDER = {
  exhibitorName: 'Expositor anonimizado',
  exhibitorEmail: (exhibitorId: string) => `anonimo-${exhibitorId}@anonimizado.invalid`,
  contactName: 'Contacto anonimizado',
  contactPosition: 'Cargo anonimizado',
  phone: '0000000000',
  contactEmail: 'contacto@anonimizado.invalid',
  text: '[anonimizado]',
} as const;

/**
 * A nominee's contact, in the form's keys (nomination.*, vote.edit) and in the stored columns'
 * (nominee.merge and its undo), with the value the nominations table gets: a merge's undo on an
 * anonymised event still finds its lists as the merge left them.
 */
const NOMINEE_CONTACT_KEYS: Readonly<Record<string, string>> = {
  contactName: PLACEHOLDER.contactName,
  contact_name: PLACEHOLDER.contactName,
  contactPosition: PLACEHOLDER.contactPosition,
  contact_position: PLACEHOLDER.contactPosition,
  phone: PLACEHOLDER.phone,
  email: PLACEHOLDER.contactEmail,
};

/**
 * An exhibitor's name, address and company (exhibitor.added / edited / removed /
 * invitation_resent; the company too, because with another event's participation it names the
 * person), and the lists of addresses of exhibitors.imported (`added`), exhibitors.reminded
 * (`reminded`), exhibitors.invitations_resent (`resent`) and exhibitors.removed (`removed`). Every
 * string under these keys becomes PLACEHOLDER.text.
 */
const PERSON_KEYS: ReadonlySet<string> = new Set([
  'fullName',
  'email',
  'company',
  'added',
  'reminded',
  'resent',
  'removed',
  ...Object.keys(NOMINEE_CONTACT_KEYS),
]);

/**
 * Text an administrator typed (a correction's "Detalle"): it may name a person, so the personal
 * values known to the event are cut out of it, as whole words only.
 */
const FREE_TEXT_KEYS: ReadonlySet<string> = new Set(['detail', 'annulReason', 'viewReason']);

/** A snapshot of a nominee: has a fiscal id, in either spelling. */
const isNominee = (value: object) => 'fiscalId' in value || 'fiscal_id' in value;

const replaceStrings = (value: unknown, by: string): unknown =>
  typeof value === 'string'
    ? by
    : Array.isArray(value)
      ? value.map((item) => replaceStrings(item, by))
      : value;

/**
 * The personal values that name or reach a person, looked for in free text: not a position or a
 * company, which are words of everyday text ("Gerente").
 */
const NAMING_KEYS: ReadonlySet<string> = new Set([
  'fullName',
  'email',
  'added',
  'reminded',
  'resent',
  'removed',
  'contactName',
  'contact_name',
  'phone',
]);

/** Every string found under a naming key of `details`, for the free-text redaction. */
export function personalValuesOf(details: unknown, into: Set<string>): void {
  if (Array.isArray(details)) {
    for (const item of details) personalValuesOf(item, into);
    return;
  }
  if (details === null || typeof details !== 'object') return;
  for (const [key, value] of Object.entries(details)) {
    if (NAMING_KEYS.has(key)) {
      for (const text of [value].flat()) if (typeof text === 'string') into.add(text);
    } else {
      personalValuesOf(value, into);
    }
  }
}

/**
 * `details` with every personal key's value replaced: a nominee's contact by the nominations
 * table's placeholders, an exhibitor's data and address lists by PLACEHOLDER.text, and free text
 * through `redact`.
 */
export function scrubPersonalDetails(details: unknown, redact: (text: string) => string): unknown {
  if (Array.isArray(details)) return details.map((item) => scrubPersonalDetails(item, redact));
  if (details === null || typeof details !== 'object') return details;
  const nominee = isNominee(details);
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => {
      const contactPlaceholder = nominee ? NOMINEE_CONTACT_KEYS[key] : undefined;
      if (contactPlaceholder !== undefined) return [key, replaceStrings(value, contactPlaceholder)];
      if (PERSON_KEYS.has(key)) return [key, replaceStrings(value, PLACEHOLDER.text)];
      if (FREE_TEXT_KEYS.has(key) && typeof value === 'string') return [key, redact(value)];
      return [key, scrubPersonalDetails(value, redact)];
    }),
  );
}

/** Personal values shorter than this are not looked for in free text (a "1" is no one). */
const MIN_REDACTED_LENGTH = 3;

/**
 * A function that replaces, in a free text, each of `values` that stands as a whole word (not
 * inside a longer word or number), ignoring case.
 */
export function wholeWordRedactor(values: Iterable<string>): (text: string) => string {
  const words = [...new Set([...values].map((value) => value.trim().toLowerCase()))]
    .filter((value) => value.length >= MIN_REDACTED_LENGTH)
    // Longest first, so that "Ana María" goes whole before "Ana" is tried.
    .sort((a, b) => b.length - a.length)
    .map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return (text) => text;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return (text) => text.replace(pattern, PLACEHOLDER.text);
}
