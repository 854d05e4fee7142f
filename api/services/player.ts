import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Knex } from 'knex';
import { z } from 'zod';
import { perHandle } from '../db/perDatabase.js';
import { onWrite, writesTo } from '../db/writes.js';
import { sessionCacheFor } from './sessionCache.js';
import { MANIFEST_CHANNEL } from '../db/channels.js';
import { assetIdsOf, assetsById, carouselGraphs, collectionsById, type CarouselGraph } from '../models/carousels.js';
import { CODE_RE, NAV_BUTTONS, PLAY_EVENT_KINDS } from '../../resources/carousels.js';
import { isUuid } from '../../resources/fields.js';

type Row = Record<string, unknown>;

/**
 * The player's manifest (account-console.md: Player): everything /play/{code} needs to play its group, in one
 * document — the group, its carousels in order, the standby carousel and every carousel a hotspot opens (each with
 * its variants, slides in order and layers per variant), the assets they show with URLs carrying their version, the
 * collections QR layers point at, and the account's local media server. A code is the credential: an unknown code,
 * or one of a group that is gone, is just unknown.
 *
 * Built from a fixed number of queries however large the group, and kept in memory per code until a write touches
 * a table it is made of: players poll every 60 s and most polls answer 304 from the cache.
 */

/** The tables a manifest is made of: a write to any of them may change one. */
const SOURCE_TABLES = [
  'assets',
  'collections',
  'carousels',
  'variants',
  'slides',
  'layers',
  'carousel_groups',
  'carousel_group_items',
  'group_schedules',
  'carousel_codes',
  'account_settings',
];
const SOURCE_WRITE_RE = writesTo(SOURCE_TABLES);

/** Hotspots may open carousels outside the group; followed this many steps deep. */
const HOTSPOT_DEPTH = 4;
const CACHE_MAX = 2000;

export interface Manifest {
  body: string;
  etag: string;
  accountId: string;
  codeId: string;
  /** The code's title as the statistics show it (its title, else the code), kept on each play event. */
  codeTitle: string;
  /** The body compressed, made once per cached manifest and encoding (see encodedBody). */
  encoded?: Partial<Record<ManifestEncoding, Promise<Buffer>>>;
}

export type ManifestEncoding = 'br' | 'gzip';
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
// Brotli's quality 1 is both smaller and faster here than gzip's default level (bench/README.md, "Player").
const ENCODERS: Record<ManifestEncoding, (body: string) => Promise<Buffer>> = {
  br: (body) => brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => gzip(body),
};

/**
 * The manifest's body compressed, once per cached manifest: a large group's manifest is about a megabyte of JSON, whose
 * compression (5 to 10 ms) would otherwise be paid by every player that fetches it after a change.
 */
export function encodedBody(m: Manifest, encoding: ManifestEncoding): Promise<Buffer> {
  m.encoded ??= {};
  return (m.encoded[encoding] ??= ENCODERS[encoding](m.body));
}

const pick = (row: Row, keys: string[]): Row => Object.fromEntries(keys.map((k) => [k, row[k] ?? null]));
const VARIANT_KEYS = [
  'v_id',
  'v_name',
  'v_title',
  'v_x',
  'v_y',
  'v_width',
  'v_height',
  'v_bgcolor',
  'v_autoplay',
  'v_default_duration_ms',
  'v_infinite',
  'v_screensaver_timeout_s',
  'v_navigation_enabled',
  ...NAV_BUTTONS.flatMap((b) => [`v_${b}_assetid`, `v_${b}_x`, `v_${b}_y`]),
];
const SLIDE_KEYS = ['sl_id', 'sl_name', 'sl_title', 'sl_subtitle', 'sl_order', 'sl_duration_ms', 'sl_bgcolor'];
const LAYER_KEYS = [
  'ly_id',
  'ly_title',
  'ly_type',
  'ly_assetid',
  'ly_x',
  'ly_y',
  'ly_width',
  'ly_height',
  'ly_iframe_url',
  'ly_collectionid',
  'ly_download_formid',
  'ly_form_styleid',
  'ly_qr_fg',
  'ly_qr_bg',
  'ly_hotspot_carouselid',
  'ly_muted',
  'ly_loop',
  'ly_autoplay',
  'ly_pausable',
];
const ASSET_KEYS = ['as_id', 'as_name', 'as_title', 'as_type', 'as_size', 'as_sha256', 'as_version', 'url', 'thumbnail_url', 'kind'];
/** Only the columns a manifest sends are read (see GraphColumns). */
const MANIFEST_COLUMNS = { carousels: ['c_id', 'c_name', 'c_title'], variants: VARIANT_KEYS, slides: SLIDE_KEYS, layers: [...LAYER_KEYS, 'ly_order'] };
const ASSET_COLUMNS = ASSET_KEYS.filter((k) => k.startsWith('as_'));

function carouselOut(g: CarouselGraph): Row {
  return {
    c_id: g.carousel.c_id,
    c_name: g.carousel.c_name,
    c_title: g.carousel.c_title,
    variants: g.variants.map((v) => pick(v, VARIANT_KEYS)),
    slides: g.slides.map((s) => ({
      ...pick(s, SLIDE_KEYS),
      layers: Object.fromEntries(Object.entries(s.layers).map(([variantId, list]) => [variantId, list.map((l) => pick(l, LAYER_KEYS))])),
    })),
  };
}

/**
 * The playable part of a manifest: the carousels in `order`, the standby carousel and every carousel a hotspot opens
 * (HOTSPOT_DEPTH steps deep), with the assets and collections they show. A fixed number of queries per step.
 */
export async function carouselsManifest(db: Knex, accountId: string, order: string[], standby: string | null, scheduled: string[] = []): Promise<Row> {
  const graphs = new Map<string, CarouselGraph>();
  let wanted = [...new Set([...order, ...scheduled, ...(standby ? [standby] : [])])];
  for (let depth = 0; depth <= HOTSPOT_DEPTH && wanted.length; depth++) {
    const fetched = await carouselGraphs(
      db,
      accountId,
      wanted.filter((id) => !graphs.has(id)),
      MANIFEST_COLUMNS,
    );
    for (const [id, g] of fetched) graphs.set(id, g);
    const next = new Set<string>();
    for (const g of fetched.values())
      for (const s of g.slides)
        for (const list of Object.values(s.layers))
          for (const l of list) if (l.ly_hotspot_carouselid && !graphs.has(String(l.ly_hotspot_carouselid))) next.add(String(l.ly_hotspot_carouselid));
    wanted = [...next];
  }
  const collectionIds: string[] = [];
  for (const g of graphs.values())
    for (const s of g.slides) for (const list of Object.values(s.layers)) for (const l of list) if (l.ly_collectionid) collectionIds.push(String(l.ly_collectionid));
  const [assetMap, collectionMap] = await Promise.all([assetsById(db, accountId, assetIdsOf(graphs.values()), ASSET_COLUMNS), collectionsById(db, accountId, collectionIds)]);
  return {
    carousel_ids: order.filter((id) => graphs.has(id)),
    standby_carouselid: standby && graphs.has(standby) ? standby : null,
    carousels: Object.fromEntries([...graphs].map(([id, g]) => [id, carouselOut(g)])),
    assets: Object.fromEntries([...assetMap].map(([id, a]) => [id, pick(a, ASSET_KEYS)])),
    collections: Object.fromEntries([...collectionMap].map(([id, c]) => [id, { co_id: c.co_id, co_title: c.co_title, url: `/c/${c.co_token}` }])),
  };
}

/** A code and its group, as a manifest names them (one indexed query). */
interface CodeRow {
  cc_id: string;
  cc_code: string;
  cc_title: string | null;
  cc_accountid: string;
  cg_id: string;
  cg_title: string;
  cg_standby_carouselid: string | null;
}

async function codeRow(db: Knex, code: string): Promise<CodeRow | undefined> {
  return db('carousel_codes')
    .join('carousel_groups', function () {
      this.on('carousel_groups.cg_id', '=', 'carousel_codes.cc_groupid').andOn('carousel_groups.cg_accountid', '=', 'carousel_codes.cc_accountid');
    })
    .where('carousel_codes.cc_code', code)
    .first(
      'carousel_codes.cc_id',
      'carousel_codes.cc_code',
      'carousel_codes.cc_title',
      'carousel_codes.cc_accountid',
      'carousel_groups.cg_id',
      'carousel_groups.cg_title',
      'carousel_groups.cg_standby_carouselid',
    );
}

/**
 * The part of a manifest every code of a group shares: the carousels in order and what they show, the time zone, the
 * schedules and the local media server (everything after `group`, in the manifest's key order).
 */
export async function groupManifest(db: Knex, found: Pick<CodeRow, 'cc_accountid' | 'cg_id' | 'cg_standby_carouselid'>): Promise<Row> {
  const accountId = String(found.cc_accountid);
  const [items, settings, schedules] = await Promise.all([
    db('carousel_group_items')
      .join('carousels', 'carousels.c_id', 'carousel_group_items.gi_carouselid')
      .where('carousel_group_items.gi_groupid', found.cg_id)
      .where('carousels.c_accountid', accountId)
      // A carousel in the trash is not played.
      .whereNull('carousels.c_deleted_at')
      .orderBy([{ column: 'gi_order' }, { column: 'gi_carouselid' }])
      .pluck('gi_carouselid'),
    db('account_settings').where('ls_accountid', accountId).first('ls_local_server_url', 'ls_timezone'),
    db('group_schedules')
      .join('carousels', 'carousels.c_id', 'group_schedules.gs_carouselid')
      .where('group_schedules.gs_groupid', found.cg_id)
      .where('group_schedules.gs_accountid', accountId)
      .whereNull('carousels.c_deleted_at')
      .orderBy([{ column: 'gs_order' }, { column: 'gs_id' }])
      .select('gs_carouselid', 'gs_days', 'gs_from', 'gs_to', 'gs_order'),
  ]);
  const order: string[] = items.map(String);
  const playable = await carouselsManifest(
    db,
    accountId,
    order,
    found.cg_standby_carouselid ? String(found.cg_standby_carouselid) : null,
    schedules.map((s: Row) => String(s.gs_carouselid)),
  );
  const graphs = playable.carousels as Record<string, unknown>;
  return {
    ...playable,
    // Dayparting (platform-and-flows.md 7): every window, open now or not, so a player offline keeps following the clock.
    timezone: settings?.ls_timezone ?? DEFAULT_TIMEZONE,
    schedules: schedules
      .filter((s: Row) => graphs[String(s.gs_carouselid)])
      .map((s: Row) => ({ carousel_id: String(s.gs_carouselid), days: daysOf(s.gs_days), from: s.gs_from, to: s.gs_to, order: s.gs_order })),
    local_server_url: settings?.ls_local_server_url ?? null,
  };
}

/** The code's own head of its manifest (what differs between the codes of one group). */
const codeHead = (found: CodeRow): Row => ({
  code: found.cc_code,
  code_title: found.cc_title,
  account_id: String(found.cc_accountid),
  group: { cg_id: found.cg_id, cg_title: found.cg_title },
});

/** The manifest of a code, built from the database (undefined: no such code). */
export async function buildManifest(db: Knex, code: string): Promise<(Omit<Manifest, 'etag' | 'body'> & { manifest: Row }) | undefined> {
  const found = await codeRow(db, code);
  if (!found) return undefined;
  const manifest: Row = { ...codeHead(found), ...(await groupManifest(db, found)) };
  return { manifest, accountId: String(found.cc_accountid), codeId: String(found.cc_id), codeTitle: String(found.cc_title || found.cc_code) };
}

export const DEFAULT_TIMEZONE = 'Europe/Amsterdam';

/** A text[] as the driver answers it: an array (node-postgres, PGlite) or, for an unknown array type, its literal. */
function daysOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string')
    return v
      .replace(/^\{|\}$/g, '')
      .split(',')
      .filter(Boolean);
  return [];
}

/** A build under way or done, for the writes epoch it started in. */
interface Flight<T> {
  epoch: number;
  promise: Promise<T>;
}

/** Per database handle: the cached manifests and the epoch of writes to their tables. */
interface Cache {
  epoch: number;
  entries: Map<string, Manifest & { epoch: number }>;
  /** Builds under way per code: a hundred players of one code asking at once (the start of a day) wait on one build. */
  building: Map<string, Flight<Manifest | undefined>>;
  /** The shared part per group (JSON), built once for all the group's codes while nothing it is made of was written. */
  groups: Map<string, Flight<string>>;
}

/**
 * The cache of a database handle. Emptied by this process's own writes to the manifest's tables (seen on knex's query
 * events) and by every other process's (PostgreSQL: statement triggers on those tables NOTIFY leadstage_manifest at
 * commit, heard on the session cache's listener connection). While that listener is down nothing is kept, so a
 * process that cannot hear the others never answers a stale manifest (requests that arrive while one build is under
 * way still share it, as if they had come a moment earlier).
 */
const cacheOf = perHandle((db): Cache & { hears: () => boolean } => {
  const sessions = sessionCacheFor(db);
  const created = { epoch: 0, entries: new Map(), building: new Map(), groups: new Map(), hears: () => sessions.hearsOthers };
  const invalidate = () => {
    created.epoch++;
    created.entries.clear();
    created.building.clear();
    created.groups.clear();
  };
  onWrite(db, (sql) => {
    if (SOURCE_WRITE_RE.test(sql)) invalidate();
  });
  sessions.subscribe(MANIFEST_CHANNEL, invalidate);
  return created;
});

/**
 * `make()` once per key and writes epoch: callers asking while it runs (or, when `keep`, after it ran and nothing was
 * written since) share its promise. A failed build is forgotten, so the next caller tries again.
 */
function shared<T>(map: Map<string, Flight<T>>, cache: Cache, key: string, make: () => Promise<T>, keep: (value: T) => boolean): Promise<T> {
  const flight = map.get(key);
  if (flight && flight.epoch === cache.epoch) return flight.promise;
  const epoch = cache.epoch;
  const promise = make();
  if (map.size >= CACHE_MAX) map.delete(map.keys().next().value!);
  map.set(key, { epoch, promise });
  const forget = () => {
    if (map.get(key)?.promise === promise) map.delete(key);
  };
  promise.then((value) => {
    if (!keep(value) || epoch !== cache.epoch) forget();
  }, forget);
  return promise;
}

/**
 * The manifest of a code as JSON with its strong ETag, from the cache while nothing it is made of was written. A cold
 * manifest costs one query for the code, and its group's part is built once for all the group's codes; concurrent
 * requests for one code wait on one build.
 */
export async function manifestFor(db: Knex, code: string): Promise<Manifest | undefined> {
  if (!CODE_RE.test(code)) return undefined;
  const cache = cacheOf(db);
  const hit = cache.entries.get(code);
  if (hit && hit.epoch === cache.epoch) return hit;
  return shared(
    cache.building,
    cache,
    code,
    () => buildCached(db, cache, code),
    () => false,
  );
}

/** At start, the manifests of the codes whose players reported this recently are built (warmManifests), at most WARM_MAX. */
const WARM_SEEN_MINUTES = 15;
const WARM_MAX = 200;

/**
 * Builds the manifests of the codes whose players reported in the last WARM_SEEN_MINUTES (the most recent first), one
 * after the other, so that after a restart (a deploy) the totems' next polls find them in memory instead of all
 * asking at once for builds that queue for the pool behind everything else starting at the same time (the event
 * day's start-of-day burst). Run by the server in the background once it listens; a group's part is built once for
 * all its codes. Waits up to 5 s for the listener first: a manifest built while this process cannot hear the others'
 * writes is not kept. Answers how many were built.
 */
export async function warmManifests(db: Knex): Promise<number> {
  const cache = cacheOf(db);
  for (let i = 0; i < 50 && !cache.hears(); i++) await new Promise((r) => setTimeout(r, 100));
  const codes = (await db('carousel_codes')
    .where('cc_last_seen_at', '>', db.raw(`now() - interval '${WARM_SEEN_MINUTES} minutes'`))
    .orderBy('cc_last_seen_at', 'desc')
    .limit(WARM_MAX)
    .pluck('cc_code')) as string[];
  let built = 0;
  for (const code of codes) if (await manifestFor(db, code)) built++;
  return built;
}

async function buildCached(db: Knex, cache: Cache & { hears: () => boolean }, code: string): Promise<Manifest | undefined> {
  const epoch = cache.epoch;
  const found = await codeRow(db, code);
  if (!found) return undefined;
  const groupJson = await shared(
    cache.groups,
    cache,
    String(found.cg_id),
    async () => JSON.stringify(await groupManifest(db, found)),
    () => cache.hears(),
  );
  // The code's head, then the group's part without its opening brace: the same text as JSON.stringify of the whole.
  const body = `${JSON.stringify(codeHead(found)).slice(0, -1)},${groupJson.slice(1)}`;
  const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  const entry = { body, etag, accountId: String(found.cc_accountid), codeId: String(found.cc_id), codeTitle: String(found.cc_title || found.cc_code), epoch };
  // Only a manifest built without a write in between is kept (a later request rebuilds it otherwise).
  if (epoch === cache.epoch && cache.hears()) {
    if (cache.entries.size >= CACHE_MAX) cache.entries.delete(cache.entries.keys().next().value!);
    cache.entries.set(code, entry);
  }
  return entry;
}

/** Most events one batch may carry, and how old an event may be (a player offline for a long weekend). */
export const PLAY_EVENTS_MAX = 500;
const MAX_AGE_MS = 30 * 86400_000;
const MAX_AHEAD_MS = 5 * 60_000;

const uuidOrNull = z
  .string()
  .refine(isUuid)
  .transform((v) => v.toLowerCase())
  .nullable()
  .optional();
export const playEventsSchema = z.object({
  events: z
    .array(
      z.object({
        id: z.string({ error: 'error_invalid_value' }).min(1).max(100),
        kind: z.enum(PLAY_EVENT_KINDS, { error: 'error_invalid_value' }),
        at: z.string({ error: 'error_date_invalid' }).refine((v) => !Number.isNaN(Date.parse(v)), { error: 'error_date_invalid' }),
        carousel_id: uuidOrNull,
        slide_id: uuidOrNull,
      }),
      { error: 'error_invalid_value' },
    )
    .min(1, { error: 'error_required' })
    .max(PLAY_EVENTS_MAX, { error: 'error_too_many' }),
});
export type PlayEventsInput = z.infer<typeof playEventsSchema>;

/**
 * Stores a batch of a player's events; an event already stored (same player id, a batch sent twice) counts once.
 * Times from a wrong clock (more than 5 minutes ahead, or older than 30 days) are stored as the time received.
 * Answers how many were new.
 */
export async function recordPlayEvents(db: Knex, m: Pick<Manifest, 'accountId' | 'codeId' | 'codeTitle'>, input: PlayEventsInput): Promise<number> {
  const now = Date.now();
  // The titles as they are now, kept on the rows: the statistics show them after the carousel or slide is gone.
  const carouselIds = [...new Set(input.events.map((e) => e.carousel_id).filter((id): id is string => !!id))];
  const slideIds = [...new Set(input.events.map((e) => e.slide_id).filter((id): id is string => !!id))];
  const [carouselTitles, slideTitles] = await Promise.all([
    carouselIds.length ? db('carousels').where('c_accountid', m.accountId).whereIn('c_id', carouselIds).select('c_id', 'c_title') : [],
    slideIds.length ? db('slides').where('sl_accountid', m.accountId).whereIn('sl_id', slideIds).select('sl_id', 'sl_title') : [],
  ]);
  const carouselTitle = new Map<string, string>(carouselTitles.map((r: Row) => [String(r.c_id), String(r.c_title)]));
  const slideTitle = new Map<string, string>(slideTitles.map((r: Row) => [String(r.sl_id), String(r.sl_title)]));
  const rows = input.events.map((e) => {
    const at = Date.parse(e.at);
    return {
      pe_accountid: m.accountId,
      pe_codeid: m.codeId,
      pe_carouselid: e.carousel_id ?? null,
      pe_slideid: e.slide_id ?? null,
      pe_kind: e.kind,
      pe_at: new Date(at > now + MAX_AHEAD_MS || at < now - MAX_AGE_MS ? now : at),
      pe_client_id: e.id,
      pe_carousel_title: (e.carousel_id && carouselTitle.get(e.carousel_id)) ?? null,
      pe_slide_title: (e.slide_id && slideTitle.get(e.slide_id)) ?? null,
      pe_code_title: m.codeTitle,
    };
  });
  const inserted = await db('play_events').insert(rows).onConflict(['pe_codeid', 'pe_client_id']).ignore().returning('pe_id');
  return inserted.length;
}

/** A screen dimension in pixels, as a player reports it. */
const screenPixels = z
  .number({ error: 'error_number_invalid' })
  .int({ error: 'error_number_invalid' })
  .min(0, { error: 'error_number_too_small' })
  .max(100_000, { error: 'error_number_too_large' })
  .nullable()
  .optional();

/** What a player reports about itself every 60 s (POST /play/{code}/status, platform-and-flows.md 7). */
export const playStatusSchema = z.object({
  version: z.string({ error: 'error_invalid_value' }).trim().max(100, { error: 'error_too_long' }).nullable().optional(),
  width: screenPixels,
  height: screenPixels,
  online_since: z
    .string({ error: 'error_date_invalid' })
    .refine((v) => !Number.isNaN(Date.parse(v)), { error: 'error_date_invalid' })
    .nullable()
    .optional(),
  last_error: z.string({ error: 'error_invalid_value' }).max(2000, { error: 'error_too_long' }).nullable().optional(),
});
export type PlayStatusInput = z.infer<typeof playStatusSchema>;

/**
 * Keeps a player's report on its code: seen now, its version, its screen ("1920×1080, online since …") and its last
 * error. The statement starts with a comment so that it is not a write of the manifest's tables (SOURCE_WRITE_RE):
 * a hundred screens reporting every minute must not empty the manifest cache (nothing of the manifest changes).
 */
export async function recordPlayStatus(db: Knex, m: Pick<Manifest, 'codeId'>, input: PlayStatusInput): Promise<void> {
  const screen = input.width && input.height ? `${input.width}×${input.height}` : null;
  const since = input.online_since ? new Date(Date.parse(input.online_since)).toISOString() : null;
  await db.raw(
    `/* player status: not a manifest source */ update carousel_codes set cc_last_seen_at = now(), cc_player_version = ?, cc_screen = ?, cc_last_error = ? where cc_id = ?`,
    [
      input.version || null,
      screen && since ? `${screen}, online since ${since}` : (screen ?? (since ? `online since ${since}` : null)),
      input.last_error?.trim() || null,
      m.codeId,
    ],
  );
}
