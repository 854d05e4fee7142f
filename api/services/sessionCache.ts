import type { Knex } from 'knex';
import { onWrite } from '../db/writes.js';
import type { User } from '../../resources/users.js';
import { perDatabase } from '../db/perDatabase.js';
import { AUTH_CHANNEL, CHANNELS } from '../db/channels.js';

/**
 * A short in-process cache of sessions with their user, so an authenticated request needs no database read for
 * them. It is emptied whenever anything could have ended a session or changed its user:
 * - in this process: every UPDATE/DELETE of users and every DELETE of sessions it runs (seen on knex's query events);
 * - in other processes: the same statements fire a trigger that NOTIFYs `leadstage_auth`, which each process LISTENs to
 *   on a connection of its own (PostgreSQL). While that connection is down nothing is cached, so a process that cannot
 *   hear the others never serves a stale sign-in. PGlite serves one process only, so the local events suffice.
 * An entry also lives at most MAX_AGE_MS.
 */
export const MAX_AGE_MS = 10_000;
const MAX_ENTRIES = 50_000;
/** The writes that can end a session or change its user (a session's renewal, an UPDATE of sessions, cannot). */
const AUTH_WRITE_RE = /^\s*(update\s+"?users"?\s|delete\s+from\s+"?(users|sessions)"?(\s|$)|truncate\b)/i;

export interface CachedSession {
  userId: string;
  data: Record<string, unknown>;
  expiresAt: Date;
  user: User;
}

export class SessionCache {
  private entries = new Map<string, CachedSession & { at: number; epoch: number }>();
  private epoch = 0;
  /** True when this process hears every change (PGlite: always; PostgreSQL: while LISTENing). */
  private hearing: boolean;
  private listener?: { end(): Promise<void> };
  private retry?: NodeJS.Timeout;
  private closed = false;
  /** Other caches listening on this connection: called on a notification of their channel and when it is lost. */
  private subscribers = new Map<string, Set<() => void>>();

  constructor(
    private db: Knex,
    private log: (msg: string) => void = () => undefined,
  ) {
    onWrite(db, (sql) => {
      if (AUTH_WRITE_RE.test(sql)) this.invalidate();
    });
    const isPg = (db.client as { config?: { client?: unknown } }).config?.client === 'pg';
    this.hearing = !isPg;
    if (isPg) void this.listen();
  }

  invalidate(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** True when this process hears every change made by the others (PGlite: one process, always). */
  get hearsOthers(): boolean {
    return this.hearing;
  }

  /**
   * Calls `fn` on each notification of `channel` (one of CHANNELS) and whenever the listener is lost or back (anything
   * may have changed meanwhile); while hearsOthers is false a subscriber must not trust what it keeps.
   */
  subscribe(channel: string, fn: () => void): void {
    if (!CHANNELS.includes(channel)) throw new Error(`${channel} is not a channel this process listens to (api/db/channels.ts)`);
    let set = this.subscribers.get(channel);
    if (!set) this.subscribers.set(channel, (set = new Set()));
    set.add(fn);
  }

  private emit(channel?: string): void {
    for (const [name, set] of this.subscribers) if (!channel || name === channel) for (const fn of set) fn();
  }

  get(id: string): CachedSession | undefined {
    if (!this.hearing) return undefined;
    const e = this.entries.get(id);
    if (!e) return undefined;
    if (e.epoch !== this.epoch || Date.now() - e.at > MAX_AGE_MS || e.expiresAt.getTime() <= Date.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return e;
  }

  /** `epoch` is the value of currentEpoch() taken before the read: a change during the read discards it. */
  set(id: string, value: CachedSession, epoch: number): void {
    if (!this.hearing || epoch !== this.epoch) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(id, { ...value, at: Date.now(), epoch });
  }

  currentEpoch(): number {
    return this.epoch;
  }

  /** Moves a cached expiry forward (after a renewal), so the renewal is not repeated on every request. */
  renewed(id: string, expiresAt: Date): void {
    const e = this.entries.get(id);
    if (e) e.expiresAt = expiresAt;
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    const { Client } = (this.db.client as { driver: { Client: new (c: unknown) => PgClient } }).driver;
    const settings = (this.db.client as { connectionSettings: unknown }).connectionSettings;
    const client = new Client(settings);
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.hearing = false;
      this.invalidate();
      this.emit();
      if (!this.closed) this.retry = setTimeout(() => void this.listen(), 1000);
    };
    client.on('error', (err: Error) => {
      this.log(`session cache: listener lost (${err.message}); not caching until it is back`);
      lost();
    });
    client.on('end', lost);
    client.on('notification', (msg: { channel?: string }) => (msg.channel && msg.channel !== AUTH_CHANNEL ? this.emit(msg.channel) : this.invalidate()));
    this.listener = client;
    try {
      await client.connect();
      for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
      if (this.listener !== client) return;
      this.invalidate(); // anything may have changed while nobody listened
      this.emit();
      this.hearing = true;
    } catch {
      client.end().catch(() => undefined);
      lost();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const l = this.listener;
    this.listener = undefined;
    this.hearing = false;
    await l?.end().catch(() => undefined);
  }
}

/** The one cache of a database handle (its listener closes with the handle: knex.destroy()). */
export const sessionCacheFor: (db: Knex, log?: (msg: string) => void) => SessionCache = perDatabase((db: Knex, log?: (msg: string) => void) => new SessionCache(db, log));

interface PgClient {
  on(event: string, fn: (...args: never[]) => void): void;
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}
