import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ImageIcon from '@mui/icons-material/ImageOutlined';
import MovieIcon from '@mui/icons-material/MovieOutlined';
import FileIcon from '@mui/icons-material/InsertDriveFileOutlined';
import { useGetList, useGetOne, useTranslate } from 'react-admin';
import { assetKind } from '../../../resources/assets';

type Row = Record<string, unknown>;
export type AssetKind = ReturnType<typeof assetKind>;

export interface AssetPickerProps {
  /** The chosen asset's id. */
  value: string | null | undefined;
  /** A new choice: the id and the asset's record (its URLs, for a thumbnail). */
  onChange: (id: string | null, asset?: Row) => void;
  /** Only assets of these kinds are offered (image, video, …); all when left out. */
  kinds?: readonly AssetKind[];
  label: string;
  disabled?: boolean;
  error?: string;
}

/** The most assets the picker lists at once; the search narrows them on the server. */
const PAGE = 200;

const kindOfAsset = (a: Row): AssetKind => (typeof a.kind === 'string' ? (a.kind as AssetKind) : assetKind(String(a.as_type ?? '')));

/** An asset's small picture: its thumbnail, the image itself, or an icon by kind. */
export function AssetThumb({ asset, size = 48 }: { asset: Row | undefined; size?: number }) {
  const kind = asset ? kindOfAsset(asset) : 'other';
  const src = (asset?.thumbnail_url as string | null | undefined) || (kind === 'image' ? (asset?.url as string | undefined) : undefined);
  const Icon = kind === 'video' ? MovieIcon : kind === 'image' ? ImageIcon : FileIcon;
  return (
    <Box sx={{ width: size, height: size, flex: '0 0 auto', borderRadius: 1, bgcolor: 'action.hover', display: 'grid', placeItems: 'center', overflow: 'hidden' }}>
      {src ? <Box component="img" src={src} alt="" sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} /> : <Icon color="action" />}
    </Box>
  );
}

/**
 * Picks one of the account's assets (a minimal picker for the carousel editor; the shared one of the assets screens
 * takes the same props): the chosen asset with its thumbnail and a button that opens the account's assets of the
 * wanted kinds, searchable by title and name.
 */
export function AssetPicker({ value, onChange, kinds, label, disabled, error }: AssetPickerProps) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const labelId = useId();
  const { data: chosen } = useGetOne<Row & { id: string }>('assets', { id: value ?? '' }, { enabled: !!value });
  return (
    <Box sx={{ mb: 1 }}>
      <Typography id={labelId} variant="caption" color={error ? 'error' : 'text.secondary'} component="div" sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
        <AssetThumb asset={value ? chosen : undefined} />
        <Typography variant="body2" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }} data-testid="asset-picker-value">
          {value ? String(chosen?.as_title ?? '…') : translate('ls.carouselEditor.assets.none')}
        </Typography>
        {!disabled && (
          <Button size="small" variant="outlined" onClick={() => setOpen(true)} aria-describedby={labelId}>
            {value ? translate('ls.carouselEditor.assets.change') : translate('ls.carouselEditor.assets.choose')}
          </Button>
        )}
      </Box>
      {error ? (
        <Typography variant="caption" color="error" component="div" role="alert" sx={{ mt: 0.5 }}>
          {error}
        </Typography>
      ) : null}
      {open ? (
        <AssetDialog
          label={label}
          kinds={kinds}
          value={value}
          onClose={() => setOpen(false)}
          onPick={(asset) => {
            setOpen(false);
            onChange(String(asset.as_id ?? asset.id), asset);
          }}
        />
      ) : null}
    </Box>
  );
}

function AssetDialog({ label, kinds, value, onClose, onPick }: { label: string; kinds?: readonly AssetKind[]; value: string | null | undefined; onClose: () => void; onPick: (asset: Row) => void }) {
  const translate = useTranslate();
  const [q, setQ] = useState('');
  const { data = [], isPending, error } = useGetList<Row & { id: string }>('assets', {
    pagination: { page: 1, perPage: PAGE },
    sort: { field: 'as_title', order: 'ASC' },
    filter: q.trim() ? { q: q.trim() } : {},
  });
  const offered = kinds?.length ? data.filter((a) => kinds.includes(kindOfAsset(a))) : data;
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{label}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          size="small"
          fullWidth
          label={translate('ls.carouselEditor.assets.search')}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          sx={{ mt: 1, mb: 2 }}
        />
        {isPending ? (
          <Typography color="text.secondary">{translate('ls.carouselEditor.loading')}</Typography>
        ) : error ? (
          <Typography color="error">{translate('ls.carouselEditor.assets.failed')}</Typography>
        ) : offered.length === 0 ? (
          <Typography color="text.secondary">{translate(q ? 'ls.carouselEditor.assets.no_match' : 'ls.carouselEditor.assets.empty')}</Typography>
        ) : (
          <Box component="ul" aria-label={label} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', gap: 1 }}>
            {offered.map((a) => {
              const id = String(a.as_id ?? a.id);
              const current = id === value;
              return (
                <li key={id}>
                  <Button
                    onClick={() => onPick(a)}
                    aria-current={current ? 'true' : undefined}
                    variant={current ? 'contained' : 'outlined'}
                    color={current ? 'primary' : 'inherit'}
                    sx={{ width: '100%', flexDirection: 'column', alignItems: 'stretch', gap: 0.5, p: 1, textTransform: 'none' }}
                  >
                    <AssetThumb asset={a} size={96} />
                    <Box component="span" sx={{ fontSize: '0.8125rem', overflowWrap: 'anywhere', textAlign: 'left' }}>
                      {String(a.as_title ?? a.as_name ?? id)}
                    </Box>
                  </Button>
                </li>
              );
            })}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}

export default AssetPicker;
