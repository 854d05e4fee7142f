import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import QrCodeScannerIcon from '@mui/icons-material/QrCodeScanner';
import { useTranslate } from 'react-admin';
import { accountPath } from '../providers/accountPath';
import { api, ApiRequestError } from '../providers/http';
import { errorText } from '../i18n';
import { useSession } from '../layout/useSession';
import { canInAccount } from '../permissions';
import { CurlButton } from '../generated/listTools';
import { curlForRequest } from '../providers/curl';

type Answers = Record<string, unknown>;

/** What the server sent the provider (with show_request and export_curl): for "Copy as cURL". */
type SentRequest = { method: string; url: string; headers: Record<string, string>; body?: string };

type State =
  { state: 'idle' } | { state: 'busy' } | { state: 'ok'; answers: Answers; request?: SentRequest } | { state: 'failed'; title: string; detail?: string; request?: SentRequest };

/**
 * The integration's test scan (POST /accounts/{a}/integrations/{id}/test {code}): sends a badge code to the provider
 * through the server, as a scan at the booth would, and shows the person it answers or why it did not. Needs
 * account_integrations update; save the integration first (the stored URL, key and secret are what is tested).
 */
export function IntegrationTestScan({ accountId, integrationId }: { accountId: string; integrationId: string }) {
  const translate = useTranslate();
  const { session } = useSession();
  const [code, setCode] = useState('');
  const [status, setStatus] = useState<State>({ state: 'idle' });
  const canCurl = canInAccount(session, accountId, 'app_general', 'export_curl');
  if (!canInAccount(session, accountId, 'account_integrations', 'update')) return null;

  async function run(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) return;
    setStatus({ state: 'busy' });
    try {
      const res = await api<{ answers: Answers; request?: SentRequest }>(accountPath(accountId, 'integrations', integrationId, 'test'), {
        method: 'POST',
        body: { code: code.trim(), ...(canCurl ? { show_request: true } : {}) },
      });
      setStatus({ state: 'ok', answers: res.answers ?? {}, request: res.request });
    } catch (err) {
      if (!(err instanceof ApiRequestError)) return setStatus({ state: 'failed', title: translate('error_network') });
      const body = err.body as { code: string; reason?: string; provider_status?: number; request?: SentRequest };
      const detail =
        body.code === 'badge_scan_failed'
          ? body.reason === 'provider_error'
            ? translate('ls.integrations.test_provider_status', { status: body.provider_status })
            : translate(`ls.integrations.test_reason_${body.reason ?? 'unreachable'}`, { _: translate('ls.integrations.test_reason_unreachable') })
          : undefined;
      setStatus({ state: 'failed', title: errorText(body), detail, request: body.request });
    }
  }

  const entries = status.state === 'ok' ? Object.entries(status.answers) : [];
  const sent = status.state === 'ok' || status.state === 'failed' ? status.request : undefined;
  return (
    <Box component="form" onSubmit={run} noValidate data-testid="integration-test-scan" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        {translate('ls.integrations.test_title')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          size="small"
          label={translate('ls.integrations.test_code')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          helperText={translate('ls.integrations.test_help')}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <Button
          type="submit"
          variant="outlined"
          startIcon={<QrCodeScannerIcon />}
          disabled={!code.trim() || status.state === 'busy'}
          sx={{ mt: { sm: '2px' }, flexShrink: 0, whiteSpace: 'nowrap', alignSelf: { xs: 'flex-start', sm: 'auto' } }}
        >
          {translate(status.state === 'busy' ? 'ls.integrations.test_running' : 'ls.integrations.test_run')}
        </Button>
      </Stack>
      <Box aria-live="polite" sx={{ mt: 1 }}>
        {status.state === 'ok' && (
          <Alert severity="success" data-testid="integration-test-result">
            <AlertTitle>{translate(entries.length ? 'ls.integrations.test_ok' : 'ls.integrations.test_empty')}</AlertTitle>
            {entries.length > 0 && (
              <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
                {entries.map(([key, value]) => (
                  <Box key={key} sx={{ display: 'contents' }}>
                    <Box component="dt" sx={{ fontWeight: 500 }}>
                      {key}
                    </Box>
                    <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                      {Array.isArray(value) ? value.join(', ') : String(value ?? '')}
                    </Box>
                  </Box>
                ))}
              </Box>
            )}
          </Alert>
        )}
        {status.state === 'failed' && (
          <Alert severity="error" data-testid="integration-test-error">
            <AlertTitle>{status.title}</AlertTitle>
            {status.detail}
          </Alert>
        )}
        {canCurl && sent && (
          <Box sx={{ mt: 1 }}>
            <CurlButton command={() => curlForRequest(sent)} />
          </Box>
        )}
      </Box>
    </Box>
  );
}

export default IntegrationTestScan;
