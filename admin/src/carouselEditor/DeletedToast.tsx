import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import type { T } from './Canvas';

/** Says which layer was deleted, with an undo, until it times out or the next edit (name: null) closes it. */
export function DeletedToast({ name, t, onClose, onUndo }: { name: string | null; t: T; onClose: () => void; onUndo: () => void }) {
  return (
    <Snackbar
      open={name !== null}
      autoHideDuration={6000}
      onClose={(_, reason) => reason !== 'clickaway' && onClose()}
      message={name !== null ? t('deleted', { name }) : ''}
      action={
        <Button
          color="secondary"
          size="small"
          onClick={() => {
            onClose();
            onUndo();
          }}
        >
          {t('undo')}
        </Button>
      }
    />
  );
}
