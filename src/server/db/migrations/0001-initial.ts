import type { FrozenMigration } from './frozen.ts';

/**
 * The first schema. The mail outbox has no foreign keys: the history of what was sent outlives
 * events and exhibitors.
 */
export const migration: FrozenMigration = {
  name: '0001_initial',
  steps: [
    `create table "admins" ("id" text primary key, "email" text not null unique, "full_name" text, "password_hash" text, "created_at" text not null, "updated_at" text not null)`,
    `create table "admin_invitations" ("id" text primary key, "admin_id" text not null references "admins" ("id") on delete cascade, "token_hash" text not null unique, "invited_by" text references "admins" ("id") on delete set null, "expires_at" text not null, "used_at" text, "created_at" text not null)`,
    `create index "admin_invitations_admin_idx" on "admin_invitations" ("admin_id")`,
    `create table "exhibitors" ("id" text primary key, "email" text not null unique, "full_name" text not null, "company" text not null, "created_at" text not null, "updated_at" text not null)`,
    `create table "events" ("id" text primary key, "name" text not null, "name_search" text not null, "event_date" text not null, "vote_deadline" text not null, "created_by" text references "admins" ("id") on delete set null, "created_at" text not null, "updated_at" text not null, constraint "events_deadline_before_event" check (vote_deadline < event_date))`,
    `create index "events_date_idx" on "events" ("event_date")`,
    `create table "mail_outbox" ("id" text primary key, "template" text not null, "params" text not null, "to_address" text not null, "status" text not null check (status in ('pending', 'sent', 'failed', 'cancelled')), "attempts" integer default 0 not null, "next_attempt_at" text not null, "locked_until" text, "last_error" text, "subject" text, "sent_at" text, "event_id" text, "exhibitor_id" text, "created_at" text not null)`,
    `create index "mail_outbox_due_idx" on "mail_outbox" ("status", "next_attempt_at")`,
    `create index "mail_outbox_event_idx" on "mail_outbox" ("event_id", "exhibitor_id", "template")`,
    `create table "event_exhibitors" ("event_id" text not null references "events" ("id") on delete cascade, "exhibitor_id" text not null references "exhibitors" ("id") on delete cascade, "invited_by" text references "admins" ("id") on delete set null, "invitation_message_id" text references "mail_outbox" ("id") on delete set null, "created_at" text not null, constraint "event_exhibitors_pk" primary key ("event_id", "exhibitor_id"))`,
    `create index "event_exhibitors_exhibitor_idx" on "event_exhibitors" ("exhibitor_id")`,
    `create table "nomination_lists" ("event_id" text not null, "exhibitor_id" text not null, "category" text not null check (category in ('consumption', 'value')), "version" integer default 0 not null, "updated_at" text not null, constraint "nomination_lists_pk" primary key ("event_id", "exhibitor_id", "category"), constraint "nomination_lists_membership_fk" foreign key ("event_id", "exhibitor_id") references "event_exhibitors" ("event_id", "exhibitor_id") on delete cascade)`,
    `create table "nominations" ("event_id" text not null, "exhibitor_id" text not null, "category" text not null, "list_order" integer not null check (list_order between 1 and 5), "fiscal_id" text not null, "name" text not null, "registered_name" text not null, "contact_name" text not null, "contact_position" text not null, "phone" text not null, "email" text not null, "location" text not null, "city" text not null, "nominated_at" text not null, "updated_at" text not null, constraint "nominations_pk" primary key ("event_id", "exhibitor_id", "category", "list_order"), constraint "nominations_fiscal_unique" unique ("event_id", "exhibitor_id", "category", "fiscal_id"), constraint "nominations_list_fk" foreign key ("event_id", "exhibitor_id", "category") references "nomination_lists" ("event_id", "exhibitor_id", "category") on delete cascade)`,
    `create index "nominations_ranking_idx" on "nominations" ("event_id", "category", "fiscal_id")`,
    `create table "sessions" ("id" text primary key, "token_hash" text not null unique, "role" text not null check (role in ('admin', 'exh')), "admin_id" text references "admins" ("id") on delete cascade, "exhibitor_id" text references "exhibitors" ("id") on delete cascade, "created_at" text not null, "last_seen_at" text not null, "expires_at" text not null, constraint "sessions_one_subject" check ((role = 'admin' and admin_id is not null and exhibitor_id is null) or (role = 'exh' and exhibitor_id is not null and admin_id is null)))`,
    `create index "sessions_admin_idx" on "sessions" ("admin_id")`,
    `create index "sessions_exhibitor_idx" on "sessions" ("exhibitor_id")`,
    `create table "sign_in_codes" ("id" text primary key, "exhibitor_id" text not null references "exhibitors" ("id") on delete cascade, "code_hash" text not null, "attempts" integer default 0 not null, "expires_at" text not null, "used_at" text, "voided_at" text, "created_at" text not null)`,
    `create index "sign_in_codes_exhibitor_idx" on "sign_in_codes" ("exhibitor_id", "created_at")`,
    `create table "password_reset_tokens" ("id" text primary key, "admin_id" text not null references "admins" ("id") on delete cascade, "token_hash" text not null unique, "expires_at" text not null, "used_at" text, "created_at" text not null)`,
    {
      sqlite: [
        `create table "branding" ("id" integer primary key check (id = 1), "logo_png" blob not null, "etag" text not null, "updated_by" text references "admins" ("id") on delete set null, "updated_at" text not null)`,
        `create table "audit_log" ("id" integer primary key autoincrement, "at" text not null, "actor_role" text not null, "actor_id" text, "actor_email" text, "action" text not null, "entity_type" text not null, "entity_id" text, "event_id" text, "details" text not null)`,
      ],
      postgres: [
        `create table "branding" ("id" integer primary key check (id = 1), "logo_png" bytea not null, "etag" text not null, "updated_by" text references "admins" ("id") on delete set null, "updated_at" text not null)`,
        `create table "audit_log" ("id" serial primary key, "at" text not null, "actor_role" text not null, "actor_id" text, "actor_email" text, "action" text not null, "entity_type" text not null, "entity_id" text, "event_id" text, "details" text not null)`,
      ],
    },
    `create index "audit_log_event_idx" on "audit_log" ("event_id")`,
  ],
};
