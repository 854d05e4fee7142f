import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { layersDeclaration, layerErrors, requiredFieldsOf, type LayerType, type Row } from './layerModel';
import { LayerField } from './LayerFields';
import type { T } from './Canvas';

/**
 * A new layer asks first for what its type cannot do without (the declaration's rule: an image's or video's asset,
 * a web page's address, a hotspot's carousel, a QR code's collection); then it is placed in the middle of the canvas.
 */
export function AddLayerDialog({ type, t, onCancel, onAdd }: { type: LayerType; t: T; onCancel: () => void; onAdd: (extra: Row, asset?: Row) => void }) {
  const required = requiredFieldsOf(type);
  const [values, setValues] = useState<Row>({});
  const [asset, setAsset] = useState<Row | undefined>(undefined);
  const [tried, setTried] = useState(false);
  const errors = layerErrors({ ...values, ly_type: type });
  const missing = required.filter((f) => errors[f]);
  const submit = () => {
    setTried(true);
    if (missing.length) return;
    onAdd(values, asset);
  };
  return (
    <Dialog open onClose={onCancel} maxWidth="xs" fullWidth aria-labelledby="ce-add-title">
      <DialogTitle id="ce-add-title">{t('add_title', { type: t(`types.${type}`) })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t(`add_hint.${type}`)}</DialogContentText>
        <form
          id="ce-add-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          {required.map((field) => (
            <LayerField
              key={field}
              field={field}
              meta={layersDeclaration.fields![field]}
              type={type}
              value={values[field]}
              error={tried ? errors[field] : undefined}
              onChange={(value, extra) => {
                setValues((v) => ({ ...v, [field]: value }));
                if (extra?.asset) setAsset(extra.asset);
              }}
            />
          ))}
        </form>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('cancel')}</Button>
        <Button type="submit" form="ce-add-form" variant="contained">
          {t('add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
