import { memo } from 'react';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
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
 * (the shared sortable list: Space lifts, arrows move, Space drops; one PUT /slides/order), add, and for the chosen
 * slide edit (title, subtitle, duration, colour) and delete. (No buttons per row: the column stays narrow, so the
 * canvas beside it gets the room.)
 */
export const SlidesPanel = memo(function SlidesPanel({ slides, selected, canEdit, defaultDurationMs, t, onSelect, onAdd, onEdit, onDelete, onOrder }: SlidesPanelProps) {
  const items: SlideItem[] = slides.map((s) => ({ ...s, id: String(s.sl_id) }));
  const title = (s: Row) => String(s.sl_title ?? '').trim() || t('slides.untitled');
  const meta = (s: Row) => {
    const ms = typeof s.sl_duration_ms === 'number' ? s.sl_duration_ms : null;
    const duration =
      ms !== null ? t('slides.seconds', { seconds: seconds(ms) }) : defaultDurationMs !== null ? t('slides.default_seconds', { seconds: seconds(defaultDurationMs) }) : '';
    return [s.sl_subtitle ? String(s.sl_subtitle) : '', duration].filter(Boolean).join(' · ');
  };
  const current = slides.find((s) => String(s.sl_id) === selected);
  return (
    <section className="ce-panel ce-panel--list" aria-labelledby="ce-slides-heading">
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
              <button
                type="button"
                className="ce-slide-select"
                aria-current={s.id === selected ? 'true' : undefined}
                onClick={() => onSelect(s.id)}
                title={title(s)}
                data-testid="ce-slide"
              >
                <span className="ce-slide-title">
                  {index + 1}. {title(s)}
                </span>
                {meta(s) ? <span className="ce-slide-meta">{meta(s)}</span> : null}
              </button>
            </div>
          )}
        />
      )}
      {canEdit && current ? (
        <div className="ce-slide-actions">
          <Button size="small" startIcon={<EditIcon />} onClick={() => onEdit(String(current.sl_id))} aria-label={t('slides.edit_named', { name: title(current) })}>
            {t('slides.edit')}
          </Button>
          <Button
            size="small"
            color="error"
            startIcon={<DeleteIcon />}
            onClick={() => onDelete(String(current.sl_id))}
            aria-label={t('slides.delete_named', { name: title(current) })}
          >
            {t('slides.delete')}
          </Button>
        </div>
      ) : null}
    </section>
  );
});
