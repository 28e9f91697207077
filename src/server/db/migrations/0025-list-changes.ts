import type { FrozenMigration } from './frozen.ts';

/**
 * Every change an administrator makes to an exhibitor's list (a correction, a merge or its undo),
 * kept so that the exhibitor is told of it (issue 28): the list before and after (fiscal ids and
 * reseller names, in order, as JSON), who made it, why, and the mail (`batch_id`, in the message's
 * parameters) that reports it. Changes within ten minutes share one batch, hence one message. The
 * rows belong to the list: removing the exhibitor from the event removes them.
 */
export const migration: FrozenMigration = {
  name: '0025_list_changes',
  steps: [
    {
      sqlite: [
        `create table "list_changes" ("id" integer primary key autoincrement, "event_id" text not null, "exhibitor_id" text not null, "category" text not null, "batch_id" text not null, "before" text not null, "after" text not null, "admin_id" text references "admins" ("id") on delete set null, "reason" text not null, "changed_at" text not null, constraint "list_changes_list_fk" foreign key ("event_id", "exhibitor_id", "category") references "nomination_lists" ("event_id", "exhibitor_id", "category") on delete cascade)`,
      ],
      postgres: [
        `create table "list_changes" ("id" serial primary key, "event_id" text not null, "exhibitor_id" text not null, "category" text not null, "batch_id" text not null, "before" text not null, "after" text not null, "admin_id" text references "admins" ("id") on delete set null, "reason" text not null, "changed_at" text not null, constraint "list_changes_list_fk" foreign key ("event_id", "exhibitor_id", "category") references "nomination_lists" ("event_id", "exhibitor_id", "category") on delete cascade)`,
      ],
    },
    `create index "list_changes_exhibitor_idx" on "list_changes" ("event_id", "exhibitor_id", "id")`,
    `create index "list_changes_batch_idx" on "list_changes" ("batch_id")`,
    `create index "list_changes_admin_idx" on "list_changes" ("admin_id")`,
  ],
};
