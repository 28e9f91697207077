import fs from 'node:fs';
import path from 'node:path';

/**
 * The project's folder, found from wherever this code runs: from `src/server` in development and
 * tests, or from the bundle in `dist/server` (`npm start`). Files shipped in the repository (the
 * default logo, the manual) are addressed from here.
 */
function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (
      fs.existsSync(path.join(dir, 'package.json')) &&
      fs.existsSync(path.join(dir, 'src/server'))
    ) {
      return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`project folder not found above ${start}`);
  }
}

export const projectRoot = findProjectRoot(import.meta.dirname);

export const projectFile = (...parts: string[]): string => path.join(projectRoot, ...parts);
