import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, type Db } from '../../src/server/db/connection.ts';
import { freshTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * The schema every migration together produces, compared with a committed snapshot per engine.
 * Applied migrations are history: a change to one changes what a fresh database gets but not what
 * an existing one has, so this test fails on any such change. A new schema change is a new
 * migration, and then the snapshot is updated with `npx vitest run test/api/schema.test.ts -u`
 * (once per engine).
 */

/** Kysely's own bookkeeping tables belong to the migrator, not to the application's schema. */
const isBookkeeping = (name: string) => name.startsWith('kysely_');

async function appliedMigrations(db: Db): Promise<string> {
  const { rows } = await sql<{
    name: string;
  }>`select name from kysely_migration order by name`.execute(db);
  return `-- migrations applied: ${rows.map((row) => row.name).join(', ')}\n`;
}

/** SQLite keeps each object's statement verbatim: the snapshot is that text, in a fixed order. */
async function sqliteSchema(db: Db): Promise<string> {
  const { rows } = await sql<{
    type: string;
    name: string;
    tbl_name: string;
    sql: string | null;
  }>`select type, name, tbl_name, sql from sqlite_master order by type, name`.execute(db);
  const objects = rows
    .filter((row) => !isBookkeeping(row.tbl_name))
    .map((row) => `-- ${row.type} ${row.name} on ${row.tbl_name}\n${row.sql ?? '(implicit)'};\n`);
  return [await appliedMigrations(db), ...objects].join('\n');
}

/** PostgreSQL: what pg_catalog says of every table, column, constraint, index, trigger, function. */
async function postgresSchema(db: Db): Promise<string> {
  const schema = (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]
    ?.name;
  if (!schema) throw new Error('no current schema');
  // Each test file has a schema of its own: its name must not reach the snapshot.
  const unqualified = (text: string) => text.replaceAll(`${schema}.`, '');
  const section = (title: string, lines: string[]) =>
    `-- ${title}\n${lines.map((line) => unqualified(line)).join('\n')}\n`;

  const tables = await sql<{ table_name: string; table_type: string }>`
    select table_name, table_type from information_schema.tables
    where table_schema = current_schema() order by table_name`.execute(db);
  const columns = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
  }>`
    select table_name, column_name, data_type, is_nullable, column_default
    from information_schema.columns
    where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const constraints = await sql<{ table_name: string; name: string; definition: string }>`
    select c.conrelid::regclass::text as table_name, c.conname as name,
      pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace
    where n.nspname = current_schema() order by 1, 2`.execute(db);
  const indexes = await sql<{ tablename: string; indexname: string; indexdef: string }>`
    select tablename, indexname, indexdef from pg_indexes
    where schemaname = current_schema() order by tablename, indexname`.execute(db);
  const triggers = await sql<{ table_name: string; name: string; definition: string }>`
    select c.relname as table_name, t.tgname as name, pg_get_triggerdef(t.oid) as definition
    from pg_trigger t
      join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and not t.tgisinternal order by 1, 2`.execute(db);
  const functions = await sql<{ name: string; definition: string }>`
    select p.proname as name, pg_get_functiondef(p.oid) as definition
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema() order by 1`.execute(db);
  const sequences = await sql<{
    sequence_name: string;
    data_type: string;
    start_value: string;
    increment: string;
  }>`
    select sequence_name, data_type, start_value, increment from information_schema.sequences
    where sequence_schema = current_schema() order by sequence_name`.execute(db);

  const own = <Row>(rows: Row[], table: (row: Row) => string) =>
    rows.filter((row) => !isBookkeeping(table(row)));
  return [
    await appliedMigrations(db),
    section(
      'tables',
      own(tables.rows, (r) => r.table_name).map((r) => `${r.table_name} ${r.table_type}`),
    ),
    section(
      'columns: table.column type null default',
      own(columns.rows, (r) => r.table_name).map(
        (r) =>
          `${r.table_name}.${r.column_name} ${r.data_type} ${r.is_nullable === 'YES' ? 'null' : 'not null'} ${r.column_default ?? '-'}`,
      ),
    ),
    section(
      'constraints',
      own(constraints.rows, (r) => r.table_name).map(
        (r) => `${r.table_name} ${r.name}: ${r.definition}`,
      ),
    ),
    section(
      'indexes',
      own(indexes.rows, (r) => r.tablename).map((r) => r.indexdef),
    ),
    section(
      'triggers',
      own(triggers.rows, (r) => r.table_name).map((r) => r.definition),
    ),
    section(
      'sequences',
      own(sequences.rows, (r) => r.sequence_name).map(
        (r) => `${r.sequence_name} ${r.data_type} start ${r.start_value} increment ${r.increment}`,
      ),
    ),
    section(
      'functions',
      functions.rows.map((r) => r.definition),
    ),
  ].join('\n');
}

describe('migrations', () => {
  let testDb: TestDatabase;
  let database: DatabaseHandle;
  beforeAll(async () => {
    testDb = await freshTestDatabase();
    database = openDatabase(testDb.url);
    await database.migrate();
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('produce on a fresh database exactly the committed schema', async () => {
    const schema =
      database.engine === 'sqlite'
        ? await sqliteSchema(database.db)
        : await postgresSchema(database.db);
    await expect(schema).toMatchFileSnapshot(`./__snapshots__/schema.${database.engine}.sql`);
  });

  it('apply nothing the second time', async () => {
    const before = await sql<{ name: string }>`select name from kysely_migration`.execute(
      database.db,
    );
    await database.migrate();
    const after = await sql<{ name: string }>`select name from kysely_migration`.execute(
      database.db,
    );
    expect(after.rows).toEqual(before.rows);
  });
});
