import fs from 'node:fs';
import path from 'node:path';

/** The import graph of a front-end entry, read from its sources: which files and packages a page really loads. */
export const ROOT = path.resolve(import.meta.dirname, '..', '..');

// import … from 'x' | export … from 'x' | import 'x' | import('x'); `import type` and `export type` are erased.
const IMPORT_RE = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export function runtimeImports(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT_RE)) {
    if (m[4]) out.push(m[4]);
    else if (!m[2]) out.push(m[3]);
  }
  return out;
}

function resolve(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.js$/, '.ts'), path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every file reachable from `entry` through runtime imports, the packages imported (and by whom), what did not resolve. */
export function importGraph(entry: string) {
  const files = new Set<string>();
  const packages = new Map<string, string>(); // package -> first file importing it
  const unresolved: string[] = [];
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(ts|tsx)$/.test(file)) continue; // CSS: no imports to follow
    for (const spec of runtimeImports(fs.readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = resolve(file, spec);
        if (target) queue.push(target);
        else unresolved.push(`${path.relative(ROOT, file)}: ${spec}`);
      } else if (!packages.has(spec)) packages.set(spec, path.relative(ROOT, file));
    }
  }
  return { files: [...files].map((f) => path.relative(ROOT, f)).sort(), packages, unresolved };
}
