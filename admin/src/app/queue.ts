import { done, LEADS, openDatabase, run } from './idb';

/**
 * The capture app's offline queue (account-console.md section 4: "new leads and photos queue in IndexedDB with
 * ld_client_id … and they upload when the network returns"). Every new lead goes here first, online or not, with a
 * fresh ld_client_id and a fresh v4 id per card photo, chosen once when it is queued. Sending is:
 *
 *   1. each photo not yet stored: PUT /accounts/{a}/lead-files/{id} with its bytes (201 new, 200 already stored)
 *   2. the lead: POST /accounts/{a}/leads with the same ld_client_id (201 new, 200 the lead that id already made)
 *
 * and the record is removed only after step 2 succeeded. A retry after any failure (lost answer, network gone, server
 * error) sends the same ids again, so the server never makes a second lead or a second file. No React here: the
 * unit tests drive it over fake-indexeddb.
 *
 * A lead already on the server is qualified on its page (platform-and-flows.md section 4: rating, tags, notes, a voice
 * memo): that change queues here too, as an update record in the same order (`update`: the lead's id and the
 * changes). Sending it is the same two steps: the memo's bytes under its own fresh id (PUT, as a photo), then
 * PUT /accounts/{a}/leads/{id} with the changes and ld_memo_fileid — both safe to repeat.
 */

export type LeadSource = 'scan' | 'card' | 'manual';

/** The body of POST /accounts/{a}/leads (account-console.md: leads). */
export interface LeadBody {
  ld_eventid: string;
  ld_answers: Record<string, unknown>;
  ld_source: LeadSource;
  ld_front_fileid: string | null;
  ld_back_fileid: string | null;
  ld_badge_code: string | null;
  ld_consent_news: boolean;
  ld_consent_text: string;
  ld_captured_at: string;
  ld_client_id: string;
}

export interface LeadDraft {
  /** Who captured it: only that user's session sends it (another user signing in on the device leaves it waiting). */
  userId: string;
  accountId: string;
  eventId: string;
  answers: Record<string, unknown>;
  source: LeadSource;
  badgeCode?: string | null;
  consentNews: boolean;
  consentText: string;
  /** Default: now. */
  capturedAt?: Date;
  front?: Blob | null;
  back?: Blob | null;
  /** What the unsent list shows (a name, an e-mail, "Card"), since the answers alone may be empty. */
  label?: string;
}

/** A qualification of a lead on the server (its page): the fields it changes and a newly recorded memo. */
export interface UpdateDraft {
  userId: string;
  accountId: string;
  leadId: string;
  eventId: string;
  /** ld_rating, ld_tags, ld_notes; ld_memo_fileid: null removes the memo. */
  changes: Record<string, unknown>;
  /** A memo recorded on the device: queued with its own id, which the changes then name. */
  memo?: Blob | null;
  label?: string;
}

export interface QueuedPhoto {
  id: string;
  /** A card photo's side, or the voice memo (the same upload). */
  side: 'front' | 'back' | 'memo';
  blob: Blob;
  /** Stored on the server (its PUT answered 200 or 201). */
  sent: boolean;
}

export interface SendError {
  status: number;
  code: string;
  message?: string;
  fields?: Record<string, string>;
}

export interface QueuedLead {
  clientId: string;
  userId: string;
  accountId: string;
  queuedAt: number;
  label: string;
  body: LeadBody;
  photos: QueuedPhoto[];
  attempts: number;
  /** waiting: sent when it can be; rejected: the server refused it for good (shown with the reason, kept until deleted or retried). */
  state: 'waiting' | 'rejected';
  error?: SendError;
  /** An update of a lead on the server (its qualification) instead of a new lead; `body` then only dates it. */
  update?: { leadId: string; changes: Record<string, unknown> };
}

/** An answer from the API: the HTTP status and the parsed body. Network failures throw instead. */
export interface TransportAnswer {
  status: number;
  body?: unknown;
}

export interface Transport {
  putFile(accountId: string, id: string, blob: Blob): Promise<TransportAnswer>;
  postLead(accountId: string, body: LeadBody): Promise<TransportAnswer>;
  /** PUT /accounts/{a}/leads/{id} with some of its fields (an update record). */
  putLead?(accountId: string, leadId: string, changes: Record<string, unknown>): Promise<TransportAnswer>;
}

/** Why a flush stopped early: no network, a server that could not take it now, or no session (sign in again). */
export type StopReason = 'network' | 'server' | 'auth';

export interface FlushResult {
  sent: number;
  rejected: number;
  stopped: StopReason | null;
}

const newId = (): string => crypto.randomUUID();

/** Statuses worth retrying later; any other 4xx is the lead's own fault and is kept as rejected. */
const TRANSIENT = new Set([408, 425, 429]);

function classify(status: number): 'ok' | StopReason | 'rejected' {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 401) return 'auth';
  if (status >= 500 || TRANSIENT.has(status) || status === 0) return 'server';
  // 403 csrf_invalid is retried by the transport itself; what reaches here is a real refusal
  return 'rejected';
}

function errorOf(answer: TransportAnswer): SendError {
  const b = (answer.body ?? {}) as Partial<SendError>;
  return { status: answer.status, code: typeof b.code === 'string' ? b.code : `http_${answer.status}`, message: b.message, fields: b.fields };
}

export class LeadQueue {
  private listeners = new Set<() => void>();
  private flushing: Promise<FlushResult> | null = null;

  /** queuedAt of the newest record: each new one gets a later time, so the order holds within one millisecond. */
  private last = 0;

  private constructor(private db: IDBDatabase) {}

  static async open(factory?: IDBFactory, name?: string): Promise<LeadQueue> {
    const queue = new LeadQueue(await openDatabase(factory, name));
    queue.last = (await queue.list()).at(-1)?.queuedAt ?? 0;
    return queue;
  }

  /** Called after every change of the queue (a lead queued, sent, refused or removed). */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }

  /** Puts a new lead in the queue with a fresh client id and fresh photo ids; answers the stored record. */
  async enqueue(draft: LeadDraft): Promise<QueuedLead> {
    const clientId = newId();
    const photos: QueuedPhoto[] = [];
    if (draft.front) photos.push({ id: newId(), side: 'front', blob: draft.front, sent: false });
    if (draft.back) photos.push({ id: newId(), side: 'back', blob: draft.back, sent: false });
    const fileId = (side: 'front' | 'back') => photos.find((p) => p.side === side)?.id ?? null;
    const lead: QueuedLead = {
      clientId,
      userId: draft.userId,
      accountId: draft.accountId,
      queuedAt: (this.last = Math.max(Date.now(), this.last + 1)),
      label: draft.label ?? '',
      body: {
        ld_eventid: draft.eventId,
        ld_answers: draft.answers,
        ld_source: draft.source,
        ld_front_fileid: fileId('front'),
        ld_back_fileid: fileId('back'),
        ld_badge_code: draft.badgeCode ?? null,
        ld_consent_news: draft.consentNews,
        ld_consent_text: draft.consentText,
        ld_captured_at: (draft.capturedAt ?? new Date()).toISOString(),
        ld_client_id: clientId,
      },
      photos,
      attempts: 0,
      state: 'waiting',
    };
    await run(this.db, LEADS, 'readwrite', (s) => s.add(lead));
    this.changed();
    return lead;
  }

  /**
   * Queues a qualification of a lead on the server (rating, tags, notes, memo), after whatever waits already; a memo
   * gets a fresh id, which the changes name as ld_memo_fileid. Answers the stored record.
   */
  async enqueueUpdate(draft: UpdateDraft): Promise<QueuedLead> {
    const clientId = newId();
    const photos: QueuedPhoto[] = draft.memo ? [{ id: newId(), side: 'memo', blob: draft.memo, sent: false }] : [];
    const changes = { ...draft.changes, ...(photos.length ? { ld_memo_fileid: photos[0].id } : {}) };
    const record: QueuedLead = {
      clientId,
      userId: draft.userId,
      accountId: draft.accountId,
      queuedAt: (this.last = Math.max(Date.now(), this.last + 1)),
      label: draft.label ?? '',
      body: {
        ld_eventid: draft.eventId,
        ld_answers: {},
        ld_source: 'manual',
        ld_front_fileid: null,
        ld_back_fileid: null,
        ld_badge_code: null,
        ld_consent_news: false,
        ld_consent_text: '',
        ld_captured_at: new Date().toISOString(),
        ld_client_id: clientId,
      },
      photos,
      attempts: 0,
      state: 'waiting',
      update: { leadId: draft.leadId, changes },
    };
    await run(this.db, LEADS, 'readwrite', (s) => s.add(record));
    this.changed();
    return record;
  }

  /** Every unsent lead, oldest first (of one user when given). */
  async list(userId?: string): Promise<QueuedLead[]> {
    const all = await run(this.db, LEADS, 'readonly', (s) => s.index('queuedAt').getAll() as IDBRequest<QueuedLead[]>);
    return userId === undefined ? all : all.filter((l) => l.userId === userId);
  }

  /** The unsent count the app shows (waiting and rejected; of one user when given). */
  async count(userId?: string): Promise<number> {
    if (userId !== undefined) return (await this.list(userId)).length;
    return run(this.db, LEADS, 'readonly', (s) => s.count());
  }

  async get(clientId: string): Promise<QueuedLead | undefined> {
    return run(this.db, LEADS, 'readonly', (s) => s.get(clientId) as IDBRequest<QueuedLead | undefined>);
  }

  async remove(clientId: string): Promise<void> {
    await run(this.db, LEADS, 'readwrite', (s) => s.delete(clientId));
    this.changed();
  }

  /** A rejected lead goes back to waiting (e.g. after the event's form was fixed), with the same ids. */
  async retry(clientId: string): Promise<void> {
    const lead = await this.get(clientId);
    if (!lead) return;
    await this.put({ ...lead, state: 'waiting', error: undefined });
    this.changed();
  }

  private async put(lead: QueuedLead): Promise<void> {
    const tx = this.db.transaction(LEADS, 'readwrite');
    // Only while it is still queued: a lead removed meanwhile (sent by another tab, deleted) stays removed.
    const store = tx.objectStore(LEADS);
    const probe = store.getKey(lead.clientId);
    probe.onsuccess = () => {
      if (probe.result !== undefined) store.put(lead);
    };
    await done(tx);
  }

  /**
   * Sends what waits, oldest first: each lead's photos, then the lead. Stops at the first failure that is not the
   * lead's own (no network, a server error, no session) so that order is kept and nothing is hammered; a lead the
   * server refuses for good (4xx) is kept as rejected and the next one goes on. One flush at a time: a call while
   * one runs answers that one.
   */
  flush(transport: Transport, userId?: string): Promise<FlushResult> {
    this.flushing ??= this.doFlush(transport, userId).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async doFlush(transport: Transport, userId?: string): Promise<FlushResult> {
    const out: FlushResult = { sent: 0, rejected: 0, stopped: null };
    for (const queued of await this.list(userId)) {
      if (queued.state !== 'waiting') continue;
      const lead: QueuedLead = { ...queued, attempts: queued.attempts + 1, photos: queued.photos.map((p) => ({ ...p })) };
      const outcome = await this.send(lead, transport);
      if (outcome === 'sent') {
        await run(this.db, LEADS, 'readwrite', (s) => s.delete(lead.clientId));
        out.sent++;
      } else if (outcome === 'rejected') {
        await this.put(lead);
        out.rejected++;
      } else {
        await this.put(lead);
        out.stopped = outcome;
        this.changed();
        return out;
      }
      this.changed();
    }
    return out;
  }

  private async send(lead: QueuedLead, transport: Transport): Promise<'sent' | 'rejected' | StopReason> {
    const attempt = async (call: () => Promise<TransportAnswer>): Promise<'ok' | 'rejected' | StopReason> => {
      let answer: TransportAnswer;
      try {
        answer = await call();
      } catch {
        return 'network';
      }
      const kind = classify(answer.status);
      if (kind !== 'ok') lead.error = errorOf(answer);
      if (kind === 'rejected') lead.state = 'rejected';
      return kind;
    };
    for (const photo of lead.photos) {
      if (photo.sent) continue;
      const r = await attempt(() => transport.putFile(lead.accountId, photo.id, photo.blob));
      if (r !== 'ok') return r;
      photo.sent = true;
      // remembered at once: a retry after a failure further on does not send these bytes again
      await this.put(lead);
    }
    const { update } = lead;
    const r = update
      ? await attempt(() =>
          transport.putLead ? transport.putLead(lead.accountId, update.leadId, update.changes) : Promise.resolve({ status: 501, body: { code: 'not_supported' } }),
        )
      : await attempt(() => transport.postLead(lead.accountId, lead.body));
    return r === 'ok' ? 'sent' : r;
  }

  close(): void {
    this.db.close();
  }
}

export interface SyncOptions {
  /** First retry delay; doubled after each failed try up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Whether the browser believes it is online (navigator.onLine). */
  isOnline?: () => boolean;
  /** Where the `online` event comes from (window). */
  events?: EventTarget;
  onResult?: (r: FlushResult) => void;
  /** Only this user's leads are sent (the signed-in one); undefined: all. */
  userId?: () => string | undefined;
}

/**
 * Keeps the queue moving: a flush now, on every `online` event, after each new lead (kick), and after a failure again
 * with backoff (2 s, 4 s, … 1 min, with some jitter so that a hall full of phones does not retry in step).
 * After a 401 it waits for the next kick (the app kicks after sign-in).
 */
export class QueueSync {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private stopped = true;
  private readonly onOnline = () => this.kick();

  constructor(
    private queue: LeadQueue,
    private transport: Transport,
    private options: SyncOptions = {},
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    (this.options.events ?? globalThis).addEventListener?.('online', this.onOnline);
    this.kick();
  }

  stop(): void {
    this.stopped = true;
    (this.options.events ?? globalThis).removeEventListener?.('online', this.onOnline);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Try now (a lead was queued, the network came back, the user signed in, or asked to). */
  kick(): void {
    if (this.stopped) return;
    this.failures = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.attempt();
  }

  /** The delay before retry number `n` (1-based), without jitter. */
  delay(n: number): number {
    const base = this.options.baseDelayMs ?? 2000;
    return Math.min(this.options.maxDelayMs ?? 60_000, base * 2 ** Math.max(0, n - 1));
  }

  private async attempt(): Promise<void> {
    const online = this.options.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine));
    if (!online()) return; // the `online` event kicks again
    const r = await this.queue.flush(this.transport, this.options.userId?.());
    this.options.onResult?.(r);
    if (this.stopped) return;
    if (r.stopped === 'network' || r.stopped === 'server') {
      this.failures++;
      const wait = this.delay(this.failures) * (0.8 + Math.random() * 0.4);
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        void this.attempt();
      }, wait);
    } else if (!r.stopped) {
      this.failures = 0;
    }
  }
}
