import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const SIGNIN_JS_BUDGET_BYTES = 200 * 1024;

export interface WebSizeReport {
  /** gzip bytes of every JavaScript file a visit to /signin loads. */
  signinJsGzip: number;
  signinFiles: string[];
  /** Screens whose code is in a chunk of its own (loaded on demand). */
  lazyScreens: string[];
  /** Screens bundled into the entry chunk (should be none). */
  eagerScreens: string[];
}

function readManifest(webDir: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(webDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The chunk and everything it imports statically (what the browser must load before it runs). */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dependency of manifest[key]?.imports ?? []) staticClosure(manifest, dependency, seen);
  return seen;
}

export function measureWebSize(webDir: string): WebSizeReport {
  const manifest = readManifest(webDir);
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the Vite manifest');
  const signinKey = Object.keys(manifest).find((key) =>
    key.endsWith('routes/signin/SignInEmail.tsx'),
  );
  if (!signinKey) throw new Error('the /signin screen is not a chunk of its own');
  const keys = new Set([
    ...staticClosure(manifest, entryKey),
    ...staticClosure(manifest, signinKey),
  ]);
  const files = [...keys]
    .map((key) => manifest[key]?.file)
    .filter((file): file is string => Boolean(file?.endsWith('.js')));
  const signinJsGzip = files.reduce(
    (total, file) => total + gzipSync(fs.readFileSync(path.join(webDir, file))).length,
    0,
  );
  const screens = Object.keys(manifest).filter((key) => /routes\/.+\.tsx$/.test(key));
  const entryClosure = staticClosure(manifest, entryKey);
  return {
    signinJsGzip,
    signinFiles: files,
    lazyScreens: screens.filter((key) => !entryClosure.has(key)),
    eagerScreens: screens.filter((key) => entryClosure.has(key)),
  };
}
