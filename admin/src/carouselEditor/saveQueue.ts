/**
 * The editor's saves, one call at a time in the order the edits were made (a layer is created before it is moved,
 * moved before it is deleted). A failed call stops the queue where it is: nothing after it is sent, nothing is
 * dropped, and `retry` goes on from the failed call. New layers get their ids from the API as their creates finish;
 * later calls name them by key. No React here.
 */
import type { LayerOp } from './layerModel';

export interface QueueState {
  /** A call is under way. */
  busy: boolean;
  /** Calls waiting (the running one included). */
  pending: number;
  /** The call that failed and why (the queue waits for retry). */
  failed: { op: LayerOp; error: unknown } | null;
}

/** Runs one call; `ids` maps layer keys to their ids (a create adds, a delete removes). */
export type RunOp = (op: LayerOp, ids: Map<string, string>) => Promise<void>;

export class SaveQueue {
  private ops: LayerOp[] = [];
  private running = false;
  private failure: QueueState['failed'] = null;
  private idleWaiters: (() => void)[] = [];
  /** Every stored layer's key → id (a stored layer's key is its id; a new one's is mapped when it is created). */
  readonly ids = new Map<string, string>();

  constructor(
    private run: RunOp,
    private onChange: (state: QueueState) => void = () => undefined,
    /** Called each time every call so far has been stored. */
    private onSaved: () => void = () => undefined,
  ) {}

  get state(): QueueState {
    return { busy: this.running, pending: this.ops.length, failed: this.failure };
  }

  /** Layers already stored (loaded with the graph): their keys are their ids. */
  known(keys: Iterable<string>): void {
    for (const k of keys) this.ids.set(k, k);
  }

  push(ops: readonly LayerOp[]): void {
    if (!ops.length) return;
    this.ops.push(...ops);
    this.emit();
    void this.drain();
  }

  /** Sends the failed call again, and what waited behind it. */
  retry(): void {
    if (!this.failure) return;
    this.failure = null;
    this.emit();
    void this.drain();
  }

  /** Forgets every waiting and failed call (the editor reloaded what the API has). */
  reset(): void {
    this.ops = [];
    this.failure = null;
    this.ids.clear();
    this.emit();
    this.settle();
  }

  /** Resolves once nothing waits or runs; false when the queue stopped at a failure. */
  idle(): Promise<boolean> {
    if (!this.running && !this.ops.length) return Promise.resolve(true);
    if (this.failure) return Promise.resolve(false);
    return new Promise((resolve) => this.idleWaiters.push(() => resolve(!this.failure)));
  }

  private emit() {
    this.onChange(this.state);
  }

  private settle() {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async drain(): Promise<void> {
    if (this.running || this.failure) return;
    this.running = true;
    this.emit();
    while (this.ops.length && !this.failure) {
      const op = this.ops[0];
      try {
        await this.run(op, this.ids);
        // (a reset meanwhile emptied the queue: nothing to take off)
        if (this.ops[0] === op) this.ops.shift();
      } catch (error) {
        if (this.ops[0] === op) this.failure = { op, error };
      }
      this.emit();
    }
    this.running = false;
    this.emit();
    if (!this.failure) this.onSaved();
    this.settle();
  }
}
