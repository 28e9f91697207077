import type { FrozenMigration } from './frozen.ts';

/**
 * The ranking reads every nomination of a category: with the place, the nomination instant and the
 * exhibitor in the index it never touches the table rows, and the earliest nomination of a fiscal
 * id is the first index entry of its group.
 */
export const migration: FrozenMigration = {
  name: '0002_results_ranking_index',
  steps: [
    `create index "nominations_results_idx" on "nominations" ("event_id", "category", "fiscal_id", "nominated_at", "exhibitor_id", "list_order")`,
    `drop index "nominations_ranking_idx"`,
  ],
};
