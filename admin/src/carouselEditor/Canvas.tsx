import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import LanguageIcon from '@mui/icons-material/Language';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import QrCodeIcon from '@mui/icons-material/QrCode2';
import TouchAppIcon from '@mui/icons-material/TouchAppOutlined';
import ImageIcon from '@mui/icons-material/ImageOutlined';
import {
  HANDLE_CURSOR,
  HANDLE_POSITION,
  HANDLES,
  moveRect,
  nudgeRect,
  resizeRect,
  snapTargets,
  toCanvas,
  type Guide,
  type Handle,
  type Rect,
  type Size,
  type SnapTargets,
} from './geometry';
import { rectOf, typeOf, type Layer, type Row } from './layerModel';

export type T = (key: string, options?: Record<string, unknown>) => string;

/** Snapping reaches this far, in screen pixels (whatever the scale). */
export const SNAP_SCREEN_PX = 6;
/** A press that moves less than this (screen pixels) is a click, not a drag. */
const DRAG_START_PX = 3;

export interface CanvasProps {
  size: Size;
  background: string;
  layers: readonly Layer[];
  assets: Record<string, Row>;
  selected: string | null;
  canEdit: boolean;
  scale: number;
  /** Layers whose values the API would refuse (drawn in red, not saved). */
  invalid: ReadonlySet<string>;
  /** Titles of the carousels (hotspot targets) and collections (QR layers) by id. */
  names: { carousels: Map<string, string>; collections: Map<string, string> };
  t: T;
  onSelect: (key: string | null) => void;
  /** A drag ended: the layer's new place and size. */
  onRect: (key: string, rect: Rect) => void;
  /** An arrow key moved the layer. */
  onNudge: (key: string, rect: Rect) => void;
  onDelete: (key: string) => void;
  onDuplicate: (key: string) => void;
  onRestack: (key: string, direction: 'forward' | 'backward') => void;
}

interface Live {
  key: string;
  rect: Rect;
  guides: Guide[];
}

interface Drag {
  key: string;
  handle: Handle | null;
  pointerId: number;
  startX: number;
  startY: number;
  start: Rect;
  started: boolean;
  targets: SnapTargets;
  element: HTMLElement;
}

/** What a layer's words say about it (its title, else its type). */
export function layerName(layer: Layer, t: T): string {
  const title = typeof layer.values.ly_title === 'string' ? layer.values.ly_title.trim() : '';
  return title || t(`types.${typeOf(layer.values)}`);
}

/** What a layer shows on the canvas, drawn as the player will: the asset, a web page box, a hotspot area, a QR code. */
const LayerContent = memo(function LayerContent({ values, assets, names, t, side }: { values: Row; assets: Record<string, Row>; names: CanvasProps['names']; t: T; side: number }) {
  const type = typeOf(values);
  if (type === 'image' || type === 'video') {
    const asset = values.ly_assetid ? assets[String(values.ly_assetid)] : undefined;
    const thumb = asset?.thumbnail_url as string | null | undefined;
    const url = asset?.url as string | undefined;
    if (!asset || (!thumb && !url))
      return (
        <div className="ce-placeholder ce-noasset">
          <ImageIcon />
          <span>{values.ly_assetid ? t('canvas.asset_loading') : t('canvas.no_asset')}</span>
        </div>
      );
    if (type === 'video')
      return (
        <>
          {thumb ? <img src={thumb} alt="" draggable={false} /> : <video src={url} muted preload="metadata" playsInline />}
          <span className="ce-video-badge" aria-hidden="true">
            <PlayArrowIcon sx={{ fontSize: 16 }} />
          </span>
        </>
      );
    return <img src={thumb || url} alt="" draggable={false} />;
  }
  if (type === 'iframe')
    return (
      <div className="ce-placeholder ce-iframe">
        <LanguageIcon />
        <strong>{t('types.iframe')}</strong>
        <span>{String(values.ly_iframe_url ?? '')}</span>
      </div>
    );
  if (type === 'hotspot') {
    const target = values.ly_hotspot_carouselid ? names.carousels.get(String(values.ly_hotspot_carouselid)) : undefined;
    return (
      <div className="ce-placeholder ce-hotspot">
        <TouchAppIcon />
        <strong>{t('types.hotspot')}</strong>
        {target ? <span>{t('canvas.opens', { name: target })}</span> : null}
      </div>
    );
  }
  const collection = values.ly_collectionid ? names.collections.get(String(values.ly_collectionid)) : undefined;
  const fg = typeof values.ly_qr_fg === 'string' && values.ly_qr_fg ? values.ly_qr_fg : '#000000';
  const bg = typeof values.ly_qr_bg === 'string' && values.ly_qr_bg ? values.ly_qr_bg : '#ffffff';
  return (
    <div className="ce-placeholder" style={{ background: bg, color: fg }}>
      <QrCodeIcon sx={{ fontSize: Math.max(12, Math.round(side * (collection && side > 80 ? 0.7 : 0.9))) }} />
      {collection && side > 80 ? <span>{collection}</span> : null}
    </div>
  );
});

const px = (v: number) => `${v}px`;
const boxStyle = (r: Rect, scale: number) => ({ left: px(r.x * scale), top: px(r.y * scale), width: px(Math.max(1, r.width * scale)), height: px(Math.max(1, r.height * scale)) });

/**
 * A slide in one variant at the variant's size, scaled to fit: the layers drawn as the player will (clipped to the
 * canvas), and above them a transparent box per layer to select (click, Tab), drag, resize by eight handles (Shift
 * keeps the proportions), nudge with the arrow keys (Shift: 10 px), delete, duplicate (Ctrl+D) and restack ([ and ]).
 * Moving and resizing snap to the canvas' and the other layers' edges and centres (Alt: no snapping) and show guides.
 * A drag is drawn here only; the editor hears of it when it ends.
 */
export function Canvas(props: CanvasProps) {
  const { size, background, layers, assets, selected, canEdit, scale, invalid, names, t } = props;
  const [live, setLiveState] = useState<Live | null>(null);
  // the drag's latest place, for the drop (state updates are not read back synchronously)
  const liveRef = useRef<Live | null>(null);
  const setLive = (next: Live | null) => {
    liveRef.current = next;
    setLiveState(next);
  };
  const drag = useRef<Drag | null>(null);
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });
  const boxes = useRef(new Map<string, HTMLDivElement>());

  // the selected layer keeps the focus when it is chosen elsewhere (the layer list, undo)
  useEffect(() => {
    if (!selected) return;
    const box = boxes.current.get(selected);
    const active = document.activeElement;
    if (box && active && active !== box && (active.classList.contains('ce-box') || active === document.body)) box.focus({ preventScroll: true });
  }, [selected]);

  const start = useCallback((e: PointerEvent<HTMLElement>, key: string, handle: Handle | null) => {
    const { layers: list, size: canvas, canEdit: editable, onSelect } = latest.current;
    if (e.button !== 0) return;
    e.stopPropagation();
    onSelect(key);
    const box = boxes.current.get(key);
    box?.focus({ preventScroll: true });
    if (!editable) return;
    e.preventDefault();
    const layer = list.find((l) => l.key === key);
    if (!layer) return;
    const others = list.filter((l) => l.key !== key).map((l) => rectOf(l.values, canvas));
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = {
      key,
      handle,
      pointerId: e.pointerId,
      startX: e.clientX,
      startY: e.clientY,
      start: rectOf(layer.values, canvas),
      started: false,
      targets: snapTargets(canvas, others),
      element: e.currentTarget,
    };
  }, []);

  const onPointerMove = useCallback((e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || e.pointerId !== d.pointerId) return;
    const sx = e.clientX - d.startX;
    const sy = e.clientY - d.startY;
    if (!d.started && Math.hypot(sx, sy) < DRAG_START_PX) return;
    d.started = true;
    const k = latest.current.scale;
    const dx = toCanvas(sx, k);
    const dy = toCanvas(sy, k);
    const threshold = toCanvas(SNAP_SCREEN_PX, k);
    const targets = e.altKey ? null : d.targets;
    const next = d.handle ? resizeRect(d.start, d.handle, dx, dy, { keepAspect: e.shiftKey, targets, threshold }) : moveRect(d.start, dx, dy, targets, threshold);
    setLive({ key: d.key, rect: next.rect, guides: next.guides });
  }, []);

  const finish = useCallback((commit: boolean) => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    if (d.element.hasPointerCapture?.(d.pointerId)) d.element.releasePointerCapture(d.pointerId);
    const current = liveRef.current;
    setLive(null);
    if (commit && d.started && current && current.key === d.key) {
      const r = current.rect;
      const s = d.start;
      if (r.x !== s.x || r.y !== s.y || r.width !== s.width || r.height !== s.height) latest.current.onRect(d.key, r);
    }
  }, []);

  const onPointerUp = useCallback(
    (e: PointerEvent<HTMLElement>) => {
      if (drag.current?.pointerId === e.pointerId) finish(true);
    },
    [finish],
  );
  const onPointerCancel = useCallback(
    (e: PointerEvent<HTMLElement>) => {
      if (drag.current?.pointerId === e.pointerId) finish(false);
    },
    [finish],
  );

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLDivElement>, key: string) => {
      const { layers: list, size: canvas, canEdit: editable, onNudge, onDelete, onDuplicate, onRestack, onSelect } = latest.current;
      if (e.key === 'Escape') {
        if (drag.current) finish(false);
        else onSelect(null);
        e.preventDefault();
        return;
      }
      if (!editable || drag.current) return;
      const layer = list.find((l) => l.key === key);
      if (!layer) return;
      const mod = e.ctrlKey || e.metaKey;
      const nudged = !mod && !e.altKey ? nudgeRect(rectOf(layer.values, canvas), e.key, e.shiftKey) : null;
      if (nudged) {
        e.preventDefault();
        onNudge(key, nudged);
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault();
        onDelete(key);
      } else if (mod && (e.key === 'd' || e.key === 'D')) {
        e.preventDefault();
        onDuplicate(key);
      } else if (e.key === ']' || e.key === '[') {
        e.preventDefault();
        onRestack(key, e.key === ']' ? 'forward' : 'backward');
      }
    },
    [finish],
  );

  useEffect(() => () => finish(false), [finish]);

  const width = Math.round(size.width * scale);
  const height = Math.round(size.height * scale);
  const rectFor = (l: Layer) => (live?.key === l.key ? live.rect : rectOf(l.values, size));
  return (
    <div
      className="ce-stage"
      data-testid="ce-stage"
      tabIndex={-1}
      style={{ width: px(width), height: px(height) }}
      onPointerDown={(e) => {
        if (e.target === e.currentTarget || (e.target as HTMLElement).classList.contains('ce-clip')) latest.current.onSelect(null);
      }}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
    >
      <div className="ce-clip" style={{ background }} aria-hidden="true">
        {layers.map((l) => (
          <div key={l.key} className="ce-content" style={boxStyle(rectFor(l), scale)}>
            <LayerContent values={l.values} assets={assets} names={names} t={t} side={Math.min(rectFor(l).width, rectFor(l).height) * scale} />
          </div>
        ))}
      </div>
      <p id="ce-canvas-help" className="ce-sr">
        {canEdit ? t('canvas.help') : t('canvas.help_readonly')}
      </p>
      {layers.map((l) => {
        const r = rectFor(l);
        const isSelected = l.key === selected;
        const name = layerName(l, t);
        const classes = ['ce-box', isSelected ? 'ce-box--selected' : '', invalid.has(l.key) ? 'ce-box--invalid' : '', canEdit ? '' : 'ce-box--readonly'].filter(Boolean).join(' ');
        return (
          <div
            key={l.key}
            ref={(node) => {
              if (node) boxes.current.set(l.key, node);
              else boxes.current.delete(l.key);
            }}
            className={classes}
            style={boxStyle(r, scale)}
            data-layer={l.key}
            data-type={String(l.values.ly_type)}
            role="button"
            tabIndex={0}
            aria-roledescription={t('canvas.layer')}
            aria-label={t('canvas.layer_label', { name, type: t(`types.${typeOf(l.values)}`), x: r.x, y: r.y, width: r.width, height: r.height })}
            aria-pressed={isSelected}
            aria-invalid={invalid.has(l.key) || undefined}
            aria-describedby="ce-canvas-help"
            onPointerDown={(e) => start(e, l.key, null)}
            onFocus={() => latest.current.selected !== l.key && latest.current.onSelect(l.key)}
            onKeyDown={(e) => onKeyDown(e, l.key)}
          >
            {isSelected ? <span className="ce-tag">{name}</span> : null}
            {isSelected && canEdit
              ? HANDLES.map((h) => (
                  <span
                    key={h}
                    className="ce-handle"
                    data-handle={h}
                    aria-hidden="true"
                    style={{ left: `${HANDLE_POSITION[h][0] * 100}%`, top: `${HANDLE_POSITION[h][1] * 100}%`, cursor: HANDLE_CURSOR[h] }}
                    onPointerDown={(e) => start(e, l.key, h)}
                  />
                ))
              : null}
          </div>
        );
      })}
      {live?.guides.map((g, i) => (
        <div
          key={`${g.axis}-${g.pos}-${i}`}
          className={`ce-guide ce-guide--${g.axis}`}
          data-testid="ce-guide"
          style={g.axis === 'x' ? { left: px(g.pos * scale) } : { top: px(g.pos * scale) }}
        />
      ))}
    </div>
  );
}
