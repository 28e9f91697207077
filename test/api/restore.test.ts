import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, CSRF_HEADER, CSRF_VALUE } from '../../src/server/app.ts';
import { openDatabase } from '../../src/server/db/connection.ts';
import { addNominee, moveNominee } from '../../src/shared/api/nominations.ts';
import { participation } from '../../src/shared/api/participation.ts';
import { categoryRanking, history } from '../../src/shared/api/results.ts';
import type { Category } from '../../src/shared/constants.ts';
import type { TestApp } from '../helpers/app.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { testClient, type TestClient } from '../helpers/client.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';
import { nomineeInput } from '../helpers/nominee.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const engine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** What an administrator reads of an event: both rankings, the participation and the whole history. */
async function eventAnswers(api: TestClient, eventId: string) {
  const entries = [];
  for (let before: number | null | undefined; before !== null;) {
    const page = await api.call(history, {
      params: { eventId },
      query: before ? { before: String(before) } : {},
    });
    entries.push(...page.entries);
    before = page.nextBefore;
  }
  return {
    consumption: await api.call(categoryRanking, {
      params: { eventId, category: 'consumption' },
    }),
    value: await api.call(categoryRanking, { params: { eventId, category: 'value' } }),
    participation: await api.call(participation, { params: { eventId } }),
    history: entries,
  };
}

type Answers = Awaited<ReturnType<typeof eventAnswers>>;

/** Writes of one exhibitor to one list: add until five nominees, then move the last one up. */
class ListWriter {
  version = 0;
  fiscalIds: string[] = [];
  readonly exhibitor: TestClient;
  readonly eventId: string;
  readonly category: Category;
  readonly pool: string[];

  constructor(exhibitor: TestClient, eventId: string, category: Category, pool: string[]) {
    this.exhibitor = exhibitor;
    this.eventId = eventId;
    this.category = category;
    this.pool = pool;
  }

  async save(): Promise<void> {
    const params = { eventId: this.eventId, category: this.category };
    const next = this.pool.find((id) => !this.fiscalIds.includes(id));
    const last = this.fiscalIds.at(-1);
    const list =
      this.fiscalIds.length < 5 && next
        ? await this.exhibitor.call(addNominee, {
            params,
            body: { ...nomineeInput(next), version: this.version },
          })
        : await this.exhibitor.call(moveNominee, {
            params: { ...params, fiscalId: last ?? '' },
            body: { direction: 'up', version: this.version },
          });
    this.version = list.version;
    this.fiscalIds = list.nominees.map((n) => n.fiscalId);
  }
}

/** The engine's backup tool as an operator runs it: the CLI on SQLite, pg_dump on PostgreSQL. */
async function backUp(t: TestApp, file: string): Promise<void> {
  if (engine === 'sqlite') {
    const { stdout } = await run(process.execPath, ['src/server/cli.ts', 'backup', file], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl, LOG_LEVEL: 'silent' },
    });
    expect(stdout).toContain(`Copia creada: ${file}`);
    return;
  }
  const { database, schema } = postgresParts(t.config.databaseUrl);
  await run('pg_dump', ['--format=custom', `--schema=${schema}`, `--file=${file}`, database]);
}

/** The test schema's database URL without the search_path option, and the schema's name. */
function postgresParts(url: string): { database: string; schema: string } {
  const parsed = new URL(url);
  const schema = /search_path=(\w+)/.exec(parsed.searchParams.get('options') ?? '')?.[1];
  if (!schema) throw new Error(`no schema in ${url}`);
  parsed.searchParams.delete('options');
  return { database: parsed.toString(), schema };
}

/**
 * Restores `file` into a fresh database: `npm run cli -- restore` into an empty data folder on
 * SQLite; a new database and pg_restore on PostgreSQL (the README's steps). Returns its URL and
 * how to drop it.
 */
async function restoreFresh(t: TestApp, file: string) {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-restored-'));
    const url = `sqlite:${path.join(dir, 'premios.db')}`;
    const { stdout } = await run(process.execPath, ['src/server/cli.ts', 'restore', file], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
    });
    expect(stdout).toContain(`Copia restaurada en ${path.join(dir, 'premios.db')}.`);
    return { url, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const { database, schema } = postgresParts(t.config.databaseUrl);
  const name = `premios_restore_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: database });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const fresh = new URL(database);
  fresh.pathname = `/${name}`;
  await run('pg_restore', [
    '--no-owner',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${fresh.toString()}`,
    file,
  ]);
  const url = new URL(fresh);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: database });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

// Each run of the CLI or pg_dump is a process of its own: seconds each on a busy machine.
const CLI_TIMEOUT = 120_000;

describe(`restore drill (${engine})`, { timeout: CLI_TIMEOUT }, () => {
  const app = useTestApp();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-drill-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function exhibitorsOf(eventId: string, count: number) {
    const clients: TestClient[] = [];
    for (let i = 0; i < count; i++) {
      const exhibitor = await seedExhibitor(app.db, { fullName: `Expositor ${i}` });
      await seedMembership(app.db, eventId, exhibitor.id);
      clients.push(await app.exhibitor(exhibitor.id));
    }
    return clients;
  }

  it('backs up while saves arrive; the restored copy answers as the source did at that moment', async () => {
    const { t } = app;
    const pool = ['20001', '20002', '20003', '20004', '20005', '20006', '20007'];
    // Event A: one writer at a time, so that every state it passes through is read and kept.
    const eventA = await seedEvent(t.deps.db, { name: 'Premios A' });
    const chain = (await exhibitorsOf(eventA.id, 3)).flatMap((session, i) =>
      (['consumption', 'value'] as const).map(
        (category) =>
          new ListWriter(session, eventA.id, category, [...pool.slice(i), ...pool.slice(0, i)]),
      ),
    );
    // Event B: eight exhibitors saving at once, round after round, for the whole backup.
    const eventB = await seedEvent(t.deps.db, { name: 'Premios B' });
    const parallel = (await exhibitorsOf(eventB.id, 8)).map(
      (session) => new ListWriter(session, eventB.id, 'consumption', pool),
    );

    const sourceGet = app.api;
    const states: Answers[] = [await eventAnswers(sourceGet, eventA.id)];
    let step = 0;
    const chainStep = async () => {
      await chain[step++ % chain.length]!.save();
      states.push(await eventAnswers(sourceGet, eventA.id));
    };
    for (let i = 0; i < 3; i++) await chainStep();
    await Promise.all(parallel.map((writer) => writer.save()));

    const file = path.join(dir, engine === 'sqlite' ? 'copia.db' : 'copia.dump');
    let backupDone = false;
    let parallelRounds = 0;
    const backup = backUp(t, file).finally(() => (backupDone = true));
    const chainDuring = (async () => {
      while (!backupDone) await chainStep();
    })();
    const parallelDuring = (async () => {
      while (!backupDone) {
        await Promise.all(parallel.map((writer) => writer.save()));
        parallelRounds += 1;
      }
    })();
    await Promise.all([backup, chainDuring, parallelDuring]);
    expect(parallelRounds).toBeGreaterThan(0);
    // Saves after the backup ended, so the copy's moment is known to be before the source's last.
    const statesAtBackupEnd = states.length;
    for (let i = 0; i < 3; i++) await chainStep();
    await Promise.all(parallel.map((writer) => writer.save()));

    const restored = await restoreFresh(t, file);
    const database = openDatabase(restored.url);
    await database.migrate();
    const copy = await buildApp({
      config: { ...t.config, databaseUrl: restored.url },
      database,
      clock: t.clock,
      logger: false,
    });
    try {
      // The administrator's session is in the copy too.
      const copyGet = testClient(
        {
          request: ({ as, headers, ...rest }) =>
            copy.app.inject({
              ...rest,
              headers: {
                [CSRF_HEADER]: CSRF_VALUE,
                ...(as ? { cookie: as.cookie } : {}),
                ...headers,
              },
            }),
        },
        app.as,
      );
      const restoredA = await eventAnswers(copyGet, eventA.id);
      // Event A's state at the backup's moment is the one with as many history entries.
      const moment = states.findIndex((state) => state.history.length === restoredA.history.length);
      expect(moment, 'the copy holds a state event A passed through').toBeGreaterThanOrEqual(3);
      expect(moment).toBeLessThan(statesAtBackupEnd);
      expect(restoredA).toEqual(states[moment]);
      expect(restoredA).not.toEqual(states.at(-1));

      // Event B, saved in parallel: every entry of the copy's history is the source's, unchanged.
      const restoredB = await eventAnswers(copyGet, eventB.id);
      const sourceB = await eventAnswers(sourceGet, eventB.id);
      const sourceEntries = new Map(sourceB.history.map((entry) => [entry.id, entry]));
      expect(restoredB.history.length).toBeGreaterThanOrEqual(parallel.length);
      expect(restoredB.history.length).toBeLessThan(sourceB.history.length);
      expect(restoredB.history).toEqual(
        restoredB.history.map((entry) => sourceEntries.get(entry.id)),
      );
    } finally {
      await copy.app.close();
      await database.close();
      await restored.drop();
    }
  });
});

describe.runIf(engine === 'sqlite')(
  'npm run cli -- restore refuses',
  { timeout: CLI_TIMEOUT },
  () => {
    const app = useTestApp();
    let t: TestApp;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-restore-'));
    let backupFile: string;

    const restore = (databaseUrl: string, file: string) =>
      run(process.execPath, ['src/server/cli.ts', 'restore', file], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      });
    const refusal = async (databaseUrl: string, file: string) => {
      const error = z.object({ code: z.number(), stderr: z.string(), stdout: z.string() }).parse(
        await restore(databaseUrl, file).then(
          () => {
            throw new Error('the restore was not refused');
          },
          (failure: unknown) => failure,
        ),
      );
      expect(error.code).toBe(2);
      expect(error.stdout).toBe('');
      // The CLI first says which database it acts on (README: same DATA_DIR/DATABASE_URL).
      const [first, ...rest] = error.stderr.split('\n');
      expect(first).toEqual(
        databaseUrl.startsWith('sqlite:')
          ? `Base de datos: SQLite ${path.resolve(databaseUrl.slice('sqlite:'.length))}`
          : expect.stringMatching(/^Base de datos: PostgreSQL /),
      );
      return rest.join('\n');
    };

    beforeAll(async () => {
      t = app.t;
      await seedEvent(t.deps.db, { name: 'Premios copiados' });
      backupFile = path.join(dir, 'copia.db');
      await run(process.execPath, ['src/server/cli.ts', 'backup', backupFile], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: t.config.databaseUrl, LOG_LEVEL: 'silent' },
      });
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('while the app runs on the database', async () => {
      // (Reading the file here would drop this process's SQLite locks on it: POSIX locks end when
      // any descriptor of the file closes. The app never opens its database file but through SQLite.)
      const target = t.config.databaseUrl.slice('sqlite:'.length);
      expect(await refusal(t.config.databaseUrl, backupFile)).toBe(
        `La aplicación está en marcha con la base ${target}: deténgala antes de restaurar. No se cambió nada.\n`,
      );
      const events = await t.deps.db.selectFrom('events').select('name').execute();
      expect(events).toEqual([{ name: 'Premios copiados' }]);
    });

    it('where data already exists (a stopped app), and changes nothing', async () => {
      const folder = fs.mkdtempSync(path.join(dir, 'datos-'));
      const target = path.join(folder, 'premios.db');
      const existing = new DatabaseSync(target);
      existing.exec("create table keep (x); insert into keep values ('mine')");
      existing.close();
      expect(await refusal(`sqlite:${target}`, backupFile)).toBe(
        `Ya hay datos en ${target}: la restauración solo escribe en una carpeta de datos vacía. Mueva esa base (con sus archivos -wal y -shm) a otro lugar, o elija otra carpeta con DATA_DIR. No se cambió nada.\n`,
      );
      const kept = new DatabaseSync(target, { readOnly: true });
      expect(kept.prepare('select x from keep').all()).toEqual([{ x: 'mine' }]);
      kept.close();
      expect(fs.readdirSync(folder)).toEqual(['premios.db']);
    });

    it('where a crashed app left its write-ahead log', async () => {
      const folder = fs.mkdtempSync(path.join(dir, 'datos-'));
      const target = path.join(folder, 'premios.db');
      fs.writeFileSync(`${target}-wal`, 'log');
      expect(await refusal(`sqlite:${target}`, backupFile)).toContain(`Ya hay datos en ${target}:`);
      expect(fs.readdirSync(folder)).toEqual(['premios.db-wal']);
    });

    it('a file that is not a backup, a missing one, no file, and PostgreSQL', async () => {
      const folder = fs.mkdtempSync(path.join(dir, 'datos-'));
      const url = `sqlite:${path.join(folder, 'premios.db')}`;
      const notSqlite = path.join(dir, 'notas.txt');
      fs.writeFileSync(
        notSqlite,
        'esto no es una base de datos, aunque sea bastante largo '.repeat(20),
      );
      expect(await refusal(url, notSqlite)).toMatch(
        /^El archivo no es una copia de Premios que se pueda restaurar \(.+\): .*notas\.txt\n$/,
      );
      const otherSqlite = path.join(dir, 'otra.db');
      const other = new DatabaseSync(otherSqlite);
      other.exec('create table t (x)');
      other.close();
      expect(await refusal(url, otherSqlite)).toBe(
        `El archivo no es una copia de Premios que se pueda restaurar (no tiene las tablas de Premios): ${otherSqlite}\n`,
      );
      const missing = path.join(dir, 'no-existe.db');
      expect(await refusal(url, missing)).toBe(`No existe el archivo de la copia: ${missing}\n`);
      expect(fs.readdirSync(folder)).toEqual([]);
      expect(await refusal('postgres://postgres@127.0.0.1:5432/premios', backupFile)).toBe(
        'La base es PostgreSQL: restaure con pg_restore (ver README, "Backups").\n',
      );
    });

    it('a backup of a newer version of the app', async () => {
      const newer = path.join(dir, 'nueva.db');
      fs.copyFileSync(backupFile, newer);
      const copy = new DatabaseSync(newer);
      copy.exec("insert into kysely_migration (name, timestamp) values ('9999_del_futuro', 'x')");
      copy.close();
      const folder = fs.mkdtempSync(path.join(dir, 'datos-'));
      expect(await refusal(`sqlite:${path.join(folder, 'premios.db')}`, newer)).toBe(
        'La copia es de una versión más nueva de Premios (migraciones que esta versión no conoce: 9999_del_futuro). Actualice la aplicación y vuelva a intentarlo.\n',
      );
      expect(fs.readdirSync(folder)).toEqual([]);
    });

    it('restores into an empty folder, and the app opens the copy', async () => {
      const folder = fs.mkdtempSync(path.join(dir, 'datos-'));
      const target = path.join(folder, 'premios.db');
      const { stdout } = await restore(`sqlite:${target}`, backupFile);
      expect(stdout).toBe(
        `Copia restaurada en ${target}. Ya puede iniciar la aplicación (aplica las migraciones que falten).\n`,
      );
      expect(fs.readdirSync(folder)).toEqual(['premios.db']);
      const restored = new DatabaseSync(target, { readOnly: true });
      expect(restored.prepare('select name from events').all()).toEqual([
        { name: 'Premios copiados' },
      ]);
      restored.close();
      // Once restored, a second restore is refused: the data is there now.
      expect(await refusal(`sqlite:${target}`, backupFile)).toContain(`Ya hay datos en ${target}:`);
    });
  },
);
