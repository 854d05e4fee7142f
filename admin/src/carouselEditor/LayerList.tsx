import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { layerName, type T } from './Canvas';
import { typeOf, type Layer } from './layerModel';
import { TYPE_ICONS } from './typeIcons';

/** The layers of the canvas, top first, to select one; a layer that cannot be saved as it is is marked. */
export function LayerList({
  layers,
  selected,
  invalid,
  onCanvas,
  t,
  onSelect,
}: {
  layers: readonly Layer[];
  selected: string | null;
  invalid: ReadonlySet<string>;
  onCanvas: boolean;
  t: T;
  onSelect: (key: string) => void;
}) {
  return (
    <section className="ce-panel ce-panel--list" aria-labelledby="ce-layers-heading">
      <div className="ce-panel-head">
        <h2 id="ce-layers-heading" className="ce-heading">
          {t('layers.title')} <span className="ce-count">({layers.length})</span>
        </h2>
      </div>
      {layers.length === 0 ? (
        <p className="ce-muted">{onCanvas ? t('layers.empty') : t('layers.none')}</p>
      ) : (
        <ul className="ce-layers" aria-label={t('layers.list_label')}>
          {[...layers].reverse().map((l) => {
            const Icon = TYPE_ICONS[typeOf(l.values)];
            return (
              <li key={l.key}>
                <button type="button" className="ce-layer-row" aria-current={l.key === selected ? 'true' : undefined} onClick={() => onSelect(l.key)} data-testid="ce-layer-row">
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
}
