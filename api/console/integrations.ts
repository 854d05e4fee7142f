import type { RequestHandler, Router } from 'express';
import { z } from 'zod';
import { ctx } from '../context.js';
import { notFound, validate } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped, accountOf } from '../models/scope.js';
import { badgeScan } from '../services/badgeScan.js';
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
});

/**
 * The integration's own routes (the rest is generic: https only by the declaration, the secret write-only as
 * in_secret_set): the private-address rule on create and update, and
 * POST /integrations/{id}/test {code[, event]}: a test scan against the provider (account_integrations update: the
 * caller can change what is being tested), answering {answers} or the scan's 502/504.
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
    const { code, event } = validate(testBody, req.body);
    const result = await badgeScan(
      integration,
      { event: event ?? null, code },
      { allowPrivate: config.integrationsAllowPrivate, timeoutMs: config.badgeScanTimeoutMs, ca: config.integrationsCa },
    );
    res.json(result);
  });
}
