import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The form renderer's browser harness (test/e2e/renderer.test.ts): served for the browser tests, built for the budget. */
const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react()],
  logLevel: 'warn',
  build: { outDir: process.env.RENDERER_HARNESS_OUT ?? path.join(here, '..', '..', '..', '.test-results', 'renderer-harness'), emptyOutDir: true },
});
