import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/connection.ts';
import { startSmtpServer, type TestSmtpServer } from './smtp.ts';

export interface RunningServer {
  url: string;
  dataDir: string;
  smtp: TestSmtpServer;
  /** The same database the server uses, for seeding and checking rows. */
  database: DatabaseHandle;
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL: no shutdown at all; the data directory is left as the dead process left it. */
  crash(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const root = path.resolve(import.meta.dirname, '../..');
/** The built web app to serve; E2E_WEB_DIR lets parallel work build into folders of its own. */
const webDir = process.env.E2E_WEB_DIR ?? path.join(root, 'dist/web');
/** The server bundle `npm start` runs (`npm run build`). */
export const serverEntry = path.join(root, 'dist/server/main.js');
/** Runs the same bundle with a clock that starts at PREMIOS_TEST_NOW. */
const clockedServerEntry = path.join(root, 'test/helpers/clocked-server.ts');

/**
 * Starts the real server (built web app, SQLite in its own DATA_DIR, a real SMTP server on
 * loopback). `now` starts the server's clock at that instant (test/helpers/clocked-server.ts).
 */
export async function startServer(
  options: {
    now?: string;
    env?: Record<string, string>;
    /** Another database than the default fresh SQLite file (several instances on one database). */
    databaseUrl?: string;
    /** Share one SMTP server between instances; stopped by its owner, not by this server. */
    smtp?: TestSmtpServer;
  } = {},
): Promise<RunningServer> {
  if (!fs.existsSync(serverEntry)) {
    throw new Error(`${serverEntry} is missing: run \`npm run build\` first (npm test does it)`);
  }
  if (!fs.existsSync(path.join(webDir, 'index.html'))) {
    throw new Error(
      `${webDir} has no built web app: run \`npm run build\` first (npm test does it)`,
    );
  }
  const smtp = options.smtp ?? (await startSmtpServer());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const databaseUrl = options.databaseUrl ?? `sqlite:${path.join(dataDir, 'premios.db')}`;
  let output = '';
  const entry = options.now ? [clockedServerEntry, serverEntry] : [serverEntry];
  const child: ChildProcess = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SMTP_URL: smtp.url,
      WEB_DIR: webDir,
      APP_TIMEZONE: 'America/Argentina/Buenos_Aires',
      LOG_LEVEL: 'warn',
      ...(options.now ? { PREMIOS_TEST_NOW: options.now } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const database = openDatabase(databaseUrl);
  return {
    url,
    dataDir,
    smtp,
    database,
    output: () => output,
    async crash() {
      child.kill('SIGKILL');
      await exited;
      await database.close();
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await database.close();
      if (!options.smtp) await smtp.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
