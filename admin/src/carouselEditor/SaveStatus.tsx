import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import CheckIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import type { T } from './Canvas';
import type { SaveStatus as Status } from './useLayerSync';

/** Where the background saves stand; after a failed call (`reason`), retry it or reload what the API has. */
export function SaveStatus({ status, reason, t, onRetry, onReload }: { status: Status; reason: string; t: T; onRetry: () => void; onReload: () => void }) {
  return (
    <>
      <span
        role="status"
        aria-live="polite"
        className={`ce-status ${status === 'error' ? 'ce-status--error' : status === 'invalid' ? 'ce-status--warning' : ''}`}
        data-testid="ce-save-status"
        data-status={status}
      >
        {status === 'saving' ? (
          <CircularProgress size={14} />
        ) : status === 'saved' ? (
          <CheckIcon fontSize="small" color="success" />
        ) : status === 'idle' ? null : (
          <ErrorIcon fontSize="small" />
        )}
        {status === 'saving'
          ? t('status.saving')
          : status === 'saved'
            ? t('status.saved')
            : status === 'invalid'
              ? t('status.invalid')
              : status === 'error'
                ? t('status.error', { reason })
                : ''}
      </span>
      {status === 'error' ? (
        <>
          <Button size="small" color="error" variant="outlined" onClick={onRetry}>
            {t('retry')}
          </Button>
          <Button size="small" onClick={onReload}>
            {t('reload')}
          </Button>
        </>
      ) : null}
    </>
  );
}
