import type { FrozenMigration } from './frozen.ts';

/**
 * Every sign-in blanks the spent codes of its address: without this index, a scan of the whole
 * outbox, which grows with every invitation, code and reminder.
 */
export const migration: FrozenMigration = {
  name: '0004_mail_outbox_recipient_idx',
  steps: [`create index "mail_outbox_recipient_idx" on "mail_outbox" ("to_address", "template")`],
};
