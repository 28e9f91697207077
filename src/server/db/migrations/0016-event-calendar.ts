import type { FrozenMigration } from './frozen.ts';

/**
 * The event's calendar (issue 31 item 3): the hour voting closes on its deadline day ("Hora de
 * cierre", 23:59 as the product always had it), its zone ("Zona horaria"; null for events created
 * before, which keep following APP_TIMEZONE) and the optional instant voting opens ("Apertura de la
 * votación"; before it the event is a draft).
 */
export const migration: FrozenMigration = {
  name: '0016_event_calendar',
  steps: [
    `alter table "events" add column "close_time" text not null default '23:59'`,
    `alter table "events" add column "time_zone" text`,
    `alter table "events" add column "voting_opens_at" text`,
  ],
};
