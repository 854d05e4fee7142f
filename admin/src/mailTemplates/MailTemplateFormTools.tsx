import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import RestoreIcon from '@mui/icons-material/SettingsBackupRestore';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { isMailTemplateName } from '../../../resources/mailTemplates';
import { accountPath } from '../providers/accountPath';
import { api, ApiRequestError } from '../providers/http';
import { errorText } from '../i18n';
import { MailTemplateTools, SendTestMailButton, type MailTemplateValues } from './MailTemplateTools';

const FIELDS = ['mt_name', 'mt_subject', 'mt_html', 'mt_text', 'mt_from_name', 'mt_from_email', 'mt_api_url', 'mt_asset_url'] as const;

/**
 * For a template named like a mail the product sends (invite, handoff, registration): fill subject, HTML and text with
 * the built-in template (GET …/mail-templates/builtin/{name}); asks first when they already hold something.
 */
function StartFromBuiltin({ accountId, name, disabled }: { accountId: string; name: string; disabled?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { getValues, setValue } = useFormContext();
  const [asking, setAsking] = useState(false);
  async function fill() {
    setAsking(false);
    try {
      const t = await api<{ mt_subject: string; mt_html: string; mt_text: string }>(accountPath(accountId, 'mail-templates', 'builtin', name));
      for (const f of ['mt_subject', 'mt_html', 'mt_text'] as const) setValue(f, t[f], { shouldDirty: true, shouldValidate: true });
    } catch (e) {
      notify(e instanceof ApiRequestError ? errorText(e.body) : translate('error_network'), { type: 'error' });
    }
  }
  const hasContent = () => ['mt_subject', 'mt_html', 'mt_text'].some((f) => String(getValues(f) ?? '').trim() !== '');
  return (
    <>
      <Button variant="outlined" startIcon={<RestoreIcon />} disabled={disabled} onClick={() => (hasContent() ? setAsking(true) : void fill())} data-testid="mt-builtin">
        {translate('ls.mail_templates.builtin')}
      </Button>
      <Confirm
        isOpen={asking}
        title={translate('ls.console.mail_templates.builtin_title')}
        content={translate('ls.console.mail_templates.builtin_text', { name })}
        onConfirm={() => void fill()}
        onClose={() => setAsking(false)}
      />
    </>
  );
}

/**
 * Inside the mail template form, below its fields: the built-in template to start from (for invite, handoff and
 * registration), the live preview of what is typed, the variables of the template's name and, for a saved template,
 * the test mail to the caller.
 */
export function MailTemplateFormTools({ accountId, templateId, canEdit }: { accountId: string; templateId?: string; canEdit: boolean }) {
  const watched = useWatch({ name: [...FIELDS] }) as unknown[];
  const values = Object.fromEntries(FIELDS.map((f, i) => [f, watched[i] ?? null])) as MailTemplateValues;
  return (
    <Box sx={{ width: '100%', minWidth: 0 }} data-testid="mt-tools">
      <Divider sx={{ mt: 1, mb: 2, display: { lg: 'none' } }} />
      {canEdit && (isMailTemplateName(values.mt_name) || templateId) && (
        <Box sx={{ mb: 3, display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {isMailTemplateName(values.mt_name) && <StartFromBuiltin accountId={accountId} name={values.mt_name} />}
          {templateId && <SendTestMailButton accountId={accountId} templateId={templateId} />}
        </Box>
      )}
      <MailTemplateTools accountId={accountId} values={values} />
    </Box>
  );
}
