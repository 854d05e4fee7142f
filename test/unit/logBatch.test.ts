import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOG_BATCH_BYTES, batchedDestination, createLogger, flushLogs } from '../../api/log.js';
import { ROOT } from '../helpers/imports';

const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-log-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const linesOf = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Runs a script with tsx (its stdout is a pipe, as under npm start or a container runtime): stdout and when each chunk came. */
function run(source: string): Promise<{ code: number | null; chunks: { at: number; text: string }[] }> {
  const file = path.join(dir, `script-${Math.random().toString(36).slice(2)}.ts`);
  fs.writeFileSync(file, source);
  return new Promise((resolve, reject) => {
    const start = Date.now();
    const child = spawn(process.execPath, [TSX, file], { cwd: ROOT, env: { PATH: process.env.PATH } });
    const chunks: { at: number; text: string }[] = [];
    child.stdout.on('data', (d: Buffer) => chunks.push({ at: Date.now() - start, text: String(d) }));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, chunks }));
  });
}
const LOG = JSON.stringify(path.join(ROOT, 'api', 'log.ts'));

describe('the log on stdout, in batches', () => {
  it('holds lines until 4 KiB are buffered, writes them when told, and the rest once 4 KiB are reached', async () => {
    const file = path.join(dir, 'batch.log');
    const fd = fs.openSync(file, 'w');
    const dest = batchedDestination(fd) as ReturnType<typeof batchedDestination> & { destroy(): void };
    const logger = createLogger({ logLevel: 'info' }, dest);
    logger.info({ n: 1 }, 'first');
    logger.info({ n: 2 }, 'second');
    expect(fs.readFileSync(file, 'utf8')).toBe(''); // buffered, no write yet
    flushLogs();
    expect(linesOf(file).map((l) => l.msg)).toEqual(['first', 'second']);
    // Past 4 KiB the buffer is written without being asked.
    const filler = 'x'.repeat(200);
    let n = 0;
    while (fs.statSync(file).size < LOG_BATCH_BYTES && n < 100) logger.info({ filler, n: ++n }, 'filler');
    expect(n).toBeGreaterThan(10); // several lines per write
    expect(n).toBeLessThan(30);
    flushLogs();
    expect(linesOf(file).length).toBe(2 + n);
    dest.destroy(); // closes the file and stops its timer
  });

  it('writes what is buffered within a second, and everything when the process exits', async () => {
    const idle = await run(
      `import { createLogger } from ${LOG};\nconst logger = createLogger({ logLevel: 'info' });\nlogger.info('alone');\nsetTimeout(() => logger.info('last'), 2500);\n`,
    );
    expect(idle.code).toBe(0);
    const alone = idle.chunks.find((c) => c.text.includes('"alone"'))!;
    const last = idle.chunks.find((c) => c.text.includes('"last"'))!;
    // The lone line came out a second or so after it was logged, long before the process ended (at about 2.5 s + start).
    expect(last.at - alone.at).toBeGreaterThan(800);
    const exiting = await run(
      `import { createLogger } from ${LOG};\nconst logger = createLogger({ logLevel: 'info' });\nfor (let i = 0; i < 3; i++) logger.info({ i }, 'before exit');\nlogger.fatal('stopping');\nprocess.exit(3);\n`,
    );
    expect(exiting.code).toBe(3);
    const text = exiting.chunks.map((c) => c.text).join('');
    expect(text.match(/before exit/g)).toHaveLength(3);
    expect(text).toContain('"stopping"');
    const thrown = await run(
      `import { createLogger } from ${LOG};\nconst logger = createLogger({ logLevel: 'info' });\nlogger.info('before the throw');\nthrow new Error('boom');\n`,
    );
    expect(thrown.code).toBe(1);
    expect(thrown.chunks.map((c) => c.text).join('')).toContain('before the throw');
  }, 60_000);
});
