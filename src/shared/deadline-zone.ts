import { formatDisplayDate, formatMailDate } from './dates.ts';

/**
 * Spanish names of cities whose zone identifier drops the accents or uses the English name; any
 * other zone is named by the last part of its identifier.
 */
const SPANISH_CITY_NAMES: Record<string, string> = {
  'America/Asuncion': 'Asunción',
  'America/Bogota': 'Bogotá',
  'America/Mexico_City': 'Ciudad de México',
  'America/Panama': 'Panamá',
  'America/Sao_Paulo': 'São Paulo',
  'America/New_York': 'Nueva York',
};

/**
 * The city an IANA zone is named after, as a reader of the deadline knows it:
 * "America/Argentina/Buenos_Aires" → "Buenos Aires", "Europe/Madrid" → "Madrid", "UTC" → "UTC".
 */
export function timeZoneCity(timeZone: string): string {
  const spanish = SPANISH_CITY_NAMES[timeZone];
  if (spanish) return spanish;
  const last = timeZone.split('/').at(-1) ?? timeZone;
  return last.replaceAll('_', ' ');
}

/** "hora de Buenos Aires": how every date and hour of an event says which zone it is read in. */
export const zoneLabel = (timeZone: string): string => `hora de ${timeZoneCity(timeZone)}`;

/**
 * The line under "Tienes hasta …" and in the emails that mention the deadline: voting stays open
 * through the closing minute ("Hora de cierre", 23:59 unless the event chose another) of the
 * deadline day in the event's zone, and the reader may be in another one.
 */
export function deadlineClosingText(
  voteDeadline: string,
  timeZone: string,
  closeTime = '23:59',
): string {
  return closingText(formatDisplayDate(voteDeadline), timeZone, closeTime);
}

/** The same line in an email, whose dates read `d/m/yyyy` like the rest of the message. */
export function mailDeadlineClosingText(
  voteDeadline: string,
  timeZone: string,
  closeTime = '23:59',
): string {
  return closingText(formatMailDate(voteDeadline), timeZone, closeTime);
}

const closingText = (date: string, timeZone: string, closeTime: string): string =>
  `La votación cierra el ${date} a las ${closeTime} (${zoneLabel(timeZone)})`;
