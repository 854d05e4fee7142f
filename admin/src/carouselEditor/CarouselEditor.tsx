import { useCallback, useMemo, useReducer, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslate } from 'react-admin';
import { DEFAULT_DURATION_MS } from '../../../resources/carousels';
import { failureText } from '../providers/failure';
import { LiveRegion } from '../editing/LiveRegion';
import { LoadFailed } from '../editing/LoadFailed';
import { useAnnouncer } from '../editing/useAnnouncer';
import { useLatest } from '../editing/useLatest';
import { useUndoKeys } from '../editing/useUndoKeys';
import { useUnsavedChangesGuard } from '../editing/useUnsavedChangesGuard';
import { Canvas, type T } from './Canvas';
import { CanvasPanel } from './CanvasPanel';
import { CanvasToolbar } from './CanvasToolbar';
import { DeletedToast } from './DeletedToast';
import { EditorDialogs } from './EditorDialogs';
import { EditorGrid } from './EditorGrid';
import { carouselEditorApi, type CarouselEditorApi } from './editorApi';
import { editorReducer, emptyState } from './editorState';
import { viewOf } from './editorView';
import { LayerInspector } from './LayerInspector';
import { useReferenceRecords } from './LayerFields';
import { LayerList } from './LayerList';
import { PreviewPanel, previewUrl } from './PreviewPanel';
import { SaveStatus } from './SaveStatus';
import { SlidesPanel } from './SlidesPanel';
import { editorStyles } from './styles';
import { useEditorLayout } from './useEditorLayout';
import { useLayerEdits } from './useLayerEdits';
import { useLayerSync } from './useLayerSync';
import { usePreviewChannel } from './usePreviewChannel';
import { useSlidesAndVariants, type DialogState } from './useSlidesAndVariants';
import { useUndoRedo } from './useUndoRedo';
import { VariantBar } from './VariantBar';

export { FIELD_SAVE_MS, NUDGE_SAVE_MS } from './useLayerEdits';

export interface CarouselEditorProps {
  accountId: string;
  carouselId: string;
  /** With account_carousels create, update and delete: edit. Without: look only. */
  canEdit: boolean;
  /** The calls (a test may pass its own); default: the API. */
  api?: CarouselEditorApi;
}

/**
 * The carousel editor: the carousel's variants (screen sizes) and slides, and per slide and variant a canvas at the
 * variant's size where layers are placed, an inspector for the selected layer, and the real player as a live preview.
 * Every layer edit applies at once and is saved through the API in the background (a drag when it is dropped, arrow
 * keys and typing when they pause), one call at a time; a failed call keeps what is shown, says so and retries on
 * request. Undo and redo walk the session's layer edits and save them the same way.
 */
export function CarouselEditor({ accountId, carouselId, canEdit, api: givenApi }: CarouselEditorProps) {
  const translate = useTranslate();
  // the type labels are the declaration's (resources.layers.options.ly_type.*), the editor's own words ls.carouselEditor.*
  const t = useCallback<T>(
    (key, options) => translate(key.startsWith('types.') ? `resources.layers.options.ly_type.${key.slice(6)}` : `ls.carouselEditor.${key}`, options),
    [translate],
  );
  const failure = useCallback((e: unknown) => failureText(e, translate), [translate]);
  const api = useMemo(() => givenApi ?? carouselEditorApi(accountId, carouselId), [givenApi, accountId, carouselId]);

  const [state, dispatch] = useReducer(editorReducer, emptyState);
  const stateRef = useLatest(state);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [announcement, announce] = useAnnouncer();
  const view = viewOf(state);
  const layout = useEditorLayout(view.size);

  const { previewRef, tellPreview } = usePreviewChannel(stateRef, state.slideId);
  const server = useLayerSync(api, stateRef, state.layers, dispatch, tellPreview);
  useUnsavedChangesGuard(server.unsaved);
  const edits = useLayerEdits(stateRef, dispatch, server.saveAfter, announce, t, layout.stageRoomRef);
  const { undo, redo } = useUndoRedo(stateRef, dispatch, server.saveAfter, announce, t);
  useUndoKeys(canEdit, undo, redo);
  const records = useSlidesAndVariants({ api, stateRef, dispatch, sync: server.sync, queue: server.queue, tellPreview, announce, failure, t });

  const carousels = useReferenceRecords('carousels');
  const collections = useReferenceRecords('collections');
  const names = useMemo(
    () => ({ carousels: new Map(carousels.options.map((o) => [o.id, o.label])), collections: new Map(collections.options.map((o) => [o.id, o.label])) }),
    [carousels.options, collections.options],
  );

  const { layers, variant, slide, size, selectedLayer } = view;
  // the preview's address follows the variant; the slide goes by message (no reload of the player)
  const previewSrc = useMemo(
    () => previewUrl(accountId, carouselId, state.slideId, variant ? String(variant.v_name) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [accountId, carouselId, variant?.v_name],
  );

  if (server.load === 'loading' && !state.carousel.c_id) {
    return (
      <Box sx={editorStyles} className="ce-root">
        <p className="ce-muted" role="status" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <CircularProgress size={18} /> {t('loading')}
        </p>
      </Box>
    );
  }
  if (server.load === 'failed') {
    return (
      <Box sx={editorStyles} className="ce-root">
        <LoadFailed retryLabel={t('retry')} onRetry={() => server.reload()}>
          {t('load_failed')}
        </LoadFailed>
      </Box>
    );
  }

  const layerList = <LayerList layers={layers} selected={state.selected} invalid={server.invalid} onCanvas={Boolean(slide && variant)} t={t} onSelect={edits.onSelect} />;
  const inspector = selectedLayer ? (
    <LayerInspector
      layer={selectedLayer}
      canEdit={canEdit}
      serverErrors={server.failedFields?.key === selectedLayer.key ? server.failedFields.fields : undefined}
      t={t}
      onField={edits.onField}
      onDuplicate={edits.onDuplicate}
      onDelete={edits.onDelete}
    />
  ) : (
    <section className="ce-panel" aria-label={t('inspector.title')}>
      <p className="ce-muted">{layers.length ? t('inspector.select') : t('inspector.empty')}</p>
    </section>
  );

  return (
    <Box
      ref={layout.rootRef}
      sx={editorStyles}
      className={`ce-root ${layout.wide ? 'ce-root--wide' : layout.medium ? 'ce-root--medium' : 'ce-root--narrow'}`}
      data-testid="carousel-editor"
    >
      <LiveRegion className="ce-sr" testId="ce-announcer" text={announcement} />
      {!canEdit ? <p className="ce-muted">{t('read_only')}</p> : null}
      <VariantBar
        variants={state.variants}
        variantId={state.variantId}
        variant={variant}
        canEdit={canEdit}
        canUndo={state.undo.length > 0}
        canRedo={state.redo.length > 0}
        status={
          <SaveStatus
            status={server.status}
            reason={server.status === 'error' ? failureText(server.failed?.error, translate) : ''}
            t={t}
            onRetry={() => server.queue.retry()}
            onReload={() => setDialog({ kind: 'reload' })}
          />
        }
        t={t}
        onSelect={records.onSelectVariant}
        onAdd={() => setDialog({ kind: 'variant' })}
        onEdit={(id) => setDialog({ kind: 'variant', id })}
        onDelete={(id) => setDialog({ kind: 'deleteVariant', id, busy: false })}
        onUndo={undo}
        onRedo={redo}
      />
      <EditorGrid
        wide={layout.wide}
        medium={layout.medium}
        slides={
          <SlidesPanel
            slides={state.slides}
            selected={state.slideId}
            canEdit={canEdit}
            defaultDurationMs={variant ? Number(variant.v_default_duration_ms ?? DEFAULT_DURATION_MS) : null}
            t={t}
            onSelect={records.onSelectSlide}
            onAdd={() => setDialog({ kind: 'slide' })}
            onEdit={(id) => setDialog({ kind: 'slide', id })}
            onDelete={(id) => setDialog({ kind: 'deleteSlide', id, busy: false })}
            onOrder={records.onOrderSlides}
          />
        }
        layers={layerList}
        canvas={
          <CanvasPanel
            toolbar={
              canEdit ? (
                <CanvasToolbar
                  size={size}
                  hasSlide={Boolean(slide)}
                  selectedLayer={selectedLayer}
                  selectedIndex={view.selectedIndex}
                  count={layers.length}
                  scale={layout.scale}
                  t={t}
                  onAdd={(type) => setDialog({ kind: 'add', type })}
                  onRestack={edits.onRestack}
                  onDuplicate={edits.onDuplicate}
                  onDelete={edits.onDelete}
                />
              ) : null
            }
            roomRef={layout.roomRef}
            missing={!variant ? 'variant' : !slide || !size ? 'slide' : null}
            canEdit={canEdit}
            t={t}
            onAddVariant={() => setDialog({ kind: 'variant' })}
            onAddSlide={() => setDialog({ kind: 'slide' })}
          >
            {size ? (
              <Canvas
                size={size}
                background={view.background}
                layers={layers}
                assets={state.assets}
                selected={state.selected}
                canEdit={canEdit}
                scale={layout.scale}
                invalid={server.invalid}
                names={names}
                t={t}
                onSelect={edits.onSelect}
                onRect={edits.onRect}
                onNudge={edits.onNudge}
                onDelete={edits.onDelete}
                onDuplicate={edits.onDuplicate}
                onRestack={edits.onRestack}
              />
            ) : null}
          </CanvasPanel>
        }
        inspector={inspector}
        preview={size ? <PreviewPanel ref={previewRef} src={previewSrc} size={size} t={t} /> : null}
      />
      <EditorDialogs
        dialog={dialog}
        state={state}
        carouselId={carouselId}
        t={t}
        onClose={() => setDialog(null)}
        onSlideSaved={(record) => {
          setDialog(null);
          dispatch({ type: 'slideSaved', slide: record });
          tellPreview();
        }}
        onVariantSaved={(record) => {
          setDialog(null);
          dispatch({ type: 'variantSaved', variant: record });
        }}
        onAddLayer={(type, extra, asset) => {
          setDialog(null);
          void edits.onAdd(type, extra, asset);
        }}
        onConfirmDelete={(deleting) => void records.confirmDelete(deleting, setDialog)}
        onReload={() => server.reload()}
      />
      <DeletedToast name={edits.deletedToast} t={t} onClose={edits.dismissDeletedToast} onUndo={undo} />
    </Box>
  );
}

export default CarouselEditor;
