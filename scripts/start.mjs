#!/usr/bin/env node
// npm start: builds the admin and the server (only when their sources changed since the last build), then runs the compiled server (node dist/api/server.js) as a child,
// passing SIGINT/SIGTERM on to it and exiting the way it exits, so `npm start` stops the server gracefully.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNeeded, sourceStamp, writeStamp } from './buildStamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Under `npm start`, npm_execpath is npm's own CLI: run it with this node rather than looking npm up on PATH.
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

let child = null;
let stopping = null;
let lastForward = { signal: '', at: 0 };

function forward(signal) {
  stopping ??= signal;
  if (!child) return;
  // Ctrl-C reaches npm and this launcher alike, and npm passes it on again: one signal per burst goes to the child.
  const now = Date.now();
  if (lastForward.signal === signal && now - lastForward.at < 500) return;
  lastForward = { signal, at: now };
  child.kill(signal);
}
process.on('SIGINT', () => forward('SIGINT'));
process.on('SIGTERM', () => forward('SIGTERM'));
// The terminal closed: the server has its own session (below), so it would otherwise outlive us.
process.on('SIGHUP', () => forward('SIGTERM'));

/** Runs a command with our stdio; resolves to how it ended. */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      child = null;
      resolve({ code, signal });
    });
  });
}

function exitLike({ code, signal }) {
  if (signal) {
    // Die of the same signal, so npm and the shell see how the child ended.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
}

const stamp = sourceStamp(root);
const why = process.env.LS_ALWAYS_BUILD === '1' ? 'LS_ALWAYS_BUILD=1' : buildNeeded(root, stamp);
let build = { code: 0, signal: null };
if (why) {
  console.log(`Building the admin and the server (${why})…`);
  build = await run(npm[0], [...npm.slice(1), 'run', 'build']);
  if (build.code === 0 && !build.signal) writeStamp(root, stamp);
} else console.log('The build is up to date (no source changed since it was made): starting the server.');
if (build.code !== 0 || build.signal) exitLike(build);
else if (stopping)
  exitLike({ signal: stopping }); // asked to stop while building: do not start
else {
  // Its own session: Ctrl-C in a terminal signals the whole foreground process group, and the server must
  // get the signal once (from us), not once from the terminal and again from us.
  // At most 2 malloc arenas (glibc's default is 8 per core, one for each thread that allocates: libuv's pool, V8's
  // workers): the same work in less memory (the event day: RSS 224 → 176 MB at start, +107 → +88 MB over the run).
  // The image sets the same (Dockerfile); a value in the environment wins.
  const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
  exitLike(await run(process.execPath, [path.join(root, 'dist', 'api', 'server.js')], { detached: true, env }));
}
