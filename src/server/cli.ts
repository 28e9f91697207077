import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { emailField } from '../shared/schemas/common.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/connection.ts';
import { migrations } from './db/migrations/index.ts';
import { restoreSqliteBackup, type RestoreRefusal } from './db/restore.ts';
import { AppError } from './lib/errors.ts';

const usage = `Uso:
  npm run cli -- invite-admin <email>   Invita a un administrador y muestra el enlace de registro
  npm run cli -- list-admins            Lista los administradores con su estado y último ingreso
  npm run cli -- revoke-admin <email>   Revoca el acceso de un administrador (termina sus sesiones)
  npm run cli -- backup <archivo>       Copia consistente de la base SQLite (también con la app en marcha)
  npm run cli -- restore <archivo>      Restaura una copia SQLite en una carpeta de datos vacía (con la app detenida)`;

/**
 * "Base de datos: …", the first line every command writes (to stderr, so its output stays data):
 * the CLI acts on whatever DATA_DIR and DATABASE_URL say, and run with other values than the
 * server's it would quietly work on another, empty database. A PostgreSQL password is never shown.
 */
function databaseLine(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    return `Base de datos: SQLite ${path.resolve(databaseUrl.slice('sqlite:'.length))}`;
  }
  try {
    const url = new URL(databaseUrl);
    const user = url.username ? ` (usuario ${decodeURIComponent(url.username)})` : '';
    return `Base de datos: PostgreSQL ${url.host}${url.pathname}${user}`;
  } catch {
    return 'Base de datos: PostgreSQL';
  }
}

async function run(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
  const [command, ...rest] = positionals;
  const config = loadConfig();
  process.stderr.write(`${databaseLine(config.databaseUrl)}\n`);
  // Before anything opens the database: opening it would create the file the restore must write.
  if (command === 'restore') return restore(config.databaseUrl, rest[0]);
  const database = openDatabase(config.databaseUrl);
  if (command === 'backup') {
    try {
      return await backup(database, rest[0]);
    } finally {
      await database.close();
    }
  }
  // The whole app only for the commands that use it: backup and restore start in a fraction of
  // the time without it.
  const [
    { buildApp },
    { latestMailTo },
    { inviteAdmin, listAdmins, revokeAdmin },
    { ADMIN_STATUS_LABEL },
  ] = await Promise.all([
    import('./app.ts'),
    import('./mail/outbox.ts'),
    import('./modules/admins/service.ts'),
    import('../shared/schemas/admins.ts'),
  ]);
  await database.migrate();
  const { app, deps, mailWorker } = await buildApp({ config, database, logger: { level: 'warn' } });
  try {
    switch (command) {
      case 'invite-admin': {
        const email = emailField.safeParse(rest[0] ?? '');
        if (!email.success) {
          process.stderr.write(`Email inválido: ${rest[0] ?? '(vacío)'}\n${usage}\n`);
          return 2;
        }
        const { link } = await inviteAdmin(deps, { email: email.data, admin: null });
        process.stdout.write(
          `Invitación creada para ${email.data}.\nEnlace de registro: ${link}\n`,
        );
        // Try to deliver now; if the mail server is down the message stays queued and the
        // running app's worker delivers it later.
        await mailWorker.runOnce();
        const queued = await latestMailTo(deps.db, email.data);
        process.stdout.write(
          queued?.status === 'sent'
            ? 'Email enviado.\n'
            : `Email en cola (se reintentará): ${queued?.last_error ?? 'pendiente'}\n`,
        );
        return 0;
      }
      case 'list-admins': {
        const admins = await listAdmins(deps.db, { admin: null });
        if (admins.length === 0) {
          process.stdout.write('No hay administradores.\n');
          return 0;
        }
        for (const admin of admins) {
          const fields = [
            admin.email,
            admin.fullName ?? '-',
            ADMIN_STATUS_LABEL[admin.status],
            `último ingreso: ${admin.lastSignedInAt ?? 'nunca'}`,
            `verificación en dos pasos: ${admin.mfaEnabled ? 'sí' : 'no'}`,
          ];
          process.stdout.write(`${fields.join('\t')}\n`);
        }
        return 0;
      }
      case 'revoke-admin': {
        const email = emailField.safeParse(rest[0] ?? '');
        if (!email.success) {
          process.stderr.write(`Email inválido: ${rest[0] ?? '(vacío)'}\n${usage}\n`);
          return 2;
        }
        const admin = await deps.db
          .selectFrom('admins')
          .select('id')
          .where('email', '=', email.data)
          .executeTakeFirst();
        if (!admin) {
          process.stderr.write(`No hay un administrador con el email ${email.data}.\n`);
          return 1;
        }
        await revokeAdmin(deps, { adminId: admin.id, admin: null });
        process.stdout.write(`Acceso revocado: ${email.data}. Sus sesiones terminaron.\n`);
        return 0;
      }
      default:
        process.stderr.write(`${usage}\n`);
        return 2;
    }
  } finally {
    await app.close();
    await database.close();
  }
}

/**
 * VACUUM INTO writes a consistent snapshot from one read transaction, so the app may keep running
 * and writing while it copies.
 */
async function backup(database: DatabaseHandle, target: string | undefined): Promise<number> {
  if (!target) {
    process.stderr.write(`Falta el archivo de destino.\n${usage}\n`);
    return 2;
  }
  if (database.engine !== 'sqlite') {
    process.stderr.write(
      'La base es PostgreSQL: use pg_dump (ver README, "Copias de seguridad").\n',
    );
    return 2;
  }
  const file = path.resolve(target);
  if (fs.existsSync(file)) {
    process.stderr.write(`El archivo ya existe: ${file}\n`);
    return 2;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await sql`vacuum into ${file}`.execute(database.db);
  process.stdout.write(`Copia creada: ${file}\n`);
  return 0;
}

/** The words of each refusal of `restore`: what happened, and what the operator can do. */
function restoreRefusal(refusal: RestoreRefusal, backupFile: string, target: string): string {
  switch (refusal.reason) {
    case 'backup_missing':
      return `No existe el archivo de la copia: ${backupFile}`;
    case 'not_a_backup':
      return `El archivo no es una copia de Premios que se pueda restaurar (${refusal.detail}): ${backupFile}`;
    case 'newer_backup':
      return `La copia es de una versión más nueva de Premios (migraciones que esta versión no conoce: ${refusal.unknownMigrations.join(', ')}). Actualice la aplicación y vuelva a intentarlo.`;
    case 'in_use':
      return `La aplicación está en marcha con la base ${target}: deténgala antes de restaurar. No se cambió nada.`;
    case 'data_exists':
      return `Ya hay datos en ${target}: la restauración solo escribe en una carpeta de datos vacía. Mueva esa base (con sus archivos -wal y -shm) a otro lugar, o elija otra carpeta con DATA_DIR. No se cambió nada.`;
  }
}

/** Restores a SQLite backup into an empty data folder, with the app stopped (db/restore.ts). */
function restore(databaseUrl: string, source: string | undefined): number {
  if (!source) {
    process.stderr.write(`Falta el archivo de la copia.\n${usage}\n`);
    return 2;
  }
  if (!databaseUrl.startsWith('sqlite:')) {
    process.stderr.write(
      'La base es PostgreSQL: restaure con pg_restore (ver README, "Backups").\n',
    );
    return 2;
  }
  const backupFile = path.resolve(source);
  const target = path.resolve(databaseUrl.slice('sqlite:'.length));
  const result = restoreSqliteBackup(
    backupFile,
    target,
    migrations.map((migration) => migration.name),
  );
  if (!result.restored) {
    process.stderr.write(`${restoreRefusal(result, backupFile, target)}\n`);
    return 2;
  }
  process.stdout.write(
    `Copia restaurada en ${target}. Ya puede iniciar la aplicación (aplica las migraciones que falten).\n`,
  );
  return 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message =
      error instanceof AppError || error instanceof ConfigError
        ? error.message
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`${message}\n`);
    process.exit(1);
  },
);
