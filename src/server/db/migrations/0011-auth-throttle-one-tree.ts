import type { FrozenMigration } from './frozen.ts';

/**
 * A sign-in counts five tries in auth_throttle, each one an upsert on the one writer's path. Its
 * index on window_start was never read (windows restart in the upsert itself): it goes on both
 * engines, which also lets PostgreSQL update a counter in place (HOT). On SQLite the table is
 * rebuilt WITHOUT ROWID, stored in the order of its key, so that a hit touches one B-tree where it
 * touched three (decision 0004).
 */
export const migration: FrozenMigration = {
  name: '0011_auth_throttle_one_tree',
  steps: [
    {
      sqlite: [
        `create table "auth_throttle_by_key" ("scope" text not null, "key" text not null, "window_start" text not null, "hits" integer not null, "not_before" text not null, primary key ("scope", "key")) without rowid`,
        `insert into "auth_throttle_by_key" ("scope", "key", "window_start", "hits", "not_before") select "scope", "key", "window_start", "hits", "not_before" from "auth_throttle"`,
        `drop table "auth_throttle"`,
        `alter table "auth_throttle_by_key" rename to "auth_throttle"`,
      ],
      postgres: [`drop index "auth_throttle_window_idx"`],
    },
  ],
};
