import type { FrozenMigration } from './frozen.ts';

/**
 * Enrolling a second factor takes a code emailed to the administrator's address, so that a stolen
 * password alone cannot enrol one: the newest code's hash and when it expires (null when none).
 */
export const migration: FrozenMigration = {
  name: '0015_mfa_enrol_code',
  steps: [
    `alter table "admins" add column "mfa_enrol_code_hash" text`,
    `alter table "admins" add column "mfa_enrol_code_expires_at" text`,
  ],
};
