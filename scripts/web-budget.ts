/**
 * The web app's JavaScript budgets (design, section 9), read from a build's manifest: which chunks
 * a page imports statically before it shows (each file's precompressed `.gz`, or the file itself
 * when too small to be compressed), which code an exhibitor's pages import, and that every other
 * screen is a chunk of its own. The manifest does not see what a page imports once it runs (a
 * screen's dynamic imports): the bytes the budgets hold are counted in Chromium
 * (test/helpers/web-downloads.ts); this count is a floor of them, and the check for a build
 * where no Chromium is installed. `node scripts/build.ts` fails when either misses a budget;
 * e2e/web-budget.e2e.ts asserts the same.
 */
import fs from 'node:fs';
import path from 'node:path';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export const SIGNIN_JS_BUDGET_BYTES = 100 * 1024;
/**
 * The design's budget for /exh/event/{id} (and /exh under it), drawn without MUI like the sign-in
 * steps (decision 0009).
 */
export const EXH_EVENT_JS_BUDGET_BYTES = 160 * 1024;

/** Code an exhibitor's pages must never load (module paths as in the build's module map). */
export const NEVER_FOR_EXHIBITORS: Record<string, RegExp> = {
  'date pickers': /node_modules\/@mui\/x-date-pickers\/|node_modules\/dayjs\//,
  'xlsx code': /xlsx|exceljs|features\/results\/|features\/exhibitors\/ImportDialog/,
  'administrator screens':
    /src\/web\/routes\/admin\/|src\/web\/features\/(events|admins|participation|branding)\//,
};

export interface PageJs {
  /** Bytes transferred (gzip) for the page's JavaScript. */
  bytes: number;
  files: string[];
  /** Source modules in those files. */
  modules: string[];
}

export interface WebSizeReport {
  signin: PageJs;
  exhEvent: PageJs;
  exhHome: PageJs;
  /** Screens whose code is in a chunk of its own (loaded on demand). */
  lazyScreens: string[];
  /** Screens bundled into the entry chunk (should be none). */
  eagerScreens: string[];
  /** Code of NEVER_FOR_EXHIBITORS found in an exhibitor's pages, by kind. */
  exhibitorLeaks: Record<string, string[]>;
  /** Every chunk of the build and its source modules. */
  allModules: Record<string, string[]>;
}

/** The chunk and everything it imports statically (what the browser must load before it runs). */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dependency of manifest[key]?.imports ?? []) staticClosure(manifest, dependency, seen);
  return seen;
}

function transferred(webDir: string, file: string): number {
  const gz = path.join(webDir, `${file}.gz`);
  return fs.statSync(fs.existsSync(gz) ? gz : path.join(webDir, file)).size;
}

export function measureWebSize(webDir: string): WebSizeReport {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(webDir, '.vite/manifest.json'), 'utf8'),
  ) as Manifest;
  const modulesOf = JSON.parse(
    fs.readFileSync(path.join(webDir, '.vite/modules.json'), 'utf8'),
  ) as Record<string, string[]>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the Vite manifest');
  const keyOf = (source: string) => {
    const key = Object.keys(manifest).find(
      (candidate) => candidate === source || candidate.endsWith(`/${source}`),
    );
    if (!key) throw new Error(`${source} is not a chunk of its own`);
    return key;
  };

  /**
   * What a page loads before it shows: the entry, and the chunks the router loads for it (the
   * screen and its layout; the exhibitor's layout checks the role itself).
   */
  const page = (sources: string[]): PageJs => {
    const keys = new Set<string>();
    for (const key of [entryKey, ...sources.map(keyOf)]) staticClosure(manifest, key, keys);
    const files = [...new Set([...keys].map((key) => manifest[key]?.file ?? ''))].filter((file) =>
      file.endsWith('.js'),
    );
    return {
      bytes: files.reduce((total, file) => total + transferred(webDir, file), 0),
      files,
      modules: files.flatMap((file) => modulesOf[file] ?? []),
    };
  };
  const signin = page(['routes/signin/SignInEmail.tsx']);
  const exhHome = page(['routes/exh/ExhLayout.tsx', 'routes/exh/MyEvents.tsx']);
  const exhEvent = page(['routes/exh/ExhLayout.tsx', 'routes/exh/NominationScreen.tsx']);

  const exhModules = new Set([...exhHome.modules, ...exhEvent.modules]);
  const exhibitorLeaks = Object.fromEntries(
    Object.entries(NEVER_FOR_EXHIBITORS).map(([kind, pattern]) => [
      kind,
      [...exhModules].filter((module) => pattern.test(module)),
    ]),
  );
  const screens = Object.keys(manifest).filter((key) => /routes\/.+\.tsx$/.test(key));
  const entryClosure = staticClosure(manifest, entryKey);
  return {
    signin,
    exhHome,
    exhEvent,
    lazyScreens: screens.filter((key) => !entryClosure.has(key)),
    eagerScreens: screens.filter((key) => entryClosure.has(key)),
    exhibitorLeaks,
    allModules: modulesOf,
  };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The budgets missed, in words (empty when all are met). */
export function budgetMisses(report: WebSizeReport): string[] {
  const misses: string[] = [];
  if (report.signin.bytes > SIGNIN_JS_BUDGET_BYTES) {
    misses.push(
      `/signin carga ${kib(report.signin.bytes)} de JavaScript (máximo ${kib(SIGNIN_JS_BUDGET_BYTES)})`,
    );
  }
  // /exh loads less than /exh/event/{id} (no list, no tabs): the same budget holds it.
  for (const [label, page] of [
    ['/exh/event/{id}', report.exhEvent],
    ['/exh', report.exhHome],
  ] as const) {
    if (page.bytes > EXH_EVENT_JS_BUDGET_BYTES) {
      misses.push(
        `${label} carga ${kib(page.bytes)} de JavaScript (máximo ${kib(EXH_EVENT_JS_BUDGET_BYTES)})`,
      );
    }
  }
  for (const [kind, modules] of Object.entries(report.exhibitorLeaks)) {
    if (modules.length)
      misses.push(`las pantallas del expositor cargan ${kind}: ${modules.slice(0, 3).join(', ')}`);
  }
  if (report.eagerScreens.length) {
    misses.push(`pantallas en la carga inicial: ${report.eagerScreens.join(', ')}`);
  }
  return misses;
}

export function describeWebSize(report: WebSizeReport): string {
  return [
    `JavaScript (gzip) que /signin importa antes de mostrarse, según el manifiesto: ${kib(report.signin.bytes)} (presupuesto ${kib(SIGNIN_JS_BUDGET_BYTES)})`,
    `JavaScript (gzip) que /exh/event/{id} importa antes de mostrarse, según el manifiesto: ${kib(report.exhEvent.bytes)} (presupuesto ${kib(EXH_EVENT_JS_BUDGET_BYTES)})`,
    `JavaScript (gzip) que /exh importa antes de mostrarse, según el manifiesto: ${kib(report.exhHome.bytes)}`,
  ].join('\n');
}
