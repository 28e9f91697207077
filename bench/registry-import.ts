/**
 * Budget of "Importar padrón" (issue 27), through the real server: a file of 20,000 registry
 * entries previewed, then imported ("Confirmar importación", one transaction), each under 5 s; and
 * the same file imported again over a registry holding it (every row "Sin cambios" or, with a
 * changed region, "Actualiza"). `node bench/registry-import.ts` prints it (after `npm run build`).
 */
import { performance } from 'node:perf_hooks';
import { CSRF_HEADER, CSRF_VALUE } from '../src/server/app.ts';
import { openDatabase } from '../src/server/db/connection.ts';
import type { AppDeps } from '../src/server/deps.ts';
import { createSession } from '../src/server/http/session.ts';
import { SESSION_COOKIE } from '../src/shared/constants.ts';
import { seedAdmin } from '../test/helpers/seed.ts';
import { startBenchServer } from './server.ts';

const ROWS = 20_000;
const BUDGET_MS = 5000;

/** A CSV as partners' spreadsheets hold it: nine columns, semicolons, accents in the names. */
function registryCsv(region: string): Buffer {
  const lines = [
    'ID fiscal;Nombre del reseller;Razón social;Localidad;Región;Nombre del contacto;Cargo del contacto;Teléfono;Email',
  ];
  for (let i = 0; i < ROWS; i++) {
    const id = `30${String(10_000_000 + i).padStart(8, '0')}${i % 10}`;
    lines.push(
      `${id};Reseller Núñez ${i};Compañía ${i} S.A.;Córdoba;${region};Contacto ${i};Gerente;3515550${String(i).padStart(3, '0').slice(-3)};ventas${i}@reseller.example`,
    );
  }
  return Buffer.from(lines.join('\n'), 'utf8');
}

export interface RegistryImportFigures {
  rows: number;
  previewMs: number;
  importMs: number;
  reimportMs: number;
  pass: boolean;
}

/** On a fresh SQLite database, or on `databaseUrl` (a fresh PostgreSQL schema). */
export async function benchRegistryImport(databaseUrl?: string): Promise<RegistryImportFigures> {
  const server = await startBenchServer({}, databaseUrl);
  const database = openDatabase(server.databaseUrl);
  try {
    const admin = await seedAdmin(database.db);
    const deps = { db: database.db, clock: { now: () => new Date() } } as AppDeps;
    const cookie = `${SESSION_COOKIE}=${await createSession(deps, { role: 'admin', adminId: admin.id })}`;
    const upload = async (path: string, data: Buffer) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(data)], { type: 'text/csv' }), 'padron.csv');
      const started = performance.now();
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { cookie, [CSRF_HEADER]: CSRF_VALUE },
        body: form,
      });
      const body = (await response.json()) as { summary?: Record<string, number> };
      if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - started, summary: body.summary };
    };
    const first = registryCsv('Centro');
    const preview = await upload('/api/resellers/import/preview', first);
    if (preview.summary?.nuevos !== ROWS)
      throw new Error(`preview: ${JSON.stringify(preview.summary)}`);
    const imported = await upload('/api/resellers/import', first);
    if (imported.summary?.nuevos !== ROWS)
      throw new Error(`import: ${JSON.stringify(imported.summary)}`);
    const again = await upload('/api/resellers/import', registryCsv('Cuyo'));
    if (again.summary?.actualizados !== ROWS)
      throw new Error(`again: ${JSON.stringify(again.summary)}`);
    return {
      rows: ROWS,
      previewMs: Math.round(preview.ms),
      importMs: Math.round(imported.ms),
      reimportMs: Math.round(again.ms),
      pass: preview.ms < BUDGET_MS && imported.ms < BUDGET_MS && again.ms < BUDGET_MS,
    };
  } finally {
    await database.close();
    await server.stop();
  }
}

if (import.meta.main) {
  process.stdout.write(
    `${JSON.stringify(await benchRegistryImport(process.env.BENCH_DATABASE_URL), null, 2)}\n`,
  );
}
