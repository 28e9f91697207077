import type { FrozenMigration } from './frozen.ts';

/**
 * An archived event keeps its exhibitors as they were: archiving copies each member's name, email
 * and company into the membership, and every read of the event shows the copy while it is set
 * (un-archiving clears it). An exhibitor is one record across events, so without the copy an edit
 * made through an open event would rewrite what an archived event shows. Events archived before
 * this migration get their copy now; an anonymised one needs none (its members are placeholders).
 */
export const migration: FrozenMigration = {
  name: '0014_archived_member_snapshot',
  steps: [
    `alter table "event_exhibitors" add column "archived_full_name" text`,
    `alter table "event_exhibitors" add column "archived_email" text`,
    `alter table "event_exhibitors" add column "archived_company" text`,
    `update "event_exhibitors" set
       "archived_full_name" = (select "x"."full_name" from "exhibitors" as "x" where "x"."id" = "event_exhibitors"."exhibitor_id"),
       "archived_email" = (select "x"."email" from "exhibitors" as "x" where "x"."id" = "event_exhibitors"."exhibitor_id"),
       "archived_company" = (select "x"."company" from "exhibitors" as "x" where "x"."id" = "event_exhibitors"."exhibitor_id")
     where "event_id" in (select "id" from "events" where "archived_at" is not null and "anonymised_at" is null)`,
  ],
};
