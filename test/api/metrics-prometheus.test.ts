import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSignIn } from '../../src/shared/api/auth.ts';
import { useTestApp } from '../helpers/api-fixture.ts';
import { seedEvent, seedExhibitor, seedMembership } from '../helpers/seed.ts';

/*
 * A real Prometheus (Debian's `prometheus` package, which `.ci/run` installs) scrapes the app on
 * loopback with the committed scrape configuration and alert rules (docs/ops/), and the figures
 * are read back through its query API.
 */
const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const installed = fs.existsSync(PROMETHEUS) && fs.existsSync(PROMTOOL);
const inCi = process.env.CI === 'true';
const root = path.resolve(import.meta.dirname, '../..');
const opsDir = path.join(root, 'docs/ops');
const TOKEN = 'token-de-metricas-para-prometheus';
const run = promisify(execFile);

if (!installed && !inCi) {
  process.stderr.write(
    `metrics-prometheus.test.ts skipped: ${PROMETHEUS} is not installed (apt-get install prometheus; .ci/run installs it)\n`,
  );
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** promtool reading `input` on its standard input. */
function promtool(args: string[], input?: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
    child.stdin.end(input ?? '');
  });
}

// Scrapes every second and polls with bounded waits; on a busy machine that takes a while.
describe.skipIf(!installed && !inCi)(
  'a real Prometheus scraping the app',
  { timeout: 120_000 },
  () => {
    // One app for the live scrape; its clock carries on from one test to the next.
    const app = useTestApp({ config: { metricsToken: TOKEN }, freshEachTest: false });
    let prometheus: ChildProcess | undefined;
    let prometheusUrl: string;
    let appUrl: string;
    let workDir: string;
    let prometheusLog = '';

    /** The value of an instant query's single series; undefined while there is none. */
    async function queryValue(query: string): Promise<number | undefined> {
      const response = await fetch(
        `${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`,
      );
      const body = z
        .object({
          status: z.string(),
          data: z.object({
            result: z.array(z.object({ value: z.tuple([z.number(), z.string()]) })),
          }),
        })
        .parse(await response.json());
      expect(body.status).toBe('success');
      const [series] = body.data.result;
      return series ? Number(series.value[1]) : undefined;
    }

    /** Polls Prometheus until `query` reads `expected` (bounded: fails after `timeoutMs`). */
    async function eventually(query: string, expected: number, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last: number | undefined;
      while (Date.now() < deadline) {
        last = await queryValue(query).catch(() => undefined);
        if (last === expected) return;
        await delay(200);
      }
      throw new Error(
        `Prometheus answered ${String(last)} to ${query}, not ${expected}, within ${timeoutMs} ms\n${prometheusLog}`,
      );
    }

    beforeAll(async () => {
      if (!installed) {
        throw new Error(`${PROMETHEUS} is missing in CI: .ci/run must install Debian's prometheus`);
      }
      appUrl = await app.t.app.listen({ port: 0, host: '127.0.0.1' });
      workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-prometheus-'));
      fs.writeFileSync(path.join(workDir, 'token'), TOKEN);
      fs.writeFileSync(path.join(workDir, 'wrong-token'), `${TOKEN}-no`);
      fs.copyFileSync(path.join(opsDir, 'alerts.yml'), path.join(workDir, 'alerts.yml'));
      // The README's configuration, pointed at this app, scraping every second; a second job with
      // a wrong token shows how Prometheus reports the refusal.
      const committed = fs.readFileSync(path.join(opsDir, 'prometheus.yml'), 'utf8');
      const target = new URL(appUrl).host;
      const config = committed
        .replace(/scrape_interval: 15s/, 'scrape_interval: 1s')
        .replace(/evaluation_interval: 15s/, 'evaluation_interval: 1s')
        .replace('/etc/prometheus/premios-metrics-token', path.join(workDir, 'token'))
        .replace(/- targets:\n(\s+- .*\n)+/, `- targets: ['${target}']\n`)
        .concat(
          `  - job_name: premios-wrong-token\n    metrics_path: /metrics\n    authorization:\n      type: Bearer\n      credentials_file: ${path.join(workDir, 'wrong-token')}\n    static_configs:\n      - targets: ['${target}']\n`,
        );
      expect(config).toContain(`- targets: ['${target}']`);
      expect(config).toContain('scrape_interval: 1s');
      fs.writeFileSync(path.join(workDir, 'prometheus.yml'), config);
      const checked = await promtool(['check', 'config', path.join(workDir, 'prometheus.yml')]);
      expect(checked.output).toContain('SUCCESS');
      expect(checked.code).toBe(0);

      const port = await freePort();
      prometheusUrl = `http://127.0.0.1:${port}`;
      prometheus = spawn(
        PROMETHEUS,
        [
          `--config.file=${path.join(workDir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${path.join(workDir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--log.level=warn',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      prometheus.stderr?.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
      // Ready when its readiness endpoint says so (bounded, no blind sleep).
      const deadline = Date.now() + 30_000;
      for (;;) {
        const ready = await fetch(`${prometheusUrl}/-/ready`).then(
          (response) => response.ok,
          () => false,
        );
        if (ready) break;
        if (Date.now() > deadline || prometheus.exitCode !== null) {
          throw new Error(`Prometheus did not start:\n${prometheusLog}`);
        }
        await delay(100);
      }
    }, 60_000);

    afterAll(async () => {
      if (prometheus && prometheus.exitCode === null) {
        const exited = new Promise((resolve) => prometheus?.once('exit', resolve));
        prometheus.kill('SIGTERM');
        await exited;
      }
      if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
    });

    it('scrapes the saves, the outbox and the process, and refuses a wrong token', async () => {
      await eventually('up{job="premios"}', 1);
      await eventually('up{job="premios-wrong-token"}', 0);
      const { t } = app;
      const targets = z
        .object({
          data: z.object({
            activeTargets: z.array(
              z.object({ labels: z.object({ job: z.string() }), lastError: z.string() }),
            ),
          }),
        })
        .parse(await (await fetch(`${prometheusUrl}/api/v1/targets`)).json());
      const refused = targets.data.activeTargets.find(
        (x) => x.labels.job === 'premios-wrong-token',
      );
      expect(refused?.lastError).toContain('401');

      const event = await seedEvent(t.deps.db);
      const exhibitors = await Promise.all(
        Array.from({ length: 5 }, () => seedExhibitor(t.deps.db)),
      );
      for (const exhibitor of exhibitors) await seedMembership(t.deps.db, event.id, exhibitor.id);
      const sessions = await Promise.all(
        exhibitors.map((exhibitor) => t.signIn({ role: 'exh', exhibitorId: exhibitor.id })),
      );
      // Five exhibitors save at once, over real HTTP.
      const saves = await Promise.all(
        sessions.map((session, i) =>
          fetch(`${appUrl}/api/exh/events/${event.id}/consumption/nominees`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              cookie: session.cookie,
              'x-requested-with': 'premios',
            },
            body: JSON.stringify({
              name: `Reseller ${i}`,
              registeredName: `Reseller ${i} S.A.`,
              fiscalId: `5000${i}`,
              contactName: 'Carla Contacto',
              contactPosition: 'Gerente Comercial',
              phone: '1155550000',
              email: `ventas${i}@reseller.test`,
              location: 'Palermo',
              city: 'Buenos Aires',
              version: 0,
            }),
          }),
        ),
      );
      expect(saves.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
      await eventually('premios_nomination_saves_total{job="premios",outcome="saved"}', 5);
      await eventually(
        'sum(premios_http_request_duration_seconds_count{job="premios",route="/api/exh/events/:eventId/:category/nominees",status_class="2xx"})',
        5,
      );

      // A code mail waiting 11 minutes: the outbox alert of docs/ops/alerts.yml goes pending.
      const start = await app.signedOut.send(startSignIn, {
        body: { email: exhibitors[0]!.email },
      });
      expect(start.status).toBe(200);
      await eventually('premios_outbox_waiting_messages{job="premios"}', 1);
      t.clock.advance(11 * 60_000);
      await eventually('premios_outbox_oldest_waiting_age_seconds{job="premios"}', 660);
      await eventually('count(ALERTS{alertname="PremiosOutboxStuck",alertstate="pending"})', 1);

      expect(await queryValue('process_resident_memory_bytes{job="premios"}')).toBeGreaterThan(
        10_000_000,
      );
      expect(
        await queryValue('nodejs_eventloop_lag_seconds{job="premios"}'),
      ).toBeGreaterThanOrEqual(0);
      if (t.deps.engine === 'sqlite') {
        expect(await queryValue('premios_sqlite_wal_bytes{job="premios"}')).toBeGreaterThan(0);
      }
    });

    it('passes `promtool check metrics`, which refuses a gauge named like a counter', async () => {
      const response = await fetch(`${appUrl}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      const checked = await promtool(['check', 'metrics'], text);
      expect(checked.output).toBe('');
      expect(checked.code).toBe(0);
      // The same check refuses what prom-client's defaults would add (why they are left out).
      const withDefaultTotal = `${text}# HELP nodejs_active_handles_total Number of active libuv handles.\n# TYPE nodejs_active_handles_total gauge\nnodejs_active_handles_total 5\n`;
      const refused = await promtool(['check', 'metrics'], withDefaultTotal);
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain('nodejs_active_handles_total');
    });

    it('passes `promtool check rules` on the committed alert rules', async () => {
      const { stdout } = await run(PROMTOOL, ['check', 'rules', path.join(opsDir, 'alerts.yml')]);
      expect(stdout).toContain('SUCCESS: 3 rules found');
      const rules = fs.readFileSync(path.join(opsDir, 'alerts.yml'), 'utf8');
      for (const alert of [
        'PremiosOutboxStuck',
        'PremiosServerErrors',
        'PremiosSignInRefusalsSpike',
      ]) {
        expect(rules).toContain(`alert: ${alert}`);
      }
    });
  },
);
