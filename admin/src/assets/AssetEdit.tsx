import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import SwapIcon from '@mui/icons-material/SwapHoriz';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import { accountPath } from '../providers/accountPath';
import { api } from '../providers/http';
import { ASSET_EXTENSIONS, assetKind } from '../../../resources/assets';
import { typeForExtension } from '../../../resources/files';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedEdit } from '../generated/GeneratedEdit';
import { useResourceAccess } from '../generated/access';
import { useConsoleAccount } from '../console/ConsoleContext';
import type { AssetRecord } from './assetsApi';
import { realReplaceDeps } from './assetDeps';
import { AssetUploadError, replaceAssetFile, type ReplaceDeps } from './assetUpload';
import { AssetThumb } from './AssetThumb';
import { SizeCell, TypeCell } from './assetCells';

/** The file itself: an image, a playable video or sound, a PDF or font as a link. */
function AssetPreview({ asset }: { asset: AssetRecord }) {
  const translate = useTranslate();
  // The URL carries the version: a replaced file is never served from an old cache.
  switch (asset.kind) {
    case 'image':
      return (
        <Box
          component="img"
          src={asset.url}
          alt={asset.as_title}
          data-testid="asset-preview"
          sx={{ display: 'block', maxWidth: '100%', maxHeight: 360, mx: 'auto', borderRadius: 1, bgcolor: 'action.hover' }}
        />
      );
    case 'video':
      return (
        <Box
          component="video"
          src={asset.url}
          poster={asset.thumbnail_url ?? undefined}
          controls
          preload="metadata"
          data-testid="asset-preview"
          sx={{ display: 'block', width: '100%', maxHeight: 360, borderRadius: 1, bgcolor: 'common.black' }}
        />
      );
    case 'audio':
      return <Box component="audio" src={asset.url} controls preload="metadata" data-testid="asset-preview" sx={{ width: '100%' }} />;
    default:
      return (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }} data-testid="asset-preview">
          <AssetThumb asset={asset} size={72} />
          <Link href={asset.url} target="_blank" rel="noopener noreferrer">
            {translate(asset.kind === 'pdf' ? 'ls.assets.edit.open_pdf' : 'ls.assets.edit.open_file')}
          </Link>
        </Box>
      );
  }
}

/** A place of carousels that shows an asset (GET /assets/{id}/places). */
interface AssetPlace {
  carousel_id: string;
  carousel_title: string;
  variant_title: string;
  slide_title: string | null;
  layer_title: string | null;
  button: string | null;
}

/** Where carousels show an asset, loaded once per asset and version; undefined while loading or on an error. */
function useAssetPlaces(assetId: string | undefined, version?: number): AssetPlace[] | undefined {
  const { accountId } = useConsoleAccount();
  const [places, setPlaces] = useState<AssetPlace[] | undefined>();
  useEffect(() => {
    if (!assetId) return;
    let live = true;
    api<{ places: AssetPlace[] }>(accountPath(accountId, 'assets', assetId, 'places'))
      .then((r) => live && setPlaces(r.places))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [accountId, assetId, version]);
  return places;
}

/** The list of places, as a delete or a replacement asks about them. */
function AssetPlaces({ places }: { places: AssetPlace[] | undefined }) {
  const translate = useTranslate();
  if (!places) return null;
  if (!places.length) return <Typography variant="body2">{translate('ls.assets.edit.not_used')}</Typography>;
  return (
    <Box data-testid="asset-places">
      <Typography variant="body2" sx={{ fontWeight: 600, mt: 1 }}>
        {translate('ls.assets.edit.used_in', { smart_count: places.length })}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5, maxHeight: 240, overflow: 'auto' }}>
        {places.map((p, i) => (
          <li key={i} data-testid="asset-place">
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {p.button
                ? translate('ls.assets.edit.place_button', { carousel: p.carousel_title, button: p.button, variant: p.variant_title })
                : translate('ls.assets.edit.place_layer', { carousel: p.carousel_title, slide: p.slide_title ?? '', variant: p.variant_title })}
            </Typography>
          </li>
        ))}
      </Box>
    </Box>
  );
}

/** The delete confirmation of an asset: where it goes (the trash) and every place of carousels that loses it. */
function AssetDeleteText() {
  const translate = useTranslate();
  const record = useRecordContext();
  const places = useAssetPlaces(record?.id as string | undefined);
  return (
    <Box>
      <Typography variant="body2">{translate('ls.assets.edit.delete_text')}</Typography>
      <AssetPlaces places={places} />
    </Box>
  );
}

/**
 * Beside the form: the file's preview, its version, name, SHA-256 and links, and "Replace file" (the update bit): the
 * same upload as a new asset, then PUT /assets/{id}/file keeps the id and raises the version; the record reloads.
 */
export function AssetFilePanel({ asset, deps }: { asset: AssetRecord; deps?: ReplaceDeps }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const { accountId } = useConsoleAccount();
  const { canUpdate } = useResourceAccess('assets');
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  // The failure's message key, and whether trying the same file again can help (AssetUploadError.retryable).
  const [error, setError] = useState<{ key: string; retryable: boolean } | null>(null);
  const [last, setLast] = useState<File | null>(null);
  // A chosen file waits here for the confirmation (what shows the asset will change).
  const [chosen, setChosen] = useState<File | null>(null);
  const places = useAssetPlaces(asset.id, asset.as_version);
  const sameKind = ASSET_EXTENSIONS.filter((e) => assetKind(typeForExtension(e)?.mime ?? '') === asset.kind);

  async function replace(file: File) {
    setLast(file);
    setError(null);
    setProgress(0);
    try {
      const saved = await replaceAssetFile(asset.id, file, deps ?? realReplaceDeps(accountId), setProgress);
      notify(translate('ls.assets.edit.replaced', { version: saved.as_version }), { type: 'success' });
      setLast(null);
      refresh();
    } catch (e) {
      const err = e instanceof AssetUploadError ? e : new AssetUploadError('error_upload_failed');
      setError({ key: err.key, retryable: err.retryable });
    } finally {
      setProgress(null);
    }
  }

  const busy = progress !== null;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="asset-file-panel">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
          {translate('ls.assets.edit.file')}
        </Typography>
        <Chip
          size="small"
          color={asset.as_version > 1 ? 'primary' : 'default'}
          label={translate('ls.assets.edit.version', { version: asset.as_version })}
          data-testid="asset-version"
        />
      </Box>
      <AssetPreview asset={asset} />
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: 'auto minmax(0, 1fr)',
          columnGap: 2,
          rowGap: 0.5,
          mt: 1.5,
          mb: 1,
          '& dt': { color: 'text.secondary' },
          '& dd': { m: 0, overflowWrap: 'anywhere' },
        }}
      >
        <dt>{translate('resources.assets.fields.as_filename')}</dt>
        <dd data-testid="asset-filename">{asset.as_filename}</dd>
        <dt>{translate('resources.assets.fields.as_sha256')}</dt>
        <dd>
          <Box component="code" sx={{ fontSize: 12 }} title={asset.as_sha256}>
            {asset.as_sha256.slice(0, 16)}…
          </Box>
        </dd>
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" href={asset.url} target="_blank" rel="noopener noreferrer" startIcon={<OpenInNewIcon />}>
          {translate('ls.assets.edit.open')}
        </Button>
        <Button size="small" href={`${asset.url}&download`} startIcon={<DownloadIcon />}>
          {translate('ls.assets.edit.download')}
        </Button>
        {canUpdate && (
          <Button size="small" variant="outlined" startIcon={<SwapIcon />} onClick={() => input.current?.click()} disabled={busy} data-testid="asset-replace">
            {translate('ls.assets.edit.replace')}
          </Button>
        )}
        <input
          ref={input}
          type="file"
          hidden
          accept={sameKind.length ? sameKind.map((e) => `.${e}`).join(',') : undefined}
          data-testid="asset-replace-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) setChosen(file);
          }}
        />
        {chosen && (
          <Dialog open onClose={() => setChosen(null)} fullWidth maxWidth="sm" aria-labelledby="asset-replace-title" data-testid="asset-replace-confirm">
            <DialogTitle id="asset-replace-title">{translate('ls.assets.edit.replace_confirm_title')}</DialogTitle>
            <DialogContent>
              <Typography variant="body2" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
                {chosen.name}
              </Typography>
              <Typography variant="body2">{translate('ls.assets.edit.replace_confirm_text')}</Typography>
              <AssetPlaces places={places} />
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setChosen(null)}>{translate('ra.action.cancel')}</Button>
              <Button
                variant="contained"
                data-testid="asset-replace-go"
                onClick={() => {
                  const file = chosen;
                  setChosen(null);
                  void replace(file);
                }}
              >
                {translate('ls.assets.edit.replace_confirm')}
              </Button>
            </DialogActions>
          </Dialog>
        )}
      </Box>
      {canUpdate && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          {translate('ls.assets.edit.replace_help')}
        </Typography>
      )}
      {busy && (
        <LinearProgress
          variant="determinate"
          value={Math.round(progress * 100)}
          sx={{ mt: 1, height: 6, borderRadius: 3 }}
          aria-label={translate('ls.assets.edit.replacing')}
          data-testid="asset-replace-progress"
        />
      )}
      {error && (
        <Alert
          severity="error"
          sx={{ mt: 1.5 }}
          data-testid="asset-replace-error"
          action={
            last && error.retryable ? (
              <Button color="inherit" size="small" onClick={() => void replace(last)}>
                {translate('ls.assets.edit.retry')}
              </Button>
            ) : undefined
          }
        >
          {translate(error.key, { _: error.key })}
        </Alert>
      )}
    </Paper>
  );
}

const OVERRIDES = { as_size: { Cell: SizeCell }, as_type: { Cell: TypeCell } };

/**
 * /console/{a}/assets/{id}: the title and name (generated form), the type, size and version read-only, the file's
 * preview with "Replace file" beside them, and delete with a confirmation that says where the asset disappears from.
 */
export default function AssetEdit({ decl }: { decl: ResourceDeclaration }) {
  return (
    <GeneratedEdit
      decl={decl}
      form={(record) => ({
        overrides: OVERRIDES,
        aside: <AssetFilePanel asset={record as unknown as AssetRecord} />,
        maxWidth: 1200,
        // The confirmation lists the places of carousels that lose it; confirmed, the delete says force=1 (else 409).
        deleteConfirmContent: <AssetDeleteText />,
        deleteMeta: { query: 'force=1' },
      })}
    />
  );
}
