import type { ReactNode, Ref } from 'react';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import type { T } from './Canvas';

/**
 * The canvas' panel: its toolbar (editors only), and in the measured room the canvas, or what is missing before there
 * can be one (a variant, then a slide) with the button that adds it.
 */
export function CanvasPanel({
  toolbar,
  roomRef,
  missing,
  canEdit,
  t,
  onAddVariant,
  onAddSlide,
  children,
}: {
  toolbar: ReactNode;
  roomRef: Ref<HTMLDivElement>;
  missing: 'variant' | 'slide' | null;
  canEdit: boolean;
  t: T;
  onAddVariant: () => void;
  onAddSlide: () => void;
  children: ReactNode;
}) {
  return (
    <section className="ce-panel ce-panel--canvas" aria-label={t('canvas.title')}>
      {toolbar}
      <div className="ce-room" ref={roomRef}>
        {missing === 'variant' ? (
          <div className="ce-empty-canvas">
            <p className="ce-muted">{t('variants.empty')}</p>
            {canEdit ? (
              <Button variant="outlined" startIcon={<AddIcon />} onClick={onAddVariant}>
                {t('variants.add')}
              </Button>
            ) : null}
          </div>
        ) : missing === 'slide' ? (
          <div className="ce-empty-canvas">
            <p className="ce-muted">{t('slides.empty')}</p>
            {canEdit ? (
              <Button variant="outlined" startIcon={<AddIcon />} onClick={onAddSlide}>
                {t('slides.add')}
              </Button>
            ) : null}
          </div>
        ) : (
          children
        )}
      </div>
    </section>
  );
}
