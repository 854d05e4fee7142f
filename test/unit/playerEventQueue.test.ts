import { describe, expect, it } from 'vitest';
import { EventQueue, sendResultOf, type EventQueueOptions, type SendResult } from '../../admin/src/player/eventQueue';
import type { PlayEvent } from '../../admin/src/player/types';

/**
 * The player's proof-of-play queue (admin/src/player/eventQueue.ts): batches of 50 or every 30 s, kept in storage
 * while offline (a reload included), re-sent with the same ids until the server takes them.
 */

interface Harness {
  queue: EventQueue;
  stored: () => PlayEvent[];
  batches: PlayEvent[][];
  answer: (r: SendResult | Error) => void;
  tick: () => Promise<void>;
  timers: { fn: () => void; ms: number }[];
  fireTimers: () => Promise<void>;
}

function harness(options: Partial<EventQueueOptions> = {}, initial: PlayEvent[] = [], storage = { value: JSON.stringify(initial) }): Harness & { storage: { value: string } } {
  let next: SendResult | Error = 'sent';
  const batches: PlayEvent[][] = [];
  let id = 0;
  const timers: { fn: () => void; ms: number; live: boolean }[] = [];
  const queue = new EventQueue({
    load: () => JSON.parse(storage.value),
    save: (events) => (storage.value = JSON.stringify(events)),
    async send(batch) {
      batches.push(batch);
      if (next instanceof Error) throw next;
      return next;
    },
    newId: () => `e${++id}`,
    now: () => new Date(Date.UTC(2026, 10, 22, 10, 0, id)),
    setTimer: (fn, ms) => {
      const t = { fn, ms, live: true };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => ((t as { live: boolean }).live = false),
    ...options,
  });
  const tick = () => new Promise<void>((r) => setTimeout(r, 0));
  return {
    queue,
    storage,
    stored: () => JSON.parse(storage.value),
    batches,
    answer: (r) => (next = r),
    tick,
    timers,
    async fireTimers() {
      const live = timers.filter((t) => t.live);
      for (const t of live) {
        t.live = false;
        t.fn();
      }
      await tick();
      await tick();
    },
  };
}

describe('the event queue', () => {
  it('records events with their own id and time, kept in storage at once', () => {
    const h = harness();
    const e = h.queue.add('play', 'c1', 's1');
    expect(e).toEqual({ id: 'e1', kind: 'play', at: '2026-11-22T10:00:01.000Z', carousel_id: 'c1', slide_id: 's1' });
    h.queue.add('qr', 'c1', 's1');
    expect(h.stored().map((x) => x.id)).toEqual(['e1', 'e2']);
    expect(h.batches).toEqual([]);
  });

  it('sends when 50 are waiting, and every 30 s otherwise', async () => {
    const h = harness();
    h.queue.start();
    expect(h.timers.map((t) => t.ms)).toEqual([30_000]);
    for (let i = 0; i < 49; i++) h.queue.add('play', 'c', 's');
    await h.tick();
    expect(h.batches).toHaveLength(0);
    h.queue.add('hotspot', 'c', 's');
    await h.tick();
    expect(h.batches).toHaveLength(1);
    expect(h.batches[0]).toHaveLength(50);
    expect(h.stored()).toEqual([]);
    h.queue.add('play', 'c', 's');
    await h.fireTimers();
    expect(h.batches).toHaveLength(2);
    expect(h.batches[1].map((e) => e.id)).toEqual(['e51']);
    // and it schedules itself again
    expect(h.timers.filter((t) => (t as unknown as { live: boolean }).live)).toHaveLength(1);
  });

  it('offline: the events stay (a reload included) and go later with the same ids', async () => {
    const h = harness();
    h.queue.start();
    h.answer(new TypeError('Failed to fetch'));
    h.queue.add('play', 'c', 's1');
    h.queue.add('qr', 'c', 's1');
    await h.queue.flush();
    expect(h.batches).toHaveLength(1);
    expect(h.stored().map((e) => e.id)).toEqual(['e1', 'e2']);
    h.answer('retry'); // a 503
    await h.queue.flush();
    expect(h.stored()).toHaveLength(2);

    // the page reloads: a new queue on the same storage sends what the last one left, as they were
    const again = harness({}, [], h.storage);
    again.queue.start();
    await again.tick();
    expect(again.batches).toHaveLength(1);
    expect(again.batches[0]).toEqual(h.batches[0]);
    expect(again.stored()).toEqual([]);
  });

  it('events added while a batch is on its way stay for the next one; one run at a time', async () => {
    let release: (r: SendResult) => void = () => undefined;
    const sent: string[][] = [];
    const h = harness({
      send: (batch) => {
        sent.push(batch.map((e) => e.id));
        return new Promise<SendResult>((r) => (release = r));
      },
    });
    h.queue.add('play', 'c', 's');
    const first = h.queue.flush();
    const second = h.queue.flush();
    expect(second).toBe(first);
    h.queue.add('play', 'c', 's');
    release('sent');
    await h.tick();
    expect(sent).toEqual([['e1'], ['e2']]);
    release('sent');
    await first;
    expect(h.stored()).toEqual([]);
  });

  it('more than a batch of the server: sent in pieces of at most 500', async () => {
    const h = harness({ batchSize: 10_000 });
    for (let i = 0; i < 1201; i++) h.queue.add('play', 'c', 's');
    await h.queue.flush();
    expect(h.batches.map((b) => b.length)).toEqual([500, 500, 201]);
  });

  it('a refused batch (400) is dropped, not retried forever; an unknown code (404) empties and stops the queue', async () => {
    const h = harness();
    h.queue.start();
    h.queue.add('play', 'c', 's');
    h.answer('refused');
    await h.queue.flush();
    expect(h.stored()).toEqual([]);
    h.queue.add('play', 'c', 's');
    h.answer('unknown_code');
    await h.queue.flush();
    expect(h.stored()).toEqual([]);
    h.queue.add('play', 'c', 's');
    await h.queue.flush();
    expect(h.batches).toHaveLength(2); // stopped: nothing more is sent
  });

  it('keeps at most maxKept, dropping the oldest; bad storage starts empty', () => {
    const h = harness({ maxKept: 3, batchSize: 100 });
    for (let i = 0; i < 5; i++) h.queue.add('play', 'c', 's');
    expect(h.stored().map((e) => e.id)).toEqual(['e3', 'e4', 'e5']);
    const broken = harness({ load: () => JSON.parse('{not json') });
    expect(broken.queue.pending()).toEqual([]);
  });

  it('reads HTTP answers', () => {
    expect([200, 204, 404, 400, 413, 429, 500, 503].map(sendResultOf)).toEqual(['sent', 'sent', 'unknown_code', 'refused', 'refused', 'retry', 'retry', 'retry']);
  });
});
