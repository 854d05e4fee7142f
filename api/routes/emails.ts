import { Router } from 'express';
import { ctx } from '../context.js';
import { notFound } from '../errors.js';
import { requirePermission, requireUser } from '../middleware/auth.js';
import { isUuid } from '../../resources/fields.js';
import { isTemplate, renderTemplate } from '../mail/templates.js';
import { mailVars } from '../mail/mailer.js';
import { resetLink, verifyLink } from '../services/users.js';

/** GET /emails/preview/{template}/{userId}: the e-mail as it would be sent to that user (with a dummy token). */
export function emailsRouter(): Router {
  const router = Router();
  router.get('/preview/:template/:userId', requireUser, requirePermission('entry_users', 'read'), async (req, res) => {
    const app = ctx(req);
    const template = String(req.params.template);
    const userId = String(req.params.userId);
    if (!isTemplate(template)) throw notFound('Unknown e-mail template');
    if (!isUuid(userId)) throw notFound('User not found');
    const user = await app.db('users').where('u_id', userId).first('u_email', 'u_first_name');
    if (!user) throw notFound('User not found');
    const link = template === 'signup' ? verifyLink(app, 'preview-token') : resetLink(app, 'preview-token');
    const mail = renderTemplate(template, { ...mailVars(app.config), first_name: user.u_first_name || user.u_email, email: user.u_email, link });
    res.json({ code: 'ok', template, subject: mail.subject, html: mail.html, text: mail.text });
  });
  return router;
}
