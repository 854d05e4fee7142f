import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, ROOT, runtimeImports } from '../helpers/imports';

/**
 * The form renderer goes into the public registration page (100 KB gzip of JS with React) and the capture app, so it
 * is plain React: nothing from react-admin, ra-*, MUI or emotion, and nothing that drags in zod (resources/fields.ts
 * builds zod schemas when loaded). This walks the import statements from admin/src/renderer/index.ts.
 */
const ENTRY = path.join(ROOT, 'admin/src/renderer/index.ts');
const FORBIDDEN_PACKAGES = [/^react-admin$/, /^ra-/, /^@mui\//, /^@emotion\//, /^zod(\/|$)/];
const ALLOWED_PACKAGES = [/^react$/, /^react\/jsx-runtime$/, /^react-dom(\/|$)/];

describe('the form renderer is plain React', () => {
  const graph = importGraph(ENTRY);

  it('reaches the element components and its stylesheet', () => {
    expect(graph.unresolved).toEqual([]);
    expect(graph.files).toEqual(expect.arrayContaining(['admin/src/renderer/FormRenderer.tsx', 'admin/src/renderer/TreeElement.tsx', 'admin/src/renderer/renderer.css']));
  });

  it('imports no react-admin, ra-*, MUI, emotion or zod, and no package but React', () => {
    const bad = [...graph.packages].filter(([spec]) => FORBIDDEN_PACKAGES.some((re) => re.test(spec)) || !ALLOWED_PACKAGES.some((re) => re.test(spec)));
    expect(bad).toEqual([]);
  });

  it('takes from resources/ only the zod-free answers.ts and checks.ts (fields.ts and the declarations load zod)', () => {
    expect(graph.files.filter((f) => f.startsWith('resources/')).sort()).toEqual(['resources/answers.ts', 'resources/checks.ts']);
  });

  it('the import reader sees what it must (so the checks above can fail)', () => {
    const sample = [
      "import { Button } from '@mui/material';",
      "import type { FormElementSpec } from '../../../resources/answers';",
      "export { x } from './x';",
      "import './renderer.css';",
      'const Lazy = lazy(() => import("react-admin"));',
      "import {\n  a,\n  b,\n} from 'ra-core';",
      "export type { Y } from './y';",
    ].join('\n');
    expect(runtimeImports(sample)).toEqual(['@mui/material', './x', './renderer.css', 'ra-core', 'react-admin'].sort((a, b) => sample.indexOf(a) - sample.indexOf(b)));
  });
});
