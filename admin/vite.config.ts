import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react()],
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: admin/scripts/bundle-report.mjs reads it to measure what each route loads.
    manifest: true,
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/storage': 'http://localhost:3000' } },
});
