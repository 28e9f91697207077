import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';

const root = import.meta.dirname;

/** The folders under `dir` (each one a feature of its side). */
const featuresIn = (dir) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const entryPoints = (side) =>
  side === 'server'
    ? ['src/server/app.ts', 'src/server/cli.ts', 'src/server/serve.ts', 'src/server/main.ts']
    : ['src/web/main.tsx', 'src/web/router.tsx', 'src/web/shell.tsx'];

/** One zone per feature: it may import its own folder, and nothing of its sibling features. */
const featureZones = (side, dir, exceptions = {}) =>
  featuresIn(dir).map((feature) => ({
    target: `${dir}/${feature}`,
    from: dir,
    except: [`./${feature}`, ...(exceptions[feature] ?? [])],
    message: `A ${side} feature never imports another feature: move what both need down a layer.`,
  }));

/**
 * Which way imports may point. `shared` is the bottom and serves both sides; the server's lib and
 * db serve its http, mail and modules; the web's lib and components serve its features and routes;
 * tests' shared support is test/helpers, which production code never imports.
 */
const importDirection = [
  {
    target: 'src/shared',
    from: ['src/server', 'src/web'],
    message: 'src/shared is used by the server and the web, and imports neither.',
  },
  {
    target: 'src/server',
    from: 'src/web',
    message: 'The server never imports the web app: share through src/shared.',
  },
  {
    target: 'src/web',
    from: 'src/server',
    message: 'The web app never imports the server: share through src/shared.',
  },
  {
    target: 'src',
    from: ['test', 'e2e', 'bench', 'scripts', 'docs'],
    message: 'Production code never imports tests, their helpers, benchmarks or scripts.',
  },
  {
    target: ['src/server/lib', 'src/server/db'],
    from: ['src/server/http', 'src/server/mail', 'src/server/modules', ...entryPoints('server')],
    message: 'lib/ and db/ are the bottom of the server: they never import http, mail or modules.',
  },
  {
    target: ['src/server/http', 'src/server/mail'],
    from: ['src/server/modules', ...entryPoints('server')],
    message: 'http/ and mail/ serve the modules: pass what they need in from app.ts.',
  },
  {
    target: 'src/server/modules',
    from: entryPoints('server'),
    message: 'Modules are composed by app.ts and the CLI, never the other way round.',
  },
  ...featureZones('server', 'src/server/modules'),
  {
    target: ['src/web/lib', 'src/web/components'],
    from: ['src/web/features', 'src/web/routes', ...entryPoints('web')],
    message: 'Layout and shared web code never import features or screens: a route passes them in.',
  },
  {
    target: 'src/web/lib',
    from: 'src/web/components',
    message: 'src/web/lib is below the components.',
  },
  {
    target: 'src/web/features',
    from: ['src/web/routes', ...entryPoints('web')],
    message: 'Features are composed by routes, never the other way round.',
  },
  ...featureZones('web', 'src/web/features'),
  {
    target: 'e2e',
    from: 'bench',
    message: 'e2e and bench never import each other: move what they share into test/helpers.',
  },
  {
    target: 'bench',
    from: 'e2e',
    message: 'e2e and bench never import each other: move what they share into test/helpers.',
  },
  {
    target: 'test',
    from: ['e2e', 'bench'],
    message: 'test/helpers holds what tests share; it never imports e2e or bench.',
  },
];

/** A path from the repository root, as the globs matching it and everything under it. */
const pathGlobs = (paths) => [paths].flat().flatMap((entry) => [entry, `${entry}/**`]);

/** The name of the file category holding the imports a zone lets through. */
const exceptionCategory = (zoneIndex) => `import-direction-exception-${zoneIndex}`;

/**
 * Every file is a source file (the rule skips files it cannot classify); the files a zone lets
 * through despite its `from` also carry that zone's exception category, so the zone can say
 * "from these folders, except files of that category" in a single policy.
 */
const importDirectionFileCategories = [
  { category: 'source', pattern: '**' },
  ...importDirection.flatMap((zone, zoneIndex) =>
    zone.except
      ? [
          {
            category: exceptionCategory(zoneIndex),
            pattern: [zone.from]
              .flat()
              .flatMap((from) =>
                zone.except.flatMap((exception) => pathGlobs(path.posix.join(from, exception))),
              ),
          },
        ]
      : [],
  ),
];

/**
 * One policy per zone: files under `target` never import files under `from` (minus `except`,
 * paths relative to `from`). The message keeps the wording the rule has always printed.
 */
const importDirectionPolicies = importDirection.map((zone, zoneIndex) => ({
  from: { file: { path: pathGlobs(zone.target) } },
  disallow: {
    to: {
      file: {
        path: pathGlobs(zone.from),
        ...(zone.except && { categories: { noneOf: [exceptionCategory(zoneIndex)] } }),
      },
    },
  },
  message: `Unexpected path "{{dependency.source}}" imported in restricted zone. ${zone.message}`,
}));

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'coverage', 'docs/manual/*.pdf'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/web/**/*.tsx', 'src/web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['**/*.{ts,tsx,js}'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': root,
      'boundaries/files': importDirectionFileCategories,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'boundaries/legacy-templates': false,
    },
    rules: {
      // No element types are declared, so every import is checked, even one within a folder.
      'boundaries/dependencies': [
        'error',
        { default: 'allow', checkInternals: true, policies: importDirectionPolicies },
      ],
    },
  },
);
