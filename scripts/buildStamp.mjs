// What `npm start` builds from, as one digest: when it equals the digest written after the last successful build and
// the built files are there, the build is skipped (a second start takes seconds instead of half a minute).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Folders and files the admin and server builds read (their outputs, admin/dist and dist, are not among them). */
export const BUILD_SOURCES = ['admin', 'api', 'resources', 'migrations', 'seeds', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const SKIP = new Set(['node_modules', 'dist', '.git']);
/** What a build leaves that `npm start` needs; one missing means building again. */
export const BUILD_OUTPUTS = ['dist/api/server.js', 'admin/dist/index.html', 'admin/dist/public-form.html', 'admin/dist/app.html', 'admin/dist/player.html'];
export const STAMP_FILE = path.join('dist', '.build-stamp');

function addFiles(root, relative, hash) {
  const full = path.join(root, relative);
  const stat = fs.statSync(full, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) if (!SKIP.has(name)) addFiles(root, path.join(relative, name), hash);
  } else if (stat.isFile()) {
    hash.update(`${relative.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(full));
    hash.update('\0');
  }
}

/** SHA-256 over the paths and contents of every build source. */
export function sourceStamp(root) {
  const hash = crypto.createHash('sha256');
  for (const source of BUILD_SOURCES) addFiles(root, source, hash);
  return hash.digest('hex');
}

/** Why a build is needed ('' when it is not): no stamp, sources changed, or an output missing. */
export function buildNeeded(root, stamp = sourceStamp(root)) {
  const missing = BUILD_OUTPUTS.find((f) => !fs.existsSync(path.join(root, f)));
  if (missing) return `${missing} is missing`;
  let last;
  try {
    last = fs.readFileSync(path.join(root, STAMP_FILE), 'utf8').trim();
  } catch {
    return 'no record of an earlier build';
  }
  return last === stamp ? '' : 'the sources changed since the last build';
}

export function writeStamp(root, stamp) {
  fs.writeFileSync(path.join(root, STAMP_FILE), `${stamp}\n`);
}
