import type { FrozenMigration } from './frozen.ts';

/**
 * Participation counts sign-ins per event: each membership keeps the exhibitor's latest sign-in
 * during which they opened that event. Existing memberships start empty (which sign-in opened which
 * event was never recorded), so "Ingresaron" of an older event counts from this version on.
 */
export const migration: FrozenMigration = {
  name: '0020_event_sign_ins',
  steps: [`alter table "event_exhibitors" add column "last_signed_in_at" text`],
};
