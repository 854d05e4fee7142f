import type { PlayEvent, PlayEventKind } from './types';

/**
 * Proof of play: the events a player reports (a play when a slide shows, a hotspot tap, a QR code shown), kept on the
 * device until the server has them. Each event gets its own id when it happens, so a batch sent twice (an answer lost
 * on the way) counts once: the server deduplicates by id. Sent in batches, every `intervalMs` or as soon as
 * `batchSize` are waiting; offline they wait in storage (localStorage: a few hundred bytes each, kept to `maxKept`,
 * the oldest dropped first) and go when the network is back, a reload included.
 *
 * No DOM here: storage, sending, ids, clock and timers come in, so test/unit/playerEventQueue.test.ts drives it.
 */

/** What the server said to a batch: taken, try again later (offline, 5xx, 429), or refused for good (400: drop it). */
export type SendResult = 'sent' | 'retry' | 'refused' | 'unknown_code';

export interface EventQueueOptions {
  load(): PlayEvent[];
  save(events: PlayEvent[]): void;
  send(batch: PlayEvent[]): Promise<SendResult>;
  newId(): string;
  now(): Date;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
  batchSize?: number;
  intervalMs?: number;
  /** Most events sent in one request (the server takes 500). */
  maxBatch?: number;
  maxKept?: number;
}

export class EventQueue {
  private events: PlayEvent[];
  private timer: unknown = null;
  private sending: Promise<void> | null = null;
  private stopped = false;
  readonly batchSize: number;
  readonly intervalMs: number;
  readonly maxBatch: number;
  readonly maxKept: number;

  constructor(private o: EventQueueOptions) {
    this.batchSize = o.batchSize ?? 50;
    this.intervalMs = o.intervalMs ?? 30_000;
    this.maxBatch = o.maxBatch ?? 500;
    this.maxKept = o.maxKept ?? 10_000;
    let loaded: PlayEvent[];
    try {
      loaded = o.load().filter((e) => e && typeof e.id === 'string' && typeof e.kind === 'string');
    } catch {
      loaded = [];
    }
    this.events = loaded;
  }

  /** The events not yet taken by the server, oldest first. */
  pending(): PlayEvent[] {
    return [...this.events];
  }

  /** Records one event now; sends at once when a batch is full. */
  add(kind: PlayEventKind, carouselId: string | null, slideId: string | null): PlayEvent {
    const event: PlayEvent = { id: this.o.newId(), kind, at: this.o.now().toISOString(), carousel_id: carouselId, slide_id: slideId };
    this.events.push(event);
    if (this.events.length > this.maxKept) this.events.splice(0, this.events.length - this.maxKept);
    this.persist();
    if (this.events.length >= this.batchSize) void this.flush();
    return event;
  }

  /** Starts the periodic sending (and sends what an earlier run left). */
  start(): void {
    this.stopped = false;
    this.schedule();
    if (this.events.length) void this.flush();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.o.clearTimer(this.timer);
    this.timer = null;
  }

  /**
   * Sends everything waiting, batch by batch, until it is all sent or a batch must wait. One run at a time: a call
   * during a run waits for it. Events added meanwhile stay for the next batch.
   */
  flush(): Promise<void> {
    if (this.sending) return this.sending;
    this.sending = this.run().finally(() => {
      this.sending = null;
    });
    return this.sending;
  }

  private async run(): Promise<void> {
    while (this.events.length && !this.stopped) {
      const batch = this.events.slice(0, this.maxBatch);
      let result: SendResult;
      try {
        result = await this.o.send(batch);
      } catch {
        result = 'retry';
      }
      if (result === 'retry') return;
      if (result === 'unknown_code') {
        // The code is gone: nothing will ever take these.
        this.events = [];
        this.persist();
        this.stop();
        return;
      }
      // Sent, or refused as a whole (a malformed batch would block the queue forever): either way they go.
      const ids = new Set(batch.map((e) => e.id));
      this.events = this.events.filter((e) => !ids.has(e.id));
      this.persist();
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.timer !== null) this.o.clearTimer(this.timer);
    this.timer = this.o.setTimer(() => {
      this.timer = null;
      void this.flush().finally(() => this.schedule());
    }, this.intervalMs);
  }

  private persist(): void {
    try {
      this.o.save(this.events);
    } catch {
      // Storage full or refused: the events stay in memory and are sent from there.
    }
  }
}

/** How a player's HTTP answer to a batch is read. */
export function sendResultOf(status: number): SendResult {
  if (status >= 200 && status < 300) return 'sent';
  if (status === 404) return 'unknown_code';
  if (status === 400 || status === 413 || status === 422) return 'refused';
  return 'retry';
}
