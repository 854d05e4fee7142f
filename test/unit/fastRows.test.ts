import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

// A list page's answer is its rows through each resource's serialize, then JSON.stringify. A serialize that adds
// properties under computed keys (row[name] = …) turns each row into a dictionary-mode object, which V8 writes out
// half again as slowly (the leads' photo URLs did: a tenth of a list page's CPU). V8 tells only under
// --allow-natives-syntax, so the check runs in a child process (test/helpers/fastRowsProbe.ts).
it('every declared resource answers its rows as fast-mode objects (rows made by pg, through its serialize)', () => {
  const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', 'test/helpers/fastRowsProbe.ts'], { cwd: ROOT, encoding: 'utf8' });
  const seen = JSON.parse(out.trim().split('\n').pop()!) as Record<string, boolean | string>;
  expect(Object.keys(seen)).toContain('leads');
  expect(Object.keys(seen).length).toBeGreaterThan(20);
  const slow = Object.entries(seen).filter(([, fast]) => fast !== true);
  expect(slow, 'these resources answer dictionary-mode rows (or their serialize threw): add properties by name, not row[key]').toEqual([]);
}, 60_000);
