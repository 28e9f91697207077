/**
 * `npm start`: builds the web app when it is missing or older than its sources, then starts the
 * server (migrations are applied on start).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'dist/web/index.html');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

const stale =
  !fs.existsSync(builtIndex) ||
  fs.statSync(builtIndex).mtimeMs <
    Math.max(newestSource(path.join(root, 'src/web')), newestSource(path.join(root, 'src/shared')));

if (stale) {
  process.stdout.write('Compilando la aplicación web…\n');
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await import('../src/server/main.ts');
