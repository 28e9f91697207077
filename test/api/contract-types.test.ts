import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = path.join(root, 'test/fixtures/contract-types.ts');

describe('contract types', () => {
  it('refuse a handler whose answer does not fit its endpoint, and unknown error codes', () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(root, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    if (!config) throw new Error('tsconfig.json could not be read');
    const program = ts.createProgram([fixture], config.options);
    const problems = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(fixture))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    // Every `@ts-expect-error` line failed to compile, and nothing else did.
    expect(problems).toEqual([]);
  });
});
