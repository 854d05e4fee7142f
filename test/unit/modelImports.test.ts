import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/imports';

/**
 * A model is data access; services and routes compose models. So api/models/*.ts import (types included) only other
 * models, api/db and resources/, besides packages: a model reaching into a service turns the layers around.
 */
const MODELS = path.join(ROOT, 'api/models');
const ALLOWED = ['api/models/', 'api/db/', 'resources/'];

// every `import … from 'x'`, `export … from 'x'`, `import 'x'` and `import('x')`, type-only ones too
const SPECIFIER_RE = /(?:^|[;\n])\s*(?:import|export)\s+(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const specifiers = (source: string) => [...source.matchAll(SPECIFIER_RE)].map((m) => m[1] ?? m[2]);

/** The project-relative path of each relative import of `file` that lands outside the allowed folders. */
function outsideLayers(file: string, source: string): string[] {
  return specifiers(source)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) =>
      path
        .relative(ROOT, path.resolve(path.dirname(file), spec))
        .split(path.sep)
        .join('/'),
    )
    .filter((target) => !ALLOWED.some((dir) => target.startsWith(dir)));
}

describe('api/models imports no service', () => {
  it('every model imports only models, api/db and resources/', () => {
    const files = fs.readdirSync(MODELS).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    const bad = files.flatMap((f) => {
      const file = path.join(MODELS, f);
      return outsideLayers(file, fs.readFileSync(file, 'utf8')).map((target) => `api/models/${f} imports ${target}`);
    });
    expect(bad).toEqual([]);
  });

  it('the check sees a service import, type-only or not (so the test above can fail)', () => {
    const file = path.join(MODELS, 'example.ts');
    const source = [
      "import type { Knex } from 'knex';",
      "import { scoped } from './scope.js';",
      "import { assets } from '../../resources/assets.js';",
      "import { serializeAsset } from '../services/assets.js';",
      "import type { AppContext } from '../context.js';",
      "export { x } from '../console/x.js';",
    ].join('\n');
    expect(outsideLayers(file, source)).toEqual(['api/services/assets.js', 'api/context.js', 'api/console/x.js']);
  });
});
