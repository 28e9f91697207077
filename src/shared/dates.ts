/** Calendar dates travel as ISO `YYYY-MM-DD` strings, never as instants a time zone could shift. */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function parts(isoDate: string): [string, string, string] {
  const [y = '', m = '', d = ''] = isoDate.split('-');
  return [y, m, d];
}

/** `2026-03-05` → `5-3-2026`, the product's display format. */
export function formatDisplayDate(isoDate: string): string {
  const [y, m, d] = parts(isoDate);
  return `${Number(d)}-${Number(m)}-${y}`;
}

/** `2026-03-05` → `5/3/2026`, the format used in emails. */
export function formatMailDate(isoDate: string): string {
  const [y, m, d] = parts(isoDate);
  return `${Number(d)}/${Number(m)}/${y}`;
}

/** True when the string is a real calendar date (rejects 2026-02-30). */
export function isValidIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [y, m, d] = parts(value).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The calendar date of an instant in an IANA time zone, as `YYYY-MM-DD`. */
export function calendarDateIn(instant: Date, timeZone: string): string {
  return datesIn(timeZone)(instant);
}

/**
 * Formatting a date in a zone costs more than the rest of a save, and every save asks. A zone's
 * days begin on a whole minute (IANA offsets are whole minutes since 1972), so each zone keeps the
 * last minute it formatted and its date.
 */
const dateFormatters = new Map<string, (instant: Date) => string>();
function datesIn(timeZone: string): (instant: Date) => string {
  let dateOf = dateFormatters.get(timeZone);
  if (!dateOf) {
    const formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    let lastMinute = Number.NaN;
    let lastDate = '';
    dateOf = (instant) => {
      const minute = Math.floor(instant.getTime() / 60_000);
      if (minute !== lastMinute) {
        lastDate = formatter.format(instant);
        lastMinute = minute;
      }
      return lastDate;
    };
    dateFormatters.set(timeZone, dateOf);
  }
  return dateOf;
}

/**
 * Voting is open through 23:59:59 of the deadline's calendar day in the programme's zone, unless an
 * administrator closed it earlier ("Cerrar votación ahora"): then it ended at that exact instant
 * (`closedAt`, ISO), not at the end of the day the deadline was moved to.
 */
export function isVotingOpen(
  voteDeadline: string,
  now: Date,
  timeZone: string,
  closedAt: string | null = null,
): boolean {
  if (closedAt !== null && now.getTime() >= Date.parse(closedAt)) return false;
  return calendarDateIn(now, timeZone) <= voteDeadline;
}

/** An instant as the product shows it in a time zone: `2026-03-05T17:07:00Z` → `5-3-2026 14:07`. */
export function formatDisplayInstant(instant: string, timeZone: string): string {
  return formatInstant(instant, timeZone, '-');
}

/** The same in an email, whose dates read `d/m/yyyy`: `5/3/2026 14:07`. */
export function formatMailInstant(instant: string, timeZone: string): string {
  return formatInstant(instant, timeZone, '/');
}

function formatInstant(instant: string, timeZone: string, separator: '-' | '/'): string {
  const values = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return `${Number(values.day)}${separator}${Number(values.month)}${separator}${values.year} ${values.hour}:${values.minute}`;
}
