import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../errors.js';
import { scoped } from '../models/scope.js';
import { formGraph, type FormGraph } from '../models/graphs.js';
import { assetsById } from '../models/carousels.js';
import { serializeAsset } from '../models/assets.js';
import { leadFromAnswers } from './leads.js';
import { PUBLIC_STYLE_FIELDS, publicElement } from './registration.js';
import { consentTextFor, type ConsentLocale } from '../../resources/consent.js';
import { layers } from '../../resources/carousels.js';
import { isUuid } from '../../resources/checks.js';
import type { FormElementSpec } from '../../resources/answers.js';

type Row = Record<string, unknown>;

/**
 * A collection's public page /c/{co_token} (account-console.md: collections): its assets in order to view and to
 * download, behind a download form when the showing layer names one; the visitor's answers become a lead with source
 * `download`.
 *
 * Decisions where the contract is silent (README "Collections' public page"):
 * - The showing layer is `?l={layerId}`: a collectionqr layer of the same account pointing at this collection. Any
 *   other id (another collection's layer, another account's, not a QR layer, malformed) is ignored, as if none was
 *   given: the page then asks for no form.
 * - A lead needs an event (leads.ld_eventid is required, and every list, export and statistic of leads is by event).
 *   The event is the form style's (`st_eventid` of the layer's `ly_form_styleid`), else the one event that uses the
 *   download form (as its registration form or one of its booth forms) when exactly one does; with none the page says
 *   downloads are not available yet and the POST answers 409 download_has_no_event. Making ld_eventid nullable
 *   would have put an "event-less" lead into every lead screen, export and statistic for one door.
 * - A collection of a disabled account is not found.
 */

/** co_token: 16 random bytes as base64url (22 characters); older or hand-made tokens may be longer. */
export const COLLECTION_TOKEN_RE = /^[A-Za-z0-9_-]{16,64}$/;

/** Kinds a browser shows inline on the page; their view URL is given also while downloads are locked. */
const INLINE_KINDS = new Set(['image', 'video', 'audio']);

export interface PublicCollection {
  co_id: string;
  co_accountid: string;
  co_title: string;
}

export interface DownloadGate {
  layerId: string;
  form?: FormGraph;
  /** The form style's public fields and its custom CSS (served apart, as a stylesheet). */
  style: (Row & { st_custom_css?: string | null }) | null;
  /** The event the leads of this gate are filed under; undefined: none could be found. */
  event?: { ev_id: string; ev_title: string; ev_consent_text: string | null; ev_ownerid: string | null };
}

/** The collection behind a public token (undefined: unknown, malformed, or its account is disabled). */
export async function collectionByToken(db: Knex, token: string): Promise<PublicCollection | undefined> {
  if (!COLLECTION_TOKEN_RE.test(token)) return undefined;
  const row = await db('collections')
    .join('accounts', 'accounts.a_id', 'collections.co_accountid')
    .where('collections.co_token', token)
    .where('accounts.a_is_enabled', true)
    .first('collections.co_id', 'collections.co_accountid', 'collections.co_title');
  return row ? { co_id: String(row.co_id), co_accountid: String(row.co_accountid), co_title: String(row.co_title) } : undefined;
}

/** The collection's assets in order, as the API serializes them. */
export async function collectionAssets(db: Knex, c: PublicCollection): Promise<Row[]> {
  const rows: Row[] = await db('collection_assets')
    .join('assets', 'assets.as_id', 'collection_assets.ca_assetid')
    .where('collection_assets.ca_collectionid', c.co_id)
    .where('assets.as_accountid', c.co_accountid)
    // An asset in the trash is not shown.
    .whereNull('assets.as_deleted_at')
    .orderBy([{ column: 'collection_assets.ca_order' }, { column: 'assets.as_id' }])
    .select('assets.*');
  return rows.map(serializeAsset);
}

/**
 * The download gate of layer `layerId` on this collection: its form (with list trees), its form style and the event
 * its leads go to. Undefined when the id is no collectionqr layer of this collection (ignored) or names no form.
 */
export async function downloadGate(db: Knex, c: PublicCollection, layerId: unknown): Promise<DownloadGate | undefined> {
  if (typeof layerId !== 'string' || !isUuid(layerId)) return undefined;
  const styleColumns = [...PUBLIC_STYLE_FIELDS, 'st_custom_css'].map((f) => `s.${f}`).join(', ');
  const { rows } = await db.raw(
    `select l.ly_id, l.ly_download_formid,
            (select to_jsonb(x) from (select ${styleColumns} from form_styles s where s.st_accountid = l.ly_accountid and s.st_id = l.ly_form_styleid) x) as style,
            (select to_jsonb(e) from (
               select ev_id, ev_title, ev_consent_text, ev_ownerid from events
                where ev_accountid = l.ly_accountid and ev_deleted_at is null
                  and ev_id = coalesce(
                    (select st_eventid from form_styles where st_accountid = l.ly_accountid and st_id = l.ly_form_styleid),
                    (select case when count(*) = 1 then min(u.id::text)::uuid end from (
                       select ev_id as id from events where ev_accountid = l.ly_accountid and ev_registration_formid = l.ly_download_formid
                       union
                       select ef_eventid from event_forms where ef_accountid = l.ly_accountid and ef_formid = l.ly_download_formid) u))) e) as event
       from layers l
      where l.ly_id = ? and l.ly_accountid = ? and l.ly_collectionid = ? and l.ly_type = 'collectionqr'`,
    [layerId.toLowerCase(), c.co_accountid, c.co_id],
  );
  const row = rows[0] as { ly_id: string; ly_download_formid: string | null; style: DownloadGate['style']; event: DownloadGate['event'] | null } | undefined;
  if (!row?.ly_download_formid) return undefined;
  const form = await formGraph(db, c.co_accountid, String(row.ly_download_formid));
  if (!form) return undefined;
  return { layerId: String(row.ly_id), form, style: row.style ?? null, event: row.event ?? undefined };
}

/** The layer's form style's custom CSS ('' without any); undefined when the layer is not this collection's or has no style. */
export async function gateStyleCss(db: Knex, c: PublicCollection, layerId: unknown): Promise<string | undefined> {
  if (typeof layerId !== 'string' || !isUuid(layerId)) return undefined;
  const row = await scoped(db, layers, c.co_accountid)
    .join('form_styles', function () {
      this.on('form_styles.st_id', '=', 'layers.ly_form_styleid').andOn('form_styles.st_accountid', '=', 'layers.ly_accountid');
    })
    .where({ 'layers.ly_id': layerId.toLowerCase(), 'layers.ly_collectionid': c.co_id, 'layers.ly_type': 'collectionqr' })
    .first('form_styles.st_custom_css');
  return row ? String(row.st_custom_css ?? '') : undefined;
}

/** An asset as the public page gets it; while locked no download URL, and a view URL only for what shows inline. */
export function publicAsset(a: Row, locked: boolean): Row {
  const url = String(a.url);
  const inline = INLINE_KINDS.has(String(a.kind));
  return {
    as_id: a.as_id,
    as_title: a.as_title,
    as_type: a.as_type,
    kind: a.kind,
    as_size: a.as_size,
    as_version: a.as_version,
    url: locked && !inline ? null : url,
    thumbnail_url: a.thumbnail_url ?? null,
    download_url: locked ? null : `${url}${url.includes('?') ? '&' : '?'}download`,
  };
}

/** URLs of a form style's logos and fonts (asset id → URL), for a public page (registration, collection) to draw them. */
export async function styleAssetUrls(db: Knex, accountId: string, style: Row | null): Promise<Record<string, string>> {
  if (!style) return {};
  const ids = ['st_form_logo_assetid', 'st_thanks_logo_assetid', 'st_font_1', 'st_font_2', 'st_font_3'].map((f) => style[f]).filter((v): v is string => typeof v === 'string');
  if (!ids.length) return {};
  const found = await assetsById(db, accountId, ids);
  return Object.fromEntries([...found].map(([id, a]) => [id, String(a.url)]));
}

export const publicGateStyle = (style: Row | null): Row | null => (style ? Object.fromEntries(PUBLIC_STYLE_FIELDS.map((f) => [f, style[f] ?? null])) : null);

export const publicGateForm = (form: FormGraph) => ({
  f_id: form.form.f_id,
  f_title: form.form.f_title,
  elements: (form.elements as unknown as FormElementSpec[]).map(publicElement),
});

export const downloadHasNoEvent = () =>
  new ApiError(409, 'download_has_no_event', 'Downloads are not available yet: the event manager needs to link the download form to an event');

/**
 * Stores a download lead: a new lead for the event, or, when the same e-mail (any case) already left a download lead
 * for the event, that lead updated (its answers merged with the new ones, so answers to another collection's form
 * stay). Serialised per event and e-mail by a transaction-scoped advisory lock, so two sends at once make one lead.
 */
export async function storeDownloadLead(
  db: Knex,
  c: PublicCollection,
  event: NonNullable<DownloadGate['event']>,
  lead: ReturnType<typeof leadFromAnswers>,
  input: { consent_news: boolean; locale: ConsentLocale },
): Promise<{ ld_id: string; inserted: boolean }> {
  const consentText = consentTextFor(event, input.locale);
  const fields = {
    ld_first_name: lead.ld_first_name ?? null,
    ld_last_name: lead.ld_last_name ?? null,
    ld_consent_news: input.consent_news,
    ld_consent_text: consentText,
  };
  return db.transaction(async (trx) => {
    if (lead.ld_email) {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`download:${event.ev_id}:${lead.ld_email}`]);
      const updated = await trx('leads')
        .where({ ld_accountid: c.co_accountid, ld_eventid: event.ev_id, ld_source: 'download' })
        .whereNull('ld_deleted_at')
        .whereRaw('lower(ld_email) = ?', [lead.ld_email])
        .orderBy([{ column: 'ld_captured_at', order: 'desc' }, { column: 'ld_id' }])
        .first('ld_id');
      if (updated) {
        await trx('leads')
          .where('ld_id', updated.ld_id)
          .update({ ...fields, ld_answers: trx.raw('ld_answers || ?::jsonb', [JSON.stringify(lead.answers)]), ld_captured_at: trx.fn.now(), ld_updated_at: trx.fn.now() });
        return { ld_id: String(updated.ld_id), inserted: false };
      }
    }
    const owner = event.ev_ownerid ? await trx('account_users').where({ au_accountid: c.co_accountid, au_userid: event.ev_ownerid }).first('au_userid') : undefined;
    const [row] = await trx('leads')
      .insert({
        ld_accountid: c.co_accountid,
        ld_eventid: event.ev_id,
        ld_email: lead.ld_email ?? null,
        ...fields,
        ld_ownerid: owner?.au_userid ?? null,
        ld_answers: JSON.stringify(lead.answers),
        ld_source: 'download',
      })
      .returning('ld_id');
    return { ld_id: String(row.ld_id), inserted: true };
  });
}

/** The id a honeypot answer carries: a v4 id that is no lead's. */
export const decoyLeadId = () => crypto.randomUUID();
