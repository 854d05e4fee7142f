import { defineConfig } from 'vitest/config';

/**
 * Test files run two at a time even on two cores (Vitest's default there is one): most of a file's time is spent
 * waiting on PostgreSQL, a spawned server, Chromium or a timer. LS_TEST_WORKERS overrides it. The browser tests run
 * one file at a time; `npm test` (scripts/test.mjs) runs them in a Vitest process of their own beside the other three
 * projects (a plain `npx vitest run` runs them after the rest).
 */
const workers = Number(process.env.LS_TEST_WORKERS) || 2;

export default defineConfig({
  test: {
    globals: true,
    maxWorkers: workers,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'api', include: ['test/api/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'admin', include: ['test/admin/**/*.test.{ts,tsx}'], environment: 'jsdom', setupFiles: ['test/admin/setup.ts'] } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          fileParallelism: false,
          // expect.poll waits on a condition in the page as long as a locator does (15 s, test/e2e/support/browser.ts),
          // not Vitest's 1 s: an upload's round trips outlast 1 s on a loaded machine.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
