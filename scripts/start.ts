/**
 * `npm start`: builds the web app and the server bundle when missing or older than their sources,
 * then starts the server (migrations are applied on start).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.ts')], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);

const server = (await import(
  path.join(root, 'dist/server/main.js')
)) as typeof import('../src/server/main.ts');
await server.start();
