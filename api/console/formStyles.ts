import type { Router } from 'express';
import { ctx } from '../context.js';
import { notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped, accountOf } from '../models/scope.js';
import { isUuid } from '../../resources/fields.js';
import { formStyles } from '../../resources/formStyles.js';

/**
 * GET /form-styles/{id}/style.css: the style's custom CSS as a stylesheet and nothing else (account-console.md:
 * "only ever served as a stylesheet of the public page"). The body is the stored text, byte for byte; nosniff makes
 * browsers refuse it as anything but CSS, so a `</style><script>` in it stays CSS text that no parser runs.
 */
export function formStylesRoutes(router: Router): void {
  router.get('/:id/style.css', requirePermission(formStyles.group, 'read'), async (req, res) => {
    const id = String(req.params.id);
    const row = isUuid(id) ? await scoped(ctx(req).db, formStyles, accountOf(req)).where('st_id', id.toLowerCase()).first('st_custom_css') : undefined;
    if (!row) throw notFound();
    res.setHeader('Content-Type', 'text/css; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    res.send(String(row.st_custom_css ?? ''));
  });
}
