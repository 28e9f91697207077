/**
 * `npm test`: every test. API and web tests on SQLite; the API tests again on PostgreSQL when
 * TEST_DATABASE_URL is set; then the web app is built and the browser tests run against the real
 * server. Ends with one line "Tests: N passed, N failed" summed over every run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'premios-test-report-'));
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');

interface Step {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

const steps: Step[] = [{ name: 'api-and-web-sqlite', args: ['run'] }];
if (process.env.TEST_DATABASE_URL) {
  steps.push({
    name: 'api-postgres',
    args: ['run', '--project', 'server'],
    env: { TEST_DB_ENGINE: 'postgres' },
  });
} else {
  process.stdout.write('TEST_DATABASE_URL is not set: the PostgreSQL run is skipped.\n');
}
steps.push({ name: 'e2e', args: ['run', '--config', 'vitest.e2e.config.ts'] });

let passed = 0;
let failed = 0;
let ok = true;

function run(command: string, args: string[], env: Record<string, string> = {}): number {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

for (const step of steps) {
  if (step.name === 'e2e') {
    process.stdout.write(
      '\n== Building the web app and the server bundle for the browser tests ==\n',
    );
    if (run(process.execPath, [path.join(root, 'scripts/build.ts'), '--force']) !== 0) {
      ok = false;
      failed += 1;
      break;
    }
  }
  process.stdout.write(`\n== ${step.name} ==\n`);
  const report = path.join(reportDir, `${step.name}.json`);
  const status = run(
    process.execPath,
    [vitest, ...step.args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    step.env,
  );
  if (status !== 0) ok = false;
  if (fs.existsSync(report)) {
    const summary = JSON.parse(fs.readFileSync(report, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
    };
    passed += summary.numPassedTests;
    failed += summary.numFailedTests;
  } else {
    failed += 1;
  }
}

if (!ok && failed === 0) failed = 1;
process.stdout.write(`\nTests: ${passed} passed, ${failed} failed\n`);
process.exit(ok ? 0 : 1);
