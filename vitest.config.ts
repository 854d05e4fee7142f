import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globals: true,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'api', include: ['test/api/**/*.test.ts'], environment: 'node' } },
      { extends: true, test: { name: 'admin', include: ['test/admin/**/*.test.{ts,tsx}'], environment: 'jsdom' } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 120_000, fileParallelism: false } },
    ],
  },
});
