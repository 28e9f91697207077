import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent } from '../helpers/seed.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe.runIf(process.env.TEST_DB_ENGINE !== 'postgres')('npm run cli -- backup', () => {
  // The one administrator, whom the copy must hold.
  const app = useTestApp({ admin: { email: 'ana@premios.test' } });

  it('copies the SQLite database consistently while the app keeps writing', async () => {
    const { t } = app;
    for (let i = 0; i < 20; i++) await seedEvent(t.deps.db, { name: `Evento ${i}` });
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'premios-backup-')), 'copia.db');
    // Writes keep going during the copy.
    const writes = (async () => {
      for (let i = 20; i < 60; i++) await seedEvent(t.deps.db, { name: `Evento ${i}` });
    })();
    const { stdout } = await run(process.execPath, ['src/server/cli.ts', 'backup', target], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl, LOG_LEVEL: 'silent' },
    });
    await writes;
    expect(stdout).toContain(`Copia creada: ${target}`);
    const copy = new DatabaseSync(target, { readOnly: true });
    expect(copy.prepare('pragma integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const events = z
      .object({ n: z.number() })
      .parse(copy.prepare('select count(*) as n from events').get());
    expect(events.n).toBeGreaterThanOrEqual(20);
    expect(copy.prepare('select email from admins').all()).toEqual([{ email: 'ana@premios.test' }]);
    copy.close();
  });

  it('refuses to overwrite an existing file', async () => {
    const { t } = app;
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'premios-backup-')), 'x.db');
    fs.writeFileSync(target, 'keep');
    await expect(
      run(process.execPath, ['src/server/cli.ts', 'backup', target], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: t.config.databaseUrl },
      }),
    ).rejects.toMatchObject({ code: 2 });
    expect(fs.readFileSync(target, 'utf8')).toBe('keep');
  });
});
