import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LeadQueue, QueueSync, type LeadBody, type LeadDraft, type Transport, type TransportAnswer } from '../../admin/src/app/queue';

/**
 * A fake server with the contract's idempotency: PUT lead-files/{id} stores once (201, then 200), POST leads stores
 * once per ld_client_id (201, then 200 with the first lead). `fail` makes the next calls fail in a chosen way; a
 * "lost answer" stores first and then throws, as when the network drops after the server did its work.
 */
class FakeServer implements Transport {
  files = new Map<string, { accountId: string; bytes: number; type: string }>();
  leads = new Map<string, LeadBody & { id: string; accountId: string }>();
  calls: string[] = [];
  plan: ('network' | 'lost' | number)[] = [];

  private next(): 'network' | 'lost' | number | undefined {
    return this.plan.shift();
  }

  async putFile(accountId: string, id: string, blob: Blob): Promise<TransportAnswer> {
    this.calls.push(`PUT ${id}`);
    const step = this.next();
    if (step === 'network') throw new TypeError('Failed to fetch');
    if (typeof step === 'number') return { status: step, body: { code: 'refused', message: 'no' } };
    const existed = this.files.has(id);
    if (!existed) this.files.set(id, { accountId, bytes: blob.size, type: blob.type });
    if (step === 'lost') throw new TypeError('Failed to fetch');
    return { status: existed ? 200 : 201, body: { id } };
  }

  async postLead(accountId: string, body: LeadBody): Promise<TransportAnswer> {
    this.calls.push(`POST ${body.ld_client_id}`);
    const step = this.next();
    if (step === 'network') throw new TypeError('Failed to fetch');
    if (typeof step === 'number')
      return { status: step, body: { code: step === 400 ? 'lead_incomplete' : 'error', message: 'Please complete all mandatory fields', fields: { email: 'error_required' } } };
    // a lead may name only files the server has
    for (const f of [body.ld_front_fileid, body.ld_back_fileid]) if (f && !this.files.has(f)) return { status: 400, body: { code: 'file_missing' } };
    const first = this.leads.get(body.ld_client_id);
    if (!first) this.leads.set(body.ld_client_id, { ...body, id: `lead-${this.leads.size + 1}`, accountId });
    if (step === 'lost') throw new TypeError('Failed to fetch');
    return { status: first ? 200 : 201, body: this.leads.get(body.ld_client_id) };
  }
}

const jpeg = (n: number) => new Blob([new Uint8Array(n).fill(7)], { type: 'image/jpeg' });

const draft = (over: Partial<LeadDraft> = {}): LeadDraft => ({
  userId: 'user-1',
  accountId: 'acc-1',
  eventId: 'ev-1',
  answers: { email: 'ann@example.com', first_name: 'Ann' },
  source: 'manual',
  consentNews: true,
  consentText: 'Yes, send me news',
  label: 'Ann',
  ...over,
});

describe('the capture queue (IndexedDB)', () => {
  let factory: IDBFactory;
  let queue: LeadQueue;
  let server: FakeServer;

  beforeEach(async () => {
    factory = new IDBFactory();
    queue = await LeadQueue.open(factory);
    server = new FakeServer();
  });
  afterEach(() => queue.close());

  it('enqueues a lead with a fresh client id and photo ids, and keeps it (with its photo Blobs) across a reopen', async () => {
    const a = await queue.enqueue(draft({ source: 'card', front: jpeg(1000), back: jpeg(500), answers: {} }));
    const b = await queue.enqueue(draft());
    expect(a.clientId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.clientId).not.toBe(a.clientId);
    expect(a.body).toMatchObject({
      ld_client_id: a.clientId,
      ld_source: 'card',
      ld_eventid: 'ev-1',
      ld_consent_news: true,
      ld_consent_text: 'Yes, send me news',
      ld_badge_code: null,
    });
    expect(a.body.ld_front_fileid).toBe(a.photos[0].id);
    expect(a.body.ld_back_fileid).toBe(a.photos[1].id);
    expect(new Set([a.clientId, a.photos[0].id, a.photos[1].id]).size).toBe(3);
    expect(b.body.ld_front_fileid).toBeNull();
    expect(new Date(a.body.ld_captured_at).getTime()).toBeGreaterThan(Date.now() - 5000);
    expect(await queue.count()).toBe(2);

    queue.close();
    queue = await LeadQueue.open(factory);
    const stored = await queue.list();
    expect(stored.map((l) => l.clientId)).toEqual([a.clientId, b.clientId]);
    const front = stored[0].photos[0].blob;
    expect(front.type).toBe('image/jpeg');
    expect(new Uint8Array(await front.arrayBuffer())).toEqual(new Uint8Array(1000).fill(7));
  });

  it('uploads photos first (front, back) with their ids, then the lead, oldest lead first; the queue empties', async () => {
    const card = await queue.enqueue(draft({ source: 'card', front: jpeg(10), back: jpeg(20), answers: {} }));
    const manual = await queue.enqueue(draft({ label: 'Bob' }));
    const changes = vi.fn();
    queue.subscribe(changes);
    const r = await queue.flush(server);
    expect(r).toEqual({ sent: 2, rejected: 0, stopped: null });
    expect(server.calls).toEqual([`PUT ${card.photos[0].id}`, `PUT ${card.photos[1].id}`, `POST ${card.clientId}`, `POST ${manual.clientId}`]);
    expect(server.files.get(card.photos[0].id)).toEqual({ accountId: 'acc-1', bytes: 10, type: 'image/jpeg' });
    expect(server.leads.get(card.clientId)?.ld_front_fileid).toBe(card.photos[0].id);
    expect(await queue.count()).toBe(0);
    expect(changes).toHaveBeenCalled();
  });

  it('a retry after any failure never makes a second lead or file: same client id, same file ids', async () => {
    const lead = await queue.enqueue(draft({ source: 'card', front: jpeg(10), back: jpeg(20), answers: {} }));
    // the front is stored but its answer is lost; the next try finds no network at all
    server.plan = ['lost', 'network'];
    expect((await queue.flush(server)).stopped).toBe('network');
    expect(await queue.count()).toBe(1);
    // the back goes through; the lead is stored but its answer is lost
    server.plan = [undefined as never, undefined as never, 'lost'];
    expect((await queue.flush(server)).stopped).toBe('network');
    expect(await queue.count()).toBe(1);
    // a server error on the next try
    server.plan = [503];
    expect((await queue.flush(server)).stopped).toBe('server');
    // then all is well: the server answers 200 with the lead the first POST made
    server.plan = [];
    expect(await queue.flush(server)).toEqual({ sent: 1, rejected: 0, stopped: null });
    expect(server.leads.size).toBe(1);
    expect(server.files.size).toBe(2);
    expect(await queue.count()).toBe(0);
    // every POST carried the same client id, every PUT one of the two photo ids
    const posts = server.calls.filter((c) => c.startsWith('POST'));
    expect(posts.length).toBeGreaterThanOrEqual(3);
    expect(new Set(posts)).toEqual(new Set([`POST ${lead.clientId}`]));
    expect(new Set(server.calls.filter((c) => c.startsWith('PUT')))).toEqual(new Set(lead.photos.map((p) => `PUT ${p.id}`)));
  });

  it('does not send a photo again once the server has it', async () => {
    const lead = await queue.enqueue(draft({ source: 'card', front: jpeg(10), back: jpeg(20), answers: {} }));
    server.plan = [undefined as never, 'network']; // front ok, back fails
    await queue.flush(server);
    expect((await queue.get(lead.clientId))?.photos.map((p) => p.sent)).toEqual([true, false]);
    server.calls = [];
    await queue.flush(server);
    expect(server.calls).toEqual([`PUT ${lead.photos[1].id}`, `POST ${lead.clientId}`]);
  });

  it('keeps order: a transient failure stops the flush, so a later lead never overtakes an earlier one', async () => {
    const first = await queue.enqueue(draft({ label: 'first' }));
    await queue.enqueue(draft({ label: 'second' }));
    server.plan = ['network'];
    const r = await queue.flush(server);
    expect(r).toEqual({ sent: 0, rejected: 0, stopped: 'network' });
    expect(server.calls).toEqual([`POST ${first.clientId}`]);
    expect(await queue.count()).toBe(2);
    expect((await queue.get(first.clientId))?.attempts).toBe(1);
  });

  it('a lead the server refuses for good (400 lead_incomplete) is kept as rejected with the reason; the others go on; retry sends it again', async () => {
    const bad = await queue.enqueue(draft({ answers: {} }));
    const good = await queue.enqueue(draft());
    server.plan = [400];
    expect(await queue.flush(server)).toEqual({ sent: 1, rejected: 1, stopped: null });
    expect(server.leads.has(good.clientId)).toBe(true);
    const kept = await queue.get(bad.clientId);
    expect(kept?.state).toBe('rejected');
    expect(kept?.error).toEqual({ status: 400, code: 'lead_incomplete', message: 'Please complete all mandatory fields', fields: { email: 'error_required' } });
    expect(await queue.count()).toBe(1); // still unsent
    // a flush leaves it alone
    server.calls = [];
    await queue.flush(server);
    expect(server.calls).toEqual([]);
    // until it is retried
    await queue.retry(bad.clientId);
    expect(await queue.flush(server)).toEqual({ sent: 1, rejected: 0, stopped: null });
    expect(await queue.count()).toBe(0);
  });

  it('stops on 401 (signed out) and keeps the lead waiting', async () => {
    await queue.enqueue(draft());
    server.plan = [401];
    expect((await queue.flush(server)).stopped).toBe('auth');
    expect((await queue.list())[0].state).toBe('waiting');
  });

  it("sends only the signed-in user's leads; another user's wait on the device", async () => {
    const mine = await queue.enqueue(draft());
    const theirs = await queue.enqueue(draft({ userId: 'user-2' }));
    expect(await queue.count('user-1')).toBe(1);
    expect(await queue.count()).toBe(2);
    expect(await queue.flush(server, 'user-1')).toEqual({ sent: 1, rejected: 0, stopped: null });
    expect(server.leads.has(mine.clientId)).toBe(true);
    expect(server.leads.has(theirs.clientId)).toBe(false);
    expect((await queue.list('user-2')).map((l) => l.clientId)).toEqual([theirs.clientId]);
  });

  it('counts and removes', async () => {
    expect(await queue.count()).toBe(0);
    const a = await queue.enqueue(draft());
    await queue.enqueue(draft());
    await queue.enqueue(draft());
    expect(await queue.count()).toBe(3);
    await queue.remove(a.clientId);
    expect(await queue.count()).toBe(2);
  });

  it('one flush at a time: concurrent calls share it and send each lead once', async () => {
    await queue.enqueue(draft());
    await queue.enqueue(draft());
    const [x, y] = await Promise.all([queue.flush(server), queue.flush(server)]);
    expect(x).toBe(y);
    expect(server.calls.length).toBe(2);
    expect(server.leads.size).toBe(2);
  });

  describe('QueueSync', () => {
    beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
    afterEach(() => vi.useRealTimers());

    const settle = async () => {
      for (let i = 0; i < 20; i++) await vi.advanceTimersByTimeAsync(0);
    };

    it('retries with backoff while the network fails, and sends at once when the browser comes back online', async () => {
      await queue.enqueue(draft());
      let online = false;
      const events = new EventTarget();
      const results: unknown[] = [];
      const sync = new QueueSync(queue, server, { baseDelayMs: 1000, maxDelayMs: 4000, isOnline: () => online, events, onResult: (r) => results.push(r) });
      expect([1, 2, 3, 4, 5].map((n) => sync.delay(n))).toEqual([1000, 2000, 4000, 4000, 4000]);
      sync.start();
      await settle();
      expect(server.calls).toEqual([]); // offline: nothing tried
      online = true;
      server.plan = [503, 'network'];
      events.dispatchEvent(new Event('online'));
      await settle();
      expect(server.calls.length).toBe(1);
      await vi.advanceTimersByTimeAsync(1300); // first retry after ~1 s
      await settle();
      expect(server.calls.length).toBe(2);
      await vi.advanceTimersByTimeAsync(2500); // second after ~2 s
      await settle();
      expect(server.calls.length).toBe(3);
      expect(await queue.count()).toBe(0);
      expect(server.leads.size).toBe(1);
      expect(results.at(-1)).toEqual({ sent: 1, rejected: 0, stopped: null });
      sync.stop();
    });
  });
});
