import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { DESKTOP, HAS_CHROMIUM, launch, PHONE, shot, SKIP_REASON } from './support/browser';
import { ROOT } from './support/server';

if (!HAS_CHROMIUM) console.warn(SKIP_REASON);

/**
 * The form renderer in Chromium: the harness (test/e2e/renderer/) served by Vite shows every element type and
 * 5,000-item lists. Checks the layout at 375 and 1200 px in light and dark, the contrast of the text, theming by
 * custom property, and the keyboard in a real browser. Screenshots go to test/e2e/screenshots (git-ignored).
 */
describe.skipIf(!HAS_CHROMIUM)('form renderer in the browser', () => {
  let server: ViteDevServer;
  let browser: Browser;
  let base = '';

  beforeAll(async () => {
    const { createServer } = await import('vite');
    server = await createServer({ configFile: path.join(ROOT, 'test/e2e/renderer/vite.config.ts'), server: { host: '127.0.0.1', port: 0 }, logLevel: 'error' });
    await server.listen();
    base = server.resolvedUrls!.local[0];
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(
    viewport: { width: number; height: number },
    colorScheme: 'light' | 'dark',
    query = '',
  ): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport, colorScheme, locale: 'en-GB' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}${query}`);
    await page.locator('.ls-form').waitFor();
    return { page, errors, close: () => context.close() };
  }

  /** WCAG contrast of each matched element's text against the first opaque background behind it. */
  const contrasts = (page: Page, selector: string) =>
    page.$$eval(selector, (nodes) => {
      const parse = (c: string) => {
        const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(c);
        if (!m) throw new Error(`unreadable colour ${c}`);
        return { rgb: [+m[1], +m[2], +m[3]], alpha: m[4] === undefined ? 1 : +m[4] };
      };
      const lum = ([r, g, b]: number[]) => {
        const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      return nodes.map((node) => {
        let bg: number[] | null = null;
        for (let el: Element | null = node; el && !bg; el = el.parentElement) {
          const c = parse(getComputedStyle(el).backgroundColor);
          if (c.alpha === 1) bg = c.rgb;
        }
        const fg = parse(getComputedStyle(node).color).rgb;
        const [a, b] = [lum(fg), lum(bg ?? [255, 255, 255])].sort((x, y) => y - x);
        return { text: (node.textContent ?? '').trim().slice(0, 30), ratio: (a + 0.05) / (b + 0.05) };
      });
    });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const viewport of [PHONE, { ...DESKTOP, width: 1200 }]) {
      it(`${colorScheme}, ${viewport.width} px: no sideways scrolling, readable text`, async () => {
        const { page, errors, close } = await open(viewport, colorScheme, '?errors=1');
        try {
          await page.getByRole('radio', { name: 'Green' }).click();
          await page.locator('[data-date="2025-05-12"]').click();
          const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
          expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
          // every element stays inside the form's box
          const overflow = await page.$$eval('.ls-form-field', (fields) => {
            const form = document.querySelector('.ls-form')!.getBoundingClientRect();
            return fields.filter((f) => f.getBoundingClientRect().right > form.right + 0.5).map((f) => f.getAttribute('data-name'));
          });
          expect(overflow).toEqual([]);
          const selectors = [
            '.ls-form-label',
            '.ls-form-input',
            '.ls-form-chip',
            '.ls-form-error',
            '.ls-form-hint',
            '.ls-form-tree-title',
            '.ls-form-day--open',
            '.ls-form-day--chosen',
            '.ls-form-calendar th',
          ];
          for (const selector of selectors) {
            const found = await contrasts(page, selector);
            expect(found.length, selector).toBeGreaterThan(0);
            for (const c of found) expect(c.ratio, `${selector} "${c.text}"`).toBeGreaterThanOrEqual(4.5);
          }
          await shot(page, `renderer-${colorScheme}`);
          expect(errors).toEqual([]);
        } finally {
          await close();
        }
      });
    }
  }

  it('a form style themes it through --ls-form-accent', async () => {
    const { page, close } = await open(PHONE, 'light', '?accent=%23aa0055');
    try {
      await page.getByRole('radio', { name: 'Blue' }).click();
      const bg = await page.getByRole('radio', { name: 'Blue' }).evaluate((n) => getComputedStyle(n).backgroundColor);
      expect(bg).toBe('rgb(170, 0, 85)');
    } finally {
      await close();
    }
  });

  it('works by keyboard in a real browser: combobox, tree, days, picker sheet on a phone', async () => {
    const { page, errors, close } = await open(PHONE, 'light');
    const answers = () => page.evaluate(() => (window as unknown as { answers: Record<string, unknown> }).answers);
    try {
      // no wait between the keys: on a slow machine they come before the deferred redraw, and still act on the typed query
      const combo = page.getByRole('combobox', { name: 'Country' });
      await combo.focus();
      await page.keyboard.type('po');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect((await answers()).country).toBe('portugal');
      expect(await combo.inputValue()).toBe('Portugal');

      await page.getByRole('treeitem', { name: 'Software' }).first().focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Space');
      expect((await answers()).interests).toEqual(['crm', 'laser']);

      await page.locator('[data-date="2025-05-12"]').focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      expect((await answers()).days).toEqual(['2025-05-14']);

      const slider = page.getByRole('slider', { name: 'Budget' });
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect((await answers()).budget).toBe(10);

      await page.getByRole('button', { name: /^A picker with 5,000 items/ }).click();
      const dialog = page.getByRole('dialog', { name: 'A picker with 5,000 items' });
      const box = (await dialog.boundingBox())!;
      // a sheet from the bottom, as wide as the phone
      expect(Math.round(box.x)).toBe(0);
      expect(Math.round(box.width)).toBe(PHONE.width);
      expect(Math.round(box.y + box.height)).toBe(PHONE.height);
      expect(await dialog.getByRole('option').count()).toBe(200);
      await expect.poll(() => dialog.getByRole('status').textContent()).toBe('Showing 200 of 5,000. Type to narrow the list.');
      await page.keyboard.type('item 4321');
      await expect.poll(() => dialog.getByRole('option').count()).toBe(1);
      await page.keyboard.press('Enter');
      expect((await answers()).big_picker).toBe('item-4321');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Item 4321');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('stays responsive with 5,000 items: six keystrokes into the combobox filter and redraw within 3 s in all', async () => {
    const { page, close } = await open(DESKTOP, 'light');
    try {
      const combo = page.getByRole('combobox', { name: 'A select with 5,000 items' });
      await combo.click();
      await expect.poll(() => page.getByRole('option').count()).toBe(200);
      const started = Date.now();
      await page.keyboard.type('item 1', { delay: 0 });
      await expect.poll(() => page.getByRole('option').first().textContent()).toBe('Item 1');
      // six keystrokes, each filtering 5,000 titles and redrawing up to 200 options
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await close();
    }
  });
});
