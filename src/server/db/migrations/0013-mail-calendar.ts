import type { FrozenMigration } from './frozen.ts';

/**
 * Mail you can trust (issue 31): the instant an administrator closed voting early ("Cerrar votación
 * ahora"), the instant each membership was invited (an exhibitor added without an invitation sees
 * nothing and gets no reminder until then), and why a message was withdrawn. Memberships that had
 * an invitation queued, or already hold a list, count as invited since they joined: nobody who
 * could vote yesterday loses the event.
 */
export const migration: FrozenMigration = {
  name: '0013_mail_calendar',
  steps: [
    `alter table "events" add column "voting_closed_at" text`,
    `alter table "event_exhibitors" add column "invited_at" text`,
    `update "event_exhibitors" set "invited_at" = "created_at" where "invitation_message_id" is not null or exists (select 1 from "nomination_lists" as "l" where "l"."event_id" = "event_exhibitors"."event_id" and "l"."exhibitor_id" = "event_exhibitors"."exhibitor_id")`,
    `alter table "mail_outbox" add column "cancel_reason" text`,
  ],
};
