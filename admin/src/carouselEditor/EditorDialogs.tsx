import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { slides as slidesDecl, variants as variantsDecl } from '../../../resources/carousels';
import { titleOf } from '../generated/rules';
import { ConfirmDeleteDialog } from '../editing/ConfirmDeleteDialog';
import { AddLayerDialog } from './AddLayerDialog';
import type { T } from './Canvas';
import type { EditorState } from './editorState';
import type { LayerType, Row } from './layerModel';
import { RecordDialog } from './RecordDialog';
import { deletingName, type DeleteDialog, type DialogState } from './useSlidesAndVariants';

const SLIDE_HIDDEN = ['sl_carouselid'] as const;
const VARIANT_HIDDEN = ['v_carouselid'] as const;

export interface EditorDialogsProps {
  dialog: DialogState | null;
  state: EditorState;
  carouselId: string;
  t: T;
  onClose: () => void;
  onSlideSaved: (record: Row) => void;
  onVariantSaved: (record: Row) => void;
  onAddLayer: (type: LayerType, extra: Row, asset?: Row) => void;
  onConfirmDelete: (dialog: DeleteDialog) => void;
  onReload: () => void;
}

/** The dialog open now, if any (keyed by kind: one kind's dialog never inherits another's state): a slide's or variant's fields, a new layer's first fields, a delete, or a reload. */
export function EditorDialogs({ dialog, state, carouselId, t, onClose, onSlideSaved, onVariantSaved, onAddLayer, onConfirmDelete, onReload }: EditorDialogsProps) {
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'slide':
      return (
        <RecordDialog
          key="slide"
          decl={slidesDecl}
          id={dialog.id}
          title={
            dialog.id
              ? t('slides.edit_title', {
                  name: titleOf(
                    slidesDecl,
                    state.slides.find((s) => s.sl_id === dialog.id),
                  ),
                })
              : t('slides.new')
          }
          defaults={{ sl_carouselid: carouselId }}
          hidden={SLIDE_HIDDEN}
          onClose={onClose}
          onSaved={onSlideSaved}
        />
      );
    case 'variant':
      return (
        <RecordDialog
          key="variant"
          decl={variantsDecl}
          id={dialog.id}
          title={
            dialog.id
              ? t('variants.edit_title', {
                  name: titleOf(
                    variantsDecl,
                    state.variants.find((v) => v.v_id === dialog.id),
                  ),
                })
              : t('variants.new')
          }
          defaults={{ v_carouselid: carouselId }}
          hidden={VARIANT_HIDDEN}
          onClose={onClose}
          onSaved={onVariantSaved}
        />
      );
    case 'add':
      return <AddLayerDialog key="add" type={dialog.type} t={t} onCancel={onClose} onAdd={(extra, asset) => onAddLayer(dialog.type, extra, asset)} />;
    case 'deleteSlide':
    case 'deleteVariant': {
      const slide = dialog.kind === 'deleteSlide';
      return (
        <ConfirmDeleteDialog
          key="delete"
          open
          titleId="ce-delete-title"
          title={t(slide ? 'slides.delete_title' : 'variants.delete_title', { name: deletingName(state, dialog) })}
          text={t(slide ? 'slides.delete_text' : 'variants.delete_text')}
          error={dialog.error}
          busy={dialog.busy}
          cancelLabel={t('cancel')}
          confirmLabel={t('delete')}
          focusCancel
          onCancel={onClose}
          onConfirm={() => onConfirmDelete(dialog)}
        />
      );
    }
    case 'reload':
      return (
        <Dialog key="reload" open onClose={onClose} aria-labelledby="ce-reload-title">
          <DialogTitle id="ce-reload-title">{t('reload_title')}</DialogTitle>
          <DialogContent>
            <DialogContentText>{t('reload_text')}</DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} autoFocus>
              {t('cancel')}
            </Button>
            <Button
              color="warning"
              variant="contained"
              onClick={() => {
                onClose();
                onReload();
              }}
            >
              {t('reload')}
            </Button>
          </DialogActions>
        </Dialog>
      );
  }
}
