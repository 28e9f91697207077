import { saveNominee as saveNomineeOf0028 } from './0028-event-categories.ts';
import { replaceEachOnce, type FrozenMigration } from './frozen.ts';

/**
 * PostgreSQL only (docs/decisions/0038): `premios_save_nominee` stops locking its category's row
 * `for share` and holds the category's shape lock instead, an advisory lock shared for the
 * transaction (`p_category_lock_class`, keyed by the event and the address), which a change of the
 * category's limit or scoring takes exclusively. At the deadline every save of a category shared
 * its one row: PostgreSQL records a row's share locks in the row itself, as a multixact rewritten
 * by every locker, and the rush spent most of the database's time on that. The function is 0028's
 * text with that one change and the one new argument.
 */

export const saveNominee = replaceEachOnce('0031', saveNomineeOf0028, [
  [
    '  p_archive_lock_class integer,\n',
    '  p_archive_lock_class integer,\n  p_category_lock_class integer,\n',
  ],
  [
    `  -- The category's row (migration 0028): its limit, shared-locked until commit, so that a change
  -- of the limit or the scoring (which takes it for update) waits for this save or is seen by it.
  select c.nominee_limit into v_limit from event_categories c
   where c.event_id = p_event_id and c.address = p_category
     for share;`,
    `  -- The category's shape lock (migration 0031), shared until commit, so that a change of the
  -- limit or the scoring (which takes it exclusively) waits for this save or is seen by it.
  perform pg_advisory_xact_lock_shared(p_category_lock_class,
    hashtext(p_event_id || '/' || p_category));
  select c.nominee_limit into v_limit from event_categories c
   where c.event_id = p_event_id and c.address = p_category;`,
  ],
]);

export const migration: FrozenMigration = {
  name: '0031_category_shape_lock',
  steps: [
    {
      sqlite: [],
      postgres: [
        'drop function premios_save_nominee(text, text, text, text, text, text, text, text, text, json, text, integer, integer, text, text, text, text)',
        saveNominee,
      ],
    },
  ],
};
