import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api';
import { HAS_CHROMIUM, launch, newPage, PHONE, shot, SKIP_REASON } from './support/browser';
import { ensureAdminBuilt, startServer, type E2eServer } from './support/server';
import { qrCodeY4m } from './support/fakeCamera';
import { linkIn, parseEml } from '../helpers/mail';
import { encodePng } from '../../admin/vite.app.config';
import { BADGES, FAKE_BADGE_SECRET, startFakeBadgeProvider, type FakeBadgeProvider } from '../../scripts/fake-badge-provider';

/**
 * The capture app (/app) in Chromium at phone size, against the real server and its routes: sign-in, the event
 * picker, the event's forms, leads (POST with ld_client_id), lead files (PUT of the photo's bytes), the badge scan
 * through the event's integration to the fake badge provider (scripts/fake-badge-provider.ts, HTTPS with a
 * self-signed certificate the server trusts by INTEGRATIONS_CA_FILE), handoffs (the mail in the outbox), members and
 * the profile. What arrived is checked in the database (rows of leads, lead_files and handoffs) and in the storage
 * directory (the photos' bytes). PGlite by default (the server pauses while the test reads it); PostgreSQL of its own
 * when TEST_DATABASE_URL is set.
 *
 * The camera is Chromium's fake device showing a .y4m with a QR code of a badge the provider knows
 * (support/fakeCamera.ts); the code is read by the app's decoder (the zxing WebAssembly from our own origin: Chromium
 * on Linux has no BarcodeDetector).
 */
const BADGE = '1001'; // Ada Lovelace at the fake provider
const PASSWORD = 'booth-password-1';
const MEMBER = 'booth@capture.example.com';
const COLLEAGUE = 'rep@capture.example.com';
const LONELY = 'lonely@capture.example.com';
const CONSENT = 'Yes, Northwind may e-mail me about the expo.';
/** The server's scan limit in this test (the contract's 8 s, shortened); the provider's slow codes wait longer. */
const SCAN_TIMEOUT_MS = 1500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Row = Record<string, unknown>;

/** Width and height from a JPEG's start-of-frame marker. */
function jpegSize(buf: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1];
    const len = buf.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3) return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  return null;
}

describe.skipIf(!HAS_CHROMIUM)('capture app (/app)', () => {
  let server: E2eServer;
  let browser: Browser;
  let provider: FakeBadgeProvider;
  let root: ApiClient;
  let accountId: string;
  let eventId: string;
  let memberId: string;
  let colleagueId: string;
  let camera: string;
  let certDir: string;

  /** The event's leads in the database, oldest first. */
  const leadRows = (db: Knex) => db('leads').where({ ld_accountid: accountId, ld_eventid: eventId }).orderBy('ld_created_at').select<Row[]>('*');
  /** What the provider was asked, in order: the codes. */
  const askedCodes = () => provider.requests.map((r) => JSON.parse(r.body).code as string);

  beforeAll(async () => {
    ensureAdminBuilt();
    camera = qrCodeY4m(BADGE);
    provider = await startFakeBadgeProvider({ slowMs: SCAN_TIMEOUT_MS + 3000 });
    certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ls-e2e-provider-'));
    const certFile = path.join(certDir, 'cert.pem');
    fs.writeFileSync(certFile, provider.cert);
    [server, browser] = await Promise.all([
      startServer({ INTEGRATIONS_ALLOW_PRIVATE: '1', INTEGRATIONS_CA_FILE: certFile, BADGE_SCAN_TIMEOUT_MS: String(SCAN_TIMEOUT_MS) }, { postgres: true }),
      launch({ fakeCamera: camera }),
    ]);
    root = new ApiClient(server.baseUrl);
    await root.login(server.adminEmail, server.adminPassword);
    const user = (email: string, first: string) =>
      root.create<{ id: string }>('/users', {
        u_email: email,
        u_first_name: first,
        u_last_name: 'Booth',
        u_role: 'member',
        u_is_verified: true,
        u_is_enabled: true,
        u_password: PASSWORD,
        u_password_confirm: PASSWORD,
      });
    memberId = (await user(MEMBER, 'Bo')).id;
    colleagueId = (await user(COLLEAGUE, 'Rita')).id;
    await user(LONELY, 'Lone');
    accountId = (await root.create<{ id: string }>('/accounts', { a_name: 'Northwind', a_is_enabled: true })).id;
    await root.create(`/accounts/${accountId}/users`, { au_userid: memberId, au_role: 'member' });
    await root.create(`/accounts/${accountId}/users`, { au_userid: colleagueId, au_role: 'member' });
    const a = `/accounts/${accountId}`;
    eventId = (
      await root.create<{ id: string }>(`${a}/events`, { ev_title: 'Northwind Expo', ev_name: 'expo', ev_access_type: 'open', ev_is_enabled: true, ev_consent_text: CONSENT })
    ).id;
    await root.create(`${a}/events`, { ev_title: 'Last year', ev_name: 'old', ev_access_type: 'open', ev_start_date: '2020-01-01', ev_end_date: '2020-01-02' });
    const contact = await root.create<{ id: string }>(`${a}/forms`, { f_title: 'Contact', f_name: 'contact' });
    const interest = await root.create<{ id: string }>(`${a}/forms`, { f_title: 'Interest', f_name: 'interest' });
    const el = (formId: string, body: Record<string, unknown>) => root.create(`${a}/form-elements`, { fe_formid: formId, ...body });
    await el(contact.id, { fe_title: 'E-mail', fe_name: 'email', fe_type: 'text', fe_is_required: true });
    await el(contact.id, { fe_title: 'First name', fe_name: 'first_name', fe_type: 'text', fe_is_required: true });
    await el(contact.id, { fe_title: 'Last name', fe_name: 'last_name', fe_type: 'text' });
    await el(contact.id, { fe_title: 'Company', fe_name: 'company', fe_type: 'text' });
    await el(interest.id, { fe_title: 'Call me back', fe_name: 'call_back', fe_type: 'toggle' });
    await root.create(`${a}/event-forms`, { ef_eventid: eventId, ef_formid: contact.id });
    await root.create(`${a}/event-forms`, { ef_eventid: eventId, ef_formid: interest.id });
    // The event's badge scans go to the fake provider (its default secret, no key), as the event "expo-2026" there.
    const integration = await root.create<{ id: string }>(`${a}/integrations`, {
      in_name: 'badges',
      in_title: 'Badges',
      in_type: 'badge_scan',
      in_api_url: provider.url,
      in_secret: FAKE_BADGE_SECRET,
    });
    await root.create(`${a}/event-integrations`, { ei_eventid: eventId, ei_integrationid: integration.id, ei_external_event_id: 'expo-2026' });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.close();
    if (camera) fs.rmSync(path.dirname(camera), { recursive: true, force: true });
    if (certDir) fs.rmSync(certDir, { recursive: true, force: true });
  });

  async function signIn(page: Page, email = MEMBER) {
    await page.goto('/app/');
    await field(page, 'E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  const unsent = (page: Page) => page.getByTestId('unsent-count');
  /** A text input of the form by its label (the renderer adds a spoken "required" after it). */
  const field = (page: Page, label: string) => page.getByRole('textbox', { name: new RegExp(`^${label}`) });

  async function openEvent(page: Page) {
    await page.getByRole('link', { name: /Northwind Expo/ }).click();
    await page.getByRole('heading', { name: 'Northwind Expo' }).waitFor();
    await field(page, 'E-mail').waitFor();
  }

  it('is an installable PWA: manifest with icons, a service worker, a strict CSP; every path under /app is the app', async () => {
    const manifest = await (await fetch(`${server.baseUrl}/app/manifest.webmanifest`)).json();
    expect(manifest).toMatchObject({ start_url: '/app/', scope: '/app/', display: 'standalone', theme_color: '#2848c7' });
    expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const res = await fetch(`${server.baseUrl}${icon.src}`);
      expect(res.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await res.arrayBuffer());
      expect(png.readUInt32BE(16)).toBe(Number(icon.sizes.split('x')[0])); // IHDR width
    }
    const sw = await fetch(`${server.baseUrl}/app/sw.js`);
    expect(sw.headers.get('content-type')).toContain('javascript');
    const swText = await sw.text();
    expect(swText).toMatch(/const PRECACHE = \["\/app\/","\/app\/manifest.webmanifest",.*"\/assets\/app-[^"]+\.js".*\.wasm"/);
    // "/app" is outside the worker's scope: it moves to /app/ (query kept), so an offline reload stays in the app.
    for (const [from, to] of [
      ['/app', '/app/'],
      ['/app?event=1', '/app/?event=1'],
    ]) {
      const moved = await fetch(`${server.baseUrl}${from}`, { redirect: 'manual' });
      expect(moved.status, from).toBe(301);
      expect(moved.headers.get('location'), from).toBe(to);
    }
    for (const p of ['/app', '/app/', '/app/leads', '/app/capture/x/y']) {
      const res = await fetch(`${server.baseUrl}${p}`);
      expect(res.status, p).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).toContain("connect-src 'self'");
      expect(await res.text()).toContain('<link rel="manifest" href="/app/manifest.webmanifest"');
    }
  });

  it('signed out → sign-in; a member without active events sees "There are no active events"', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await page.goto('/app/');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await shot(page, 'capture-signin');
      await field(page, 'E-mail').fill(LONELY);
      await page.getByLabel('Password').fill('wrong-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').getByText('The email and password combination does not match').waitFor();
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('no-active-events').getByText('There are no active events').waitFor();
      await shot(page, 'capture-no-events');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('scans a badge from the camera through the event integration, prefills the answers by data name, and stores the lead once', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/api\/1\/accounts\/[^/]+\/leads$/.test(new URL(r.url()).pathname)) posts.push(r.url());
    });
    try {
      await signIn(page);
      await page.getByRole('heading', { name: 'Choose an event' }).waitFor();
      expect(await page.getByRole('link', { name: /Last year/ }).count()).toBe(0); // over: not active
      await shot(page, 'capture-events');
      await openEvent(page);
      // the forms in order, and the event's own consent text
      await expect.poll(() => page.locator('legend').allTextContents()).toEqual(['Contact', 'Interest', 'News and updates']);
      await page.getByText(CONSENT).waitFor();

      await page.getByRole('button', { name: 'Scan badge' }).click();
      await page.getByRole('dialog', { name: 'Scan a badge' }).waitFor();
      await shot(page, 'capture-scanner');
      // the decoder reads the QR code off the fake camera; the server asks the provider with the signed call
      await page.getByTestId('scan-note').getByText(`Badge ${BADGE}: the answers are filled in.`).waitFor({ timeout: 30_000 });
      expect(askedCodes()).toEqual([BADGE]);
      expect(JSON.parse(provider.requests[0].body)).toEqual({ event: 'expo-2026', code: BADGE });
      const ada = BADGES[BADGE];
      await expect.poll(() => field(page, 'E-mail').inputValue()).toBe(ada.email);
      expect(await field(page, 'First name').inputValue()).toBe(ada.first_name);
      expect(await field(page, 'Last name').inputValue()).toBe(ada.last_name);
      expect(await field(page, 'Company').inputValue()).toBe(ada.company);
      await page.getByRole('checkbox', { name: /Northwind may e-mail me/ }).check();
      await shot(page, 'capture-scanned');
      await page.getByRole('button', { name: 'Save lead' }).click();
      await page.getByRole('status').getByText('Lead saved.').waitFor();
      await expect.poll(() => unsent(page).textContent()).toBe('0');
      // the form starts over for the next visitor
      expect(await field(page, 'E-mail').inputValue()).toBe('');
      expect(posts).toHaveLength(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    await server.withDb(async (db) => {
      const rows = await leadRows(db);
      expect(rows).toHaveLength(1);
      const ada = BADGES[BADGE];
      expect(rows[0]).toMatchObject({
        ld_source: 'scan',
        ld_badge_code: BADGE,
        ld_email: ada.email,
        ld_first_name: ada.first_name,
        ld_last_name: ada.last_name,
        ld_ownerid: memberId,
        ld_captured_by: memberId,
        ld_consent_news: true,
        ld_consent_text: CONSENT,
        ld_transcription_status: 'none',
        ld_front_fileid: null,
        ld_back_fileid: null,
        ld_is_valid: true,
      });
      expect(rows[0].ld_answers).toEqual({ email: ada.email, first_name: ada.first_name, last_name: ada.last_name, company: ada.company, call_back: false });
      expect(rows[0].ld_client_id).toMatch(UUID);
      expect(new Date(rows[0].ld_captured_at as string).getTime()).toBeGreaterThan(Date.now() - 300_000);
    });
  });

  it('takes front and back card photos from the camera (JPEGs), uploads them before the card lead, transcribes it and hands it off', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    const calls: string[] = [];
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (r.method() === 'PUT' && p.includes('/lead-files/')) calls.push(`PUT ${p.split('/').pop()}`);
      if (r.method() === 'POST' && p.endsWith('/leads')) calls.push('POST lead');
    });
    let leadId = '';
    try {
      await signIn(page);
      await openEvent(page);
      await page.getByRole('button', { name: 'Card photos' }).click();
      const shutter = page.getByRole('dialog', { name: 'Photo of the front' }).getByRole('button', { name: 'Take photo' });
      await expect.poll(() => shutter.isEnabled()).toBe(true);
      await shot(page, 'capture-photo-dialog');
      await shutter.click();
      await page.getByTestId('photo-front').waitFor();
      await page.getByRole('button', { name: 'Photo of the back' }).first().click();
      await page.getByRole('dialog', { name: 'Photo of the back' }).getByRole('button', { name: 'Take photo' }).click();
      await page.getByTestId('photo-back').waitFor();
      // a card lead may stay empty: no "mandatory" refusal
      await shot(page, 'capture-card');
      await page.getByRole('button', { name: 'Save card for transcription' }).click();
      await page.getByRole('status').getByText('Lead saved.').waitFor();
      await expect.poll(() => unsent(page).textContent()).toBe('0');
      // both photos first, then the lead, each once
      expect(calls).toHaveLength(3);
      expect(calls.slice(0, 2).every((c) => c.startsWith('PUT '))).toBe(true);
      expect(calls[2]).toBe('POST lead');

      // My leads: the card is pending; transcribe it beside its photos
      const myLeads = page.getByRole('navigation').getByRole('link', { name: 'My leads' });
      await myLeads.click();
      await page
        .getByTestId('my-leads')
        .getByRole('link', { name: /Business card/ })
        .click();
      leadId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
      expect(leadId).toMatch(UUID);
      await page.getByRole('img', { name: 'Card photo: Front' }).waitFor();
      // the photo comes back from the lead-files route: the 640×480 frame as stored
      await expect.poll(() => page.getByRole('img', { name: 'Card photo: Front' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
      await page.getByRole('button', { name: 'Transcribe' }).click();
      await field(page, 'E-mail').fill('grace@hopper.example');
      await field(page, 'First name').fill('Grace');
      await shot(page, 'capture-transcribe');
      await page.getByRole('button', { name: 'Save transcription' }).click();
      await page.getByRole('status').getByText('Transcribed and saved.').waitFor();
      await page.getByRole('heading', { name: 'Grace' }).waitFor();

      // hand it off to a colleague
      await page.getByRole('button', { name: 'Hand off' }).click();
      await page.getByLabel('Representative').selectOption({ label: `Rita Booth · ${COLLEAGUE}` });
      await page.getByLabel('Message').fill('Met at the booth, wants a demo');
      await shot(page, 'capture-handoff');
      await page.getByRole('button', { name: 'Send' }).click();
      await page
        .getByRole('status')
        .getByText(/Sent to Rita Booth/)
        .waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    // the mail to the representative, with the link to accept
    const mails = server
      .outbox()
      .filter((m) => m.file.toLowerCase().endsWith(`-${COLLEAGUE}.eml`))
      .map((m) => parseEml(m.file, m.text));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Bo Booth hands a lead over to you: Grace');
    expect(mails[0].text).toContain('Met at the booth, wants a demo');
    expect(linkIn(mails[0], '/handoffs/').startsWith(`${server.baseUrl}/handoffs/`)).toBe(true);

    await server.withDb(async (db) => {
      const lead = await db('leads').where({ ld_id: leadId }).first();
      expect(lead).toMatchObject({
        ld_accountid: accountId,
        ld_eventid: eventId,
        ld_source: 'card',
        ld_transcription_status: 'done',
        ld_email: 'grace@hopper.example',
        ld_first_name: 'Grace',
        ld_ownerid: memberId,
        ld_captured_by: memberId,
      });
      expect(lead.ld_answers).toMatchObject({ email: 'grace@hopper.example', first_name: 'Grace', call_back: false });
      // the photos: rows of the account, JPEGs, stored before the lead that names them
      const files: Row[] = await db('lead_files').whereIn('lf_id', [lead.ld_front_fileid, lead.ld_back_fileid]).select('*');
      expect(files).toHaveLength(2);
      for (const id of [lead.ld_front_fileid, lead.ld_back_fileid]) {
        const file = files.find((f) => f.lf_id === id)!;
        expect(file).toMatchObject({ lf_accountid: accountId, lf_type: 'image/jpeg', lf_created_by: memberId });
        expect(new Date(file.lf_created_at as string).getTime()).toBeLessThanOrEqual(new Date(lead.ld_created_at).getTime());
        const bytes = fs.readFileSync(path.join(server.dataDir, 'storage', String(file.lf_path).slice(1), String(file.lf_id)));
        expect(bytes.length).toBe(Number(file.lf_size));
        expect(bytes.subarray(0, 3).toString('hex')).toBe('ffd8ff'); // a JPEG
        // the camera's 640×480 frame (under the 1600 px limit, so not enlarged)
        expect(jpegSize(bytes)).toEqual({ width: 640, height: 480 });
      }
      expect(
        calls
          .slice(0, 2)
          .map((c) => c.slice(4))
          .sort(),
      ).toEqual([lead.ld_front_fileid, lead.ld_back_fileid].sort());
      // the handoff, pending until Rita answers
      const handoffs: Row[] = await db('handoffs').where({ ho_leadid: leadId }).select('*');
      expect(handoffs).toHaveLength(1);
      expect(handoffs[0]).toMatchObject({
        ho_accountid: accountId,
        ho_to_userid: colleagueId,
        ho_created_by: memberId,
        ho_message: 'Met at the booth, wants a demo',
        ho_status: 'pending',
      });
    });

    // pending again (through the API), so the app offers a transcription: offline, it says why it cannot
    const back = await root.call('PUT', `/accounts/${accountId}/leads/${leadId}`, { ld_transcription_status: 'pending' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const again = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signIn(again.page);
      await again.page.getByRole('heading', { name: 'Choose an event' }).waitFor();
      await again.page.goto(`/app/leads/${accountId}/${leadId}`);
      await again.page.getByRole('button', { name: 'Transcribe' }).waitFor();
      await again.context.setOffline(true);
      await again.page.getByText('Data can be transcribed once you are connected to a network').waitFor();
      expect(await again.page.getByRole('button', { name: 'Transcribe' }).count()).toBe(0);
      await shot(again.page, 'capture-transcribe-offline');
      expect(again.errors).toEqual([]);
    } finally {
      await again.context.close();
    }
  });

  it('offline: two leads queue on the device (count 2), the app reloads from its service worker, and exactly two arrive when online', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    const before = await server.withDb(async (db) => (await leadRows(db)).map((l) => l.ld_id));
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/leads$/.test(new URL(r.url()).pathname)) posts.push(r.url());
    });
    try {
      await signIn(page);
      await openEvent(page);
      // the service worker controls the page once it is installed
      await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });
      await context.setOffline(true);
      await page.getByText('Offline', { exact: true }).waitFor();
      for (const [email, first] of [
        ['one@offline.example', 'One'],
        ['two@offline.example', 'Two'],
      ]) {
        await field(page, 'E-mail').fill(email);
        await field(page, 'First name').fill(first);
        await page.getByRole('button', { name: 'Save lead' }).click();
        await page.getByRole('status').getByText('Lead saved on this device. It is sent when the network is back.').waitFor();
      }
      await expect.poll(() => unsent(page).textContent()).toBe('2');
      await shot(page, 'capture-offline-2');
      // a required answer missing: refused on the device, nothing queued
      await page.getByRole('button', { name: 'Save lead' }).click();
      await page.getByRole('alert').getByText('Please complete all mandatory fields').waitFor();
      expect(await unsent(page).textContent()).toBe('2');

      // reload with no network: the shell from the service worker, events and forms from IndexedDB
      await page.reload();
      await page.getByRole('heading', { name: 'Northwind Expo' }).waitFor();
      await field(page, 'E-mail').waitFor();
      await expect.poll(() => unsent(page).textContent()).toBe('2');
      await page.getByRole('link', { name: /2 unsent/ }).click();
      await expect.poll(() => page.getByTestId('unsent-list').locator('li').count()).toBe(2);
      await shot(page, 'capture-unsent');
      expect(posts).toEqual([]);

      await context.setOffline(false);
      await expect.poll(() => unsent(page).textContent(), { timeout: 30_000 }).toBe('0');
      await page.waitForTimeout(2000); // and nothing more comes later
      expect(posts).toHaveLength(2);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    await server.withDb(async (db) => {
      const rows = (await leadRows(db)).filter((l) => !before.includes(l.ld_id));
      expect(rows.map((l) => l.ld_email).sort()).toEqual(['one@offline.example', 'two@offline.example']);
      expect(new Set(rows.map((l) => l.ld_client_id)).size).toBe(2);
      for (const l of rows) {
        expect(l).toMatchObject({ ld_source: 'manual', ld_ownerid: memberId, ld_transcription_status: 'none', ld_consent_news: false });
        expect(l.ld_client_id).toMatch(UUID);
      }
      // captured while offline: the device's time, before the leads reached the server
      for (const l of rows) expect(new Date(l.ld_captured_at as string).getTime()).toBeLessThan(new Date(l.ld_created_at as string).getTime());
    });
  });

  it('camera refused → "Camera access is needed" with how to allow it; typed codes: a slow provider times out, a known badge fills in', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    await context.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
    });
    const asked = provider.requests.length;
    try {
      await signIn(page);
      await openEvent(page);
      // by keyboard: Enter opens the scanner, Escape closes it and the focus comes back
      const scanButton = page.getByRole('button', { name: 'Scan badge' });
      await scanButton.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Scan a badge' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(await scanButton.evaluate((b) => b === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      const problem = page.getByTestId('camera-problem');
      await problem.getByText('Camera access is needed').waitFor();
      await problem.getByText(/tap the lock or camera icon next to the address/).waitFor();
      await shot(page, 'capture-camera-refused');

      // the provider's slow mode answers after the server's limit: 504 and the contract's text
      await page.getByLabel('Badge code').fill('slow-7');
      const started = Date.now();
      await page.getByRole('button', { name: 'Look up' }).click();
      await page.getByTestId('scan-note').getByText('Sadly we could not retrieve any data at this time').waitFor();
      expect(Date.now() - started).toBeGreaterThanOrEqual(SCAN_TIMEOUT_MS - 100);
      expect(await field(page, 'E-mail').inputValue()).toBe('');

      await scanButton.click();
      await problem.getByText('Camera access is needed').waitFor();
      await page.getByLabel('Badge code').fill('1002');
      await page.getByRole('button', { name: 'Look up' }).click();
      await page.getByTestId('scan-note').getByText('Badge 1002: the answers are filled in.').waitFor();
      await expect.poll(() => field(page, 'E-mail').inputValue()).toBe(BADGES['1002'].email);
      expect(await field(page, 'Company').inputValue()).toBe(BADGES['1002'].company);
      expect(askedCodes().slice(asked)).toEqual(['slow-7', '1002']);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('profile: picture through the real route, system details to the clipboard; Dutch and dark', async () => {
    const { page, context, errors } = await newPage(browser, server.baseUrl, PHONE);
    try {
      await signIn(page);
      await page.getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('heading', { name: 'Profile' }).waitFor();
      const px = new Uint8Array(64 * 48 * 4).map((_, i) => (i % 4 === 3 ? 255 : i % 4 === 0 ? 200 : 60));
      await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: encodePng(64, 48, px) });
      await page.getByRole('status').getByText('Picture saved.').waitFor();
      const me = await page.evaluate(() => fetch('/api/1/profile').then((r) => r.json()));
      expect(me.has_picture).toBe(true);
      const picture = await page.evaluate(() => fetch('/api/1/profile/picture').then(async (r) => [r.headers.get('content-type'), (await r.arrayBuffer()).byteLength]));
      expect(picture[0]).toBe('image/jpeg'); // resized in the browser to a square JPEG
      await page.locator('.cap-avatar img').waitFor();

      await page.getByRole('button', { name: 'Copy app and system details' }).click();
      await page.getByRole('button', { name: 'Copied' }).waitFor();
      const clip = await page.evaluate(() => navigator.clipboard.readText());
      expect(clip).toMatch(/^Leadstage Capture 0\.1\.0 \(build \S+\)/);
      expect(clip).toContain(`User: ${MEMBER}`);
      expect(clip).toContain('Screen: ');
      expect(clip).toContain('Online: yes');
      expect(clip).toContain('Unsent leads: 0');
      expect(clip).toContain('User agent: Mozilla/5.0');

      await page.getByLabel('Language').selectOption('nl');
      await page.getByLabel('Weergave').selectOption('dark');
      await page.getByRole('heading', { name: 'Profiel' }).waitFor();
      await shot(page, 'capture-profile-nl-dark');
      await page.getByRole('navigation').getByRole('link', { name: 'Evenementen' }).click();
      await page.getByRole('heading', { name: 'Kies een evenement' }).waitFor();
      await page.getByRole('link', { name: /Northwind Expo/ }).click();
      await page.getByRole('button', { name: 'Badge scannen' }).waitFor();
      await page.getByRole('button', { name: 'Lead opslaan' }).click();
      await page.getByRole('alert').getByText('Vul alle verplichte velden in').waitFor();
      await shot(page, 'capture-form-nl-dark');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

if (!HAS_CHROMIUM) console.log(SKIP_REASON);
