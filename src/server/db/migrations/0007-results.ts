import type { FrozenMigration } from './frozen.ts';

/**
 * An event's history is read newest first, a page at a time, optionally of one action: both
 * indexes end in the id, so a page is an index range scan that stops after its rows, however long
 * the history is.
 */
export const migration: FrozenMigration = {
  name: '0007_results',
  steps: [
    `create index "audit_log_event_history_idx" on "audit_log" ("event_id", "id")`,
    `create index "audit_log_event_action_idx" on "audit_log" ("event_id", "action", "id")`,
  ],
};
