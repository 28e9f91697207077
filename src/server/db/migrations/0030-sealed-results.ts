import type { FrozenMigration } from './frozen.ts';

/**
 * Results sealed until the close (issue 28 item 4, docs/decisions/0036). `seal_results` is the
 * event dialogs' "Ocultar resultados hasta el cierre" (1: sealed while voting is open); the
 * `results_viewed_*` columns say who ("Ver resultados ahora": the administrator's id, and their
 * name as it was then, which the event header shows), when and why the results were opened before
 * the close, which unseals them for every administrator. All null while nobody has.
 */
export const migration: FrozenMigration = {
  name: '0030_sealed_results',
  steps: [
    `alter table "events" add column "seal_results" integer default 0 not null`,
    `alter table "events" add column "results_viewed_at" text`,
    `alter table "events" add column "results_viewed_by" text references "admins" ("id") on delete set null`,
    `alter table "events" add column "results_viewed_by_name" text`,
    `alter table "events" add column "results_viewed_reason" text`,
  ],
};
