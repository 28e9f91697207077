import module from 'node:module';
import type { ServeOptions } from './serve.ts';

// Reuse compiled code across restarts (start to ready is budgeted under 1 s); static imports
// would be evaluated before this line, hence the dynamic import.
module.enableCompileCache?.();

/** Starts the server; `npm start` and the end-to-end tests call it on the built bundle. */
export async function start(options: ServeOptions = {}): Promise<void> {
  const { serve } = await import('./serve.ts');
  await serve(options);
}

// The bundle starts itself when run as `node dist/server/main.js`; importing it only exports start.
// The bundle (dist/server) ships its source maps, but Node holds a loaded map in memory (about
// 35 MB, the idle-memory budget's whole margin): stack traces name the TypeScript sources only when
// started with NODE_OPTIONS=--enable-source-maps.
if (import.meta.main) await start();
