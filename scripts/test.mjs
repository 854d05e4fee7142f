#!/usr/bin/env node
// npm test: runs the Vitest projects in two processes at once, the unit, API and admin files ("main", two at a time)
// beside the browser tests ("e2e", one file at a time), then prints one closing line from both runners' results:
//   tests: N passed, N failed[, N skipped]
// and exits non-zero when anything failed (a file that could not load, or a runner that crashed, counts as a failure).
// Extra arguments (`npm test -- <filter>`) go to both runners; one whose filter matches no file passes
// (--passWithNoTests). `--project <name>` runs only the runner(s) that hold the named projects.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GROUPS = [
  { name: 'main', projects: ['unit', 'api', 'admin'] },
  { name: 'e2e', projects: ['e2e'] },
];

const startedAt = Date.now();
// The machine's 1-minute load average, sampled through the run: it says how far the time is this run's own (other
// work on the same cores stretches it).
const loads = [os.loadavg()[0]];
const sampling = setInterval(() => loads.push(os.loadavg()[0]), 15_000);
const out = path.resolve('.test-results');
fs.mkdirSync(out, { recursive: true });

// `--project` names (Vitest's * wildcards allowed) pick the runners; every other argument goes to each runner.
const asked = [];
const passOn = [];
const userArgs = process.argv.slice(2);
for (let i = 0; i < userArgs.length; i++) {
  if (userArgs[i] === '--project' && i + 1 < userArgs.length) asked.push(userArgs[++i]);
  else if (userArgs[i].startsWith('--project=')) asked.push(userArgs[i].slice('--project='.length));
  else passOn.push(userArgs[i]);
}
const glob = (pattern) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
const known = asked.filter((p) => GROUPS.some((g) => g.projects.some((name) => glob(p).test(name))));
const runners = GROUPS.map((g) => {
  // A name no project has goes to every runner, so that Vitest itself reports it.
  const projects = asked.length === 0 ? g.projects : asked.filter((p) => !known.includes(p) || g.projects.some((name) => glob(p).test(name)));
  return { ...g, projects, json: path.join(out, `vitest-${g.name}.json`), durations: path.join(out, `durations-${g.name}.json`) };
}).filter((r) => r.projects.length > 0);

const notes = [];
if (!process.env.TEST_DATABASE_URL) notes.push('skipped: API tests on PostgreSQL (TEST_DATABASE_URL not set; they ran on PGlite only)');
if (!fs.existsSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium'))
  notes.push('skipped: end-to-end browser tests (no Chromium at /usr/bin/chromium; apt-get install -y chromium)');

// One migrated template per database kind for the whole run, shared by both runners (test/helpers/templates.ts): each
// test file copies it instead of running every migration again.
const env = { ...process.env };
const pgliteTemplate = path.join(out, `pglite-template-${process.pid}.tar`);
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

// With two runners at once, each line of theirs is written whole and tagged with the runner's name; one runner alone
// writes straight to the terminal.
const tagged = runners.length > 1;
const width = Math.max(...runners.map((r) => r.name.length));
function relay(stream, target, tag) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    if (lines.length) target.write(lines.map((l) => `${tag}${l}\n`).join(''));
  });
  stream.on('end', () => rest && target.write(`${tag}${rest}\n`));
}

const vitest = path.resolve('node_modules/vitest/vitest.mjs');
const children = new Set();
function run(runner) {
  fs.rmSync(runner.json, { force: true });
  fs.rmSync(runner.durations, { force: true });
  const args = [
    vitest,
    'run',
    ...runner.projects.flatMap((p) => ['--project', p]),
    '--passWithNoTests',
    '--reporter=default',
    '--reporter=json',
    '--reporter=./scripts/durationsReporter.mjs',
    `--outputFile.json=${runner.json}`,
    ...passOn,
  ];
  const childEnv = { ...env, LS_DURATIONS_FILE: runner.durations };
  if (tagged && process.stdout.isTTY && !('NO_COLOR' in env) && !('FORCE_COLOR' in env)) childEnv.FORCE_COLOR = '1';
  // Each runner leads a process group of its own (its workers, their servers and browsers), so that what a crashed
  // runner leaves behind can be stopped with it.
  const child = spawn(process.execPath, args, { env: childEnv, stdio: ['ignore', tagged ? 'pipe' : 'inherit', tagged ? 'pipe' : 'inherit'], detached: true });
  children.add(child);
  if (tagged) {
    const tag = `[${runner.name}]`.padEnd(width + 3);
    relay(child.stdout, process.stdout, tag);
    relay(child.stderr, process.stderr, tag);
  }
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ status: null, signal: null, error }));
    child.on('close', (status, signal) => {
      children.delete(child);
      signalGroup(child, 'SIGTERM');
      resolve({ status, signal });
    });
  });
}
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* the group is gone */
  }
}
// Ctrl-C or a TERM goes on to the runners' groups; this process waits for them, then removes the templates.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of children) signalGroup(child, signal);
  });

if (tagged) console.log(`${runners.map((r) => `[${r.name}] ${r.projects.join(', ')}`).join('   ')}   (both at once)`);
const exits = await Promise.all(runners.map(run));
if (pgTemplate) spawnSync(process.execPath, ['--import', 'tsx', 'test/helpers/makeTemplates.ts', 'drop', pgTemplate], { env, stdio: 'inherit' });
fs.rmSync(pgliteTemplate, { force: true });

let passed = 0;
let failed = 0;
let skipped = 0;
let ran = 0;
const files = [];
runners.forEach((runner, i) => {
  const exit = exits[i];
  let failedHere;
  if (fs.existsSync(runner.durations)) files.push(...JSON.parse(fs.readFileSync(runner.durations, 'utf8')));
  if (fs.existsSync(runner.json)) {
    const r = JSON.parse(fs.readFileSync(runner.json, 'utf8'));
    ran += (r.testResults ?? []).length;
    passed += r.numPassedTests ?? 0;
    failedHere = r.numFailedTests ?? 0;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    // A test file that failed to load has no failed test of its own: count it.
    for (const file of r.testResults ?? []) {
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) {
        failedHere += 1;
        console.log(`failed to run: ${path.relative(process.cwd(), file.name)}: ${(file.message || '').split('\n')[0]}`);
      }
    }
  } else {
    failedHere = 1;
    console.log(`the ${runner.name} test runner produced no results`);
  }
  if (exit.status !== 0 && failedHere === 0) {
    failedHere = 1;
    const how = exit.error ? `could not start (${exit.error.message})` : exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.status}`;
    console.log(`the ${runner.name} test runner ${how}`);
  }
  failed += failedHere;
});
// Each runner may find no file of its own; between them they must find one.
if (ran === 0 && failed === 0) {
  failed = 1;
  console.log('no test file matched');
}

const slowest = files.sort((a, b) => b.ms - a.ms).slice(0, 10);
if (slowest.length) {
  console.log('slowest test files (setup and tests):');
  for (const f of slowest) console.log(`  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
}
for (const n of notes) console.log(n);
clearInterval(sampling);
const meanLoad = loads.reduce((a, b) => a + b, 0) / loads.length;
console.log(
  `took ${Math.round((Date.now() - startedAt) / 1000)} s; load average during the run ${meanLoad.toFixed(1)} (at most ${Math.max(...loads).toFixed(1)}) on ${os.cpus().length} cores`,
);
console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
