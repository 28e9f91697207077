import module from 'node:module';

// Reuse compiled code across restarts (start-to-ready budget, design.md section 9); static imports
// would be evaluated before this line, hence the dynamic import.
module.enableCompileCache?.();
// Stack traces of the bundle (dist/server) point at the TypeScript sources.
process.setSourceMapsEnabled(true);
await import('./serve.ts');
