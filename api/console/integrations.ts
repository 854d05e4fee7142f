import type { RequestHandler, Router } from 'express';
import { z } from 'zod';
import { ctx } from '../context.js';
import { ApiError, notFound, validate } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped, accountOf } from '../models/scope.js';
import { badgeScan, signedScanRequest } from '../services/badgeScan.js';
import { checkUrlHost } from '../services/privateAddress.js';
import { isUuid } from '../../resources/fields.js';
import { integrations } from '../../resources/integrations.js';
import { invalid, rejectNulBytes } from '../crud/input.js';

/**
 * Before a create or update reaches the generic handler: an in_api_url on a private, loopback, link-local or
 * unique-local address (a literal one, localhost, or a name resolving to one) answers 400 with in_api_url:
 * error_url_private, unless INTEGRATIONS_ALLOW_PRIVATE. A name that does not resolve (yet) is accepted: the scan
 * checks again, on the address it connects to. Runs outside the write's transaction: resolving a name can take a
 * while, and PGlite has one connection.
 */
const refusePrivateUrl: RequestHandler = async (req, _res, next) => {
  const url = (req.body as Record<string, unknown> | undefined)?.in_api_url;
  if (typeof url !== 'string' || !/^https:\/\//i.test(url.trim()) || ctx(req).config.integrationsAllowPrivate) return next();
  if ((await checkUrlHost(url.trim())) === 'private') return next(invalid(integrations, { in_api_url: 'error_url_private' }));
  next();
};

export const testBody = z.object({
  code: z.string({ error: 'error_required' }).trim().min(1, { error: 'error_required' }).max(200, { error: 'error_too_long' }),
  event: z.string({ error: 'error_invalid_value' }).trim().max(200, { error: 'error_too_long' }).nullish(),
  /** Also answer the request the server sent (for "Copy as cURL"; needs app_general export_curl). */
  show_request: z.boolean({ error: 'error_invalid_value' }).optional(),
});

/** A key shown in a copied request: its last four characters at most, so it can be recognised, never used. */
export const maskKey = (key: string) => (key.length > 8 ? `…${key.slice(-4)}` : '…');

/** The scan request as sent (signature included), the key masked: what "Copy as cURL" of a test scan shows. */
export function shownScanRequest(integration: { in_api_url: string; in_key?: string | null; in_secret?: string | null }, event: string | null, code: string) {
  const { body, headers } = signedScanRequest(integration, event, code);
  const shown = Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => name !== 'Content-Length' && name !== 'User-Agent')
      .map(([name, value]) => [name, name === 'X-Api-Key' ? maskKey(value) : value]),
  );
  return { method: 'POST', url: integration.in_api_url, headers: shown, body };
}

/**
 * The integration's own routes (the rest is generic: https only by the declaration, the secret write-only as
 * in_secret_set): the private-address rule on create and update, and
 * POST /integrations/{id}/test {code[, event, show_request]}: a test scan against the provider (account_integrations
 * update: the caller can change what is being tested), answering {answers} or the scan's 502/504; with show_request
 * and app_general export_curl, also `request` {method, url, headers, body}: what was sent, signature included, the
 * key masked.
 */
export function integrationsRoutes(router: Router): void {
  const group = integrations.group;
  router.post('/', requirePermission(group, 'create'), refusePrivateUrl);
  router.put('/:id', requirePermission(group, 'update'), refusePrivateUrl);

  router.post('/:id/test', requirePermission(group, 'update'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound();
    rejectNulBytes(req.body);
    const { db, config } = ctx(req);
    const integration = await scoped(db, integrations, accountOf(req)).where('in_id', id).first('in_api_url', 'in_key', 'in_secret');
    if (!integration) throw notFound();
    const { code, event, show_request } = validate(testBody, req.body);
    const request =
      show_request && (await ctx(req).permissions.can(req.accountRole, 'app_general', 'export_curl')) ? shownScanRequest(integration, event ?? null, code) : undefined;
    try {
      const result = await badgeScan(
        integration,
        { event: event ?? null, code },
        { allowPrivate: config.integrationsAllowPrivate, timeoutMs: config.badgeScanTimeoutMs, ca: config.integrationsCa },
      );
      res.json(request ? { ...result, request } : result);
    } catch (err) {
      if (request && err instanceof ApiError) err.details = { ...((err.details as object | undefined) ?? {}), request };
      throw err;
    }
  });
}
