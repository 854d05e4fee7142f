import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tsxArgs } from '../helpers/tsxProcess.js';

/** The largest heap (MB) of a process that churns promoted garbage with limitHeapGrowth(percent). */
function peakHeapMb(percent: number): number {
  const run = spawnSync(process.execPath, tsxArgs('test/helpers/heapChurn.ts', String(percent)), { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  // V8 names a flag it does not know on stderr and goes on: that must fail here, not pass unnoticed.
  expect(run.stderr).not.toMatch(/unrecognized|unknown|bad option/i);
  return (JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { peakMb: number }).peakMb;
}

describe('limitHeapGrowth (api/heap.ts, HEAP_GROWING_PERCENT)', () => {
  it("this Node's V8 still has the flag, and it still bounds the heap: garbage of the old generation collected at half the heap", () => {
    const unbounded = peakHeapMb(0);
    const bounded = peakHeapMb(50);
    // Measured here: ~200 MB with V8's own factor, ~100 MB at 50 %.
    expect(bounded, `${bounded.toFixed(0)} MB at 50 % against ${unbounded.toFixed(0)} MB`).toBeLessThan(unbounded * 0.7);
  });
});
