import type { Router } from 'express';
import { ctx } from '../context.js';
import { notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { formGraph } from '../models/graphs.js';
import { cachedEventGraph } from '../services/graphCache.js';
import { isUuid } from '../../resources/fields.js';
import { accountOf } from '../models/scope.js';

/** GET /forms/{id}/graph: the form, its elements in order and their list trees (the designer preview, the renderer). */
export function formGraphRoute(router: Router): void {
  router.get('/:id/graph', requirePermission('account_forms', 'read'), requirePermission('account_form_elements', 'read'), async (req, res) => {
    const id = String(req.params.id);
    const graph = isUuid(id) ? await formGraph(ctx(req).db, accountOf(req), id.toLowerCase()) : undefined;
    if (!graph) throw notFound();
    res.json(graph);
  });
}

/** GET /events/{id}/graph: the event with its forms in order and its registration form, each as a form graph. */
export function eventGraphRoute(router: Router): void {
  router.get('/:id/graph', requirePermission('account_events', 'read'), requirePermission('account_event_forms', 'read'), async (req, res) => {
    const id = String(req.params.id);
    const graph = isUuid(id) ? await cachedEventGraph(ctx(req).db, accountOf(req), id.toLowerCase()) : undefined;
    if (!graph) throw notFound();
    res.json(graph);
  });
}
