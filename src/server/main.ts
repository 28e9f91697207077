import module from 'node:module';

// Reuse compiled code across restarts (start-to-ready budget, design.md section 9); static imports
// would be evaluated before this line, hence the dynamic import.
module.enableCompileCache?.();
// The bundle (dist/server) ships its source maps, but Node holds a loaded map in memory (about
// 35 MB, the idle-memory budget's whole margin): stack traces name the TypeScript sources only when
// started with NODE_OPTIONS=--enable-source-maps.
await import('./serve.ts');
