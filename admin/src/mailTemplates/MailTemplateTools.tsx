import { useEffect, useState } from 'react';
import type { MailTemplateSource } from '../../../resources/mailTemplates';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import { useNotify, useTranslate } from 'react-admin';
import { accountPath } from '../providers/accountPath';
import { api, ApiRequestError } from '../providers/http';
import { errorText } from '../i18n';
import { mailTemplateVariables } from '../../../resources/mailTemplates';
import { IDENTIFIER_RE, URL_RE } from '../../../resources/define';

/** What a mail template editor holds: the fields a mail is made of, any of them still empty while typing. */
export type MailTemplateValues = Partial<Omit<MailTemplateSource, 'mt_subject'>> & { mt_subject?: string | null };

interface Preview {
  subject: string;
  html: string;
  text: string;
}

/** Typing settles this long before the preview is asked again. */
export const PREVIEW_DELAY_MS = 400;

/**
 * What the preview is asked with: a name or address still being typed (not valid yet), or a subject not typed yet, is
 * left out, so the preview keeps working (with the common variables) instead of failing on the half-typed field.
 */
export function previewBody(values: MailTemplateValues) {
  const valid = (v: string | null | undefined, re: RegExp) => (v && re.test(v) ? v : undefined);
  return {
    mt_name: valid(values.mt_name, IDENTIFIER_RE),
    // An empty subject is a subject not typed yet (the preview leaves it empty), not one being cleared.
    mt_subject: values.mt_subject?.trim() ? values.mt_subject : undefined,
    mt_html: values.mt_html ?? '',
    mt_text: values.mt_text ?? '',
    mt_api_url: valid(values.mt_api_url, URL_RE),
    mt_asset_url: valid(values.mt_asset_url, URL_RE),
  };
}

/** The variables the mail of this name fills in (resources/mailTemplates.ts), each with what it holds. */
export function MailTemplateVariables({ name }: { name?: string | null }) {
  const translate = useTranslate();
  return (
    <Box component="section" aria-labelledby="mt-variables-title">
      <Typography id="mt-variables-title" variant="subtitle2" component="h2">
        {translate('ls.mail_templates.variables_title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('ls.mail_templates.variables_help')}
      </Typography>
      <Box component="dl" data-testid="mt-variables" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 2, rowGap: 0.5 }}>
        {mailTemplateVariables(name ?? '').map((v) => (
          <Box key={v} sx={{ display: 'contents' }}>
            <Box component="dt" sx={{ fontFamily: 'monospace', fontSize: '0.85rem', overflowWrap: 'anywhere' }}>{`{{${v}}}`}</Box>
            <Box component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0 }, fontSize: '0.875rem', color: 'text.secondary' }}>
              {translate(`ls.mail_templates.variables.${v}`)}
            </Box>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/**
 * The template as it would be sent, with sample data: POST …/mail-templates/preview with the editor's current (unsaved)
 * values, asked again a moment after typing stops. The HTML renders in a sandboxed frame (no scripts, no same-origin).
 */
export function MailTemplatePreview({ accountId, values }: { accountId: string; values: MailTemplateValues }) {
  const translate = useTranslate();
  const [preview, setPreview] = useState<Preview | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [tab, setTab] = useState<'html' | 'text'>('html');
  const key = JSON.stringify([values.mt_name, values.mt_subject, values.mt_html, values.mt_text, values.mt_api_url, values.mt_asset_url]);
  // A new template with nothing typed yet has nothing to show.
  const blank = ![values.mt_subject, values.mt_html, values.mt_text].some((v) => v?.trim());

  useEffect(() => {
    if (blank) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api<Preview>(accountPath(accountId, 'mail-templates', 'preview'), { method: 'POST', body: previewBody(values), signal: controller.signal }).then(
        (p) => {
          setPreview(p);
          setFailure(undefined);
        },
        (e) => {
          if (controller.signal.aborted) return;
          setFailure(e instanceof ApiRequestError ? errorText(e.body) : translate('error_network'));
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [accountId, key]);

  return (
    <Box component="section" aria-labelledby="mt-preview-title" data-testid="mt-preview">
      <Typography id="mt-preview-title" variant="subtitle2" component="h2">
        {translate('ls.mail_templates.preview_sample')}
      </Typography>
      {blank && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="mt-preview-blank">
          {translate('ls.mail_templates.preview_blank')}
        </Typography>
      )}
      {failure && !blank && (
        <Alert severity="error" sx={{ my: 1 }}>
          {failure}
        </Alert>
      )}
      {preview && !blank && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('ls.emails.subject')}
          </Typography>
          <Typography variant="body1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="mt-preview-subject">
            {preview.subject}
          </Typography>
          <Tabs value={tab} onChange={(_, v) => setTab(v)} aria-label={translate('ls.mail_templates.preview')} sx={{ minHeight: 36 }}>
            <Tab value="html" label="HTML" sx={{ minHeight: 36 }} />
            <Tab value="text" label={translate('resources.mail-templates.fields.mt_text', { _: 'Text' })} sx={{ minHeight: 36 }} />
          </Tabs>
          {tab === 'html' ? (
            <Box
              component="iframe"
              title={translate('ls.emails.frame_title')}
              sandbox=""
              srcDoc={preview.html}
              data-testid="mt-preview-html"
              sx={{ width: '100%', height: { xs: 420, md: 560 }, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
            />
          ) : (
            <Box
              component="pre"
              data-testid="mt-preview-text"
              sx={{
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
                fontFamily: 'monospace',
                fontSize: '0.85rem',
                p: 1.5,
                m: 0,
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
              }}
            >
              {preview.text}
            </Box>
          )}
        </>
      )}
    </Box>
  );
}

/** POST …/mail-templates/{id}/test: the saved template with sample data to the caller's own address. */
export function SendTestMailButton({ accountId, templateId, disabled }: { accountId: string; templateId: string; disabled?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [sending, setSending] = useState(false);
  async function send() {
    setSending(true);
    try {
      const { to } = await api<{ to: string }>(accountPath(accountId, 'mail-templates', templateId, 'test'), { method: 'POST' });
      notify(translate('ls.mail_templates.test_sent', { email: to }), { type: 'success' });
    } catch (e) {
      notify(e instanceof ApiRequestError ? errorText(e.body) : translate('error_network'), { type: 'error' });
    } finally {
      setSending(false);
    }
  }
  return (
    <Button variant="outlined" startIcon={<SendIcon />} onClick={send} disabled={disabled || sending} aria-busy={sending}>
      {translate('ls.mail_templates.test_mail')}
    </Button>
  );
}

/**
 * Beside the mail template form: the variables of the template's name, the live preview, and (for a saved template,
 * with the update bit) the test mail. The screen passes the form's current values (react-hook-form's useWatch).
 */
export function MailTemplateTools({ accountId, values, templateId, canSendTest }: { accountId: string; values: MailTemplateValues; templateId?: string; canSendTest?: boolean }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3, minWidth: 0 }}>
      {templateId && canSendTest && (
        <Box>
          <SendTestMailButton accountId={accountId} templateId={templateId} />
        </Box>
      )}
      <MailTemplatePreview accountId={accountId} values={values} />
      <MailTemplateVariables name={values.mt_name} />
    </Box>
  );
}
