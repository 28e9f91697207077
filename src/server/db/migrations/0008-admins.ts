import type { FrozenMigration } from './frozen.ts';

/**
 * Administrators' access: revocation (a revoked administrator keeps its row, for the history and
 * the list) and the second factor: the TOTP secret (encrypted, as `iv.tag.ciphertext` in
 * base64url), the one being enrolled, the last time step spent (a code is not accepted twice),
 * hashed one-time recovery codes, and the short-lived pending sign-in between the password and
 * the code.
 */
export const migration: FrozenMigration = {
  name: '0008_admins',
  steps: [
    `alter table "admins" add column "revoked_at" text`,
    `alter table "admins" add column "mfa_secret" text`,
    `alter table "admins" add column "mfa_pending_secret" text`,
    `alter table "admins" add column "mfa_enabled_at" text`,
    `alter table "admins" add column "mfa_last_step" integer`,
    `create table "admin_recovery_codes" ("id" text primary key, "admin_id" text not null references "admins" ("id") on delete cascade, "code_hash" text not null, "used_at" text, "created_at" text not null)`,
    `create index "admin_recovery_codes_admin_idx" on "admin_recovery_codes" ("admin_id")`,
    `create table "mfa_challenges" ("id" text primary key, "admin_id" text not null references "admins" ("id") on delete cascade, "token_hash" text not null unique, "expires_at" text not null, "created_at" text not null)`,
    `create index "mfa_challenges_admin_idx" on "mfa_challenges" ("admin_id")`,
  ],
};
