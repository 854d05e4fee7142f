import { memo } from 'react';
import Button from '@mui/material/Button';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { inspectorFields, layerErrors, typeOf, type Layer, type Row } from './layerModel';
import { LayerField } from './LayerFields';
import { layerName, type T } from './Canvas';
import { TYPE_ICONS } from './typeIcons';

/** Position and size side by side; every other field on a line of its own. */
const GEOMETRY = new Set(['ly_x', 'ly_y', 'ly_width', 'ly_height']);

export interface LayerInspectorProps {
  layer: Layer;
  canEdit: boolean;
  /** Errors the API gave for this layer (message keys by field), shown until the field changes. */
  serverErrors?: Record<string, string>;
  t: T;
  onField: (key: string, field: string, value: unknown, asset?: Row) => void;
  onDuplicate: (key: string) => void;
  onDelete: (key: string) => void;
}

/**
 * The selected layer's fields, as the layers declaration has them for its type (`showWhen`): title, the asset of an
 * image or video, the web page's address, the hotspot's carousel, the QR code's collection, download form, form style
 * and colours, the video's flags, and its place and size as numbers. Each change applies at once (the canvas follows)
 * and is saved when the layer is valid; its errors show under the fields.
 */
export const LayerInspector = memo(function LayerInspector({ layer, canEdit, serverErrors, t, onField, onDuplicate, onDelete }: LayerInspectorProps) {
  const type = typeOf(layer.values);
  const fields = inspectorFields(type);
  const errors = { ...serverErrors, ...layerErrors(layer.values) };
  const Icon = TYPE_ICONS[type];
  const geometry = fields.filter(([f]) => GEOMETRY.has(f));
  const field = ([name, meta]: (typeof fields)[number]) => (
    <LayerField
      key={name}
      field={name}
      meta={meta}
      type={type}
      value={layer.values[name]}
      error={errors[name]}
      disabled={!canEdit}
      onChange={(value, extra) => onField(layer.key, name, value, extra?.asset)}
    />
  );
  return (
    <section className="ce-panel ce-inspector" aria-labelledby="ce-inspector-heading" data-testid="ce-inspector">
      <div className="ce-panel-head">
        <h2 id="ce-inspector-heading" className="ce-heading" style={{ display: 'flex', alignItems: 'center', gap: 6, minWidth: 0 }}>
          <Icon fontSize="small" aria-hidden="true" />
          <span style={{ overflowWrap: 'anywhere' }}>{layerName(layer, t)}</span>
        </h2>
        {layerName(layer, t) !== t(`types.${type}`) ? <span className="ce-muted">{t(`types.${type}`)}</span> : null}
      </div>
      {fields.filter(([f]) => f === 'ly_title').map(field)}
      {fields.filter(([f]) => !GEOMETRY.has(f) && f !== 'ly_title').map(field)}
      <fieldset className="ce-inspector-grid" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="ce-sr">{t('inspector.geometry')}</legend>
        {geometry.map(field)}
      </fieldset>
      {canEdit ? (
        <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
          <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => onDuplicate(layer.key)}>
            {t('duplicate')}
          </Button>
          <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => onDelete(layer.key)} sx={{ ml: 'auto' }}>
            {t('delete_layer')}
          </Button>
        </div>
      ) : null}
    </section>
  );
});
