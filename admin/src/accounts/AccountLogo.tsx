import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import ImageIcon from '@mui/icons-material/ImageOutlined';
import UploadIcon from '@mui/icons-material/UploadFile';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { LOGO_MAX_BYTES, LOGO_TYPES, logoUrl } from '../../../resources/files';
import type { Account } from '../../../resources/accounts';
import { accountPath } from '../providers/accountPath';
import { api, ApiRequestError } from '../providers/http';
import { errorText } from '../i18n';
import { putWithProgress } from '../uploads/transfer';
import { uploadErrorKey } from '../media/upload';
import { formatBytes } from '../media/format';
import { ConfirmDeleteDialog } from '../media/dialogs';

type LogoState = { step: 'idle' } | { step: 'uploading'; percent: number } | { step: 'saving' } | { step: 'failed'; message: string };

/** The PUT's refusal in the logo's own words (a logo has a narrower allow-list than the media library). */
function storageFailure(status: number, body: unknown): string {
  if (status === 415) return 'error_logo_type';
  return uploadErrorKey('storage', body);
}

/**
 * The account's logo (spec 7): shown from /storage/logos/<id>; with entry_accounts update it can be uploaded or
 * replaced (GET uploadurl/logo → PUT the image to the signed URL → PUT haslogo) and removed (haslogo false).
 * It saves at once, apart from the account form's Save.
 */
export function AccountLogo({ account, canEdit }: { account: Account & { id: string }; canEdit: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const input = useRef<HTMLInputElement>(null);
  const [hasLogo, setHasLogo] = useState(!!account.a_has_logo);
  // A new upload keeps the same address; the version makes the browser show the new image at once.
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<LogoState>({ step: 'idle' });
  const [confirmRemove, setConfirmRemove] = useState(false);
  const busy = state.step === 'uploading' || state.step === 'saving';
  const id = String(account.id);

  async function upload(file: File) {
    if (!LOGO_TYPES.includes(file.type)) return setState({ step: 'failed', message: translate('error_logo_type') });
    if (file.size > LOGO_MAX_BYTES) return setState({ step: 'failed', message: translate('error_file_too_large') });
    setState({ step: 'uploading', percent: 0 });
    try {
      const signed = await api<{ url: string; max_bytes: number }>(accountPath(id, 'uploadurl', 'logo'));
      if (file.size > signed.max_bytes) return setState({ step: 'failed', message: translate('error_file_too_large') });
      let put;
      try {
        put = await putWithProgress(signed.url, file, (p) => setState({ step: 'uploading', percent: Math.round(p * 100) }));
      } catch {
        return setState({ step: 'failed', message: translate('error_upload_storage_failed') });
      }
      if (put.status < 200 || put.status >= 300) return setState({ step: 'failed', message: translate(storageFailure(put.status, put.body)) });
      setState({ step: 'saving' });
      await api(accountPath(id, 'haslogo'), { method: 'PUT', body: { a_has_logo: true } });
      setHasLogo(true);
      setVersion(Date.now());
      setState({ step: 'idle' });
      notify('ls.accounts.logo_saved', { type: 'success' });
    } catch (e) {
      setState({ step: 'failed', message: e instanceof ApiRequestError ? errorText(e.body) : translate('error_network') });
    }
  }

  async function remove() {
    await api(accountPath(id, 'haslogo'), { method: 'PUT', body: { a_has_logo: false } });
    setHasLogo(false);
    setState({ step: 'idle' });
    notify('ls.accounts.logo_removed', { type: 'info' });
  }

  return (
    <Box sx={{ px: 2, pt: 2 }} data-testid="account-logo-section">
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1, textTransform: 'uppercase', letterSpacing: '0.06em', fontSize: 12 }}>
        {translate('ls.accounts.logo')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        <Box
          sx={{
            width: 160,
            height: 96,
            flexShrink: 0,
            borderRadius: 1.5,
            border: 1,
            borderColor: 'divider',
            bgcolor: 'action.hover',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            overflow: 'hidden',
            p: 1,
          }}
        >
          {hasLogo ? (
            <Box
              component="img"
              src={version ? `${logoUrl(id)}?v=${version}` : logoUrl(id)}
              alt={translate('ls.accounts.logo_alt', { name: account.a_name })}
              data-testid="account-logo"
              sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain', display: 'block' }}
            />
          ) : (
            <Box sx={{ textAlign: 'center', color: 'text.secondary' }} data-testid="account-logo-none">
              <ImageIcon />
              <Typography variant="caption" component="p">
                {translate('ls.accounts.logo_none')}
              </Typography>
            </Box>
          )}
        </Box>
        {canEdit && (
          <Box sx={{ display: 'grid', gap: 1, minWidth: 0, flex: '1 1 220px' }}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => input.current?.click()} disabled={busy} data-testid="logo-upload">
                {translate(hasLogo ? 'ls.accounts.logo_replace' : 'ls.accounts.logo_upload')}
              </Button>
              {hasLogo && (
                <Button color="error" startIcon={<DeleteIcon />} onClick={() => setConfirmRemove(true)} disabled={busy} data-testid="logo-remove">
                  {translate('ls.accounts.logo_remove')}
                </Button>
              )}
            </Box>
            <Typography variant="caption" color="text.secondary">
              {translate('ls.accounts.logo_hint', { max: formatBytes(LOGO_MAX_BYTES, locale ?? 'en') })}
            </Typography>
            <input
              ref={input}
              type="file"
              accept={LOGO_TYPES.join(',')}
              hidden
              data-testid="logo-input"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void upload(file);
              }}
            />
          </Box>
        )}
      </Box>
      {state.step === 'uploading' && (
        <Box role="status" sx={{ mt: 1.5, maxWidth: 420 }}>
          <Typography variant="body2" sx={{ mb: 0.5 }}>
            {translate('ls.accounts.logo_uploading', { percent: state.percent })}
          </Typography>
          <LinearProgress variant="determinate" value={state.percent} aria-label={translate('ls.accounts.logo_uploading', { percent: state.percent })} />
        </Box>
      )}
      {state.step === 'saving' && (
        <Box role="status" sx={{ mt: 1.5, maxWidth: 420 }}>
          <Typography variant="body2" sx={{ mb: 0.5 }}>
            {translate('ls.accounts.logo_saving')}
          </Typography>
          <LinearProgress aria-label={translate('ls.accounts.logo_saving')} />
        </Box>
      )}
      {state.step === 'failed' && (
        <Alert severity="error" sx={{ mt: 1.5, maxWidth: 560 }} onClose={() => setState({ step: 'idle' })} data-testid="logo-error">
          {state.message}
        </Alert>
      )}
      <ConfirmDeleteDialog
        open={confirmRemove}
        title={translate('ls.accounts.logo_remove_title', { name: account.a_name })}
        text={translate('ls.accounts.logo_remove_text')}
        confirmLabel={translate('ls.accounts.logo_remove')}
        onClose={() => setConfirmRemove(false)}
        onConfirm={remove}
      />
    </Box>
  );
}
