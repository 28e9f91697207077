import module from 'node:module';
module.enableCompileCache?.();
await import('./dist/server/assets/' + process.argv[2]);
const out = [];
for (const file of process.argv.slice(3)) {
  const t0 = performance.now();
  await import('./dist/server/assets/' + file);
  out.push(`${file.split('-')[0]} ${(performance.now() - t0).toFixed(1)} ms`);
}
console.log(out.join(', '));
