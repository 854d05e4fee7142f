import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeadQueue, type LeadBody, type Transport, type TransportAnswer } from '../../admin/src/app/queue';
import { normaliseTag } from '../../resources/tags';

/**
 * A lead's qualification on its page (platform-and-flows.md section 4) goes through the offline queue as an update
 * record: the memo's bytes first (PUT lead-files/{id}, stored once), then PUT leads/{id} with the changes.
 */
class FakeServer implements Transport {
  files = new Map<string, string>();
  leads = new Map<string, Record<string, unknown>>([['lead-1', { ld_rating: null, ld_tags: [] }]]);
  calls: string[] = [];
  plan: ('network' | number)[] = [];

  async putFile(_accountId: string, id: string, blob: Blob): Promise<TransportAnswer> {
    this.calls.push(`PUT file ${id}`);
    const step = this.plan.shift();
    if (step === 'network') throw new TypeError('Failed to fetch');
    if (typeof step === 'number') return { status: step, body: { code: 'refused' } };
    const existed = this.files.has(id);
    this.files.set(id, blob.type);
    return { status: existed ? 200 : 201, body: { id } };
  }

  async postLead(_accountId: string, body: LeadBody): Promise<TransportAnswer> {
    this.calls.push(`POST ${body.ld_client_id}`);
    return { status: 201, body };
  }

  async putLead(_accountId: string, leadId: string, changes: Record<string, unknown>): Promise<TransportAnswer> {
    this.calls.push(`PUT lead ${leadId}`);
    const step = this.plan.shift();
    if (step === 'network') throw new TypeError('Failed to fetch');
    if (typeof step === 'number') return { status: step, body: { code: 'validation_failed', fields: { ld_rating: 'error_number_too_large' } } };
    if (typeof changes.ld_memo_fileid === 'string' && !this.files.has(changes.ld_memo_fileid)) return { status: 400, body: { code: 'file_missing' } };
    const lead = this.leads.get(leadId);
    if (!lead) return { status: 404, body: { code: 'not_found' } };
    Object.assign(lead, changes);
    return { status: 200, body: lead };
  }
}

const webm = () => new Blob([new Uint8Array(4000).fill(1)], { type: 'audio/webm' });

describe('the capture queue: qualification of a lead on the server', () => {
  let queue: LeadQueue;
  let server: FakeServer;
  beforeEach(async () => {
    queue = await LeadQueue.open(new IDBFactory());
    server = new FakeServer();
  });
  afterEach(() => queue.close());

  const update = (changes: Record<string, unknown>, memo: Blob | null = null) =>
    queue.enqueueUpdate({ userId: 'user-1', accountId: 'acc-1', leadId: 'lead-1', eventId: 'ev-1', changes, memo, label: 'Ann' });

  it('queues the changes with the memo under a fresh id; sends the memo, then the lead, and removes the record', async () => {
    const queued = await update({ ld_rating: 4, ld_tags: ['hot'], ld_notes: 'Call back' }, webm());
    expect(queued.photos).toHaveLength(1);
    expect(queued.photos[0]).toMatchObject({ side: 'memo', sent: false });
    const memoId = queued.photos[0].id;
    expect(queued.update).toEqual({ leadId: 'lead-1', changes: { ld_rating: 4, ld_tags: ['hot'], ld_notes: 'Call back', ld_memo_fileid: memoId } });
    expect(await queue.count('user-1')).toBe(1);

    const r = await queue.flush(server);
    expect(r).toEqual({ sent: 1, rejected: 0, stopped: null });
    expect(server.calls).toEqual([`PUT file ${memoId}`, 'PUT lead lead-1']);
    expect(server.files.get(memoId)).toBe('audio/webm');
    expect(server.leads.get('lead-1')).toMatchObject({ ld_rating: 4, ld_tags: ['hot'], ld_memo_fileid: memoId });
    expect(await queue.count()).toBe(0);
  });

  it('recorded offline: waits, and on the next flush sends the memo once and the lead after it', async () => {
    const queued = await update({ ld_rating: 2 }, webm());
    const memoId = queued.photos[0].id;
    // The memo goes up, then the network drops before the lead's PUT.
    let dropLead = true;
    server.putLead = async (a, id, c) => {
      if (dropLead) {
        server.calls.push(`PUT lead ${id}`);
        throw new TypeError('Failed to fetch');
      }
      return FakeServer.prototype.putLead.call(server, a, id, c);
    };
    expect((await queue.flush(server)).stopped).toBe('network');
    expect((await queue.get(queued.clientId))?.photos[0].sent).toBe(true);
    dropLead = false;
    expect((await queue.flush(server)).sent).toBe(1);
    // The memo's bytes went up once; the lead names it.
    expect(server.calls.filter((c) => c === `PUT file ${memoId}`)).toHaveLength(1);
    expect(server.leads.get('lead-1')).toMatchObject({ ld_rating: 2, ld_memo_fileid: memoId });
  });

  it('keeps an update the server refuses as rejected, with the reason; a removed memo is sent as null', async () => {
    const bad = await update({ ld_rating: 9 });
    server.plan = [400];
    expect(await queue.flush(server)).toEqual({ sent: 0, rejected: 1, stopped: null });
    expect(await queue.get(bad.clientId)).toMatchObject({ state: 'rejected', error: { status: 400, code: 'validation_failed' } });
    await queue.remove(bad.clientId);
    server.leads.get('lead-1')!.ld_memo_fileid = 'old-memo';
    await update({ ld_memo_fileid: null });
    expect((await queue.flush(server)).sent).toBe(1);
    expect(server.leads.get('lead-1')!.ld_memo_fileid).toBeNull();
  });

  it('new leads and updates go in the order they were queued', async () => {
    await update({ ld_rating: 1 });
    await queue.enqueue({ userId: 'user-1', accountId: 'acc-1', eventId: 'ev-1', answers: {}, source: 'manual', consentNews: false, consentText: '' });
    await update({ ld_rating: 3 });
    await queue.flush(server);
    expect(server.calls.map((c) => c.split(' ')[0] + (c.startsWith('PUT lead') ? ' lead' : ''))).toEqual(['PUT lead', 'POST', 'PUT lead']);
    expect(server.leads.get('lead-1')!.ld_rating).toBe(3);
  });
});

describe('normaliseTag', () => {
  it.each([
    ['Hot', 'hot'],
    ['  Follow up ', 'follow-up'],
    ['Café Owner', 'cafe-owner'],
    ['2026 lead', 'lead'],
    ['q4_budget', 'q4_budget'],
    ['!!!', ''],
    ['x'.repeat(80), 'x'.repeat(63)],
  ])('%s → %s', (raw, tag) => {
    expect(normaliseTag(raw)).toBe(tag);
  });
});
