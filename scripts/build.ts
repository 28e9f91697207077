/**
 * Builds what `npm start` runs, each part only when its sources changed since the last build:
 * the web app (dist/web) and the server bundle (dist/server). `--force` rebuilds both. A web
 * build that misses its JavaScript budgets (scripts/web-budget.ts) fails.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { budgetMisses, describeWebSize, measureWebSize } from './web-budget.ts';

const root = path.resolve(import.meta.dirname, '..');
const vite = path.join(root, 'node_modules/vite/bin/vite.js');
const force = process.argv.includes('--force');

function newestFile(...dirs: string[]): number {
  let newest = 0;
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(path.join(root, dir), {
      withFileTypes: true,
      recursive: true,
    })) {
      if (entry.isFile() && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.test.tsx')) {
        newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

function stale(output: string, sources: string[], configs: string[]): boolean {
  const file = path.join(root, output);
  if (force || !fs.existsSync(file)) return true;
  const built = fs.statSync(file).mtimeMs;
  const configTime = Math.max(...configs.map((c) => fs.statSync(path.join(root, c)).mtimeMs));
  return built < Math.max(newestFile(...sources), configTime);
}

function build(label: string, args: string[]): void {
  process.stdout.write(`Compilando ${label}…\n`);
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (
  stale('dist/web/index.html', ['src/web', 'src/shared'], ['vite.config.ts', 'package-lock.json'])
) {
  build('la aplicación web', []);
  const report = measureWebSize(path.join(root, 'dist/web'));
  process.stdout.write(`${describeWebSize(report)}\n`);
  const misses = budgetMisses(report);
  if (misses.length) {
    process.stderr.write(
      `La aplicación web excede su presupuesto de JavaScript:\n${misses.map((miss) => `- ${miss}`).join('\n')}\n`,
    );
    process.exit(1);
  }
}
if (
  stale(
    'dist/server/main.js',
    ['src/server', 'src/shared'],
    ['vite.server.config.ts', 'package-lock.json'],
  )
) {
  build('el servidor', ['--config', 'vite.server.config.ts']);
}
