import type { Engine } from '../connection.ts';

/**
 * One statement for both engines, or each engine's own statements for a step where they differ
 * (column types, triggers).
 */
export type MigrationStep = string | { sqlite: readonly string[]; postgres: readonly string[] };

/**
 * A migration as the SQL it runs, written out literally: once applied somewhere it is history, so
 * it must not depend on application code that may change later. `name` is what the migrator
 * records in the database; it never changes.
 */
export interface FrozenMigration {
  name: string;
  steps: readonly MigrationStep[];
}

/** The statements `migration` runs on `engine`, in order. */
export function statementsFor(migration: FrozenMigration, engine: Engine): string[] {
  return migration.steps.flatMap((step) => (typeof step === 'string' ? [step] : step[engine]));
}

/**
 * `text` with each `[from, to]` pair replaced in turn, where each `from` must occur exactly once:
 * a migration that changes an earlier migration's function derives its text this way, so the
 * change reads as what it is.
 */
export function replaceEachOnce(
  migrationName: string,
  text: string,
  pairs: ReadonlyArray<readonly [from: string, to: string]>,
): string {
  return pairs.reduce((current, [from, to]) => {
    if (current.split(from).length !== 2) {
      throw new Error(`${migrationName}: expected one "${from}" in the text it changes`);
    }
    return current.replace(from, () => to);
  }, text);
}
