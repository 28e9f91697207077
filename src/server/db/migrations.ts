import { sql, type Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';

export type Engine = 'sqlite' | 'postgres';

/**
 * One ordered set of migrations for both engines. The only engine differences are binary and
 * auto-increment column types, chosen from `engine`.
 */
function migrations(engine: Engine): Record<string, Migration> {
  const binary = engine === 'postgres' ? sql`bytea` : sql`blob`;
  return {
    '0001_initial': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('admins')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('full_name', 'text')
          .addColumn('password_hash', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('admin_invitations')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('admin_id', 'text', (c) =>
            c.notNull().references('admins.id').onDelete('cascade'),
          )
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('invited_by', 'text', (c) => c.references('admins.id').onDelete('set null'))
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('used_at', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('admin_invitations_admin_idx')
          .on('admin_invitations')
          .column('admin_id')
          .execute();

        await db.schema
          .createTable('exhibitors')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('full_name', 'text', (c) => c.notNull())
          .addColumn('company', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('events')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_search', 'text', (c) => c.notNull())
          .addColumn('event_date', 'text', (c) => c.notNull())
          .addColumn('vote_deadline', 'text', (c) => c.notNull())
          .addColumn('created_by', 'text', (c) => c.references('admins.id').onDelete('set null'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addCheckConstraint('events_deadline_before_event', sql`vote_deadline < event_date`)
          .execute();
        await db.schema.createIndex('events_date_idx').on('events').column('event_date').execute();

        await db.schema
          .createTable('mail_outbox')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('template', 'text', (c) => c.notNull())
          .addColumn('params', 'text', (c) => c.notNull())
          .addColumn('to_address', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) =>
            c.notNull().check(sql`status in ('pending', 'sent', 'failed', 'cancelled')`),
          )
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'text', (c) => c.notNull())
          .addColumn('locked_until', 'text')
          .addColumn('last_error', 'text')
          .addColumn('subject', 'text')
          .addColumn('sent_at', 'text')
          // No foreign keys: the history of what was sent outlives events and exhibitors.
          .addColumn('event_id', 'text')
          .addColumn('exhibitor_id', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('mail_outbox_due_idx')
          .on('mail_outbox')
          .columns(['status', 'next_attempt_at'])
          .execute();
        await db.schema
          .createIndex('mail_outbox_event_idx')
          .on('mail_outbox')
          .columns(['event_id', 'exhibitor_id', 'template'])
          .execute();

        await db.schema
          .createTable('event_exhibitors')
          .addColumn('event_id', 'text', (c) =>
            c.notNull().references('events.id').onDelete('cascade'),
          )
          .addColumn('exhibitor_id', 'text', (c) =>
            c.notNull().references('exhibitors.id').onDelete('cascade'),
          )
          .addColumn('invited_by', 'text', (c) => c.references('admins.id').onDelete('set null'))
          .addColumn('invitation_message_id', 'text', (c) =>
            c.references('mail_outbox.id').onDelete('set null'),
          )
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('event_exhibitors_pk', ['event_id', 'exhibitor_id'])
          .execute();
        await db.schema
          .createIndex('event_exhibitors_exhibitor_idx')
          .on('event_exhibitors')
          .column('exhibitor_id')
          .execute();

        await db.schema
          .createTable('nomination_lists')
          .addColumn('event_id', 'text', (c) => c.notNull())
          .addColumn('exhibitor_id', 'text', (c) => c.notNull())
          .addColumn('category', 'text', (c) =>
            c.notNull().check(sql`category in ('consumption', 'value')`),
          )
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('nomination_lists_pk', ['event_id', 'exhibitor_id', 'category'])
          .addForeignKeyConstraint(
            'nomination_lists_membership_fk',
            ['event_id', 'exhibitor_id'],
            'event_exhibitors',
            ['event_id', 'exhibitor_id'],
            (fk) => fk.onDelete('cascade'),
          )
          .execute();

        await db.schema
          .createTable('nominations')
          .addColumn('event_id', 'text', (c) => c.notNull())
          .addColumn('exhibitor_id', 'text', (c) => c.notNull())
          .addColumn('category', 'text', (c) => c.notNull())
          .addColumn('list_order', 'integer', (c) =>
            c.notNull().check(sql`list_order between 1 and 5`),
          )
          .addColumn('fiscal_id', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('registered_name', 'text', (c) => c.notNull())
          .addColumn('contact_name', 'text', (c) => c.notNull())
          .addColumn('contact_position', 'text', (c) => c.notNull())
          .addColumn('phone', 'text', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('location', 'text', (c) => c.notNull())
          .addColumn('city', 'text', (c) => c.notNull())
          .addColumn('nominated_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('nominations_pk', [
            'event_id',
            'exhibitor_id',
            'category',
            'list_order',
          ])
          .addUniqueConstraint('nominations_fiscal_unique', [
            'event_id',
            'exhibitor_id',
            'category',
            'fiscal_id',
          ])
          .addForeignKeyConstraint(
            'nominations_list_fk',
            ['event_id', 'exhibitor_id', 'category'],
            'nomination_lists',
            ['event_id', 'exhibitor_id', 'category'],
            (fk) => fk.onDelete('cascade'),
          )
          .execute();
        await db.schema
          .createIndex('nominations_ranking_idx')
          .on('nominations')
          .columns(['event_id', 'category', 'fiscal_id'])
          .execute();

        await db.schema
          .createTable('sessions')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'exh')`))
          .addColumn('admin_id', 'text', (c) => c.references('admins.id').onDelete('cascade'))
          .addColumn('exhibitor_id', 'text', (c) =>
            c.references('exhibitors.id').onDelete('cascade'),
          )
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('last_seen_at', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addCheckConstraint(
            'sessions_one_subject',
            sql`(role = 'admin' and admin_id is not null and exhibitor_id is null) or (role = 'exh' and exhibitor_id is not null and admin_id is null)`,
          )
          .execute();
        await db.schema
          .createIndex('sessions_admin_idx')
          .on('sessions')
          .column('admin_id')
          .execute();
        await db.schema
          .createIndex('sessions_exhibitor_idx')
          .on('sessions')
          .column('exhibitor_id')
          .execute();

        await db.schema
          .createTable('sign_in_codes')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('exhibitor_id', 'text', (c) =>
            c.notNull().references('exhibitors.id').onDelete('cascade'),
          )
          .addColumn('code_hash', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('used_at', 'text')
          .addColumn('voided_at', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('sign_in_codes_exhibitor_idx')
          .on('sign_in_codes')
          .columns(['exhibitor_id', 'created_at'])
          .execute();

        await db.schema
          .createTable('password_reset_tokens')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('admin_id', 'text', (c) =>
            c.notNull().references('admins.id').onDelete('cascade'),
          )
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('used_at', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('branding')
          .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
          .addColumn('logo_png', binary, (c) => c.notNull())
          .addColumn('etag', 'text', (c) => c.notNull())
          .addColumn('updated_by', 'text', (c) => c.references('admins.id').onDelete('set null'))
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('audit_log')
          .addColumn('id', engine === 'postgres' ? 'serial' : 'integer', (c) =>
            engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('at', 'text', (c) => c.notNull())
          .addColumn('actor_role', 'text', (c) => c.notNull())
          .addColumn('actor_id', 'text')
          .addColumn('actor_email', 'text')
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('entity_type', 'text', (c) => c.notNull())
          .addColumn('entity_id', 'text')
          .addColumn('event_id', 'text')
          .addColumn('details', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('audit_log_event_idx')
          .on('audit_log')
          .column('event_id')
          .execute();
      },
    },
    '0002_results_ranking_index': {
      // The ranking reads every nomination of a category: with the place, the nomination instant
      // and the exhibitor in the index it never touches the table rows (its time budget), and
      // the earliest nomination of a fiscal id is the first index entry of its group.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createIndex('nominations_results_idx')
          .on('nominations')
          .columns([
            'event_id',
            'category',
            'fiscal_id',
            'nominated_at',
            'exhibitor_id',
            'list_order',
          ])
          .execute();
        await db.schema.dropIndex('nominations_ranking_idx').execute();
      },
    },
    '0003_nominee_totals': {
      // The ranking reads one small row per fiscal id instead of aggregating every nomination
      // (its time budget; docs/decisions/0002). Triggers keep the rows exact for every write
      // path, foreign-key cascades included. Plain DDL: the migrator serialises migrations, and on
      // SQLite a second process fails on the first statement (table exists) and retries.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('nominee_totals')
          .addColumn('event_id', 'text', (c) =>
            c.notNull().references('events.id').onDelete('cascade'),
          )
          .addColumn('category', 'text', (c) => c.notNull())
          .addColumn('fiscal_id', 'text', (c) => c.notNull())
          .addColumn('points', 'integer', (c) => c.notNull())
          .addColumn('p1', 'integer', (c) => c.notNull())
          .addColumn('p2', 'integer', (c) => c.notNull())
          .addColumn('p3', 'integer', (c) => c.notNull())
          .addColumn('p4', 'integer', (c) => c.notNull())
          .addColumn('p5', 'integer', (c) => c.notNull())
          .addColumn('nominations', 'integer', (c) => c.notNull())
          .addColumn('first_key', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('nominee_totals_pk', ['event_id', 'category', 'fiscal_id'])
          .execute();
        // The ranking order of one event and category; fiscal_id last makes it covering, so the
        // ranking never reads the table rows.
        await db.schema
          .createIndex('nominee_totals_ranking_idx')
          .on('nominee_totals')
          .columns([
            'event_id',
            'category',
            'points desc',
            'p1 desc',
            'p2 desc',
            'p3 desc',
            'p4 desc',
            'p5 desc',
            'nominations desc',
            'first_key',
            'fiscal_id',
          ])
          .execute();
        for (const statement of nomineeTotalsTriggers(engine)) await sql.raw(statement).execute(db);
        await rebuildNomineeTotals(db);
      },
    },
    '0004_mail_outbox_recipient_idx': {
      // Every sign-in blanks the spent codes of its address (forgetSentSecrets): without this
      // index, a scan of the whole outbox, which grows with every invitation, code and reminder.
      async up(db: Kysely<unknown>) {
        await db.schema
          .createIndex('mail_outbox_recipient_idx')
          .on('mail_outbox')
          .columns(['to_address', 'template'])
          .execute();
      },
    },
  };
}

const NOMINEE_TOTALS_COLUMNS =
  'event_id, category, fiscal_id, points, p1, p2, p3, p4, p5, nominations, first_key';
const PLACES = [1, 2, 3, 4, 5] as const;

/** 1 when `row` (`new` or `old`) holds `place`, else 0 (a boolean is not a number on PostgreSQL). */
const atPlace = (row: string, place: number) =>
  `case when ${row}.list_order = ${place} then 1 else 0 end`;

/** Adds `row`'s nomination to its fiscal id's totals, creating them on its first nomination. */
function addNomination(row: string, engine: Engine): string {
  const earliest = engine === 'postgres' ? 'least' : 'min';
  return `insert into nominee_totals (${NOMINEE_TOTALS_COLUMNS})
    values (${row}.event_id, ${row}.category, ${row}.fiscal_id, 6 - ${row}.list_order,
      ${PLACES.map((place) => atPlace(row, place)).join(', ')},
      1, ${row}.nominated_at || ${row}.exhibitor_id)
    on conflict (event_id, category, fiscal_id) do update set
      points = nominee_totals.points + excluded.points,
      ${PLACES.map((p) => `p${p} = nominee_totals.p${p} + excluded.p${p}`).join(',\n      ')},
      nominations = nominee_totals.nominations + 1,
      first_key = ${earliest}(nominee_totals.first_key, excluded.first_key)`;
}

const sameNominee = (row: string, table = 'nominee_totals') =>
  `${table}.event_id = ${row}.event_id and ${table}.category = ${row}.category and ${table}.fiscal_id = ${row}.fiscal_id`;

/**
 * The earliest remaining nomination of `row`'s fiscal id, found as the first entry of its group in
 * nominations_results_idx; the same as min(nominated_at || exhibitor_id) because every instant is
 * written by toISOString (fixed width). Null when none remains.
 */
const earliestRemaining = (row: string) => `(select n.nominated_at || n.exhibitor_id
      from nominations n
      where ${sameNominee(row, 'n')}
      order by n.nominated_at, n.exhibitor_id
      limit 1)`;

const subtractNomination = (row: string) => `points = points - (6 - ${row}.list_order),
      ${PLACES.map((p) => `p${p} = p${p} - ${atPlace(row, p)}`).join(',\n      ')},
      nominations = nominations - 1`;

/** Takes `row`'s nomination out of its fiscal id's totals (SQLite: row triggers run row by row). */
const removeNominationSqlite = (row: string) => `
    delete from nominee_totals where ${sameNominee(row)} and nominations <= 1;
    update nominee_totals set
      ${subtractNomination(row)},
      first_key = case when first_key = ${row}.nominated_at || ${row}.exhibitor_id
        then coalesce(${earliestRemaining(row)}, first_key) else first_key end
    where ${sameNominee(row)};`;

const TRACKED_COLUMNS = [
  'event_id',
  'exhibitor_id',
  'category',
  'list_order',
  'fiscal_id',
  'nominated_at',
] as const;

/**
 * The triggers on nominations that keep nominee_totals exact. An update that changes none of the
 * columns the totals depend on (a corrected name or phone) does nothing.
 */
function nomineeTotalsTriggers(engine: Engine): string[] {
  const changed = TRACKED_COLUMNS.map((column) =>
    engine === 'postgres'
      ? `old.${column} is distinct from new.${column}`
      : `old.${column} is not new.${column}`,
  ).join(' or ');
  const tracked = TRACKED_COLUMNS.join(', ');
  if (engine === 'sqlite') {
    return [
      `create trigger nominee_totals_after_insert after insert on nominations
      begin
        ${addNomination('new', engine)};
      end`,
      `create trigger nominee_totals_after_delete after delete on nominations
      begin
        ${removeNominationSqlite('old')}
      end`,
      `create trigger nominee_totals_after_update after update of ${tracked} on nominations
      when ${changed}
      begin
        ${removeNominationSqlite('old')}
        ${addNomination('new', engine)};
      end`,
    ];
  }
  // PostgreSQL runs row triggers at the end of the statement, and concurrent transactions may
  // change the same totals row: the decrement takes the row lock first, and only then does a new
  // statement (a fresh READ COMMITTED snapshot, which sees every committed change of this fiscal
  // id) look for the earliest remaining nomination.
  return [
    `create function nominee_totals_apply() returns trigger language plpgsql as $$
    declare
      remaining integer;
      current_first text;
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        update nominee_totals set
          ${subtractNomination('old')}
        where ${sameNominee('old')}
        returning nominations, first_key into remaining, current_first;
        if remaining = 0 then
          delete from nominee_totals where ${sameNominee('old')};
        elsif current_first = old.nominated_at || old.exhibitor_id then
          update nominee_totals
          set first_key = coalesce(${earliestRemaining('old')}, first_key)
          where ${sameNominee('old')};
        end if;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        ${addNomination('new', engine)};
      end if;
      return null;
    end
    $$`,
    `create trigger nominee_totals_after_insert after insert on nominations
      for each row execute function nominee_totals_apply()`,
    `create trigger nominee_totals_after_delete after delete on nominations
      for each row execute function nominee_totals_apply()`,
    `create trigger nominee_totals_after_update after update of ${tracked} on nominations
      for each row when (${changed}) execute function nominee_totals_apply()`,
  ];
}

/**
 * Recomputes every nominee_totals row from the nominations (migration 0003's backfill; also how a
 * test checks the triggers' work against a from-scratch aggregate).
 */
export async function rebuildNomineeTotals(db: Kysely<unknown>): Promise<void> {
  await sql`delete from nominee_totals`.execute(db);
  await sql
    .raw(
      `insert into nominee_totals (${NOMINEE_TOTALS_COLUMNS})
      select event_id, category, fiscal_id, sum(6 - list_order),
        ${PLACES.map((place) => `sum(${atPlace('nominations', place)})`).join(', ')},
        count(*), min(nominated_at || exhibitor_id)
      from nominations
      group by event_id, category, fiscal_id`,
    )
    .execute(db);
}

export function migrationProvider(engine: Engine): MigrationProvider {
  return { getMigrations: async () => migrations(engine) };
}
