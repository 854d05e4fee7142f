import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import AddIcon from '@mui/icons-material/Add';
import CheckIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import FlipToBackIcon from '@mui/icons-material/FlipToBack';
import FlipToFrontIcon from '@mui/icons-material/FlipToFront';
import RedoIcon from '@mui/icons-material/Redo';
import UndoIcon from '@mui/icons-material/Undo';
import { useTranslate } from 'react-admin';
import { slides as slidesDecl, variants as variantsDecl, DEFAULT_DURATION_MS } from '../../../resources/carousels';
import { failureText } from '../providers/failure';
import { ApiRequestError } from '../providers/http';
import { titleOf } from '../generated/rules';
import { AddLayerDialog } from './AddLayerDialog';
import { Canvas, layerName, type T } from './Canvas';
import { carouselEditorApi, type CarouselEditorApi } from './editorApi';
import { currentGroup, editorReducer, emptyState, fromGraph, layersOf } from './editorState';
import { fitScale, type Rect, type Size } from './geometry';
import { LayerInspector } from './LayerInspector';
import { useReferenceRecords } from './LayerFields';
import { diffLayers, duplicateOf, layerErrors, LAYER_TYPES, newLayerValues, restacked, sameLayers, typeOf, withRect, type Layer, type LayerType, type Row } from './layerModel';
import { PreviewPanel, previewUrl } from './PreviewPanel';
import { RecordDialog } from './RecordDialog';
import { SaveQueue, type QueueState } from './saveQueue';
import { SlidesPanel } from './SlidesPanel';
import { editorStyles, MEDIUM_FROM, WIDE_FROM } from './styles';
import { TYPE_ICONS } from './typeIcons';
import { useOwnWidth } from '../layout/useOwnWidth';

export interface CarouselEditorProps {
  accountId: string;
  carouselId: string;
  /** With account_carousels create, update and delete: edit. Without: look only. */
  canEdit: boolean;
  /** The calls (a test may pass its own); default: the API. */
  api?: CarouselEditorApi;
}

/** Arrow-key nudges and typing in the inspector are saved once they pause this long; a drop, an add or a delete at once. */
export const NUDGE_SAVE_MS = 500;
export const FIELD_SAVE_MS = 600;
/** The canvas' room when it cannot be measured (jsdom). */
const FALLBACK_ROOM: Size = { width: 640, height: 400 };

type DialogState =
  | { kind: 'slide'; id?: string }
  | { kind: 'variant'; id?: string }
  | { kind: 'add'; type: LayerType }
  | { kind: 'deleteSlide' | 'deleteVariant'; id: string; busy: boolean; error?: string }
  | { kind: 'reload' };

/** An image's proportions (width / height) from its thumbnail or file, or nothing within a second. */
function imageAspect(asset: Row | undefined): Promise<number | undefined> {
  const src = (asset?.thumbnail_url as string | undefined) || (asset?.kind === 'image' ? (asset?.url as string | undefined) : undefined);
  if (!src || typeof Image === 'undefined') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const img = new Image();
    const timer = setTimeout(() => resolve(undefined), 1000);
    img.onload = () => {
      clearTimeout(timer);
      resolve(img.naturalWidth > 0 && img.naturalHeight > 0 ? img.naturalWidth / img.naturalHeight : undefined);
    };
    img.onerror = () => {
      clearTimeout(timer);
      resolve(undefined);
    };
    img.src = src;
  });
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((k) => b.has(k));

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
  const api = useMemo(() => givenApi ?? carouselEditorApi(accountId, carouselId), [givenApi, accountId, carouselId]);

  const [state, dispatch] = useReducer(editorReducer, emptyState);
  const [load, setLoad] = useState<'loading' | 'ready' | 'failed'>('loading');
  const stateRef = useRef(state);
  useLayoutEffect(() => {
    stateRef.current = state;
  });
  /** What the API has been sent, per group: the next save sends the difference to what is shown. */
  const sent = useRef<Record<string, Layer[]>>({});
  const [queueState, setQueueState] = useState<QueueState>({ busy: false, pending: 0, failed: null });
  const [savedOnce, setSavedOnce] = useState(false);
  const [scheduled, setScheduled] = useState(false);
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(() => new Set());
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [deletedToast, setDeletedToast] = useState<string | null>(null);
  const [addMenu, setAddMenu] = useState<HTMLElement | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((text: string) => setAnnouncement((prev) => (prev === text ? `${text}\u00a0` : text)), []);
  const previewRef = useRef<HTMLIFrameElement>(null);
  const stageRoomRef = useRef<HTMLDivElement | null>(null);
  const seq = useRef(0);

  // ---- the preview hears of every save and of the slide shown

  const tellPreview = useCallback(() => {
    const win = previewRef.current?.contentWindow;
    const slideId = stateRef.current.slideId;
    if (!win || !slideId) return;
    try {
      win.postMessage({ type: 'leadstage-preview', slideId, reload: true }, window.location.origin);
    } catch {
      /* the frame is elsewhere (not loaded yet): it reads the slide from its address */
    }
  }, []);

  const queue = useMemo(
    () =>
      new SaveQueue(
        (op, ids) => api.runLayerOp(op, ids),
        setQueueState,
        () => {
          setSavedOnce(true);
          tellPreview();
        },
      ),
    [api, tellPreview],
  );

  // ---- loading

  const reload = useCallback(() => {
    let live = true;
    setLoad('loading');
    api.graph().then(
      (graph) => {
        if (!live) return;
        const next = fromGraph(graph, stateRef.current);
        queue.reset();
        queue.known(Object.values(next.layers).flatMap((list) => list.map((l) => l.key)));
        sent.current = next.layers;
        setInvalid(new Set());
        dispatch({ type: 'loaded', graph });
        setLoad('ready');
      },
      () => live && setLoad('failed'),
    );
    return () => {
      live = false;
    };
  }, [api, queue]);
  useEffect(() => reload(), [reload]);

  // ---- saving: what is shown minus what was sent, for every group whose layers are all valid

  const syncTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const syncDelay = useRef(0);
  const sync = useCallback(() => {
    clearTimeout(syncTimer.current);
    syncTimer.current = undefined;
    setScheduled(false);
    const s = stateRef.current;
    const bad = new Set<string>();
    for (const group of new Set([...Object.keys(s.layers), ...Object.keys(sent.current)])) {
      const local = s.layers[group];
      if (!local) {
        // the slide or variant is gone, and its layers with it
        delete sent.current[group];
        continue;
      }
      const stored = sent.current[group] ?? [];
      if (sameLayers(local, stored)) continue;
      const wrong = local.filter((l) => Object.keys(layerErrors(l.values)).length > 0);
      if (wrong.length) {
        for (const l of wrong) bad.add(l.key);
        continue;
      }
      queue.push(diffLayers(group, stored, local));
      sent.current[group] = local;
    }
    setInvalid((prev) => (sameSet(prev, bad) ? prev : bad));
  }, [queue]);

  useEffect(() => {
    if (load !== 'ready') return;
    clearTimeout(syncTimer.current);
    const delay = syncDelay.current;
    syncDelay.current = 0;
    setScheduled(true);
    syncTimer.current = setTimeout(sync, delay);
  }, [state.layers, load, sync]);
  // leaving the editor sends what waits (the calls finish in the background)
  useEffect(
    () => () => {
      if (syncTimer.current !== undefined) sync();
    },
    [sync],
  );

  const failed = queueState.failed;
  const status: 'error' | 'invalid' | 'saving' | 'saved' | 'idle' = failed
    ? 'error'
    : invalid.size
      ? 'invalid'
      : queueState.busy || queueState.pending || (scheduled && !sameGroups(state.layers, sent.current))
        ? 'saving'
        : savedOnce
          ? 'saved'
          : 'idle';
  const unsaved = status === 'error' || status === 'invalid' || status === 'saving';
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  /** The API's field errors for the layer whose save failed, shown in the inspector. */
  const failedFields = useMemo(() => {
    if (!failed || failed.op.kind === 'order' || !(failed.error instanceof ApiRequestError)) return undefined;
    return { key: failed.op.key, fields: failed.error.body.fields ?? {} };
  }, [failed]);

  // ---- edits of the layers on the canvas

  const change = useCallback((group: string, layers: Layer[], options: { selected?: string | null; merge?: string; delay?: number } = {}) => {
    syncDelay.current = options.delay ?? 0;
    // the toast's undo is for the delete it names, not for what came after
    setDeletedToast(null);
    dispatch({ type: 'change', group, layers, selected: options.selected, merge: options.merge, at: Date.now() });
  }, []);

  /** The group on the canvas and its layers, as they are now (for callbacks that must not change identity). */
  const current = () => {
    const s = stateRef.current;
    const group = currentGroup(s);
    return { s, group, list: layersOf(s, group) };
  };
  const canvasSize = (s = stateRef.current): Size | null => {
    const v = s.variants.find((x) => x.v_id === s.variantId);
    return v ? { width: Number(v.v_width), height: Number(v.v_height) } : null;
  };

  const onSelect = useCallback((key: string | null) => dispatch({ type: 'select', key }), []);

  const onRect = useCallback(
    (key: string, rect: Rect) => {
      const { group, list } = current();
      if (!group) return;
      change(group, list.map((l) => (l.key === key ? { ...l, values: withRect(l.values, rect) } : l)), { selected: key });
    },
    [change],
  );

  const onNudge = useCallback(
    (key: string, rect: Rect) => {
      const { group, list } = current();
      if (!group) return;
      change(group, list.map((l) => (l.key === key ? { ...l, values: withRect(l.values, rect) } : l)), { selected: key, merge: `nudge:${key}`, delay: NUDGE_SAVE_MS });
    },
    [change],
  );

  const onField = useCallback(
    (key: string, field: string, value: unknown, asset?: Row) => {
      const { group, list } = current();
      if (!group) return;
      if (asset) dispatch({ type: 'asset', asset });
      change(group, list.map((l) => (l.key === key ? { ...l, values: { ...l.values, [field]: value } } : l)), { merge: `field:${key}:${field}`, delay: FIELD_SAVE_MS });
    },
    [change],
  );

  const focusStage = () => requestAnimationFrame(() => stageRoomRef.current?.querySelector<HTMLElement>('.ce-stage')?.focus({ preventScroll: true }));

  const onDelete = useCallback(
    (key: string) => {
      const { group, list } = current();
      const layer = list.find((l) => l.key === key);
      if (!group || !layer) return;
      change(group, list.filter((l) => l.key !== key), { selected: null });
      const name = layerName(layer, t);
      setDeletedToast(name);
      announce(t('deleted', { name }));
      focusStage();
    },
    [change, announce, t],
  );

  const newKey = () => `new-${Date.now().toString(36)}-${++seq.current}`;

  const onDuplicate = useCallback(
    (key: string) => {
      const { s, group, list } = current();
      const size = canvasSize(s);
      const index = list.findIndex((l) => l.key === key);
      if (!group || !size || index < 0) return;
      const copy = duplicateOf(list[index], newKey(), size);
      change(group, [...list.slice(0, index + 1), copy, ...list.slice(index + 1)], { selected: copy.key });
      announce(t('duplicated', { name: layerName(copy, t) }));
    },
    [change, announce, t],
  );

  const onRestack = useCallback(
    (key: string, direction: 'forward' | 'backward') => {
      const { group, list } = current();
      if (!group) return;
      const next = restacked(list, key, direction);
      const layer = list.find((l) => l.key === key);
      change(group, next, { selected: key });
      if (layer) announce(t('stacked', { name: layerName(layer, t), position: next.length - next.findIndex((l) => l.key === key), count: next.length }));
    },
    [change, announce, t],
  );

  const onAdd = useCallback(
    async (type: LayerType, extra: Row, asset?: Row) => {
      setDialog(null);
      if (asset) dispatch({ type: 'asset', asset });
      const aspect = type === 'image' ? await imageAspect(asset) : undefined;
      const { s, group, list } = current();
      const size = canvasSize(s);
      if (!group || !size || !s.slideId || !s.variantId) return;
      const layer: Layer = { key: newKey(), values: newLayerValues(type, s.slideId, s.variantId, size, extra, aspect) };
      change(group, [...list, layer], { selected: layer.key });
      announce(t('added', { name: layerName(layer, t) }));
      requestAnimationFrame(() => stageRoomRef.current?.querySelector<HTMLElement>(`[data-layer="${layer.key}"]`)?.focus({ preventScroll: true }));
    },
    [change, announce, t],
  );

  const undo = useCallback(() => {
    if (!stateRef.current.undo.length) return;
    syncDelay.current = 0;
    dispatch({ type: 'undo' });
    announce(t('undone'));
  }, [announce, t]);
  const redo = useCallback(() => {
    if (!stateRef.current.redo.length) return;
    syncDelay.current = 0;
    dispatch({ type: 'redo' });
    announce(t('redone'));
  }, [announce, t]);

  // Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z (or Ctrl+Y) redoes; a text field keeps its own undo, a dialog its keys
  useEffect(() => {
    if (!canEdit) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.('input, textarea, select, [contenteditable="true"], [role="dialog"]')) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) {
        e.preventDefault();
        undo();
      } else if ((k === 'z' && e.shiftKey) || k === 'y') {
        e.preventDefault();
        redo();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [canEdit, undo, redo]);

  // ---- slides and variants

  const onSelectSlide = useCallback((slideId: string) => dispatch({ type: 'selectSlide', slideId }), []);
  useEffect(() => {
    if (state.slideId) tellPreview();
  }, [state.slideId, tellPreview]);

  const onOrderSlides = useCallback(
    async (ids: string[]) => {
      try {
        await api.orderSlides(ids);
      } catch (e) {
        throw new Error(failureText(e, translate));
      }
      const byId = new Map(stateRef.current.slides.map((s) => [String(s.sl_id), s]));
      dispatch({ type: 'slides', slides: ids.map((id) => byId.get(id)).filter((s): s is Row => Boolean(s)) });
      tellPreview();
    },
    [api, translate, tellPreview],
  );

  /** Deletes a slide or a variant (after what waits to be saved: its layers' calls would fail afterwards). */
  const confirmDelete = async () => {
    if (!dialog || (dialog.kind !== 'deleteSlide' && dialog.kind !== 'deleteVariant')) return;
    setDialog({ ...dialog, busy: true, error: undefined });
    sync();
    if (!(await queue.idle())) {
      setDialog({ ...dialog, busy: false, error: t('save_first') });
      return;
    }
    try {
      if (dialog.kind === 'deleteSlide') await api.removeSlide(dialog.id);
      else await api.removeVariant(dialog.id);
    } catch (e) {
      if (!(e instanceof ApiRequestError && e.status === 404)) {
        setDialog({ ...dialog, busy: false, error: failureText(e, translate) });
        return;
      }
    }
    const s = stateRef.current;
    const name =
      dialog.kind === 'deleteSlide'
        ? titleOf(slidesDecl, s.slides.find((x) => x.sl_id === dialog.id))
        : titleOf(variantsDecl, s.variants.find((x) => x.v_id === dialog.id));
    dispatch(dialog.kind === 'deleteSlide' ? { type: 'slideRemoved', slideId: dialog.id } : { type: 'variantRemoved', variantId: dialog.id });
    setDialog(null);
    announce(t('deleted', { name }));
    tellPreview();
  };

  // ---- derived

  const group = currentGroup(state);
  const layers = layersOf(state, group);
  const variant = state.variants.find((v) => v.v_id === state.variantId);
  const size = canvasSize(state);
  const slide = state.slides.find((s) => s.sl_id === state.slideId);
  const selectedLayer = layers.find((l) => l.key === state.selected) ?? null;
  const selectedIndex = selectedLayer ? layers.indexOf(selectedLayer) : -1;
  const background = String(slide?.sl_bgcolor || variant?.v_bgcolor || '#000000');

  const carousels = useReferenceRecords('carousels');
  const collections = useReferenceRecords('collections');
  const names = useMemo(
    () => ({ carousels: new Map(carousels.options.map((o) => [o.id, o.label])), collections: new Map(collections.options.map((o) => [o.id, o.label])) }),
    [carousels.options, collections.options],
  );

  const [ownWidth, rootRef] = useOwnWidth();
  const wide = ownWidth === undefined || ownWidth >= WIDE_FROM;
  const medium = !wide && ownWidth !== undefined && ownWidth >= MEDIUM_FROM;
  const [roomWidth, setRoomRef] = useOwnWidth();
  const roomRef = useCallback(
    (node: HTMLDivElement | null) => {
      stageRoomRef.current = node;
      setRoomRef(node);
    },
    [setRoomRef],
  );
  const roomHeight = typeof window !== 'undefined' && window.innerHeight ? Math.max(240, Math.min(760, Math.round(window.innerHeight * 0.6))) : FALLBACK_ROOM.height;
  const room: Size = roomWidth !== undefined ? { width: Math.max(120, roomWidth - 24), height: roomHeight } : FALLBACK_ROOM;
  const scale = size ? fitScale(size, room) : 1;

  // the preview's address follows the variant; the slide goes by message (no reload of the player)
  const previewSrc = useMemo(
    () => previewUrl(accountId, carouselId, state.slideId, variant ? String(variant.v_name) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [accountId, carouselId, variant?.v_name],
  );

  if (load === 'loading' && !state.carousel.c_id) {
    return (
      <Box sx={editorStyles} className="ce-root">
        <p className="ce-muted" role="status" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <CircularProgress size={18} /> {t('loading')}
        </p>
      </Box>
    );
  }
  if (load === 'failed') {
    return (
      <Box sx={editorStyles} className="ce-root">
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => reload()}>
              {t('retry')}
            </Button>
          }
        >
          {t('load_failed')}
        </Alert>
      </Box>
    );
  }

  const statusView = (
    <>
      <span role="status" aria-live="polite" className={`ce-status ${status === 'error' ? 'ce-status--error' : status === 'invalid' ? 'ce-status--warning' : ''}`} data-testid="ce-save-status" data-status={status}>
        {status === 'saving' ? <CircularProgress size={14} /> : status === 'saved' ? <CheckIcon fontSize="small" color="success" /> : status === 'idle' ? null : <ErrorIcon fontSize="small" />}
        {status === 'saving'
          ? t('status.saving')
          : status === 'saved'
            ? t('status.saved')
            : status === 'invalid'
              ? t('status.invalid')
              : status === 'error'
                ? t('status.error', { reason: failureText(failed?.error, translate) })
                : ''}
      </span>
      {status === 'error' ? (
        <>
          <Button size="small" color="error" variant="outlined" onClick={() => queue.retry()}>
            {t('retry')}
          </Button>
          <Button size="small" onClick={() => setDialog({ kind: 'reload' })}>
            {t('reload')}
          </Button>
        </>
      ) : null}
    </>
  );

  const variantBar = (
    <div className="ce-bar">
      <div className="ce-variants" role="group" aria-labelledby="ce-variants-label">
        <span id="ce-variants-label" className="ce-heading" style={{ marginRight: 4 }}>
          {t('variants.title')}
        </span>
        {state.variants.map((v) => {
          const on = v.v_id === state.variantId;
          return (
            <Button
              key={String(v.v_id)}
              size="small"
              className="ce-variant"
              variant={on ? 'contained' : 'outlined'}
              aria-pressed={on}
              onClick={() => dispatch({ type: 'selectVariant', variantId: String(v.v_id) })}
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
            <Button size="small" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'variant' })}>
              {t('variants.add')}
            </Button>
            {variant ? (
              <>
                <IconButton size="small" aria-label={t('variants.edit', { name: String(variant.v_title) })} title={t('variants.edit', { name: String(variant.v_title) })} onClick={() => setDialog({ kind: 'variant', id: String(variant.v_id) })}>
                  <EditIcon fontSize="small" />
                </IconButton>
                <IconButton size="small" aria-label={t('variants.delete', { name: String(variant.v_title) })} title={t('variants.delete', { name: String(variant.v_title) })} onClick={() => setDialog({ kind: 'deleteVariant', id: String(variant.v_id), busy: false })}>
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
          <Button size="small" startIcon={<UndoIcon />} disabled={!state.undo.length} onClick={undo} aria-keyshortcuts="Control+Z Meta+Z">
            {t('undo')}
          </Button>
          <Button size="small" startIcon={<RedoIcon />} disabled={!state.redo.length} onClick={redo} aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z">
            {t('redo')}
          </Button>
        </>
      ) : null}
      {statusView}
    </div>
  );

  const toolbar = canEdit ? (
    <div className="ce-toolbar" role="toolbar" aria-label={t('toolbar')}>
      <Button size="small" variant="contained" startIcon={<AddIcon />} aria-haspopup="menu" aria-expanded={addMenu ? 'true' : undefined} onClick={(e) => setAddMenu(e.currentTarget)} disabled={!size || !slide}>
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
                  setDialog({ kind: 'add', type });
                }}
              >
                <Icon fontSize="small" sx={{ mr: 1.5, color: 'text.secondary' }} aria-hidden="true" />
                {t(`types.${type}`)}
              </MenuItem>
            );
          })}
        </Menu>
      ) : null}
      <IconButton size="small" aria-label={t('forward')} title={t('forward_keys')} disabled={!selectedLayer || selectedIndex === layers.length - 1} onClick={() => selectedLayer && onRestack(selectedLayer.key, 'forward')}>
        <FlipToFrontIcon fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={t('backward')} title={t('backward_keys')} disabled={!selectedLayer || selectedIndex === 0} onClick={() => selectedLayer && onRestack(selectedLayer.key, 'backward')}>
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
  ) : null;

  const canvasPanel = (
    <section className="ce-panel ce-panel--canvas" aria-label={t('canvas.title')}>
      {toolbar}
      <div className="ce-room" ref={roomRef}>
        {!variant ? (
          <div className="ce-empty-canvas">
            <p className="ce-muted">{t('variants.empty')}</p>
            {canEdit ? (
              <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'variant' })}>
                {t('variants.add')}
              </Button>
            ) : null}
          </div>
        ) : !slide || !size ? (
          <div className="ce-empty-canvas">
            <p className="ce-muted">{t('slides.empty')}</p>
            {canEdit ? (
              <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setDialog({ kind: 'slide' })}>
                {t('slides.add')}
              </Button>
            ) : null}
          </div>
        ) : (
          <Canvas
            size={size}
            background={background}
            layers={layers}
            assets={state.assets}
            selected={state.selected}
            canEdit={canEdit}
            scale={scale}
            invalid={invalid}
            names={names}
            t={t}
            onSelect={onSelect}
            onRect={onRect}
            onNudge={onNudge}
            onDelete={onDelete}
            onDuplicate={onDuplicate}
            onRestack={onRestack}
          />
        )}
      </div>
    </section>
  );

  const layerList = (
    <section className="ce-panel ce-panel--list" aria-labelledby="ce-layers-heading">
      <div className="ce-panel-head">
        <h2 id="ce-layers-heading" className="ce-heading">
          {t('layers.title')} <span className="ce-count">({layers.length})</span>
        </h2>
      </div>
      {layers.length === 0 ? (
        <p className="ce-muted">{slide && variant ? t('layers.empty') : t('layers.none')}</p>
      ) : (
        <ul className="ce-layers" aria-label={t('layers.list_label')}>
          {[...layers].reverse().map((l) => {
            const Icon = TYPE_ICONS[typeOf(l.values)];
            return (
              <li key={l.key}>
                <button type="button" className="ce-layer-row" aria-current={l.key === state.selected ? 'true' : undefined} onClick={() => onSelect(l.key)} data-testid="ce-layer-row">
                  <Icon fontSize="small" aria-hidden="true" />
                  <span className="ce-layer-row-text">{layerName(l, t)}</span>
                  {invalid.has(l.key) ? <ErrorIcon fontSize="small" className="ce-layer-row-error" aria-label={t('layers.invalid')} /> : null}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );

  const inspector = selectedLayer ? (
    <LayerInspector
      layer={selectedLayer}
      canEdit={canEdit}
      serverErrors={failedFields?.key === selectedLayer.key ? failedFields.fields : undefined}
      t={t}
      onField={onField}
      onDuplicate={onDuplicate}
      onDelete={onDelete}
    />
  ) : (
    <section className="ce-panel" aria-label={t('inspector.title')}>
      <p className="ce-muted">{layers.length ? t('inspector.select') : t('inspector.empty')}</p>
    </section>
  );

  const preview = size ? <PreviewPanel ref={previewRef} src={previewSrc} size={size} t={t} /> : null;

  const slidesPanel = (
    <SlidesPanel
      slides={state.slides}
      selected={state.slideId}
      canEdit={canEdit}
      defaultDurationMs={variant ? Number(variant.v_default_duration_ms ?? DEFAULT_DURATION_MS) : null}
      t={t}
      onSelect={onSelectSlide}
      onAdd={() => setDialog({ kind: 'slide' })}
      onEdit={(id) => setDialog({ kind: 'slide', id })}
      onDelete={(id) => setDialog({ kind: 'deleteSlide', id, busy: false })}
      onOrder={onOrderSlides}
    />
  );

  const deleting = dialog && (dialog.kind === 'deleteSlide' || dialog.kind === 'deleteVariant') ? dialog : null;
  const deletingName = deleting
    ? deleting.kind === 'deleteSlide'
      ? titleOf(slidesDecl, state.slides.find((s) => s.sl_id === deleting.id))
      : titleOf(variantsDecl, state.variants.find((v) => v.v_id === deleting.id))
    : '';

  return (
    <Box ref={rootRef} sx={editorStyles} className={`ce-root ${wide ? 'ce-root--wide' : medium ? 'ce-root--medium' : 'ce-root--narrow'}`} data-testid="carousel-editor">
      <div className="ce-sr" aria-live="polite" aria-atomic="true" data-testid="ce-announcer">
        {announcement}
      </div>
      {!canEdit ? <p className="ce-muted">{t('read_only')}</p> : null}
      {variantBar}
      <div className="ce-grid">
        {/* the two lists to pick from on the left (wide), the layer's fields and the preview on the right */}
        {wide ? (
          <div className="ce-lists">
            {slidesPanel}
            {layerList}
          </div>
        ) : (
          slidesPanel
        )}
        {canvasPanel}
        <div className="ce-side">
          {wide ? (
            <>
              {inspector}
              {preview}
            </>
          ) : medium ? (
            <>
              <div className="ce-lists">
                {layerList}
                {inspector}
              </div>
              {preview}
            </>
          ) : (
            <>
              {layerList}
              {inspector}
              {preview}
            </>
          )}
        </div>
      </div>

      {dialog?.kind === 'slide' ? (
        <RecordDialog
          decl={slidesDecl}
          id={dialog.id}
          title={dialog.id ? t('slides.edit_title', { name: titleOf(slidesDecl, state.slides.find((s) => s.sl_id === dialog.id)) }) : t('slides.new')}
          defaults={{ sl_carouselid: carouselId }}
          hidden={SLIDE_HIDDEN}
          onClose={() => setDialog(null)}
          onSaved={(record) => {
            setDialog(null);
            dispatch({ type: 'slideSaved', slide: record });
            tellPreview();
          }}
        />
      ) : null}
      {dialog?.kind === 'variant' ? (
        <RecordDialog
          decl={variantsDecl}
          id={dialog.id}
          title={dialog.id ? t('variants.edit_title', { name: titleOf(variantsDecl, state.variants.find((v) => v.v_id === dialog.id)) }) : t('variants.new')}
          defaults={{ v_carouselid: carouselId }}
          hidden={VARIANT_HIDDEN}
          onClose={() => setDialog(null)}
          onSaved={(record) => {
            setDialog(null);
            dispatch({ type: 'variantSaved', variant: record });
          }}
        />
      ) : null}
      {dialog?.kind === 'add' ? <AddLayerDialog type={dialog.type} t={t} onCancel={() => setDialog(null)} onAdd={(extra, asset) => void onAdd(dialog.type, extra, asset)} /> : null}
      {deleting ? (
        <Dialog open onClose={() => !deleting.busy && setDialog(null)} aria-labelledby="ce-delete-title">
          <DialogTitle id="ce-delete-title">{t(deleting.kind === 'deleteSlide' ? 'slides.delete_title' : 'variants.delete_title', { name: deletingName })}</DialogTitle>
          <DialogContent>
            <DialogContentText>{t(deleting.kind === 'deleteSlide' ? 'slides.delete_text' : 'variants.delete_text')}</DialogContentText>
            {deleting.error ? (
              <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                {deleting.error}
              </Alert>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setDialog(null)} disabled={deleting.busy} autoFocus>
              {t('cancel')}
            </Button>
            <Button color="error" variant="contained" onClick={() => void confirmDelete()} disabled={deleting.busy}>
              {t('delete')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
      {dialog?.kind === 'reload' ? (
        <Dialog open onClose={() => setDialog(null)} aria-labelledby="ce-reload-title">
          <DialogTitle id="ce-reload-title">{t('reload_title')}</DialogTitle>
          <DialogContent>
            <DialogContentText>{t('reload_text')}</DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setDialog(null)} autoFocus>
              {t('cancel')}
            </Button>
            <Button
              color="warning"
              variant="contained"
              onClick={() => {
                setDialog(null);
                reload();
              }}
            >
              {t('reload')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
      <Snackbar
        open={deletedToast !== null}
        autoHideDuration={6000}
        onClose={(_, reason) => reason !== 'clickaway' && setDeletedToast(null)}
        message={deletedToast !== null ? t('deleted', { name: deletedToast }) : ''}
        action={
          <Button
            color="secondary"
            size="small"
            onClick={() => {
              setDeletedToast(null);
              undo();
            }}
          >
            {t('undo')}
          </Button>
        }
      />
    </Box>
  );
}

const SLIDE_HIDDEN = ['sl_carouselid'] as const;
const VARIANT_HIDDEN = ['v_carouselid'] as const;

/** Whether every group's layers are what was sent (nothing waits to be saved). */
function sameGroups(local: Record<string, Layer[]>, sent: Record<string, Layer[]>): boolean {
  return Object.keys(local).every((g) => sameLayers(local[g], sent[g]));
}

export default CarouselEditor;
