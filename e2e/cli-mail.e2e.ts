import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../test/helpers/smtp.ts';
import { startServer } from '../test/helpers/server.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

/** The first administrator's invitation survives a mail outage and an app restart. */
describe('npm run cli -- invite-admin', () => {
  let smtp: TestSmtpServer;
  let dataDir: string;
  let databaseUrl: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-cli-'));
    databaseUrl = `sqlite:${path.join(dataDir, 'premios.db')}`;
  });
  afterAll(async () => {
    await smtp.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) =>
    run(process.execPath, ['src/server/cli.ts', ...args], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        SMTP_URL: smtp.url,
        APP_URL: 'http://premios.example',
        LOG_LEVEL: 'silent',
      },
    });

  it('delivers the invitation with its link when the mail server is up', async () => {
    const { stdout } = await cli('invite-admin', 'primera@premios.test');
    const link = /Enlace de registro: (\S+)/.exec(stdout)?.[1];
    expect(link).toMatch(/^http:\/\/premios\.example\/signin\/newadmin\?token=[\w-]+$/);
    expect(stdout).toContain('Email enviado.');
    const mail = await smtp.waitFor('primera@premios.test');
    expect(mail.subject).toBe('Invitación para administrar Premios');
    expect(mail.text).toContain(link);
    expect(smtp.allTo('primera@premios.test')).toHaveLength(1);
  });

  it('keeps it queued through an outage and a restart, then delivers it exactly once', async () => {
    smtp.refuse();
    const { stdout } = await cli('invite-admin', 'segunda@premios.test');
    expect(stdout).toContain('Email en cola (se reintentará)');
    const link = /Enlace de registro: (\S+)/.exec(stdout)?.[1] ?? '';

    // The app comes up while the mail server is still down: it tries again and fails.
    const minuteLater = new Date(Date.now() + 60_000).toISOString();
    const down = await startServer({ databaseUrl, smtp, now: minuteLater });
    await expect
      .poll(
        async () =>
          (
            await down.database.db
              .selectFrom('mail_outbox')
              .select('attempts')
              .where('to_address', '=', 'segunda@premios.test')
              .executeTakeFirstOrThrow()
          ).attempts,
        { timeout: 15_000 },
      )
      .toBeGreaterThanOrEqual(2);
    await down.stop();

    // Restarted later, with the mail server back: delivered once.
    smtp.accept();
    const hourLater = new Date(Date.now() + 3_600_000).toISOString();
    const up = await startServer({ databaseUrl, smtp, now: hourLater });
    try {
      const mail = await smtp.waitFor('segunda@premios.test', { timeoutMs: 15_000 });
      // Rendered when sent, with the sending instance's APP_URL; the single-use token is the same.
      const { pathname, search } = new URL(link);
      expect(mail.text).toContain(`${pathname}${search}`);
      await expect
        .poll(
          async () =>
            (
              await up.database.db
                .selectFrom('mail_outbox')
                .select('status')
                .where('to_address', '=', 'segunda@premios.test')
                .executeTakeFirstOrThrow()
            ).status,
        )
        .toBe('sent');
      expect(smtp.allTo('segunda@premios.test')).toHaveLength(1);
    } finally {
      await up.stop();
    }
  });
});
