// A list of 5,000 items: the API (import, tree, export) and the tree editor in Chromium (first rows, rows in the DOM,
// a scroll step, a keyboard move, a keystroke while renaming).
// npx tsx bench/list-tree.ts [--items 5000] [--runs 3]; BENCH_DATABASE_URL=postgres://... also times the API on PostgreSQL.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { PASSWORD, startApp, type TestApp } from '../test/helpers/app.js';

const { values } = parseArgs({ options: { items: { type: 'string', default: '5000' }, runs: { type: 'string', default: '3' } } });
const items = Number(values.items);
const runs = Number(values.runs);
const here = path.dirname(fileURLToPath(import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

/** 50 groups of 99 items (for 5,000), as the CSV the import takes. */
function csv(n: number): string {
  const groups = Math.max(1, Math.round(n / 100));
  const per = Math.ceil(n / groups) - 1;
  const lines = ['title,value,parent_value'];
  for (let g = 0; g < groups && lines.length <= n; g++) {
    lines.push(`Group ${g},g${g},`);
    for (let i = 0; i < per && lines.length <= n; i++) lines.push(`Item ${g}.${i},i${g}_${i},g${g}`);
  }
  return lines.join('\n');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function listWithItems(t: TestApp) {
  const root = await t.signedIn('root');
  const account = (await t.account(`Bench ${Date.now()}`)).a_id;
  const list = await root.post(`/api/1/accounts/${account}/lists`, { l_title: 'Bench', l_name: `bench-${Date.now()}` });
  const started = performance.now();
  const res = await root.raw('post', `/api/1/accounts/${account}/lists/${list.body.id}/import`).type('text/csv').send(csv(items));
  const importMs = performance.now() - started;
  if (res.status !== 200 || res.body.created !== items) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return { root, account, listId: String(list.body.id), importMs };
}

async function apiBench(kind: 'pglite' | 'postgres') {
  const rows: { importMs: number; treeMs: number; exportMs: number }[] = [];
  for (let r = 0; r < runs; r++) {
    const t = await startApp(kind);
    try {
      const { root, account, listId, importMs } = await listWithItems(t);
      let started = performance.now();
      const tree = await root.get(`/api/1/accounts/${account}/lists/${listId}/tree`);
      const treeMs = performance.now() - started;
      started = performance.now();
      const exported = await root.get(`/api/1/accounts/${account}/lists/${listId}/export.csv`);
      const exportMs = performance.now() - started;
      if (tree.status !== 200 || exported.status !== 200) throw new Error('tree or export failed');
      rows.push({ importMs, treeMs, exportMs });
      console.log(`  ${kind} run ${r + 1}: import ${fmt(importMs)}, tree ${fmt(treeMs)}, export ${fmt(exportMs)}`);
    } finally {
      await t.close();
    }
  }
  console.log(
    `${kind}: ${items} items, median import ${fmt(median(rows.map((x) => x.importMs)))}, tree ${fmt(median(rows.map((x) => x.treeMs)))}, export ${fmt(median(rows.map((x) => x.exportMs)))}`,
  );
}

/** The bench page built for production (vite), served beside a proxy to the API, on one origin. */
async function pageServer(apiPort: number): Promise<{ url: string; close(): Promise<void> }> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-bench-tree-'));
  await build({ configFile: false, root: path.join(here, 'list-tree'), plugins: [react()], logLevel: 'warn', build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 5000 } });
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/')) {
      const upstream = http.request({ host: '127.0.0.1', port: apiPort, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
      return;
    }
    const file = path.join(outDir, path.normalize(decodeURIComponent((req.url ?? '/').split('?')[0])).replace(/^(\.\.[/\\])+/, ''));
    const target = fs.existsSync(file) && fs.statSync(file).isFile() ? file : path.join(outDir, 'index.html');
    res.writeHead(200, { 'Content-Type': target.endsWith('.js') ? 'text/javascript' : target.endsWith('.css') ? 'text/css' : 'text/html' });
    fs.createReadStream(target).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(outDir, { recursive: true, force: true });
    },
  };
}

async function browserBench() {
  if (!fs.existsSync(CHROMIUM)) {
    console.log(`editor: skipped (no ${CHROMIUM})`);
    return;
  }
  const t = await startApp('pglite');
  const page$ = await pageServer((t.server.address() as AddressInfo).port);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const { account, listId } = await listWithItems(t);
    const user = await t.user(`bench-${Date.now()}@example.com`, 'root');
    const results: Record<string, number>[] = [];
    for (let r = 0; r < runs; r++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // tsx keeps function names with a __name() helper the page does not have.
      await page.addInitScript('window.__name = (f) => f');
      const q = new URLSearchParams({ account, list: listId, email: user.u_email, password: PASSWORD });
      await page.goto(`${page$.url}/?${q}`);
      await page.waitForFunction(() => window.benchReady === true, null, { timeout: 60_000 });
      const started = Date.now();
      await page.waitForSelector('[data-testid=list-tree-row]', { timeout: 60_000 });
      const firstRowsMs = Date.now() - started;
      const m = await page.evaluate(async () => {
        const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
        const tree = document.querySelector<HTMLElement>('[data-testid=list-tree]')!;
        const rowsInDom = document.querySelectorAll('[data-testid=list-tree-row]').length;
        const count = document.querySelector('[data-testid=list-count]')!.textContent;
        // 40 wheel-sized steps (3 rows each): the work each one causes before the browser is free again.
        const steps: number[] = [];
        for (let i = 0; i < 40; i++) {
          const s = performance.now();
          tree.scrollTop += 120;
          tree.dispatchEvent(new Event('scroll'));
          await new Promise((resolve) => setTimeout(resolve, 0));
          steps.push(performance.now() - s);
          await frame();
        }
        steps.sort((a, b) => a - b);
        // A jump to the end.
        let s = performance.now();
        tree.scrollTop = tree.scrollHeight;
        tree.dispatchEvent(new Event('scroll'));
        await new Promise((resolve) => setTimeout(resolve, 0));
        const jumpMs = performance.now() - s;
        await frame();
        // Alt+Down on a row in the middle of the list, until the next frame is painted.
        tree.scrollTop = tree.scrollHeight / 2;
        tree.dispatchEvent(new Event('scroll'));
        await frame();
        await frame();
        const row = document.querySelectorAll<HTMLElement>('[data-testid=list-tree-row]')[10];
        row.focus();
        await frame();
        s = performance.now();
        row.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', altKey: true, bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 0));
        const moveMs = performance.now() - s;
        await frame();
        // A keystroke in the rename field.
        (document.activeElement as HTMLElement).dispatchEvent(new KeyboardEvent('keydown', { key: 'F2', bubbles: true }));
        await frame();
        await frame();
        const input = document.activeElement as HTMLInputElement;
        s = performance.now();
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, `${input.value}x`);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 0));
        const keyMs = performance.now() - s;
        return { rowsInDom, count, stepMedian: steps[steps.length >> 1], stepMax: steps[steps.length - 1], jumpMs, moveMs, keyMs };
      });
      await page.close();
      results.push({ firstRowsMs, rowsInDom: m.rowsInDom, stepMedian: m.stepMedian, stepMax: m.stepMax, jumpMs: m.jumpMs, moveMs: m.moveMs, keyMs: m.keyMs });
      console.log(
        `  editor run ${r + 1}: ${m.count}; first rows ${firstRowsMs} ms after the page was ready; ${m.rowsInDom} rows in the DOM; scroll step median ${fmt(m.stepMedian)} (max ${fmt(m.stepMax)}); jump to the end ${fmt(m.jumpMs)}; Alt+Down ${fmt(m.moveMs)}; rename keystroke ${fmt(m.keyMs)}`,
      );
    }
    const med = (k: string) => median(results.map((x) => x[k]));
    console.log(
      `editor: ${items} items, median first rows ${med('firstRowsMs')} ms, ${med('rowsInDom')} rows in the DOM, scroll step ${fmt(med('stepMedian'))} (worst ${fmt(Math.max(...results.map((x) => x.stepMax)))}), jump ${fmt(med('jumpMs'))}, Alt+Down ${fmt(med('moveMs'))}, keystroke ${fmt(med('keyMs'))}`,
    );
    if (med('rowsInDom') > 60) {
      console.error('the editor rendered more rows than fit on screen: not virtualised');
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    await page$.close();
    await t.close();
  }
}

console.log(`List tree benchmark: ${items} items, ${runs} runs`);
await apiBench('pglite');
if (process.env.BENCH_DATABASE_URL) {
  process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  await apiBench('postgres');
}
await browserBench();
process.exit(process.exitCode ?? 0);
