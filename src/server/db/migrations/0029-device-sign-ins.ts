import type { FrozenMigration } from './frozen.ts';

/**
 * "Mismo dispositivo" of the "Integridad" tab (issue 28 item 3, docs/decisions/0035): each time a
 * session of an exhibitor first opens an event, the browser it came from: the long-lived device
 * cookie's random id (null when the browser sent none), the client's address and its user agent,
 * with the instant. One row per session and event (the session id is only a key: the row outlives
 * the session). The rows belong to the membership: removing the exhibitor from the event removes
 * them; anonymising the event deletes them, and the background worker forgets them 90 days after
 * the event's date.
 */
export const migration: FrozenMigration = {
  name: '0029_device_sign_ins',
  steps: [
    `create table "device_sign_ins" ("event_id" text not null, "session_id" text not null, "exhibitor_id" text not null, "device_id" text, "ip" text not null, "user_agent" text not null, "signed_in_at" text not null, constraint "device_sign_ins_pk" primary key ("event_id", "session_id"), constraint "device_sign_ins_member_fk" foreign key ("event_id", "exhibitor_id") references "event_exhibitors" ("event_id", "exhibitor_id") on delete cascade)`,
    `create index "device_sign_ins_member_idx" on "device_sign_ins" ("event_id", "exhibitor_id")`,
  ],
};
