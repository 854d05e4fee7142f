import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest directory holding package.json above `from`. */
export function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/**
 * The checkout (or image) root, where the files read at run time live: emails/ and admin/dist/.
 * Under tsx this module is <root>/api/paths.ts; compiled it is <root>/dist/api/paths.js, and dist/ has no package.json.
 */
export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));
