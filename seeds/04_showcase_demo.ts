import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { hashPassword } from '../api/services/passwords.js';
import { hashToken } from '../api/services/tokens.js';
import { conversationToken } from '../api/services/conversations.js';
import { newAssetsPath, newLeadFilesPath, objectKey } from '../api/storage/keys.js';
import type { SeedServices } from '../api/db/migrationSource.js';
import { newCollectionToken } from '../api/console/carousels.js';
import { valueFromTitle } from '../resources/listItems.js';
import { DEMO_ACCOUNT } from './03_console_demo.js';
import { DEMO_PASSWORD } from './02_demo.js';
import { drawCardPhoto, drawPoster, makeMemoWebm } from './demo/media.js';

/**
 * The day after a trade show (npm run db:seed:demo, after 03_console_demo; issue 17 "The demo"): in "Acme Events",
 * two named users to sign in as, two past events, about 3,000 leads over the last 30 days from every source (card
 * photos waiting for transcription, ratings, tags, notes, voice memos), handoffs, meetings in every status, image
 * assets drawn at seed time, two carousels in a group with the player code DEMO_PLAYER_CODE, and plays for the
 * statistics. Bytes go through the storage driver (the seed needs `services.storage`). Safe to run twice: it does
 * nothing when the owner user exists. Large tables are written in a few set-based statements (chunks of rows).
 */
export const DEMO_OWNER_EMAIL = 'owner@acme-events.example';
export const DEMO_BOOTH_EMAIL = 'booth@acme-events.example';
/** The player code of the demo's carousel group: /play/DEMAEXPAT4. */
export const DEMO_PLAYER_CODE = 'DEMAEXPAT4';
export const DEMO_LEADS = 3000;

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

/** mulberry32: the same demo on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Anna',
  'Bas',
  'Carla',
  'David',
  'Eva',
  'Femke',
  'Gijs',
  'Hanna',
  'Ivo',
  'Julia',
  'Kees',
  'Lotte',
  'Maarten',
  'Nina',
  'Oscar',
  'Paula',
  'Quinten',
  'Roos',
  'Sanne',
  'Thomas',
  'Ursula',
  'Victor',
  'Wendy',
  'Yara',
  'Zoe',
];
const LAST = ['van Dijk', 'Smit', 'de Jong', 'Müller', 'Martin', 'García', 'Rossi', 'Kowalski', 'Andersen', 'Dubois', 'Schmidt', 'Jansen', "O'Brien", 'Novak', 'Silva', 'Haddad'];
const COMPANIES = ['northwind', 'contoso', 'fabrikam', 'tailspin', 'wingtip', 'litware', 'adatum', 'proseware', 'woodgrove', 'lucerne'];
const TAGS = ['hot', 'follow-up', 'partner', 'press', 'budget-q1', 'demo-requested', 'reseller'];
const INTERESTS = ['Badges', 'Booth design', 'Digital signage', 'Lead scoring', 'Registration', 'Ticketing', 'Hybrid events', 'Sustainability'];
const NOTES = [
  'Wants a quote for 3 events next year.',
  'Met at the coffee bar; asked about the offline capture app.',
  'Current supplier contract ends in March.',
  'Send the case study of the Rotterdam fair.',
  'Decision maker is the CFO; call after the 15th.',
];
// Where the leads were met: the events of 03_console_demo and two past ones of this seed, with the share of leads.
const PAST_EVENTS = [
  { ev_name: 'retail-forum', ev_title: 'Retail Forum', from: -27, to: -25 },
  { ev_name: 'logistics-week', ev_title: 'Logistics Week', from: -14, to: -12 },
];
const POSTERS = [
  { as_name: 'welcome-hall-5', as_title: 'Welcome to hall 5', hue: 220 },
  { as_name: 'product-tour', as_title: 'Product tour', hue: 160 },
  { as_name: 'capture-app', as_title: 'The capture app', hue: 280 },
  { as_name: 'meet-the-team', as_title: 'Meet the team', hue: 20 },
  { as_name: 'badge-scanning', as_title: 'Badge scanning', hue: 190 },
  { as_name: 'lead-scoring', as_title: 'Lead scoring', hue: 340 },
  { as_name: 'floor-plan', as_title: 'Floor plan', hue: 95 },
  { as_name: 'coffee-corner', as_title: 'Coffee corner', hue: 45 },
];
/** How many card leads wait for transcription (each with a stored front photo, every third with a back). */
const PENDING_CARDS = 36;
const MEMOS = 6;
/** The opt-in as the capture app showed it (stored with each lead that opted in). */
const CONSENT_TEXT = 'Yes, Acme Events may e-mail me news about its products and events. I can unsubscribe at any time.';

type Row = Record<string, unknown>;

/** A lead's answers, keyed by element data name: the registration form's (03_console_demo) and the booth form's. */
function answers(first: string, last: string, email: string, rnd: () => number, pick: <T>(list: readonly T[]) => T): Row {
  const interests = [...new Set([valueFromTitle(pick(INTERESTS)), valueFromTitle(pick(INTERESTS))])];
  return {
    email,
    first_name: first,
    last_name: last,
    choice_chips_multiple: interests,
    selectbox: interests[0],
    toggle: rnd() < 0.7,
    slider: Math.floor(rnd() * 11),
    interests,
    follow_up: rnd() < 0.5,
  };
}

async function insertChunked(trx: Knex.Transaction, table: string, rows: Row[], returning: string[], size = 1000): Promise<Row[]> {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; i += size)
    out.push(
      ...(await trx(table)
        .insert(rows.slice(i, i + size))
        .returning(returning)),
    );
  return out;
}

export async function seed(knex: Knex, services: SeedServices = {}): Promise<void> {
  const account = await knex('accounts').where('a_name', DEMO_ACCOUNT).first('a_id');
  if (!account) return; // 02_demo did not run
  if (await knex('users').where('u_email', DEMO_OWNER_EMAIL).first('u_id')) return; // ran before
  const storage = services.storage;
  if (!storage) throw new Error('04_showcase_demo: the storage driver is needed (runSeeds(db, only, { storage }))');
  const a = account.a_id as string;
  const spring = await knex('events').where({ ev_accountid: a, ev_name: 'spring-expo' }).first('ev_id', 'ev_registration_formid');
  if (!spring) return; // 03_console_demo did not run
  const rnd = random(17);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const hash = await hashPassword(DEMO_PASSWORD);
  const now = Date.now();

  // Media first (the storage driver is no part of the transaction; bytes of a failed run are orphans, never rows
  // pointing at nothing).
  const assetPath = newAssetsPath(a);
  const assetRows: Row[] = [];
  for (const [i, p] of POSTERS.entries()) {
    const file = drawPoster(1280, 720, p.hue, i);
    const thumb = drawPoster(320, 180, p.hue, i);
    const fileId = crypto.randomUUID();
    const thumbId = crypto.randomUUID();
    await storage.put(objectKey(assetPath, fileId), file, 'image/png');
    await storage.put(objectKey(assetPath, thumbId), thumb, 'image/png');
    assetRows.push({
      as_accountid: a,
      as_title: p.as_title,
      as_name: p.as_name,
      as_fileid: fileId,
      as_path: assetPath,
      as_filename: `${p.as_name}.png`,
      as_type: 'image/png',
      as_size: file.length,
      as_sha256: crypto.createHash('sha256').update(file).digest('hex'),
      as_thumb_fileid: thumbId,
      as_thumb_type: 'image/png',
    });
  }
  const leadPath = newLeadFilesPath(a);
  const leadFiles: Row[] = [];
  const fronts: string[] = [];
  const backs: (string | null)[] = [];
  const memos: string[] = [];
  const storeLeadFile = async (bytes: Buffer, type: string) => {
    const id = crypto.randomUUID();
    await storage.put(objectKey(leadPath, id), bytes, type);
    leadFiles.push({ lf_id: id, lf_accountid: a, lf_type: type, lf_size: bytes.length, lf_path: leadPath });
    return id;
  };
  for (let i = 0; i < PENDING_CARDS; i++) {
    fronts.push(await storeLeadFile(drawCardPhoto(i), 'image/png'));
    backs.push(i % 3 === 0 ? await storeLeadFile(drawCardPhoto(i, true), 'image/png') : null);
  }
  for (let i = 0; i < MEMOS; i++) memos.push(await storeLeadFile(makeMemoWebm(2 + (i % 3), 150 + i * 20), 'audio/webm'));

  await knex.transaction(async (trx) => {
    // The users to sign in as: the account's owner (the console) and a member at the booth (the capture app).
    const [owner, booth] = await trx('users')
      .insert([
        { u_first_name: 'Olivia', u_last_name: 'Owner', u_email: DEMO_OWNER_EMAIL, u_role: 'member', u_is_verified: true, u_is_enabled: true, u_password: hash },
        { u_first_name: 'Bram', u_last_name: 'Booth', u_email: DEMO_BOOTH_EMAIL, u_role: 'member', u_is_verified: true, u_is_enabled: true, u_password: hash },
      ])
      .returning(['u_id']);
    await trx('account_users').insert([
      { au_accountid: a, au_userid: owner.u_id, au_role: 'superadmin' },
      { au_accountid: a, au_userid: booth.u_id, au_role: 'member' },
    ]);
    for (const f of leadFiles) f.lf_created_by = booth.u_id;
    const others: string[] = await trx('account_users')
      .where('au_accountid', a)
      .whereNotIn('au_userid', [owner.u_id, booth.u_id])
      .join('users', 'u_id', 'au_userid')
      .where({ u_is_enabled: true })
      .orderBy('u_email')
      .limit(6)
      .pluck('au_userid');
    const staff = [booth.u_id as string, booth.u_id as string, owner.u_id as string, ...others];

    const past = await trx('events')
      .insert(
        PAST_EVENTS.map((e) => ({
          ev_accountid: a,
          ev_title: e.ev_title,
          ev_name: e.ev_name,
          ev_access_type: 'open',
          ev_start_date: day(e.from),
          ev_end_date: day(e.to),
          ev_ownerid: owner.u_id,
          ev_registration_formid: spring.ev_registration_formid,
        })),
      )
      .returning(['ev_id', 'ev_name']);
    const windows = [
      ...past.map((e, i) => ({ id: e.ev_id as string, from: PAST_EVENTS[i].from, to: PAST_EVENTS[i].to, share: 0.2 })),
      { id: spring.ev_id as string, from: -1, to: 0, share: 0.6 },
    ];

    await insertChunked(trx, 'lead_files', leadFiles, ['lf_id']);

    // The leads: registrations in the days before each event, the rest captured during it (spring-expo: yesterday and
    // today, up to now), none older than 30 days. The expo's first card leads wait for transcription (or were postponed)
    // with the photos stored above; the other cards were transcribed.
    const sources = ['scan', 'scan', 'scan', 'card', 'manual', 'registration', 'registration', 'download', 'meeting'] as const;
    const leads: Row[] = [];
    let pendingLeft = PENDING_CARDS;
    for (let i = 0; i < DEMO_LEADS; i++) {
      const r = rnd();
      const w = r < windows[0].share ? windows[0] : r < windows[0].share + windows[1].share ? windows[1] : windows[2];
      const source = sources[i % sources.length];
      const start = Date.parse(`${day(w.from)}T08:00:00Z`);
      // Registrations and meeting requests in the 10 days before the event, but not before the statistics' default
      // range (the last 30 days, in UTC days) begins.
      const earliest = Math.max(start - 10 * DAY, Date.parse(`${day(-29)}T00:00:00Z`));
      let at =
        source === 'registration' || source === 'meeting'
          ? earliest + rnd() * (start - DAY / 2 - earliest)
          : start + Math.floor(rnd() * (w.to - w.from + 1)) * DAY + rnd() * 9 * 3600_000;
      if (at > now) at = now - rnd() * 6 * 3600_000;
      const first = pick(FIRST);
      const last = pick(LAST);
      const company = pick(COMPANIES);
      const owner_ = pick(staff);
      const email = `${first}.${last}.${i}@${company}.example`.toLowerCase().replace(/[^a-z0-9.@]/g, '');
      const pendingCard = source === 'card' && w.id === spring.ev_id && pendingLeft > 0;
      const rated = rnd() < 0.4;
      const consent = rnd() < 0.55;
      const tagged = rnd() < 0.35;
      const lead: Row = {
        ld_accountid: a,
        ld_eventid: w.id,
        ld_source: source,
        ld_captured_at: new Date(at),
        ld_ownerid: owner_,
        ld_captured_by: source === 'registration' || source === 'meeting' ? null : owner_,
        ld_email: pendingCard ? null : email,
        ld_first_name: pendingCard ? null : first,
        ld_last_name: pendingCard ? null : last,
        // Every sixth card with a photo was postponed; older cards were transcribed.
        ld_transcription_status: source === 'card' ? (pendingCard ? (pendingLeft % 6 === 0 ? 'postponed' : 'pending') : 'done') : 'none',
        ld_front_fileid: pendingCard ? fronts[PENDING_CARDS - pendingLeft] : null,
        ld_back_fileid: pendingCard ? backs[PENDING_CARDS - pendingLeft] : null,
        ld_badge_code: source === 'scan' ? `SPR-${String(100000 + i)}` : null,
        ld_consent_news: consent,
        ld_consent_text: consent ? CONSENT_TEXT : null,
        ld_is_valid: rnd() > 0.03,
        ld_rating: rated ? 1 + Math.floor(rnd() * 5) : null,
        ld_tags: tagged ? [...new Set([pick(TAGS), pick(TAGS)])] : [],
        ld_notes: rated && rnd() < 0.3 ? pick(NOTES) : null,
        ld_answers: pendingCard ? {} : answers(first, last, email, rnd, pick),
      };
      if (pendingCard) pendingLeft--;
      leads.push(lead);
    }
    // A few memos on the best leads of the expo.
    let memo = 0;
    for (const l of leads) if (memo < MEMOS && l.ld_eventid === spring.ev_id && l.ld_rating === 5 && l.ld_source === 'scan') l.ld_memo_fileid = memos[memo++];
    const inserted = await insertChunked(trx, 'leads', leads, ['ld_id', 'ld_source', 'ld_eventid', 'ld_ownerid']);

    // Handoffs: offered to the booth member (pending), some accepted (the lead is theirs now) or declined.
    const handoffs: Row[] = [];
    const accepted: string[] = [];
    const candidates = inserted.filter((l) => l.ld_eventid === spring.ev_id && l.ld_ownerid !== booth.u_id).slice(0, 30);
    for (const [i, l] of candidates.entries()) {
      const status = i < 12 ? 'pending' : i < 24 ? 'accepted' : 'not_available';
      if (status === 'accepted') accepted.push(l.ld_id as string);
      handoffs.push({
        ho_accountid: a,
        ho_leadid: l.ld_id,
        ho_to_userid: booth.u_id,
        ho_created_by: l.ld_ownerid ?? owner.u_id,
        ho_message: i % 2 ? 'You know this company best, can you follow up?' : null,
        ho_status: status,
        ho_token_hash: hashToken(crypto.randomBytes(24).toString('base64url')),
        ho_decided_at: status === 'pending' ? null : new Date(now - i * 600_000),
        ho_created_at: new Date(now - (i + 2) * 1800_000),
      });
    }
    await trx('handoffs').insert(handoffs);
    if (accepted.length) await trx('leads').whereIn('ld_id', accepted).update({ ld_ownerid: booth.u_id });

    // Meetings at the expo: half-hour slots yesterday and tomorrow with the owner and the booth member as hosts, one
    // meeting a slot, three in each status, visitors from the meeting-request leads.
    const slots: Row[] = [];
    for (const d of [-1, 1])
      for (let h = 0; h < 9; h++) {
        const start = Date.parse(`${day(d)}T09:00:00Z`) + h * 1800_000;
        slots.push({
          ms_accountid: a,
          ms_eventid: spring.ev_id,
          ms_start: new Date(start),
          ms_end: new Date(start + 1800_000),
          ms_location: h % 2 ? 'Booth 5.C12, table 2' : 'Booth 5.C12, table 1',
          ms_capacity: 1,
          ms_hostid: h % 2 ? booth.u_id : owner.u_id,
        });
      }
    const slotRows = await trx('meeting_slots').insert(slots).returning(['ms_id', 'ms_start', 'ms_hostid']);
    const visitors = inserted.filter((l) => l.ld_source === 'meeting' && l.ld_eventid === spring.ev_id);
    // Yesterday's slots were held or missed (or declined); tomorrow's are cancelled, accepted or still requested.
    const statuses = ['done', 'no_show', 'declined', 'cancelled', 'accepted', 'requested'];
    const meetings = statuses.flatMap((status, s) =>
      [0, 1, 2].map((k) => {
        const slot = slotRows[s * 3 + k];
        return {
          mg_accountid: a,
          mg_eventid: spring.ev_id,
          mg_slotid: slot.ms_id,
          mg_leadid: visitors[s * 3 + k]?.ld_id ?? null,
          mg_hostid: slot.ms_hostid,
          mg_status: status,
          mg_message: k === 0 ? 'Looking forward to seeing the capture app in action.' : null,
          mg_expires_at: status === 'requested' ? new Date(now + DAY) : null,
          mg_decided_at: status === 'requested' ? null : new Date(now - (s + k) * 3600_000),
        };
      }),
    );
    await trx('meetings').insert(meetings);

    const visitorLinks = await seedConversations(trx, a, inserted, booth.u_id as string, services.sessionSecret);
    if (visitorLinks.length && services.publicUrl)
      (services.say ?? console.log)(`demo conversation, the visitor's side: ${services.publicUrl}/conversations/${visitorLinks[visitorLinks.length - 1]}`);

    // Assets, a collection of them, two carousels (one 1920×1080 variant each) with a slide per poster and an image
    // layer, the second with a QR of the collection; a group of both with the demo's player code.
    const assetIds = (
      await trx('assets')
        .insert(assetRows.map((r) => ({ ...r, as_created_by: owner.u_id })))
        .returning(['as_id'])
    ).map((r) => r.as_id as string);
    const [collection] = await trx('collections')
      .insert({ co_accountid: a, co_title: 'Spring Expo brochures', co_name: 'spring-expo-brochures', co_token: newCollectionToken() })
      .returning(['co_id']);
    await trx('collection_assets').insert(assetIds.slice(0, 4).map((id, i) => ({ ca_collectionid: collection.co_id, ca_assetid: id, ca_order: i })));
    const carousels = await trx('carousels')
      .insert([
        { c_accountid: a, c_title: 'Welcome loop', c_name: 'welcome-loop' },
        { c_accountid: a, c_title: 'Product tour', c_name: 'product-tour' },
      ])
      .returning(['c_id']);
    const slideIds: string[][] = [];
    for (const [ci, c] of carousels.entries()) {
      const [variant] = await trx('variants')
        .insert({
          v_accountid: a,
          v_carouselid: c.c_id,
          v_title: 'Landscape',
          v_name: 'landscape',
          v_width: 1920,
          v_height: 1080,
          v_bgcolor: '#101828',
          v_default_duration_ms: 6000,
        })
        .returning(['v_id']);
      const mine = POSTERS.map((p, i) => ({ p, i })).filter(({ i }) => i % 2 === ci);
      const slides = await trx('slides')
        .insert(mine.map(({ p }, order) => ({ sl_accountid: a, sl_carouselid: c.c_id, sl_title: p.as_title, sl_name: p.as_name, sl_order: order })))
        .returning(['sl_id']);
      slideIds.push(slides.map((s) => s.sl_id as string));
      const layers: Row[] = slides.map((s, k) => ({
        ly_accountid: a,
        ly_slideid: s.sl_id,
        ly_variantid: variant.v_id,
        ly_title: mine[k].p.as_title,
        ly_type: 'image',
        ly_assetid: assetIds[mine[k].i],
        ly_order: 0,
        ly_x: 0,
        ly_y: 0,
        ly_width: 1920,
        ly_height: 1080,
      }));
      if (ci === 1)
        layers.push({
          ly_accountid: a,
          ly_slideid: slides[0].sl_id,
          ly_variantid: variant.v_id,
          ly_title: 'Brochures QR',
          ly_type: 'collectionqr',
          ly_collectionid: collection.co_id,
          ly_order: 1,
          ly_x: 1580,
          ly_y: 60,
          ly_width: 280,
          ly_height: 280,
        });
      await trx('layers').insert(layers);
    }
    const [group] = await trx('carousel_groups').insert({ cg_accountid: a, cg_title: 'Hall 5 screens' }).returning(['cg_id']);
    await trx('carousel_group_items').insert(carousels.map((c, i) => ({ gi_groupid: group.cg_id, gi_carouselid: c.c_id, gi_order: i })));
    const codes = await trx('carousel_codes')
      .insert([
        { cc_accountid: a, cc_groupid: group.cg_id, cc_code: DEMO_PLAYER_CODE, cc_title: 'Entrance totem' },
        { cc_accountid: a, cc_groupid: group.cg_id, cc_code: DEMO_PLAYER_CODE.split('').reverse().join(''), cc_title: 'Booth screen' },
      ])
      .returning(['cc_id']);

    // Plays over the last 30 days: every slide shown through the day at both screens, now and then a tap or a QR.
    const plays: Row[] = [];
    for (let i = 0; i < 2400; i++) {
      const ci = i % 2;
      const slide = slideIds[ci][Math.floor(rnd() * slideIds[ci].length)];
      const r = rnd();
      plays.push({
        pe_accountid: a,
        pe_codeid: codes[Math.floor(rnd() * codes.length)].cc_id,
        pe_carouselid: carousels[ci].c_id,
        pe_slideid: slide,
        pe_kind: r < 0.9 ? 'play' : r < 0.96 ? 'hotspot' : 'qr',
        pe_at: new Date(now - rnd() * 29.5 * DAY),
        pe_client_id: `demo-${i}`,
      });
    }
    await insertChunked(trx, 'play_events', plays, ['pe_id']);
  });
}

/**
 * Conversations (platform-and-flows.md 6): two threads with visitors, one answered, one with the visitor's reply unread
 * (first in the list). The visitor's link is an HMAC of SESSION_SECRET (conversationToken): with the server's secret (as
 * `npm run db:seed:demo` passes it) the seeded links work and are answered (the visitors' tokens, oldest thread first);
 * without it the threads get unguessable hashes, read and answered in the console, and the next member message mails a
 * link that works.
 */
export async function seedConversations(trx: Knex.Transaction, accountId: string, leads: Row[], userId: string, sessionSecret?: string): Promise<string[]> {
  if (!(await trx.schema.hasTable('conversations')) || !(await trx.schema.hasTable('conversation_messages'))) return [];
  const tokens: string[] = [];
  const threads = [
    {
      lead: leads[0],
      subject: 'Your visit to our stand',
      messages: [
        { author: userId, body: 'Thank you for visiting us at Spring Expo! Shall I send you the price list for the screens?', minutes: 26 * 60 },
        { author: null, body: 'Yes please, for 40 screens. Delivery before June would be ideal.', minutes: 25 * 60 },
        { author: userId, body: 'Here it is. June works: I have reserved a slot for you.', minutes: 24 * 60 },
      ],
      readByMember: true,
    },
    {
      lead: leads[1],
      subject: 'The demo you asked for',
      messages: [
        { author: userId, body: 'Would Thursday at 10:00 suit you for the demo?', minutes: 3 * 60 },
        { author: null, body: 'Thursday is fine. Can my colleague join by video?', minutes: 40 },
      ],
      readByMember: false,
    },
  ];
  const now = Date.now();
  for (const thread of threads) {
    const at = (m: number) => new Date(now - m * 60_000).toISOString();
    const last = at(thread.messages[thread.messages.length - 1].minutes);
    const [cv] = await trx('conversations')
      .insert({
        cv_accountid: accountId,
        cv_leadid: thread.lead.ld_id,
        cv_subject: thread.subject,
        cv_status: 'open',
        cv_last_message_at: last,
        cv_token_hash: hashToken(crypto.randomBytes(32).toString('base64url')),
      })
      .returning(['cv_id']);
    if (sessionSecret) {
      const token = conversationToken(sessionSecret, cv.cv_id as string);
      await trx('conversations')
        .where('cv_id', cv.cv_id)
        .update({ cv_token_hash: hashToken(token) });
      tokens.push(token);
    }
    await trx('conversation_messages').insert(
      thread.messages.map((m) => ({ cm_conversationid: cv.cv_id, cm_author: m.author, cm_from_visitor: m.author === null, cm_body: m.body, cm_created_at: at(m.minutes) })),
    );
    // The member read the first thread to its end, the second only up to their own question.
    const readUpTo = thread.readByMember ? last : at(thread.messages[0].minutes);
    await trx('conversation_reads').insert({ cr_conversationid: cv.cv_id, cr_userid: userId, cr_last_read_at: readUpTo });
  }
  return tokens;
}
