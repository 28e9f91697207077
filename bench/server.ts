import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, serverEntry } from '../test/helpers/server.ts';

export interface BenchServer {
  url: string;
  pid: number;
  dataDir: string;
  databaseUrl: string;
  /** Milliseconds from spawning the process to the first /readyz 200. */
  startToReadyMs: number;
  rssBytes(): number;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '..');

/**
 * One /readyz request on a connection of its own, closed after it. Through fetch's shared pool,
 * the connection stayed open on the client's side; a bench that then seeded SQLite synchronously
 * for longer than the server's keep-alive sent its first request on it as the server closed it
 * ("other side closed").
 */
function isReady(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    http
      .get(url, { agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode === 200));
      })
      .on('error', () => resolve(false));
  });
}

/**
 * Starts the server bundle (as `npm start` does), timed until ready: on a fresh SQLite database, or
 * on `databaseUrl` when given (several instances may share one PostgreSQL database).
 */
export async function startBenchServer(
  env: Record<string, string> = {},
  databaseUrl?: string,
): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  databaseUrl ??= `sqlite:${path.join(dataDir, 'premios.db')}`;
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    try {
      if (await isReady(`${url}/readyz`)) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startToReadyMs = performance.now() - started;
  return {
    url,
    pid: child.pid ?? 0,
    dataDir,
    databaseUrl,
    startToReadyMs,
    rssBytes() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb * 1024;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
