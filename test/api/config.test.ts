import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, signInRateLimitPerMinute } from '../../src/server/config.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** The variable names in the first column of the README's configuration table. */
function documentedVariables(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Configuration\n'));
  if (!section) throw new Error('README.md has no "## Configuration" section');
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((match) => match[1] ?? '');
}

/** Every environment variable that `read` looks up, whether set or not. */
function variablesRead(read: (env: NodeJS.ProcessEnv) => unknown): string[] {
  const names = new Set<string>();
  const recordingEnv = new Proxy<NodeJS.ProcessEnv>(
    {},
    {
      get(_target, name) {
        if (typeof name === 'string') names.add(name);
        return undefined;
      },
      ownKeys() {
        throw new Error('configuration must look variables up by name, not list the environment');
      },
    },
  );
  read(recordingEnv);
  return [...names];
}

/** Source files under `dir`, tests excluded. */
function productionSources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name),
    )
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

describe('configuration', () => {
  it('reads exactly the variables the README documents', () => {
    const read = new Set([
      ...variablesRead((env) => loadConfig(env)),
      ...variablesRead((env) => signInRateLimitPerMinute(env)),
    ]);
    const documented = documentedVariables();
    expect(documented.length).toBeGreaterThan(0);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...read].sort()).toEqual([...documented].sort());
  });

  it('documents TRUST_PROXY, HOST and LOG_LEVEL, and no test-only knob', () => {
    const documented = documentedVariables();
    expect(documented).toEqual(expect.arrayContaining(['TRUST_PROXY', 'HOST', 'LOG_LEVEL']));
    expect(documented).not.toContain('NODE_ENV');
    expect(documented).not.toContain('PREMIOS_TEST_NOW');
    expect(documented).not.toContain('NODE_OPTIONS');
  });

  it('APP_TIMEZONE defaults to Buenos Aires, not the server zone, and heads the README table', () => {
    expect(loadConfig({}).timeZone).toBe('America/Argentina/Buenos_Aires');
    expect(loadConfig({ APP_TIMEZONE: 'Europe/Madrid' }).timeZone).toBe('Europe/Madrid');
    expect(documentedVariables()[0]).toBe('APP_TIMEZONE');
  });

  it('leaves variables it does not declare alone', () => {
    expect(
      loadConfig({ PORT: '4000', PREMIOS_TEST_NOW: 'not a date', NODE_ENV: 'test' }).port,
    ).toBe(4000);
  });

  it('is the only production file that touches process.env', () => {
    const readers = productionSources('src').filter((file) =>
      fs.readFileSync(path.join(root, file), 'utf8').includes('process.env'),
    );
    expect(readers).toEqual(['src/server/config.ts']);
  });
});
