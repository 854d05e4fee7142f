import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import RedoIcon from '@mui/icons-material/Redo';
import UndoIcon from '@mui/icons-material/Undo';
import type { T } from './Canvas';
import type { Row } from './layerModel';

export interface VariantBarProps {
  variants: readonly Row[];
  variantId: string | null;
  /** The chosen variant's record. */
  variant: Row | undefined;
  canEdit: boolean;
  canUndo: boolean;
  canRedo: boolean;
  /** The save status, at the bar's end. */
  status: ReactNode;
  t: T;
  onSelect: (variantId: string) => void;
  onAdd: () => void;
  onEdit: (variantId: string) => void;
  onDelete: (variantId: string) => void;
  onUndo: () => void;
  onRedo: () => void;
}

/** The bar above the editor: the variants to choose (add, edit, delete the chosen one), undo and redo, the save status. */
export function VariantBar({ variants, variantId, variant, canEdit, canUndo, canRedo, status, t, onSelect, onAdd, onEdit, onDelete, onUndo, onRedo }: VariantBarProps) {
  return (
    <div className="ce-bar">
      <div className="ce-variants" role="group" aria-labelledby="ce-variants-label">
        <span id="ce-variants-label" className="ce-heading" style={{ marginRight: 4 }}>
          {t('variants.title')}
        </span>
        {variants.map((v) => {
          const on = v.v_id === variantId;
          return (
            <Button
              key={String(v.v_id)}
              size="small"
              className="ce-variant"
              variant={on ? 'contained' : 'outlined'}
              aria-pressed={on}
              onClick={() => onSelect(String(v.v_id))}
              data-testid="ce-variant"
            >
              {String(v.v_title)}
              <span className="ce-variant-size">
                {String(v.v_width)}×{String(v.v_height)}
              </span>
            </Button>
          );
        })}
        {canEdit ? (
          <>
            <Button size="small" startIcon={<AddIcon />} onClick={onAdd}>
              {t('variants.add')}
            </Button>
            {variant ? (
              <>
                <IconButton
                  size="small"
                  aria-label={t('variants.edit', { name: String(variant.v_title) })}
                  title={t('variants.edit', { name: String(variant.v_title) })}
                  onClick={() => onEdit(String(variant.v_id))}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('variants.delete', { name: String(variant.v_title) })}
                  title={t('variants.delete', { name: String(variant.v_title) })}
                  onClick={() => onDelete(String(variant.v_id))}
                >
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </>
            ) : null}
          </>
        ) : null}
      </div>
      <span className="ce-spacer" />
      {canEdit ? (
        <>
          <Button size="small" startIcon={<UndoIcon />} disabled={!canUndo} onClick={onUndo} aria-keyshortcuts="Control+Z Meta+Z">
            {t('undo')}
          </Button>
          <Button size="small" startIcon={<RedoIcon />} disabled={!canRedo} onClick={onRedo} aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z">
            {t('redo')}
          </Button>
        </>
      ) : null}
      {status}
    </div>
  );
}
