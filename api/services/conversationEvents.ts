import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import type { Knex } from 'knex';
import { perDatabase } from '../db/perDatabase.js';

/**
 * New conversation messages for the Server-Sent Events streams (platform-and-flows.md 6), in every API process:
 *
 * - PostgreSQL: the transaction that stores a message also runs `pg_notify('leadstage_conversation', '<cv_id>:<cm_id>')`
 *   (delivered at its commit, to every process LISTENing, this one included). Each process LISTENs on a connection of
 *   its own (the pattern of api/services/sessionCache.ts, reconnecting after a second) and, when one of its streams
 *   follows that conversation, reads the message once and hands it to them. The payload carries ids only: a body of
 *   10,000 characters would not fit NOTIFY's 8000 bytes.
 * - PGlite (one process): an in-process emitter, fired after the commit.
 *
 * A stream that missed something (a reconnect, a listener down for a moment) sends `Last-Event-ID` when the browser's
 * EventSource reconnects, and gets every message after that one first.
 */
export const CHANNEL = 'leadstage_conversation';
/** A comment line this often keeps proxies (and load balancers with an idle timeout) from closing a quiet stream. */
export const HEARTBEAT_MS = 20_000;

export type MessageLoader = (db: Knex, messageId: string) => Promise<Record<string, unknown> | undefined>;

interface PgClient {
  on(event: string, fn: (...args: never[]) => void): void;
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

export class ConversationEvents {
  private emitter = new EventEmitter();
  readonly isPg: boolean;
  private listener?: PgClient;
  private listening?: Promise<void>;
  private retry?: NodeJS.Timeout;
  private closed = false;
  private streams = new Set<Response>();
  heartbeatMs = HEARTBEAT_MS;

  constructor(
    private db: Knex,
    private log: (msg: string) => void = () => undefined,
  ) {
    this.emitter.setMaxListeners(0);
    this.isPg = (db.client as { config?: { client?: unknown } }).config?.client === 'pg';
  }

  /**
   * Announces a stored message. On PostgreSQL pass the message's transaction (the NOTIFY goes out at its commit);
   * on PGlite call it after the commit.
   */
  async published(trx: Knex | Knex.Transaction, conversationId: string, messageId: string): Promise<void> {
    if (this.isPg) await trx.raw('select pg_notify(?, ?)', [CHANNEL, `${conversationId}:${messageId}`]);
  }

  /** PGlite: after the commit, the message for this process's streams. */
  local(conversationId: string, message: Record<string, unknown>): void {
    if (!this.isPg) this.emitter.emit(conversationId, message);
  }

  /** Messages of one conversation as they are stored, as their stored row; answers the unsubscribe. */
  async subscribe(
    conversationId: string,
    load: (messageId: string) => Promise<Record<string, unknown> | undefined>,
    fn: (row: Record<string, unknown>) => void,
  ): Promise<() => void> {
    if (this.isPg) {
      // Without the listener the stream still opens: its reconnect's Last-Event-ID catches up what it missed.
      await this.listen().catch((err: Error) => this.log(`conversation events: cannot LISTEN (${err.message})`));
      const onId = (messageId: string) => {
        load(messageId).then(
          (row) => row && fn(row),
          (err) => this.log(`conversation events: reading message ${messageId} failed: ${(err as Error).message}`),
        );
      };
      this.emitter.on(`id:${conversationId}`, onId);
      return () => this.emitter.off(`id:${conversationId}`, onId);
    }
    this.emitter.on(conversationId, fn);
    return () => this.emitter.off(conversationId, fn);
  }

  /** Streams open in this process (shutdown ends them; the metrics may read it). */
  get openStreams(): number {
    return this.streams.size;
  }

  /**
   * Turns `res` into an event stream: headers that keep compression and proxies from buffering it, a heartbeat, the
   * messages after `Last-Event-ID` (`backlog`), then every new one as `event: message`. Cleans up when the client goes.
   */
  async stream(
    req: Request,
    res: Response,
    conversationId: string,
    options: {
      load: (messageId: string) => Promise<Record<string, unknown> | undefined>;
      backlog: (afterMessageId: string) => Promise<Record<string, unknown>[]>;
      present: (row: Record<string, unknown>) => Record<string, unknown>;
    },
  ): Promise<void> {
    const sent = new Set<string>();
    let open = true;
    const send = (row: Record<string, unknown>) => {
      const id = String(row.cm_id);
      if (!open || sent.has(id)) return;
      sent.add(id);
      if (sent.size > 1000) sent.delete(sent.values().next().value as string);
      res.write(`id: ${id}\nevent: message\ndata: ${JSON.stringify(options.present(row))}\n\n`);
    };
    // Before any write: subscribed first, so nothing stored while the backlog is read is lost (duplicates are dropped).
    const unsubscribe = await this.subscribe(conversationId, options.load, send);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    // no-transform: compression (api/middleware/lazyCompression.ts) leaves the stream alone, so nothing is held back.
    res.setHeader('Cache-Control', 'no-store, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    // The request's socket must not time out while the stream is quiet (the heartbeat keeps it busy anyway).
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    res.write(`retry: 3000\n: open\n\n`);
    this.streams.add(res);
    const heartbeat = setInterval(() => res.write(`: ping\n\n`), this.heartbeatMs);
    heartbeat.unref();
    const close = () => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      unsubscribe();
      this.streams.delete(res);
    };
    res.on('close', close);
    req.on('close', close);
    const last = req.get('Last-Event-ID');
    if (last) {
      try {
        for (const row of await options.backlog(last)) send(row);
      } catch (err) {
        this.log(`conversation events: backlog after ${last} failed: ${(err as Error).message}`);
      }
    }
  }

  /** Ends every stream of this process (shutdown): the browsers reconnect to another process. */
  endAll(): void {
    for (const res of this.streams) res.end();
    this.streams.clear();
  }

  private listen(): Promise<void> {
    if (this.listener && this.listening) return this.listening;
    if (this.closed) return Promise.resolve();
    const { Client } = (this.db.client as { driver: { Client: new (c: unknown) => PgClient } }).driver;
    const settings = (this.db.client as { connectionSettings: unknown }).connectionSettings;
    const client = new Client(settings);
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = undefined;
      // Reconnect while anyone follows a conversation (the streams' Last-Event-ID catches up what was missed).
      if (!this.closed && this.emitter.eventNames().length) this.retry = setTimeout(() => void this.listen().catch(() => undefined), 1000);
    };
    client.on('error', (err: Error) => {
      this.log(`conversation events: listener lost (${err.message}); reconnecting`);
      lost();
    });
    client.on('end', lost);
    client.on('notification', (n: { channel: string; payload?: string }) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const [conversationId, messageId] = n.payload.split(':');
      if (conversationId && messageId) this.emitter.emit(`id:${conversationId}`, messageId);
    });
    this.listener = client;
    this.listening = (async () => {
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
      } catch (err) {
        client.end().catch(() => undefined);
        lost();
        throw err;
      }
    })();
    return this.listening;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.endAll();
    const l = this.listener;
    this.listener = undefined;
    this.listening = undefined;
    this.emitter.removeAllListeners();
    await l?.end().catch(() => undefined);
  }
}

/** The one hub of a database handle; its listener closes with the handle (knex.destroy()). */
export const conversationEventsFor: (db: Knex, log?: (msg: string) => void) => ConversationEvents = perDatabase(
  (db: Knex, log?: (msg: string) => void) => new ConversationEvents(db, log),
);
