// The form designer with 200 elements and a 5,000-item list, in Chromium: how long from a keypress (or a click) until
// the preview (or the editor) shows it, and how many frames and main-thread tasks run over 16.7 ms meanwhile.
// npx tsx bench/designer.ts [--keys 40] [--gap 80] [--elements 200] [--items 5000] [--runs 3]
//
// The page is test/e2e/designer/ built by Vite for production (React's production build) and served by `vite preview`;
// its API is a fake inside the page that answers at once, so the figures are the browser's and React's alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';

const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '40' },
    gap: { type: 'string', default: '80' },
    elements: { type: 'string', default: '200' },
    items: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '3' },
    trace: { type: 'boolean', default: true },
    'no-trace': { type: 'boolean', default: false },
  },
});
const KEYS = Number(values.keys);
const GAP = Number(values.gap);
const RUNS = Number(values.runs);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FRAME = 1000 / 60;

if (!fs.existsSync(CHROMIUM)) {
  console.log(`skipped: no Chromium at ${CHROMIUM}`);
  process.exit(0);
}

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] : Number.NaN);
const worst = (xs: number[]) => (xs.length ? Math.max(...xs) : Number.NaN);
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : '—');

interface Sample {
  /** input event time (event.timeStamp of the keydown or click) → the DOM shows it (a MutationObserver saw it) */
  commit: number;
  /** → the frame after that: the rAF after the change, then the task after that frame (the change is painted) */
  painted: number;
}
interface ScenarioResult {
  name: string;
  samples: Sample[];
  /** Event Timing API: per interaction the longest event duration (input to its next paint), only those ≥ 16 ms are reported by the browser */
  slowEvents: number[];
  interactions: number;
  /** rAF intervals while it ran */
  frames: number[];
  /** main-thread tasks from the Chromium trace */
  longTasks: number[];
}

/** In the page: records, per input, when the watched part of the page first shows the expected text. */
async function arm(page: Page, kind: 'keydown' | 'click', rootSelector: string, read: string) {
  await page.evaluate(
    ({ kind, rootSelector, read }) => {
      type W = Window & {
        __bench: { samples: { commit: number; painted: number }[]; frames: number[]; events: Map<number, number>; stop: () => void; next: (text: string | null) => void };
      };
      const w = window as unknown as W;
      const root = document.querySelector(rootSelector)!;
      const readText = new Function('root', read) as (root: Element) => string | null;
      const samples: { commit: number; painted: number }[] = [];
      // the text the next input should bring (set before the input, so the page knows it the moment it shows)
      let upcoming: string | null | undefined;
      let pending: { start: number; expected: string | null | undefined; done: boolean } | null = null;
      const check = () => {
        if (!pending || pending.done || pending.expected === undefined) return;
        if (readText(root) !== pending.expected) return;
        const p = pending;
        p.done = true;
        const commit = performance.now() - p.start;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => samples.push({ commit, painted: performance.now() - p.start });
          channel.port2.postMessage(null);
        });
      };
      const observer = new MutationObserver(check);
      observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
      const onStart = (e: Event) => {
        if (kind === 'keydown' && (e as KeyboardEvent).key.length > 1 && (e as KeyboardEvent).key !== 'Backspace') return;
        pending = { start: e.timeStamp, expected: upcoming, done: false };
        upcoming = undefined;
        // what a handler of this very event changes is seen by the observer after it
      };
      document.addEventListener(kind, onStart, true);
      // frames
      const frames: number[] = [];
      let last = 0;
      let running = true;
      const tick = (t: number) => {
        if (last) frames.push(t - last);
        last = t;
        if (running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      // Event Timing
      const events = new Map<number, number>();
      const armedAt = performance.now();
      const po = new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[]) {
          if (!e.interactionId || e.startTime < armedAt) continue;
          events.set(e.interactionId, Math.max(events.get(e.interactionId) ?? 0, e.duration));
        }
      });
      po.observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
      w.__bench = {
        samples,
        frames,
        events,
        next: (text) => {
          upcoming = text;
        },
        stop: () => {
          running = false;
          observer.disconnect();
          po.disconnect();
          document.removeEventListener(kind, onStart, true);
        },
      };
    },
    { kind, rootSelector, read },
  );
}

const next = (page: Page, text: string) => page.evaluate((t) => (window as unknown as { __bench: { next: (t: string) => void } }).__bench.next(t), text);

async function collect(page: Page) {
  await page.waitForTimeout(300);
  return page.evaluate(() => {
    const b = (window as unknown as { __bench: { samples: Sample[]; frames: number[]; events: Map<number, number>; stop: () => void } }).__bench;
    b.stop();
    return { samples: b.samples, frames: b.frames, slowEvents: [...b.events.values()] };
  });
}

/** Main-thread tasks over one frame in a Chromium trace (RunTask on CrRendererMain). */
function longTasksOf(trace: Buffer): number[] {
  const data = JSON.parse(trace.toString('utf8')) as { traceEvents: { name: string; ph: string; pid: number; tid: number; dur?: number; args?: { name?: string } }[] };
  const main = data.traceEvents.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`);
  return data.traceEvents.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.includes(`${e.pid}:${e.tid}`) && (e.dur ?? 0) / 1000 > FRAME).map((e) => (e.dur ?? 0) / 1000);
}

async function traced<T>(browser: Browser, page: Page, run: () => Promise<T>): Promise<{ result: T; longTasks: number[] }> {
  if (values['no-trace']) return { result: await run(), longTasks: [] };
  // RunTask events are in this category only; devtools.timeline (every paint and layout) would add to what is measured
  await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline'] });
  const result = await run();
  const trace = await browser.stopTracing();
  return { result, longTasks: longTasksOf(trace) };
}

const label = (selector: string) => `
  const el = root.querySelector(${JSON.stringify(selector)});
  const label = el && el.querySelector('.ls-form-label');
  return label && label.firstChild ? label.firstChild.textContent : null;`;

async function typeTitle(browser: Browser, page: Page): Promise<ScenarioResult> {
  // the checkbox tree over the 5,000-item list (it draws 200 rows): its title is the preview's legend
  await page.locator('.fd-select', { hasText: 'q_007' }).click();
  const title = page.getByRole('textbox', { name: 'Title' });
  await title.click();
  await page.keyboard.press('End');
  await arm(page, 'keydown', '.fd-preview', label('[data-name="q_007"]'));
  const { result, longTasks } = await traced(browser, page, async () => {
    let text = await title.inputValue();
    for (let i = 0; i < KEYS; i++) {
      const ch = String.fromCharCode(97 + (i % 26));
      text += ch;
      await next(page, text);
      await page.keyboard.press(ch);
      await page.waitForTimeout(GAP);
    }
    return collect(page);
  });
  return { name: 'title of the element with the 5,000-item list → preview label', ...result, interactions: KEYS, longTasks };
}

async function typeOption(browser: Browser, page: Page): Promise<ScenarioResult> {
  // a text element's max_length: the preview's counter "0 of N characters"
  await page.locator('.fd-select', { hasText: 'q_013' }).click();
  const field = page.getByRole('textbox', { name: 'Maximum length' });
  await field.fill('9');
  await page.waitForTimeout(200);
  await arm(page, 'keydown', '.fd-preview', `const c = root.querySelector('[data-name="q_013"] .ls-form-counter'); return c ? c.textContent : null;`);
  const { result, longTasks } = await traced(browser, page, async () => {
    let value = '9';
    for (let i = 0; i < KEYS; i++) {
      const key = value.length > 1 ? 'Backspace' : String((i % 9) + 1);
      value = key === 'Backspace' ? value.slice(0, -1) : value + key;
      await next(page, `0 of ${value} characters`);
      await page.keyboard.press(key);
      await page.waitForTimeout(GAP);
    }
    return collect(page);
  });
  return { name: 'max_length of a text element → preview counter', ...result, interactions: KEYS, longTasks };
}

async function select(browser: Browser, page: Page): Promise<ScenarioResult> {
  await arm(page, 'click', '.fd-panel--editor', `const h = root.querySelector('.fd-editor-heading'); return h ? h.textContent : null;`);
  const rows = page.locator('.fd-select');
  const { result, longTasks } = await traced(browser, page, async () => {
    for (let i = 0; i < KEYS; i++) {
      const n = 20 + (i % 10); // rows 20..29, scrolled into view by the click
      const row = rows.nth(n - 1);
      await row.scrollIntoViewIfNeeded();
      await next(page, `Question ${n}`);
      await row.click();
      await page.waitForTimeout(GAP);
    }
    return collect(page);
  });
  return { name: 'select an element → its editor', ...result, interactions: KEYS, longTasks };
}

/** The floor on this machine: a plain input whose text a listener copies into a paragraph, measured the same way. */
async function baseline(browser: Browser): Promise<ScenarioResult> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.setContent(
    '<input id="in" aria-label="text"><p id="out"></p><script>document.getElementById("in").addEventListener("input", (e) => { document.getElementById("out").textContent = e.target.value; });</script>',
  );
  await page.evaluate('window.__name = (f) => f;');
  await page.locator('#in').click();
  await arm(page, 'keydown', '#out', 'return root.textContent;');
  const { result, longTasks } = await traced(browser, page, async () => {
    let text = '';
    for (let i = 0; i < KEYS; i++) {
      const ch = String.fromCharCode(97 + (i % 26));
      text += ch;
      await next(page, text);
      await page.keyboard.press(ch);
      await page.waitForTimeout(GAP);
    }
    return collect(page);
  });
  await page.close();
  return { name: 'baseline: a plain input copied into a paragraph (no React)', ...result, interactions: KEYS, longTasks };
}

async function main() {
  const { build, preview } = await import('vite');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-designer-bench-'));
  const configFile = path.join(ROOT, 'test/e2e/designer/vite.config.ts');
  process.env.NODE_ENV = 'production';
  await build({ configFile, mode: 'production', logLevel: 'error', build: { outDir: out, emptyOutDir: true } });
  const server = await preview({ configFile, build: { outDir: out }, preview: { host: '127.0.0.1', port: 0 }, logLevel: 'error' });
  const base = server.resolvedUrls!.local[0];
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const results: ScenarioResult[][] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // tsx names the functions it compiles with a helper that the page does not have
      await page.addInitScript({ content: 'window.__name = (f) => f;' });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const t0 = Date.now();
      await page.goto(`${base}?fake=1&elements=${values.elements}&items=${values.items}`);
      await page
        .locator('.fd-row')
        .nth(Number(values.elements) - 1)
        .waitFor({ state: 'attached', timeout: 60_000 });
      await page.locator('.fd-preview [data-name="q_200"]').waitFor({ state: 'attached', timeout: 60_000 });
      const loaded = Date.now() - t0;
      const rows = await page.locator('.fd-row').count();
      console.log(`run ${run + 1}: ${rows} elements loaded and drawn in ${loaded} ms (page load to the last preview element)`);
      results.push([await typeTitle(browser, page), await typeOption(browser, page), await select(browser, page), await baseline(browser)]);
      if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    fs.rmSync(out, { recursive: true, force: true });
  }
  console.log(`\n${KEYS} inputs per scenario, ${GAP} ms apart, ${RUNS} runs; medians and worst over all runs\n`);
  console.log(
    '| scenario | input → shown: median | worst | → painted: median | worst | inputs with an event ≥ 16 ms (worst) | frames > 16.7 ms | main-thread tasks > 16.7 ms (longest) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  let failed = false;
  for (let s = 0; s < results[0].length; s++) {
    const all = results.map((r) => r[s]);
    const samples = all.flatMap((r) => r.samples);
    const commit = samples.map((x) => x.commit);
    const painted = samples.map((x) => x.painted);
    const slow = all.flatMap((r) => r.slowEvents);
    const frames = all.flatMap((r) => r.frames);
    const long = all.flatMap((r) => r.longTasks);
    const inputs = all.reduce((n, r) => n + r.interactions, 0);
    console.log(
      `| ${all[0].name} | ${ms(median(commit))} | ${ms(worst(commit))} | ${ms(median(painted))} | ${ms(worst(painted))} | ${slow.length} of ${inputs}${slow.length ? ` (${ms(worst(slow))})` : ''} | ${frames.filter((f) => f > FRAME + 1).length} of ${frames.length} | ${long.length}${long.length ? ` (${ms(worst(long))})` : ''} |`,
    );
    if (samples.length < inputs) {
      console.log(`  ${inputs - samples.length} inputs were never seen in the page`);
      failed = true;
    }
    if (median(commit) > FRAME) failed = true; // the change must be in the DOM before the next frame is due
  }
  process.exit(failed ? 1 : 0);
}

await main();
