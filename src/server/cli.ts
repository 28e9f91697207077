import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { emailField } from '../shared/schemas/common.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/connection.ts';
import { AppError } from './lib/errors.ts';
import { latestMailTo } from './mail/outbox.ts';
import { inviteAdmin, listAdmins, revokeAdmin } from './modules/admins/service.ts';
import { ADMIN_STATUS_LABEL } from '../shared/schemas/admins.ts';

const usage = `Uso:
  npm run cli -- invite-admin <email>   Invita a un administrador y muestra el enlace de registro
  npm run cli -- list-admins            Lista los administradores con su estado y último ingreso
  npm run cli -- revoke-admin <email>   Revoca el acceso de un administrador (termina sus sesiones)
  npm run cli -- backup <archivo>       Copia consistente de la base SQLite (también con la app en marcha)`;

async function run(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
  const [command, ...rest] = positionals;
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  if (command === 'backup') {
    try {
      return await backup(database, rest[0]);
    } finally {
      await database.close();
    }
  }
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
        const { link } = await inviteAdmin(deps, email.data, null);
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
        const admins = await listAdmins(deps.db, '');
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
        await revokeAdmin(deps, admin.id, null);
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
