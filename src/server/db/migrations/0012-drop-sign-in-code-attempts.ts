import type { FrozenMigration } from './frozen.ts';

/**
 * `sign_in_codes.attempts` counted wrong tries per code before the per-account and per-client
 * counters of auth_throttle took over (migration 0005, decision 0004); nothing has read it since.
 * SQLite drops a plain column in place (3.35+), PostgreSQL too.
 */
export const migration: FrozenMigration = {
  name: '0012_drop_sign_in_code_attempts',
  steps: [`alter table "sign_in_codes" drop column "attempts"`],
};
