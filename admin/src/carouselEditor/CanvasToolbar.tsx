import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import FlipToBackIcon from '@mui/icons-material/FlipToBack';
import FlipToFrontIcon from '@mui/icons-material/FlipToFront';
import type { T } from './Canvas';
import type { Size } from './geometry';
import { LAYER_TYPES, type Layer, type LayerType } from './layerModel';
import { TYPE_ICONS } from './typeIcons';

export interface CanvasToolbarProps {
  /** The canvas' size (null without a variant). */
  size: Size | null;
  /** A slide is chosen (layers can be added). */
  hasSlide: boolean;
  selectedLayer: Layer | null;
  /** The selected layer's place in the z-order (first = bottom), of `count`. */
  selectedIndex: number;
  count: number;
  scale: number;
  t: T;
  onAdd: (type: LayerType) => void;
  onRestack: (key: string, direction: 'forward' | 'backward') => void;
  onDuplicate: (key: string) => void;
  onDelete: (key: string) => void;
}

/** The canvas' toolbar: add a layer of a type (its menu mounted only while open), restack, duplicate or delete the selected one, the scale. */
export function CanvasToolbar({ size, hasSlide, selectedLayer, selectedIndex, count, scale, t, onAdd, onRestack, onDuplicate, onDelete }: CanvasToolbarProps) {
  const [addMenu, setAddMenu] = useState<HTMLElement | null>(null);
  return (
    <div className="ce-toolbar" role="toolbar" aria-label={t('toolbar')}>
      <Button
        size="small"
        variant="contained"
        startIcon={<AddIcon />}
        aria-haspopup="menu"
        aria-expanded={addMenu ? 'true' : undefined}
        onClick={(e) => setAddMenu(e.currentTarget)}
        disabled={!size || !hasSlide}
      >
        {t('add_layer')}
      </Button>
      {addMenu ? (
        <Menu anchorEl={addMenu} open onClose={() => setAddMenu(null)}>
          {LAYER_TYPES.map((type) => {
            const Icon = TYPE_ICONS[type];
            return (
              <MenuItem
                key={type}
                onClick={() => {
                  setAddMenu(null);
                  onAdd(type);
                }}
              >
                <Icon fontSize="small" sx={{ mr: 1.5, color: 'text.secondary' }} aria-hidden="true" />
                {t(`types.${type}`)}
              </MenuItem>
            );
          })}
        </Menu>
      ) : null}
      <IconButton
        size="small"
        aria-label={t('forward')}
        title={t('forward_keys')}
        disabled={!selectedLayer || selectedIndex === count - 1}
        onClick={() => selectedLayer && onRestack(selectedLayer.key, 'forward')}
      >
        <FlipToFrontIcon fontSize="small" />
      </IconButton>
      <IconButton
        size="small"
        aria-label={t('backward')}
        title={t('backward_keys')}
        disabled={!selectedLayer || selectedIndex === 0}
        onClick={() => selectedLayer && onRestack(selectedLayer.key, 'backward')}
      >
        <FlipToBackIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={t('duplicate')} title={t('duplicate_keys')} disabled={!selectedLayer} onClick={() => selectedLayer && onDuplicate(selectedLayer.key)}>
        <ContentCopyIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={t('delete_layer')} title={t('delete_keys')} disabled={!selectedLayer} onClick={() => selectedLayer && onDelete(selectedLayer.key)}>
        <DeleteIcon fontSize="small" />
      </IconButton>
      {size ? (
        <span className="ce-scale" data-testid="ce-scale">
          {t('canvas.size', { width: size.width, height: size.height, percent: Math.round(scale * 100) })}
        </span>
      ) : null}
    </div>
  );
}
