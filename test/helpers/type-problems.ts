import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * What the compiler says of one fixture under test/fixtures, with the project's tsconfig.json: a
 * fixture marks each line that must not compile with `@ts-expect-error`, so an empty list means
 * every such line failed to compile and nothing else did.
 */
export function typeProblems(fixtureName: string): string[] {
  const fixture = path.join(root, 'test/fixtures', fixtureName);
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram([fixture], config.options);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(fixture))
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}
