import type { Theme } from '@mui/material/styles';
import type { SystemStyleObject } from '@mui/system';

/**
 * The editor's look as one style object on its root (like the form designer's): plain elements with `ce-` class
 * names, so a drag redraws a few divs and no styled components. Three columns with room of its own from WIDE_FROM
 * (slides, canvas, inspector with the preview), two below that (the inspector and preview under the canvas), one on a
 * phone.
 */
export const WIDE_FROM = 860;
export const MEDIUM_FROM = 600;

export const editorStyles = (theme: Theme): SystemStyleObject<Theme> => ({
  position: 'relative',
  '& .ce-sr': { position: 'absolute', width: '1px', height: '1px', padding: 0, margin: '-1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0 },
  // (the canvas takes what the lists and the inspector leave: they stay narrow)
  '& .ce-grid': { display: 'grid', gap: 1.5, gridTemplateColumns: 'minmax(0, 1fr)', alignItems: 'start' },
  '&.ce-root--medium .ce-grid': { gridTemplateColumns: 'minmax(160px, 200px) minmax(0, 1fr)' },
  '&.ce-root--medium .ce-side': { gridColumn: '1 / -1', display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1.5, alignItems: 'start' },
  '&.ce-root--wide .ce-grid': { gridTemplateColumns: 'minmax(160px, 190px) minmax(0, 1fr) minmax(230px, 270px)' },
  '& .ce-side, & .ce-lists': { display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0 },
  '& .ce-panel': {
    border: `1px solid ${theme.palette.divider}`,
    borderRadius: `${theme.shape.borderRadius}px`,
    background: theme.palette.background.paper,
    padding: 1.5,
    minWidth: 0,
  },
  '& .ce-panel--list': { padding: 1 },
  '& .ce-slide-actions': { display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: 0.5, mt: 1 },
  '& .ce-panel-head': { display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' },
  '& .ce-heading': { fontSize: '1rem', fontWeight: 600, margin: 0 },
  '& .ce-count': { fontWeight: 400, color: theme.palette.text.secondary },
  '& .ce-muted': { color: theme.palette.text.secondary, fontSize: '0.875rem', margin: '4px 0' },

  // the bar above everything: variants, undo/redo, save state
  '& .ce-bar': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 },
  '& .ce-variants': { display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center', minWidth: 0 },
  '& .ce-variant': { textTransform: 'none' },
  '& .ce-variant-size': { color: 'inherit', opacity: 0.75, fontSize: '0.75rem', ml: 0.75, fontVariantNumeric: 'tabular-nums' },
  '& .ce-spacer': { flex: 1 },
  '& .ce-status': { display: 'inline-flex', alignItems: 'center', gap: 0.75, fontSize: '0.875rem', color: theme.palette.text.secondary, minHeight: 32 },
  '& .ce-status--error': { color: theme.palette.error.main },
  '& .ce-status--warning': { color: theme.palette.warning.dark },

  // slides
  '& .ce-slide': { display: 'flex', alignItems: 'center', gap: 0.5, flex: 1, minWidth: 0 },
  '& .ce-slide-select': {
    flex: 1,
    minWidth: 0,
    textAlign: 'left',
    background: 'transparent',
    border: 0,
    borderRadius: `${theme.shape.borderRadius}px`,
    padding: '4px 6px',
    color: 'inherit',
    font: 'inherit',
    cursor: 'pointer',
    '&:hover': { background: theme.palette.action.hover },
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 },
  },
  '& .ce-slide-select[aria-current="true"]': { background: theme.palette.action.selected },
  '& .ce-slide-title': { display: 'block', fontWeight: 600, fontSize: '0.9rem', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& .ce-slide-meta': { display: 'block', fontSize: '0.75rem', color: theme.palette.text.secondary, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },

  // the canvas
  '& .ce-panel--canvas': { padding: 1 },
  '& .ce-toolbar': { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5, mb: 1 },
  '& .ce-scale': { fontSize: '0.75rem', color: theme.palette.text.secondary, whiteSpace: 'nowrap', ml: 'auto' },
  '& .ce-room': {
    position: 'relative',
    padding: '8px',
    background: theme.palette.mode === 'dark' ? theme.palette.grey[900] : theme.palette.grey[200],
    borderRadius: `${theme.shape.borderRadius}px`,
    overflow: 'auto',
  },
  '& .ce-stage': { position: 'relative', margin: '0 auto', touchAction: 'none', userSelect: 'none', outline: 'none' },
  '& .ce-stage:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 4 },
  '& .ce-clip': { position: 'absolute', inset: 0, overflow: 'hidden', boxShadow: theme.shadows[3] },
  '& .ce-content': { position: 'absolute', pointerEvents: 'none', overflow: 'hidden' },
  '& .ce-content img, & .ce-content video': { width: '100%', height: '100%', objectFit: 'contain', display: 'block' },
  '& .ce-box': {
    position: 'absolute',
    cursor: 'move',
    outline: '1px dashed transparent',
    '&:hover': { outlineColor: theme.palette.primary.light },
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 1 },
  },
  '& .ce-box--readonly': { cursor: 'default' },
  '& .ce-box--selected': { outline: `2px solid ${theme.palette.primary.main} !important`, zIndex: 2 },
  '& .ce-box--invalid': { outline: `2px solid ${theme.palette.error.main} !important` },
  '& .ce-tag': {
    position: 'absolute',
    left: -2,
    bottom: '100%',
    mb: '2px',
    px: 0.75,
    fontSize: '0.7rem',
    lineHeight: '18px',
    maxWidth: 220,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    color: theme.palette.primary.contrastText,
    background: theme.palette.primary.main,
    borderRadius: '3px',
    pointerEvents: 'none',
  },
  '& .ce-handle': {
    position: 'absolute',
    width: 12,
    height: 12,
    margin: '-6px 0 0 -6px',
    background: theme.palette.background.paper,
    border: `2px solid ${theme.palette.primary.main}`,
    borderRadius: '2px',
    zIndex: 3,
    touchAction: 'none',
  },
  '& .ce-guide': { position: 'absolute', pointerEvents: 'none', background: theme.palette.secondary.main, zIndex: 4 },
  // (sx reads 1 as 100 %: pixels as strings)
  '& .ce-guide--x': { top: '-8px', bottom: '-8px', width: '1px' },
  '& .ce-guide--y': { left: '-8px', right: '-8px', height: '1px' },
  '& .ce-placeholder': {
    width: '100%',
    height: '100%',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '4px',
    textAlign: 'center',
    fontSize: '12px',
    lineHeight: 1.2,
    padding: '4px',
    boxSizing: 'border-box',
    overflow: 'hidden',
    wordBreak: 'break-word',
  },
  // (white words with a shadow read on any slide, light or dark)
  '& .ce-iframe, & .ce-hotspot, & .ce-noasset': { color: '#ffffff', textShadow: '0 1px 2px rgba(0, 0, 0, 0.9)' },
  '& .ce-iframe': { background: 'rgba(25, 118, 210, 0.35)', border: '2px solid rgba(66, 165, 245, 0.95)' },
  '& .ce-hotspot': { background: 'rgba(255, 193, 7, 0.22)', border: '2px dashed #ffb300' },
  '& .ce-noasset': { background: 'rgba(127, 127, 127, 0.45)', border: '1px dashed rgba(255, 255, 255, 0.7)' },
  '& .ce-video-badge': {
    position: 'absolute',
    right: 4,
    bottom: 4,
    background: 'rgba(0,0,0,0.6)',
    color: '#fff',
    borderRadius: '50%',
    width: 22,
    height: 22,
    display: 'grid',
    placeItems: 'center',
  },
  '& .ce-empty-canvas': { padding: 3, textAlign: 'center' },

  // layers list
  '& .ce-layers': { listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  '& .ce-layer-row': {
    display: 'flex',
    alignItems: 'center',
    gap: 1,
    width: '100%',
    textAlign: 'left',
    background: 'transparent',
    border: 0,
    borderRadius: `${theme.shape.borderRadius}px`,
    padding: '4px 6px',
    color: 'inherit',
    font: 'inherit',
    fontSize: '0.875rem',
    cursor: 'pointer',
    '&:hover': { background: theme.palette.action.hover },
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 },
  },
  '& .ce-layer-row[aria-current="true"]': { background: theme.palette.action.selected },
  '& .ce-layer-row-text': { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& .ce-layer-row-error': { color: theme.palette.error.main },

  // inspector
  '& .ce-inspector': { display: 'flex', flexDirection: 'column', gap: 1.5 },
  '& .ce-inspector-grid': { display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 1 },

  // preview
  '& .ce-preview-box': { position: 'relative', overflow: 'hidden', background: '#000', borderRadius: '4px', margin: '0 auto' },
  '& .ce-preview-box iframe': { position: 'absolute', left: 0, top: 0, border: 0, transformOrigin: '0 0', background: '#000' },
});
