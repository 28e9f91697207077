import type { FrozenMigration } from './frozen.ts';

/**
 * Sign-in limits that a stranger cannot turn against the voter: one counter row per (scope, key),
 * changed by a single conditional upsert so that parallel tries cannot share a count; and a
 * one-time sign-in link stored (as a hash) beside each emailed code.
 */
export const migration: FrozenMigration = {
  name: '0005_sign_in_hardening',
  steps: [
    `create table "auth_throttle" ("scope" text not null, "key" text not null, "window_start" text not null, "hits" integer not null, "not_before" text not null, primary key ("scope", "key"))`,
    `create index "auth_throttle_window_idx" on "auth_throttle" ("window_start")`,
    `alter table "sign_in_codes" add column "link_hash" text`,
    `create unique index "sign_in_codes_link_idx" on "sign_in_codes" ("link_hash")`,
  ],
};
