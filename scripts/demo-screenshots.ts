// npm run demo:screenshots -- [--url http://localhost:3000] [--out /tmp/shots-demo]
// Signs in as the demo users of npm run db:seed:demo (the server running on that data) and screenshots the screens a
// newcomer looks at, at 1280 px: the console's leads, the transcription queue, a rated lead, assets, carousels,
// statistics, meetings (owner@acme-events.example), the capture app's event picker (booth@acme-events.example) and
// the player at /play/DEMAEXPAT4. Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../seeds/02_demo.js';
import { DEMO_BOOTH_EMAIL, DEMO_OWNER_EMAIL, DEMO_PLAYER_CODE } from '../seeds/04_showcase_demo.js';

const { values } = parseArgs({ options: { url: { type: 'string', default: 'http://localhost:3000' }, out: { type: 'string', default: '/tmp/shots-demo' } } });
type Row = Record<string, unknown>;

const base = values.url!.replace(/\/$/, '');
const out = values.out!;
fs.mkdirSync(out, { recursive: true });

/** The console's sign-in (/login) or the capture app's (/app/: its own form, fields `email` and `password`). */
async function signIn(page: Page, email: string, at = '/login'): Promise<void> {
  await page.goto(`${base}${at}`);
  const app = at.startsWith('/app');
  await page.locator(app ? 'input[name=email]' : '#u_email').fill(email);
  await page.locator(app ? 'input[name=password]' : '#u_password').fill(DEMO_PASSWORD);
  await page.locator('button[type=submit]').click();
}

async function shot(page: Page, name: string, url: string, settle = 1500): Promise<void> {
  await page.goto(`${base}${url}`);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(settle);
  const file = path.join(out, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(file);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const viewport = { width: 1280, height: 860 };
  const console_ = await (await browser.newContext({ viewport, locale: 'en-GB' })).newPage();
  await signIn(console_, DEMO_OWNER_EMAIL);
  await console_.waitForURL((u) => !u.pathname.startsWith('/login'));
  const me = await (await console_.request.get(`${base}/api/1/auth/accounts`)).json();
  const account = (me as { a_id: string; a_name: string }[]).find((a) => a.a_name === 'Acme Events')!.a_id;
  const api = async (p: string) => (await console_.request.get(`${base}/api/1/accounts/${account}${p}`)).json();
  await shot(console_, '01-leads', `/console/${account}/leads`);
  await shot(console_, '02-transcription', `/console/${account}/transcription`, 2500);
  // A top-rated badge scan with a voice memo (the seed puts the memos there).
  const rated = (await api(`/leads?range=${encodeURIComponent('[0,499]')}&filter=${encodeURIComponent(JSON.stringify({ ld_rating_min: 5, ld_source: 'scan' }))}`)) as Row[];
  const lead = rated.find((l) => l.ld_memo_fileid) ?? rated[0];
  if (lead) await shot(console_, '02-lead', `/console/${account}/leads/${lead.id}`);
  await shot(console_, '03-assets', `/console/${account}/assets`);
  const carousels = (await api('/carousels')) as { id: string }[];
  await shot(console_, '04-carousels', `/console/${account}/carousels`);
  if (carousels[0]) await shot(console_, '05-carousel', `/console/${account}/carousels/${carousels[0].id}`, 2500);
  await shot(console_, '06-statistics', `/console/${account}/statistics`, 2500);
  await shot(console_, '07-meetings', `/console/${account}/meetings`);

  const app = await (await browser.newContext({ viewport, locale: 'en-GB' })).newPage();
  await signIn(app, DEMO_BOOTH_EMAIL, '/app/');
  await app.waitForTimeout(2000);
  await shot(app, '08-capture-app', '/app/');

  const player = await (await browser.newContext({ viewport })).newPage();
  await shot(player, '09-player', `/play/${DEMO_PLAYER_CODE}`, 4000);
} finally {
  await browser.close();
}
