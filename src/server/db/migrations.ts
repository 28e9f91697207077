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
      // and the exhibitor in the index it never touches the table rows (design.md section 9), and
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
  };
}

export function migrationProvider(engine: Engine): MigrationProvider {
  return { getMigrations: async () => migrations(engine) };
}
