import type { Request, Router } from 'express';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { scoped } from '../models/scope.js';
import { isUuid } from '../../resources/fields.js';
import { isMailTemplateName, mailTemplates } from '../../resources/mailTemplates.js';
import { builtinTemplate, renderAccountTemplate, sampleVars, varsFor, withBuiltinBody, type MailTemplateSource } from '../mail/accountTemplates.js';
import { rejectNulBytes, validateFor } from '../crud/input.js';

const read = requirePermission(mailTemplates.group, 'read');
const update = requirePermission(mailTemplates.group, 'update');

async function storedTemplate(req: Request): Promise<MailTemplateSource> {
  const id = String(req.params.id);
  if (!isUuid(id)) throw notFound();
  const row = await scoped(ctx(req).db, mailTemplates, req.account!.a_id).where('mt_id', id).first();
  if (!row) throw notFound();
  return row;
}

/** The template filled with sample data, exactly as the mail of its name would be sent (subject, HTML, text). */
function preview(req: Request, template: MailTemplateSource) {
  const vars = varsFor(template.mt_name, sampleVars(ctx(req), req.account!, req.user!, template.mt_name));
  return renderAccountTemplate(withBuiltinBody(template), vars);
}

/**
 * mail-templates' own routes (account-console.md: mail-templates): a preview with sample data of a stored template or
 * of unsaved text (the editor), a test mail to the caller's own address, and the built-in template of a name (what
 * is sent while the account has none, a starting point for the editor).
 */
export function mailTemplatesRoutes(router: Router): void {
  router.post('/preview', read, (req, res) => {
    rejectNulBytes(req.body);
    const body = validateFor(mailTemplates, mailTemplates.update, req.body) as Partial<MailTemplateSource>;
    const { subject, html, text } = preview(req, { mt_subject: '', ...body });
    res.json({ subject, html, text });
  });

  router.get('/builtin/:name', read, (req, res) => {
    const name = String(req.params.name);
    if (!isMailTemplateName(name)) throw notFound('No built-in template of that name');
    res.json(builtinTemplate(name));
  });

  router.get('/:id/preview', read, async (req, res) => {
    const { subject, html, text } = preview(req, await storedTemplate(req));
    res.json({ subject, html, text });
  });

  router.post('/:id/test', update, async (req, res) => {
    const mail = preview(req, await storedTemplate(req));
    const to = req.user!.u_email;
    try {
      await ctx(req).mailer.sendMail({ to, subject: mail.subject, html: mail.html, text: mail.text, fromName: mail.fromName, replyTo: mail.replyTo, label: 'test' });
    } catch (err) {
      ctx(req).log(`mail: test mail to ${to} failed: ${(err as Error).message}`);
      throw new ApiError(502, 'mail_failed', 'The e-mail could not be sent');
    }
    res.json({ code: 'ok', to });
  });
}
