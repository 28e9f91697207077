import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Why a restore was refused; the CLI words each one (src/server/cli.ts). */
export type RestoreRefusal =
  | { reason: 'backup_missing' }
  | { reason: 'not_a_backup'; detail: string }
  | { reason: 'newer_backup'; unknownMigrations: string[] }
  | { reason: 'in_use' }
  | { reason: 'data_exists' };

export type RestoreResult = { restored: true } | ({ restored: false } & RestoreRefusal);

const isBusy = (error: unknown) => /locked|busy/i.test(String(error));

/**
 * True when another connection has the database open. A running app keeps its connection open in
 * WAL mode, which holds a shared lock on the file for the connection's life; the operating system
 * drops that lock when the process ends, even when it is killed, so a crashed app does not count
 * as running (a pid file would). An exclusive lock, asked for without waiting, is refused while
 * such a lock is held.
 */
export function isDatabaseInUse(file: string): boolean {
  let database: DatabaseSync;
  try {
    database = new DatabaseSync(file);
  } catch (error) {
    if (isBusy(error)) return true;
    throw error;
  }
  try {
    database.exec('PRAGMA busy_timeout = 0');
    database.exec('PRAGMA locking_mode = EXCLUSIVE');
    database.exec('BEGIN EXCLUSIVE');
    database.exec('ROLLBACK');
    return false;
  } catch (error) {
    if (isBusy(error)) return true;
    // Not a database at all (or a damaged one): not ours to judge here; it is data all the same.
    return false;
  } finally {
    database.close();
  }
}

/** The migrations a backup has applied, after SQLite's own integrity check of the whole file. */
function readBackup(file: string): { migrations: string[] } | { problem: string } {
  let database: DatabaseSync;
  try {
    database = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  try {
    const integrity = database.prepare('PRAGMA integrity_check').all() as {
      integrity_check: string;
    }[];
    if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') {
      return { problem: 'no pasa la verificación de integridad de SQLite' };
    }
    const hasMigrations = database
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    if (!hasMigrations) return { problem: 'no tiene las tablas de Premios' };
    const rows = database.prepare('select name from kysely_migration order by name').all() as {
      name: string;
    }[];
    return { migrations: rows.map((row) => row.name) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  } finally {
    database.close();
  }
}

/** Writes `file`'s data and its name in the folder to the disk before the restore reports success. */
function syncToDisk(file: string): void {
  const handle = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
}

/**
 * Restores a SQLite backup (`npm run cli -- backup`, VACUUM INTO) as the database `target`, only
 * where there is none yet and no app has it open. The copy is written beside the target under
 * another name and then linked into place, which fails if the file appeared meanwhile (an app
 * started during the copy): an existing database is never overwritten, and a half-written one is
 * never left under the database's name. Older backups are fine: the app applies the missing
 * migrations when it starts; a backup from a newer version of the app is refused.
 */
export function restoreSqliteBackup(
  backupFile: string,
  target: string,
  knownMigrations: readonly string[],
): RestoreResult {
  if (!fs.existsSync(backupFile) || !fs.statSync(backupFile).isFile()) {
    return { restored: false, reason: 'backup_missing' };
  }
  const backup = readBackup(backupFile);
  if ('problem' in backup)
    return { restored: false, reason: 'not_a_backup', detail: backup.problem };
  const known = new Set(knownMigrations);
  const unknownMigrations = backup.migrations.filter((name) => !known.has(name));
  if (unknownMigrations.length > 0) {
    return { restored: false, reason: 'newer_backup', unknownMigrations };
  }
  if (fs.existsSync(target) && isDatabaseInUse(target))
    return { restored: false, reason: 'in_use' };
  // A log left by an app that crashed holds committed data too.
  if ([target, `${target}-wal`, `${target}-journal`].some((file) => fs.existsSync(file))) {
    return { restored: false, reason: 'data_exists' };
  }

  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.restoring-${process.pid}`;
  fs.copyFileSync(backupFile, partial, fs.constants.COPYFILE_EXCL);
  try {
    syncToDisk(partial);
    fs.linkSync(partial, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      return { restored: false, reason: 'data_exists' };
    }
    throw error;
  } finally {
    fs.rmSync(partial, { force: true });
  }
  syncToDisk(path.dirname(target));
  return { restored: true };
}
