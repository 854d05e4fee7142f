import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/imports';

// npm run lint as part of npm test, so CI's closing line fails when the code is not clean (eslint.config.js, .prettierrc.json).
const SHOWN = 20;
const LINT_TIMEOUT_MS = 300_000;

describe('lint and format (npm run lint)', () => {
  it(
    'ESLint reports no error and no warning',
    async () => {
      const results = await new ESLint({ cwd: ROOT }).lintFiles(['.']);
      const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(ROOT, r.filePath)}:${m.line}:${m.column} ${m.ruleId ?? '(parse)'} ${m.message}`));
      expect(problems.slice(0, SHOWN), `${problems.length} ESLint problems (npx eslint . --fix fixes some)`).toEqual([]);
    },
    LINT_TIMEOUT_MS,
  );

  it(
    'every file is formatted by Prettier',
    () => {
      const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/prettier/bin/prettier.cjs'), '--list-different', '.'], { cwd: ROOT, encoding: 'utf8' });
      const unformatted = run.stdout.split('\n').filter(Boolean);
      expect(unformatted.slice(0, SHOWN), `${unformatted.length} files not formatted (npm run format formats them)`).toEqual([]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    },
    LINT_TIMEOUT_MS,
  );
});
