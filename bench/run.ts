// npm run bench: every benchmark in bench/ (each file is also runnable alone with `npx tsx bench/<name>.ts`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
// Arguments of a bench under `npm run bench` (each file alone runs its full default): the event day in quick mode,
// 20 s per run over 50,000 leads, instead of 2 × 120 s over a million.
const QUICK: Record<string, string[]> = { 'event-day.ts': ['--seconds', '20', '--leads', '50000'] };
let failed = 0;
for (const f of files) {
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), path.join(dir, f), ...(QUICK[f] ?? [])], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
