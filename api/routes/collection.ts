import { Router, type Request, type Response } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { leadFromAnswers } from '../services/leads.js';
import {
  collectionAssets,
  collectionByToken,
  decoyLeadId,
  downloadGate,
  downloadHasNoEvent,
  gateStyleCss,
  publicAsset,
  publicGateForm,
  publicGateStyle,
  storeDownloadLead,
  styleAssetUrls,
  type PublicCollection,
} from '../services/collectionPage.js';
import { createDownloadToken, DOWNLOAD_COOKIE, DOWNLOAD_TOKEN_TTL_MS, isValidDownloadToken } from '../services/downloadTokens.js';
import { consentTextFor, type ConsentLocale } from '../../resources/consent.js';
import { rejectNulBytes } from '../crud/input.js';

/** The page's language for the built-in opt-in text: `lang` (query or body) when en or nl, else the browser's. */
function localeOf(req: Request, asked: unknown): ConsentLocale {
  if (asked === 'en' || asked === 'nl') return asked;
  return req.acceptsLanguages('en', 'nl') === 'nl' ? 'nl' : 'en';
}

async function collectionOf(req: Request): Promise<PublicCollection> {
  const found = await collectionByToken(ctx(req).db, String(req.params.token));
  if (!found) throw notFound('Collection not found');
  return found;
}

const apiPath = (req: Request) => `/api/1/c/${encodeURIComponent(String(req.params.token))}`;

/** The visitor's download token: the cookie of this collection's path, or the X-Download-Token header. */
function hasDownloadToken(req: Request, c: PublicCollection): boolean {
  const secret = ctx(req).config.sessionSecret;
  const given = [req.cookies?.[DOWNLOAD_COOKIE], req.headers['x-download-token']];
  return given.some((token) => isValidDownloadToken(secret, c.co_id, token));
}

/**
 * The public collection API (account-console.md: collections' public page /c/{co_token}; no sign-in):
 *
 * - `GET /c/{token}[?l={layerId}&lang=]` → `{collection, assets, locked, form, can_submit, style, style_assets,
 *   stylesheet, consent_text, event}`: the assets in order (view URL, thumbnail, download URL with `?download`);
 *   when the layer names a download form and this visitor holds no download token, `locked` is true, the download
 *   URLs are null (and the view URL of what does not show inline), and `form` is the form to send first.
 * - `GET /c/{token}/style.css?l=`: the layer's form style's custom CSS, only as a stylesheet.
 * - `POST /c/{token}/leads` `{l, answers, consent_news, website, lang}` → 201 `{id, ld_id, download_token, expires_at}`
 *   and the download cookie (httpOnly, this collection's path, one hour). In this order: 404 unknown collection, 429
 *   over the address's budget, 400 when `l` names no download form of this collection, 409 download_has_no_event,
 *   400 lead_incomplete, then the honeypot (a 201 like a success that stores nothing).
 */
export function collectionRouter(): Router {
  const router = Router();

  router.get('/:token/style.css', async (req, res) => {
    const c = await collectionOf(req);
    const css = await gateStyleCss(ctx(req).db, c, req.query.l);
    if (css === undefined) throw notFound('This link has no form style');
    res.setHeader('Content-Type', 'text/css; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(css);
  });

  router.get('/:token', async (req, res) => {
    const { db } = ctx(req);
    const c = await collectionOf(req);
    const [assets, gate] = await Promise.all([collectionAssets(db, c), downloadGate(db, c, req.query.l)]);
    const locked = Boolean(gate) && !hasDownloadToken(req, c);
    const style = gate?.style ?? null;
    res.json({
      collection: { co_title: c.co_title },
      assets: assets.map((a) => publicAsset(a, locked)),
      locked,
      form: gate?.form && locked ? publicGateForm(gate.form) : null,
      // false: the form has no event to file its leads under, so nothing can be sent (the page says so)
      can_submit: locked ? Boolean(gate?.event) : true,
      style: publicGateStyle(style),
      style_assets: await styleAssetUrls(db, c.co_accountid, style),
      stylesheet: style ? `${apiPath(req)}/style.css?l=${gate!.layerId}` : null,
      consent_text: consentTextFor(gate?.event, localeOf(req, req.query.lang)),
      event: gate?.event ? { ev_title: gate.event.ev_title, ev_consent_text: gate.event.ev_consent_text?.trim() ? gate.event.ev_consent_text : null } : null,
    });
  });

  router.post('/:token/leads', async (req: Request, res: Response) => {
    const app = ctx(req);
    const c = await collectionOf(req);
    const hit = await app.limiter.hit(`download:${c.co_id}:${req.ip}`, app.config.registrationLimit.windowSeconds);
    if (hit.points > app.config.registrationLimit.perIp) {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000))));
      throw new ApiError(429, 'too_many_attempts', 'Too many attempts, please wait a few minutes and try again');
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const gate = await downloadGate(app.db, c, body.l);
    if (!gate?.form) throw new ApiError(400, 'validation_failed', 'This link asks for no download form', { l: 'error_reference_invalid' });
    if (!gate.event) throw downloadHasNoEvent();
    rejectNulBytes(body);
    const lead = leadFromAnswers(publicGateForm(gate.form).elements, body.answers);

    const honeypot = body.website !== undefined && body.website !== null && body.website !== '' && body.website !== false;
    // A robot that filled the hidden field gets the same answer as a person (the downloads are public files anyway,
    // reachable from the page without ?l=), and nothing is stored.
    const id = honeypot
      ? decoyLeadId()
      : (await storeDownloadLead(app.db, c, gate.event, lead, { consent_news: body.consent_news === true, locale: localeOf(req, body.lang) })).ld_id;
    const { token, expiresAt } = createDownloadToken(app.config.sessionSecret, c.co_id);
    res.cookie(DOWNLOAD_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: app.config.secureCookies, path: apiPath(req), maxAge: DOWNLOAD_TOKEN_TTL_MS });
    res.status(201).json({ id, ld_id: id, download_token: token, expires_at: expiresAt.toISOString() });
  });

  return router;
}
