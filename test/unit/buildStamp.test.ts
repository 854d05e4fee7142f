import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
// @ts-expect-error a plain ES module of the start script, without types
import { BUILD_OUTPUTS, buildNeeded, sourceStamp, writeStamp } from '../../scripts/buildStamp.mjs';

/** npm start builds only when a source changed since the last build (or an output is missing). */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-stamp-'));
  dirs.push(root);
  const write = (f: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), text);
  };
  write('api/server.ts', 'server');
  write('admin/src/main.tsx', 'admin');
  write('package-lock.json', '{}');
  for (const out of BUILD_OUTPUTS as string[]) write(out, 'built');
  return root;
}

it('no record of a build → build; after the stamp is written → none; a changed, new or removed source → build again', () => {
  const root = project();
  expect(buildNeeded(root)).toBe('no record of an earlier build');
  writeStamp(root, sourceStamp(root));
  expect(buildNeeded(root)).toBe('');

  // outputs and node_modules are not sources
  fs.writeFileSync(path.join(root, 'admin', 'dist', 'index.html'), 'rebuilt');
  fs.mkdirSync(path.join(root, 'admin', 'node_modules'));
  fs.writeFileSync(path.join(root, 'admin', 'node_modules', 'x.js'), 'x');
  expect(buildNeeded(root)).toBe('');

  fs.writeFileSync(path.join(root, 'api', 'server.ts'), 'server changed');
  expect(buildNeeded(root)).toBe('the sources changed since the last build');
  writeStamp(root, sourceStamp(root));
  fs.mkdirSync(path.join(root, 'resources'));
  fs.writeFileSync(path.join(root, 'resources', 'new.ts'), 'new');
  expect(buildNeeded(root)).toBe('the sources changed since the last build');
  fs.rmSync(path.join(root, 'resources', 'new.ts'));
  expect(buildNeeded(root)).toBe('');
  fs.writeFileSync(path.join(root, 'package-lock.json'), '{"upgraded":true}');
  expect(buildNeeded(root)).toBe('the sources changed since the last build');
});

it('a missing output means a build, whatever the stamp says', () => {
  const root = project();
  writeStamp(root, sourceStamp(root));
  fs.rmSync(path.join(root, 'admin', 'dist', 'player.html'));
  expect(buildNeeded(root)).toBe('admin/dist/player.html is missing');
});
