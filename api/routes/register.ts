import crypto from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { ctx } from '../context.js';
import { styleAssetUrls } from '../services/collectionPage.js';
import { ApiError, notFound } from '../errors.js';
import { leadFromAnswers } from '../services/leads.js';
import {
  accessCodeInvalid,
  accessCodeMatches,
  eventClosed,
  eventStyleCss,
  eventHasNoForm,
  loadRegistration,
  publicElement,
  publicEvent,
  publicStyle,
  registrationState,
  sendConfirmation,
  upsertRegistration,
  type LoadedRegistration,
} from '../services/registration.js';
import { consentTextFor, type ConsentLocale } from '../../resources/consent.js';
import { isUuid } from '../../resources/checks.js';

/** The page's language for the built-in opt-in text: `lang` (query or body) when en or nl, else the browser's. */
function localeOf(req: Request, asked: unknown): ConsentLocale {
  if (asked === 'en' || asked === 'nl') return asked;
  return req.acceptsLanguages('en', 'nl') === 'nl' ? 'nl' : 'en';
}

const eventIdOf = (req: Request): string | undefined => {
  const id = String(req.params.eventId);
  return isUuid(id) ? id.toLowerCase() : undefined;
};

async function loaded(req: Request): Promise<LoadedRegistration> {
  const id = eventIdOf(req);
  const found = id ? await loadRegistration(ctx(req).db, id) : undefined;
  if (!found) throw notFound('Event not found');
  return found;
}

/**
 * A per-address budget per event in the rate_limits table (shared by every process): `register` counts registrations
 * (counted in the statement that loads the event), `code` the page's access-code checks.
 */
const limitKey = (req: Request, kind: 'register' | 'code', eventId: string) => `${kind}:${eventId}:${req.ip}`;

/** Above the budget: 429 too_many_attempts with Retry-After. */
function overBudget(req: Request, res: Response, hit: { points: number; resetAt: Date }): void {
  if (hit.points > ctx(req).config.registrationLimit.perIp) {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil((hit.resetAt.getTime() - Date.now()) / 1000))));
    throw new ApiError(429, 'too_many_attempts', 'Too many attempts, please wait a few minutes and try again');
  }
}

async function limit(req: Request, res: Response, kind: 'register' | 'code', eventId: string): Promise<void> {
  const app = ctx(req);
  overBudget(req, res, await app.limiter.hit(limitKey(req, kind, eventId), app.config.registrationLimit.windowSeconds));
}

/**
 * The public registration API (account-console.md section 4):
 *
 * - `GET /register/{eventId}[?access_code=&lang=]` → `{state, event, form, style, style_assets, consent_text}`. The form (elements
 *   with their list trees) only when the state is open, or restricted with the right `access_code` (a wrong one: 403
 *   access_code_invalid, and it counts against the address's budget of code checks).
 * - `GET /register/{eventId}/style.css`: the event's form style's custom CSS as a stylesheet (never inlined).
 * - `POST /register/{eventId}` `{answers, consent_news, access_code, website, lang}` → 201 `{id, ld_id}`, also when the
 *   e-mail was registered before (that lead is updated): the answer never tells whether an address had registered.
 *   A filled honeypot (`website`) answers the same 201 with an id that is no lead's, and stores and sends nothing.
 */
export function registerRouter(): Router {
  const router = Router();

  router.get('/:eventId/style.css', async (req, res) => {
    const id = String(req.params.eventId);
    const css = isUuid(id) ? await eventStyleCss(ctx(req).db, id.toLowerCase()) : undefined;
    if (css === undefined) throw notFound('Event not found');
    if (css === null) throw notFound('This event has no form style');
    res.setHeader('Content-Type', 'text/css; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(css);
  });

  router.get('/:eventId', async (req, res) => {
    const { event, style, form: graph } = await loaded(req);
    const state = registrationState(event, graph?.elements.length);
    let showForm = state === 'open';
    const code = req.query.access_code;
    if (state === 'restricted' && typeof code === 'string' && code !== '') {
      await limit(req, res, 'code', event.ev_id);
      if (!accessCodeMatches(event, code)) throw accessCodeInvalid();
      showForm = true;
    }
    res.json({
      state,
      event: publicEvent(event),
      form: showForm && graph ? { f_id: graph.form.f_id, f_title: graph.form.f_title, elements: graph.elements.map(publicElement) } : null,
      style: publicStyle(style),
      // the style's logos and fonts (asset id → URL); a second query only when the style names any
      style_assets: await styleAssetUrls(ctx(req).db, event.ev_accountid, style),
      consent_text: consentTextFor(event, localeOf(req, req.query.lang)),
    });
  });

  router.post('/:eventId', async (req, res) => {
    const app = ctx(req);
    const id = eventIdOf(req);
    const registration = id ? await loadRegistration(app.db, id, { key: limitKey(req, 'register', id), windowSeconds: app.config.registrationLimit.windowSeconds }) : undefined;
    if (!registration) throw notFound('Event not found');
    overBudget(req, res, registration.hit);
    const { event, form: graph } = registration;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const state = registrationState(event, graph?.elements.length);
    if (state === 'closed') throw eventClosed();
    if (state === 'no_form') throw eventHasNoForm();
    if (state === 'restricted' && !accessCodeMatches(event, body.access_code)) throw accessCodeInvalid();
    const lead = leadFromAnswers(graph!.elements, body.answers);

    const honeypot = body.website !== undefined && body.website !== null && body.website !== '' && body.website !== false;
    if (honeypot) {
      // A robot filled the field people never see: the same answer as a success, nothing stored, no mail sent.
      const id = crypto.randomUUID();
      res.status(201).json({ id, ld_id: id });
      return;
    }

    const stored = await upsertRegistration(app.db, event, lead, { consent_news: body.consent_news === true, locale: localeOf(req, body.lang) });
    if (lead.ld_email) await sendConfirmation(app, registration, lead.ld_email, { ld_id: stored.ld_id, ld_first_name: lead.ld_first_name, ld_last_name: lead.ld_last_name });
    res.status(201).json({ id: stored.ld_id, ld_id: stored.ld_id });
  });

  return router;
}
