import { describe, expect, it } from 'vitest';
import { formatDisplayInstant, formatMailInstant } from './dates.ts';
import { deadlineClosingText, mailDeadlineClosingText, timeZoneCity } from './deadline-zone.ts';

describe('timeZoneCity', () => {
  it.each([
    ['America/Argentina/Buenos_Aires', 'Buenos Aires'],
    ['America/Argentina/Cordoba', 'Cordoba'],
    ['Europe/Madrid', 'Madrid'],
    ['America/Santiago', 'Santiago'],
    ['America/Port_of_Spain', 'Port of Spain'],
    ['America/Bogota', 'Bogotá'],
    ['America/Mexico_City', 'Ciudad de México'],
    ['America/Asuncion', 'Asunción'],
    ['UTC', 'UTC'],
    ['Etc/UTC', 'UTC'],
  ])('%s → %s', (zone, city) => {
    expect(timeZoneCity(zone)).toBe(city);
  });
});

describe('deadlineClosingText', () => {
  it('says the day in d-m-yyyy, the last minute and the zone city', () => {
    expect(deadlineClosingText('2026-03-05', 'America/Argentina/Buenos_Aires')).toBe(
      'La votación cierra el 5-3-2026 a las 23:59 (hora de Buenos Aires)',
    );
    expect(deadlineClosingText('2026-11-30', 'Europe/Madrid')).toBe(
      'La votación cierra el 30-11-2026 a las 23:59 (hora de Madrid)',
    );
    expect(deadlineClosingText('2027-01-01', 'UTC')).toBe(
      'La votación cierra el 1-1-2027 a las 23:59 (hora de UTC)',
    );
  });
});

describe('mailDeadlineClosingText', () => {
  it('says the same in d/m/yyyy, the date format of every email', () => {
    expect(mailDeadlineClosingText('2026-03-05', 'America/Argentina/Buenos_Aires', '18:00')).toBe(
      'La votación cierra el 5/3/2026 a las 18:00 (hora de Buenos Aires)',
    );
    expect(mailDeadlineClosingText('2026-11-30', 'Europe/Madrid')).toBe(
      'La votación cierra el 30/11/2026 a las 23:59 (hora de Madrid)',
    );
  });
});

describe('formatMailInstant', () => {
  it('writes an instant as an email reads it, d/m/yyyy HH:mm in the given zone', () => {
    expect(formatMailInstant('2026-03-05T17:07:00.000Z', 'America/Argentina/Buenos_Aires')).toBe(
      '5/3/2026 14:07',
    );
    expect(formatDisplayInstant('2026-03-05T17:07:00.000Z', 'America/Argentina/Buenos_Aires')).toBe(
      '5-3-2026 14:07',
    );
    expect(formatMailInstant('2026-12-31T23:30:00.000Z', 'Europe/Madrid')).toBe('1/1/2027 00:30');
  });
});
