import type { FrozenMigration } from './frozen.ts';

/**
 * Every exhibitor save writes an audit entry, and each index of audit_log is one more B-tree
 * insert on the one writer's path. audit_log_event_idx (event_id) is a prefix of
 * audit_log_event_history_idx (event_id, id), which serves every lookup by event it served
 * (docs/decisions/0003).
 */
export const migration: FrozenMigration = {
  name: '0010_audit_log_one_event_index',
  steps: [`drop index "audit_log_event_idx"`],
};
