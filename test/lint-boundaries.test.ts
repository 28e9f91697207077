import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const RULE = 'boundaries/dependencies';

/**
 * Lints `code` as if it were the file at `filePath` (nothing is written), with the project's own
 * ESLint configuration: what `npm run lint` would report for it.
 */
let eslint: ESLint;
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === RULE && message.severity === 2)
    .map((message) => message.message);
}

describe('import boundaries (npm run lint)', () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: root });
  });

  it('fails when the web app imports the server', async () => {
    expect(
      await boundaryErrors('src/web/routes/Probe.tsx', "import '../../server/app.ts';"),
    ).toEqual([
      'Unexpected path "../../server/app.ts" imported in restricted zone. The web app never imports the server: share through src/shared.',
    ]);
    expect(await boundaryErrors('src/web/Probe.tsx', "import '../server/app.ts';")).toHaveLength(1);
  });

  it('fails when src/server/lib imports a module', async () => {
    expect(
      await boundaryErrors(
        'src/server/lib/probe.ts',
        "import { apiRoutes } from '../modules/index.ts';\nexport const routes = apiRoutes;",
      ),
    ).toEqual([
      'Unexpected path "../modules/index.ts" imported in restricted zone. lib/ and db/ are the bottom of the server: they never import http, mail or modules.',
    ]);
  });

  it.each([
    ['the server imports the web app', 'src/server/probe.ts', "import '../web/lib/api.ts';"],
    ['shared imports the server', 'src/shared/probe.ts', "import '../server/config.ts';"],
    ['shared imports the web app', 'src/shared/probe.ts', "import '../web/lib/api.ts';"],
    ['db imports a module', 'src/server/db/probe.ts', "import '../modules/events/service.ts';"],
    [
      'lib imports http (a type import counts)',
      'src/server/lib/probe.ts',
      "import type { SessionUser } from '../http/session.ts';\nexport type U = SessionUser;",
    ],
    ['mail imports a module', 'src/server/mail/probe.ts', "import '../modules/branding/logo.ts';"],
    ['a module imports app.ts', 'src/server/modules/events/probe.ts', "import '../../app.ts';"],
    [
      'a server feature imports another feature',
      'src/server/modules/merge/probe.ts',
      "import '../ranking/service.ts';",
    ],
    [
      'a web feature imports another feature',
      'src/web/features/events/Probe.tsx',
      "import '../branding/LogoDialog.tsx';",
    ],
    [
      'a layout component loads a feature dialog on demand',
      'src/web/components/Probe.tsx',
      "export const load = () => import('../features/branding/LogoDialog.tsx');",
    ],
    [
      'a component imports the shell (an entry point of the web app)',
      'src/web/components/RequireRole.tsx',
      "import { activateProviders } from '../shell.tsx';\nexport const load = activateProviders;",
    ],
    [
      'a feature imports the shell',
      'src/web/features/events/Probe.tsx',
      "import '../../shell.tsx';",
    ],
    [
      'a feature imports a screen',
      'src/web/features/events/Probe.tsx',
      "import '../../routes/Landing.tsx';",
    ],
    [
      'production code imports test helpers',
      'src/server/probe.ts',
      "import '../../test/helpers/seed.ts';",
    ],
    ['bench imports e2e', 'bench/probe.ts', "import '../e2e/admin.e2e.ts';"],
    ['e2e imports bench', 'e2e/probe.ts', "import '../bench/run.ts';"],
    ['test helpers import bench', 'test/helpers/probe.ts', "import '../../bench/run.ts';"],
  ])('fails when %s', async (_case, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      'a module imports lib, db, http and mail',
      'src/server/modules/events/probe.ts',
      "import '../../lib/time.ts';\nimport '../../db/schema.ts';\nimport '../../http/route.ts';\nimport '../../mail/outbox.ts';",
    ],
    [
      'a module imports its own files',
      'src/server/modules/events/probe.ts',
      "import './service.ts';",
    ],
    ['app.ts composes the modules', 'src/server/probe.ts', "import './modules/index.ts';"],
    [
      'both sides import shared',
      'src/web/features/events/Probe.tsx',
      "import '../../../shared/messages.ts';",
    ],
    [
      'a route composes features and components',
      'src/web/routes/Probe.tsx',
      "import '../features/branding/LogoDialog.tsx';\nimport '../components/TopBar.tsx';",
    ],
    [
      'a feature uses components and the web lib',
      'src/web/features/events/Probe.tsx',
      "import '../../components/FormDialog.tsx';\nimport '../../lib/api.ts';",
    ],
    ['e2e and bench use test helpers', 'e2e/probe.ts', "import '../test/helpers/server.ts';"],
  ])('passes when %s', async (_case, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([]);
  });
});
