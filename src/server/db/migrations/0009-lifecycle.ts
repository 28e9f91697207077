import type { FrozenMigration } from './frozen.ts';

/**
 * The life of an event: when it was archived (read-only, hidden from exhibitors; null while it is
 * open) and when its personal data was anonymised (null until then). Who did each is in its history.
 */
export const migration: FrozenMigration = {
  name: '0009_lifecycle',
  steps: [
    `alter table "events" add column "archived_at" text`,
    `alter table "events" add column "anonymised_at" text`,
  ],
};
