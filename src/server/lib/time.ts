/** Stored instants are ISO-8601 UTC text so that they compare alike on SQLite and PostgreSQL. */
export const iso = (date: Date): string => date.toISOString();

export const addMinutes = (date: Date, minutes: number): Date =>
  new Date(date.getTime() + minutes * 60_000);
export const addHours = (date: Date, hours: number): Date => addMinutes(date, hours * 60);
export const addDays = (date: Date, days: number): Date => addMinutes(date, days * 1440);
