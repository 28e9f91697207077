import type { FrozenMigration } from './frozen.ts';

/**
 * Turnout: when each person last signed in (the participation table and the administrators list
 * show it), when an exhibitor was last reminded by hand in an event (at most once per 12 hours), and
 * which automatic reminders each event sends (a JSON array; existing events keep the deadline-day
 * one they always had).
 */
export const migration: FrozenMigration = {
  name: '0006_turnout',
  steps: [
    `alter table "exhibitors" add column "last_signed_in_at" text`,
    `alter table "admins" add column "last_signed_in_at" text`,
    `alter table "event_exhibitors" add column "last_reminded_at" text`,
    `alter table "events" add column "reminders" text default '["deadlineDay"]' not null`,
  ],
};
