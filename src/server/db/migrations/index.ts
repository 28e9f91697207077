import { sql } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import type { Engine } from '../connection.ts';
import { statementsFor, type FrozenMigration } from './frozen.ts';
import { migration as initial } from './0001-initial.ts';
import { migration as resultsRankingIndex } from './0002-results-ranking-index.ts';
import { migration as nomineeTotals } from './0003-nominee-totals.ts';
import { migration as mailOutboxRecipientIndex } from './0004-mail-outbox-recipient-idx.ts';
import { migration as signInHardening } from './0005-sign-in-hardening.ts';
import { migration as turnout } from './0006-turnout.ts';
import { migration as results } from './0007-results.ts';
import { migration as admins } from './0008-admins.ts';
import { migration as lifecycle } from './0009-lifecycle.ts';
import { migration as auditLogOneEventIndex } from './0010-audit-log-one-event-index.ts';
import { migration as authThrottleOneTree } from './0011-auth-throttle-one-tree.ts';
import { migration as dropSignInCodeAttempts } from './0012-drop-sign-in-code-attempts.ts';
import { migration as mailCalendar } from './0013-mail-calendar.ts';
import { migration as archivedMemberSnapshot } from './0014-archived-member-snapshot.ts';
import { migration as mfaEnrolCode } from './0015-mfa-enrol-code.ts';
import { migration as eventCalendar } from './0016-event-calendar.ts';
import { migration as nomineeFieldsEventLogo } from './0017-nominee-fields-event-logo.ts';
import { migration as oneRoundTripSave } from './0019-one-round-trip-save.ts';
import { migration as eventSignIns } from './0020-event-sign-ins.ts';
import { migration as saveFollowsEventCalendarAndFields } from './0021-save-follows-event-calendar-and-fields.ts';
import { migration as resellerRegistry } from './0022-reseller-registry.ts';
import { migration as registryRules } from './0023-registry-rules.ts';
import { migration as annulledLists } from './0024-annulled-lists.ts';
import { migration as listChanges } from './0025-list-changes.ts';
import { migration as oneRoundTripCodeSignIn } from './0026-one-round-trip-code-sign-in.ts';
import { migration as saveFollowsRegistryAndAnnulment } from './0027-save-follows-registry-and-annulment.ts';
import { migration as eventCategories } from './0028-event-categories.ts';
import { migration as deviceSignIns } from './0029-device-sign-ins.ts';
import { migration as sealedResults } from './0030-sealed-results.ts';
import { migration as categoryShapeLock } from './0031-category-shape-lock.ts';
import { migration as saveReadsItsListByKey } from './0032-save-reads-its-list-by-key.ts';
import { migration as oneRoundTripCodeRequest } from './0033-one-round-trip-code-request.ts';

/** Every migration, oldest first. A schema change is a new file appended here, never an edit. */
export const migrations: readonly FrozenMigration[] = [
  initial,
  resultsRankingIndex,
  nomineeTotals,
  mailOutboxRecipientIndex,
  signInHardening,
  turnout,
  results,
  admins,
  lifecycle,
  auditLogOneEventIndex,
  authThrottleOneTree,
  dropSignInCodeAttempts,
  mailCalendar,
  archivedMemberSnapshot,
  mfaEnrolCode,
  eventCalendar,
  nomineeFieldsEventLogo,
  oneRoundTripSave,
  eventSignIns,
  saveFollowsEventCalendarAndFields,
  resellerRegistry,
  registryRules,
  annulledLists,
  listChanges,
  oneRoundTripCodeSignIn,
  saveFollowsRegistryAndAnnulment,
  eventCategories,
  deviceSignIns,
  sealedResults,
  categoryShapeLock,
  saveReadsItsListByKey,
  oneRoundTripCodeRequest,
];

/** The migrations in the form Kysely's migrator runs them, each one's statements in order. */
export function migrationProvider(engine: Engine): MigrationProvider {
  const byName: Record<string, Migration> = {};
  for (const migration of migrations) {
    byName[migration.name] = {
      async up(db) {
        for (const statement of statementsFor(migration, engine)) {
          await sql.raw(statement).execute(db);
        }
      },
    };
  }
  return { getMigrations: async () => byName };
}
