import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, startApp, uid, withGrant, type Signed, type TestApp } from '../helpers/app.js';
import { made, makeLeadEvent, type LeadEvent } from '../helpers/leads.js';
import { BADGES, startFakeBadgeProvider, type FakeBadgeProvider } from '../../scripts/fake-badge-provider.js';

const SECRET = 'scan-test-secret';
/** The configured scan limit for these tests (the contract's 8 s, shortened so the test is quick). */
const TIMEOUT_MS = 600;

describeEachDb('badge scan: POST /events/{id}/scan against the fake provider', (kind) => {
  let provider: FakeBadgeProvider;
  let t: TestApp;
  let root: Signed;
  let memberOfA: Signed;
  let memberOfB: Signed;
  let a: string;
  let b: string;
  let ev: LeadEvent;
  let bare: LeadEvent; // an event without an integration

  beforeAll(async () => {
    provider = await startFakeBadgeProvider({ secret: SECRET, apiKey: 'key-1', slowMs: 5000 });
    t = await startApp(kind, { integrationsAllowPrivate: true, integrationsCa: provider.cert, badgeScanTimeoutMs: TIMEOUT_MS });
    root = await t.signedIn('root');
    a = (await t.account(`Scan A ${uid()}`)).a_id;
    b = (await t.account(`Scan B ${uid()}`)).a_id;
    memberOfA = await t.signedIn('member');
    await t.member(a, memberOfA.userId, 'member');
    memberOfB = await t.signedIn('member');
    await t.member(b, memberOfB.userId, 'member');
    ev = await makeLeadEvent(root, a);
    bare = await makeLeadEvent(root, a);
    const integration = await made(root, a, 'integrations', {
      in_name: uid(),
      in_title: 'Badges',
      in_type: 'badge_scan',
      in_api_url: provider.url,
      in_key: 'key-1',
      in_secret: SECRET,
    });
    await made(root, a, 'event-integrations', { ei_eventid: ev.event.id, ei_integrationid: integration.id, ei_external_event_id: 'expo-2026' });
    // A second integration, linked later, pointing nowhere: the first one linked is the one asked.
    const dead = await made(root, a, 'integrations', { in_name: uid(), in_title: 'Old badges', in_type: 'badge_scan', in_api_url: 'https://127.0.0.1:9/scan', in_secret: 'x' });
    await made(root, a, 'event-integrations', { ei_eventid: ev.event.id, ei_integrationid: dead.id, ei_external_event_id: 'other' });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  const scanPath = (eventId: unknown, account = a) => `/api/1/accounts/${account}/events/${eventId}/scan`;

  it("answers the provider's person as answers by data name, only the names the event's forms have plus the own fields", async () => {
    const before = provider.requests.length;
    const res = await memberOfA.post(scanPath(ev.event.id), { code: '1001' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const person = BADGES['1001'];
    // company is an element of the form; job_title and country are not, so they are left out.
    expect(res.body).toEqual({ answers: { email: person.email, first_name: person.first_name, last_name: person.last_name, company: person.company } });
    expect(provider.requests.length).toBe(before + 1);
    const sent = provider.requests[provider.requests.length - 1];
    expect(JSON.parse(sent.body)).toEqual({ event: 'expo-2026', code: '1001' });
    expect(sent.headers['x-api-key']).toBe('key-1');
    expect(sent.headers['x-signature']).toBe(crypto.createHmac('sha256', SECRET).update(sent.body).digest('hex'));
  });

  it('the own fields come back even when the forms lack them', async () => {
    const noNames = await made(root, a, 'forms', { f_title: 'Only interests', f_name: uid() });
    await made(root, a, 'form-elements', { fe_formid: noNames.id, fe_name: 'job_title', fe_title: 'Job title', fe_type: 'text' });
    const other = await made(root, a, 'events', { ev_title: 'Small', ev_name: uid(), ev_access_type: 'open' });
    await made(root, a, 'event-forms', { ef_eventid: other.id, ef_formid: noNames.id });
    const integration = await made(root, a, 'integrations', {
      in_name: uid(),
      in_title: 'Badges 2',
      in_type: 'badge_scan',
      in_api_url: provider.url,
      in_key: 'key-1',
      in_secret: SECRET,
    });
    await made(root, a, 'event-integrations', { ei_eventid: other.id, ei_integrationid: integration.id });
    const res = await memberOfA.post(scanPath(other.id), { code: '1003' });
    expect(res.status).toBe(200);
    const p = BADGES['1003'];
    expect(res.body.answers).toEqual({ email: p.email, first_name: p.first_name, last_name: p.last_name, job_title: p.job_title });
    expect(JSON.parse(provider.requests[provider.requests.length - 1].body)).toEqual({ event: null, code: '1003' });
  });

  it(`no answer within the configured limit (${TIMEOUT_MS} ms): 504 badge_scan_timeout with the spec's text`, async () => {
    expect(t.config.badgeScanTimeoutMs).toBe(TIMEOUT_MS);
    const started = Date.now();
    const res = await memberOfA.post(scanPath(ev.event.id), { code: 'slow-1' });
    const took = Date.now() - started;
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ code: 'badge_scan_timeout', message: 'Sadly we could not retrieve any data at this time' });
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(took).toBeLessThan(TIMEOUT_MS + 2500);
  });

  it('an event without an integration: 409 event_has_no_integration; a provider failure 502; an unknown badge 502', async () => {
    const none = await memberOfA.post(scanPath(bare.event.id), { code: '1001' });
    expect(none.status).toBe(409);
    expect(none.body).toEqual({ code: 'event_has_no_integration', message: 'This event has no badge-scan integration' });
    const failed = await memberOfA.post(scanPath(ev.event.id), { code: 'error-1' });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'badge_scan_failed', reason: 'provider_error', provider_status: 500 });
    const unknown = await memberOfA.post(scanPath(ev.event.id), { code: 'nobody' });
    expect(unknown.status).toBe(502);
    expect(unknown.body.provider_status).toBe(404);
  });

  it('refusals: no code 400, unknown or foreign event 404, without get_data 403, no session 401, no CSRF 403', async () => {
    const before = provider.requests.length;
    for (const body of [{}, { code: '' }, { code: '   ' }, { code: 12 }, { code: 'x'.repeat(201) }]) {
      const res = await memberOfA.post(scanPath(ev.event.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields, JSON.stringify(body)).toHaveProperty('code');
    }
    expect((await memberOfA.post(scanPath(MISSING), { code: '1001' })).status).toBe(404);
    expect((await memberOfA.post(scanPath('not-an-id'), { code: '1001' })).status).toBe(404);
    expect((await memberOfB.post(scanPath(ev.event.id), { code: '1001' })).status).toBe(404); // not a member of A
    expect((await memberOfB.post(scanPath(ev.event.id, b), { code: '1001' })).status).toBe(404); // A's event through B
    await withGrant(t, 'member', 'app_general', 6, async () => {
      const res = await memberOfA.post(scanPath(ev.event.id), { code: '1001' });
      expect(res.status).toBe(403);
    });
    expect((await t.client().post(scanPath(ev.event.id), { code: '1001' })).status).toBe(401);
    expect((await memberOfA.post(scanPath(ev.event.id), { code: '1001' }, { csrf: false })).status).toBe(403);
    expect(provider.requests.length).toBe(before); // none of them reached the provider
  });
});
