import type { FrozenMigration } from './frozen.ts';

/**
 * Each programme its own shape (issue 26, items 3 and 4): which of the nominee form's fields an
 * event asks for (a JSON object; existing events, '{}', keep every field required), and an
 * event's own logo. The logo's bytes live in a table of their own, so that reading events never
 * carries them; the event keeps its ETag, which says whether it has one.
 */
export const migration: FrozenMigration = {
  name: '0017_nominee_fields_event_logo',
  steps: [
    `alter table "events" add column "nominee_fields" text default '{}' not null`,
    `alter table "events" add column "logo_etag" text`,
    {
      sqlite: [
        `create table "event_logos" ("event_id" text primary key references "events" ("id") on delete cascade, "logo_png" blob not null, "updated_by" text references "admins" ("id") on delete set null, "updated_at" text not null)`,
      ],
      postgres: [
        `create table "event_logos" ("event_id" text primary key references "events" ("id") on delete cascade, "logo_png" bytea not null, "updated_by" text references "admins" ("id") on delete set null, "updated_at" text not null)`,
      ],
    },
  ],
};
