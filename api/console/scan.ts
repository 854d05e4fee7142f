import type { Router } from 'express';
import { z } from 'zod';
import { ctx } from '../context.js';
import { ApiError, notFound, validate } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped, accountOf } from '../models/scope.js';
import { cachedEventGraph } from '../services/graphCache.js';
import { badgeScan, type BadgeAnswers } from '../services/badgeScan.js';
import { elementsOf, OWN_FIELDS } from '../services/leads.js';
import { isUuid } from '../../resources/fields.js';
import { eventIntegrations } from '../../resources/eventIntegrations.js';
import { rejectNulBytes } from '../crud/input.js';

export const scanBody = z.object({
  code: z.string({ error: 'error_required' }).trim().min(1, { error: 'error_required' }).max(200, { error: 'error_too_long' }),
});

/**
 * POST /events/{id}/scan {code} (app_general get_data; account-console.md: Badge scan): the event's badge-scan
 * integration (the first linked, when there are several) is asked for the person behind the code with the signed
 * call of api/services/badgeScan.ts; the answer is {answers: {<data name>: value}} with only the data names the
 * event's forms have, plus email, first_name and last_name (the lead's own fields). No integration → 409
 * event_has_no_integration; no answer in time → 504 badge_scan_timeout; a provider that fails → 502 badge_scan_failed.
 */
export function eventScanRoute(router: Router): void {
  router.post('/:id/scan', requirePermission('app_general', 'get_data'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound();
    rejectNulBytes(req.body);
    const { db, config } = ctx(req);
    const accountId = accountOf(req);
    const graph = await cachedEventGraph(db, accountId, id.toLowerCase());
    if (!graph) throw notFound();
    const { code } = validate(scanBody, req.body);
    const integration = await scoped(db, eventIntegrations, accountId)
      .join('integrations', 'integrations.in_id', 'event_integrations.ei_integrationid')
      .where('event_integrations.ei_eventid', graph.event.ev_id as string)
      .where('integrations.in_type', 'badge_scan')
      .orderBy([{ column: 'event_integrations.ei_created_at' }, { column: 'event_integrations.ei_id' }])
      .first('integrations.in_api_url', 'integrations.in_key', 'integrations.in_secret', 'event_integrations.ei_external_event_id');
    if (!integration) throw new ApiError(409, 'event_has_no_integration', 'This event has no badge-scan integration');
    const { answers } = await badgeScan(
      integration,
      { event: integration.ei_external_event_id ?? null, code },
      { allowPrivate: config.integrationsAllowPrivate, timeoutMs: config.badgeScanTimeoutMs, ca: config.integrationsCa },
    );
    const names = new Set([...elementsOf(graph.forms).map((e) => e.fe_name), ...Object.keys(OWN_FIELDS)]);
    const kept: BadgeAnswers = {};
    for (const [name, value] of Object.entries(answers)) if (names.has(name)) kept[name] = value;
    res.json({ answers: kept });
  });
}
