#!/usr/bin/env node
// npm test: runs every Vitest project, then prints one closing line from the runner's own results:
//   tests: N passed, N failed[, N skipped]
// and exits non-zero when anything failed (a file that could not load counts as a failure).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const out = path.resolve('.test-results');
fs.mkdirSync(out, { recursive: true });
const json = path.join(out, 'vitest.json');
fs.rmSync(json, { force: true });

const notes = [];
if (!process.env.TEST_DATABASE_URL) notes.push('skipped: API tests on PostgreSQL (TEST_DATABASE_URL not set; they ran on PGlite only)');
if (!fs.existsSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium'))
  notes.push('skipped: end-to-end browser tests (no Chromium at /usr/bin/chromium; apt-get install -y chromium)');

// One migrated template per database kind for the whole run (test/helpers/templates.ts): each test file copies it
// instead of running every migration again.
const env = { ...process.env };
const pgliteTemplate = path.join(out, 'pglite-template.tar');
const made = spawnSync(process.execPath, ['--import', 'tsx', 'test/helpers/makeTemplates.ts', 'make', pgliteTemplate], {
  env,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const pgTemplate = made.status === 0 ? made.stdout.trim() : '';
if (made.status === 0) {
  env.LS_TEST_PGLITE_TEMPLATE = pgliteTemplate;
  if (pgTemplate) env.LS_TEST_PG_TEMPLATE = pgTemplate;
} else notes.push('note: no template databases could be made; every test database was migrated on its own');

const durations = path.join(out, 'durations.json');
fs.rmSync(durations, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', '--reporter=./scripts/durationsReporter.mjs', `--outputFile.json=${json}`, ...process.argv.slice(2)];
const run = spawnSync(process.execPath, [path.resolve('node_modules/vitest/vitest.mjs'), ...args.slice(1)], { stdio: 'inherit', env });
if (pgTemplate) spawnSync(process.execPath, ['--import', 'tsx', 'test/helpers/makeTemplates.ts', 'drop', pgTemplate], { env, stdio: 'inherit' });
fs.rmSync(pgliteTemplate, { force: true });

let passed = 0;
const slowest = fs.existsSync(durations) ? JSON.parse(fs.readFileSync(durations, 'utf8')).slice(0, 10) : [];
let failed;
let skipped = 0;
if (fs.existsSync(json)) {
  const r = JSON.parse(fs.readFileSync(json, 'utf8'));
  passed = r.numPassedTests ?? 0;
  failed = r.numFailedTests ?? 0;
  skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A test file that failed to load has no failed test of its own: count it.
  for (const file of r.testResults ?? []) {
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) {
      failed += 1;
      console.log(`failed to run: ${path.relative(process.cwd(), file.name)}: ${(file.message || '').split('\n')[0]}`);
    }
  }
} else {
  failed = 1;
  console.log('the test runner produced no results');
}
if (run.status !== 0 && failed === 0) {
  failed = 1;
  console.log(`the test runner exited with status ${run.status}`);
}
if (slowest.length) {
  console.log('slowest test files (setup and tests):');
  for (const f of slowest) console.log(`  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
}
for (const n of notes) console.log(n);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
