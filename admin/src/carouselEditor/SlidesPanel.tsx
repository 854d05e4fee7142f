import { memo, useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AddIcon from '@mui/icons-material/Add';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { SortableList } from '../layout/SortableList';
import type { Row } from './layerModel';
import type { T } from './Canvas';

export interface SlidesPanelProps {
  slides: readonly Row[];
  selected: string | null;
  canEdit: boolean;
  /** The duration a slide without its own plays for (the variant's default). */
  defaultDurationMs: number | null;
  t: T;
  onSelect: (slideId: string) => void;
  onAdd: () => void;
  onEdit: (slideId: string) => void;
  onDelete: (slideId: string) => void;
  /** Stores a new order (every slide id); a rejection puts the previous one back. */
  onOrder: (ids: string[]) => Promise<void>;
}

type SlideItem = Row & { id: string };

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * The carousel's slides in playing order: select one to edit its layers, drag the handle or move it by keyboard
 * (the shared sortable list: Space lifts, arrows move, Space drops; one PUT /slides/order), add, and per slide a
 * menu to edit its title, subtitle, duration and colour or to delete it.
 */
export const SlidesPanel = memo(function SlidesPanel({ slides, selected, canEdit, defaultDurationMs, t, onSelect, onAdd, onEdit, onDelete, onOrder }: SlidesPanelProps) {
  const [menu, setMenu] = useState<{ anchor: HTMLElement; id: string } | null>(null);
  const items: SlideItem[] = slides.map((s) => ({ ...s, id: String(s.sl_id) }));
  const title = (s: Row) => String(s.sl_title ?? '').trim() || t('slides.untitled');
  const meta = (s: Row) => {
    const ms = typeof s.sl_duration_ms === 'number' ? s.sl_duration_ms : null;
    const duration = ms !== null ? t('slides.seconds', { seconds: seconds(ms) }) : defaultDurationMs !== null ? t('slides.default_seconds', { seconds: seconds(defaultDurationMs) }) : '';
    return [s.sl_subtitle ? String(s.sl_subtitle) : '', duration].filter(Boolean).join(' · ');
  };
  return (
    <section className="ce-panel" aria-labelledby="ce-slides-heading">
      <div className="ce-panel-head">
        <h2 id="ce-slides-heading" className="ce-heading">
          {t('slides.title')} <span className="ce-count">({slides.length})</span>
        </h2>
        {canEdit ? (
          <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={onAdd}>
            {t('slides.add')}
          </Button>
        ) : null}
      </div>
      {slides.length === 0 ? (
        <p className="ce-muted">{t('slides.empty')}</p>
      ) : (
        <SortableList
          items={items}
          nameOf={title}
          canMove={canEdit}
          label={t('slides.list_label')}
          onCommit={onOrder}
          testId="ce-slides"
          renderRow={(s, index) => (
            <div className="ce-slide">
              <button type="button" className="ce-slide-select" aria-current={s.id === selected ? 'true' : undefined} onClick={() => onSelect(s.id)} data-testid="ce-slide">
                <span className="ce-slide-title">
                  {index + 1}. {title(s)}
                </span>
                {meta(s) ? <span className="ce-slide-meta">{meta(s)}</span> : null}
              </button>
              {canEdit ? (
                <IconButton size="small" aria-label={t('slides.actions', { name: title(s) })} aria-haspopup="menu" onClick={(e) => setMenu({ anchor: e.currentTarget, id: s.id })}>
                  <MoreVertIcon fontSize="small" />
                </IconButton>
              ) : null}
            </div>
          )}
        />
      )}
      {menu ? (
        <Menu anchorEl={menu.anchor} open onClose={() => setMenu(null)}>
          <MenuItem
            onClick={() => {
              setMenu(null);
              onEdit(menu.id);
            }}
          >
            {t('slides.edit')}
          </MenuItem>
          <MenuItem
            sx={{ color: 'error.main' }}
            onClick={() => {
              setMenu(null);
              onDelete(menu.id);
            }}
          >
            {t('slides.delete')}
          </MenuItem>
        </Menu>
      ) : null}
    </section>
  );
});
