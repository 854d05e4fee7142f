import { useContext, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import UploadIcon from '@mui/icons-material/CloudUploadOutlined';
import { FieldTitle, InputHelperText, useGetList, useGetManyAggregate, useInput, useTranslate } from 'react-admin';
import { ASSET_EXTENSIONS, assetKind, typesOfKinds } from '../../../resources/assets';
import { typeForExtension } from '../../../resources/files';
import type { FieldInputProps } from '../generated/kinds';
import { ConsoleContext } from '../console/ConsoleContext';
import type { AssetRecord } from './assetsApi';
import { AssetThumb } from './AssetThumb';
import { assetTypeOf, runAssetJob, AssetUploadError, nameFromFilename, titleFromFilename, uniqueName, type AssetJob } from './assetUpload';
import { realUploaderDeps, type UploaderDeps } from './assetDeps';

/** Assets a page of the picker shows. */
export const PICKER_PAGE = 24;
const SEARCH_DELAY_MS = 250;

export interface AssetPickerProps {
  /** The chosen asset's id, or null for none. */
  value: string | null | undefined;
  /** Called with the new id (null: cleared) and, when one was picked, its record. */
  onChange: (id: string | null, asset: AssetRecord | null) => void;
  /** Offer only assets of these kinds ('image', 'video', 'audio', 'pdf', 'font'); all when unset or empty. */
  kinds?: readonly string[];
  /** The field's label (also the dialog's title). */
  label?: ReactNode;
  helperText?: ReactNode;
  /** Drawn as invalid (the helper text says why). */
  error?: boolean;
  disabled?: boolean;
  /** No "clear" button: a value is needed. */
  required?: boolean;
  /** The control's data-testid (default "asset-picker"). */
  testId?: string;
}

/**
 * A controlled asset input (account-console.md: assets): the chosen asset's thumbnail and title, "Choose" (or
 * "Change") opening a dialog with a searchable, paged grid of the account's assets (only `kinds`, when given), and
 * "Clear" unless required. Keyboard: Tab to the buttons; in the dialog the search field first, Down arrow into the
 * grid, arrows move, Enter or Space chooses, Escape closes. Must render inside the account console (its data
 * provider lists /accounts/{a}/assets).
 *
 * ```tsx
 * <AssetPicker value={layer.ly_assetid} onChange={(id) => set('ly_assetid', id)} kinds={['image', 'video']} label="Asset" />
 * ```
 */
export function AssetPicker({ value, onChange, kinds, label, helperText, error, disabled, required, testId = 'asset-picker' }: AssetPickerProps) {
  const translate = useTranslate();
  const labelId = useId();
  const [open, setOpen] = useState(false);
  // The record just picked shows at once; one chosen earlier is fetched (batched with the other pickers on screen).
  const [picked, setPicked] = useState<AssetRecord | null>(null);
  const known = picked && picked.id === value ? picked : undefined;
  const { data, isPending, error: loadError } = useGetManyAggregate<AssetRecord>('assets', { ids: value && !known ? [value] : [] }, { enabled: !!value && !known });
  const chosen = known ?? data?.find((a) => a.id === value);
  const missing = !!value && !known && !isPending && (!!loadError || !chosen);
  const choose = (asset: AssetRecord) => {
    setPicked(asset);
    setOpen(false);
    onChange(asset.id, asset);
  };
  return (
    <FormControl fullWidth error={error} disabled={disabled} sx={{ mb: 1 }} data-testid={testId}>
      {label && (
        <Typography id={labelId} variant="caption" color={error ? 'error' : 'text.secondary'} component="div" sx={{ mb: 0.5 }}>
          {label}
        </Typography>
      )}
      <Box
        role="group"
        aria-labelledby={label ? labelId : undefined}
        // In a narrow column (the carousel editor's inspector) the buttons wrap below rather than squeeze the title.
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1.5,
          p: 1,
          border: 1,
          borderColor: error ? 'error.main' : 'divider',
          borderRadius: 1,
          minWidth: 0,
          opacity: disabled ? 0.6 : 1,
        }}
      >
        <AssetThumb asset={chosen} size={56} />
        <Box sx={{ flex: '1 1 120px', minWidth: 0 }}>
          <Typography
            variant="body2"
            sx={{ fontWeight: value ? 500 : 400, overflowWrap: 'anywhere' }}
            color={value && !missing ? 'text.primary' : 'text.secondary'}
            data-testid="asset-picker-title"
          >
            {!value ? translate('ls.assets.picker.none') : chosen ? chosen.as_title : missing ? translate('ls.assets.picker.missing') : '…'}
          </Typography>
          {chosen && (
            <Typography variant="caption" color="text.secondary" component="div" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
              {chosen.as_name} · {translate(`ls.assets.kinds.${chosen.kind}`)}
            </Typography>
          )}
        </Box>
        <Button size="small" variant="outlined" onClick={() => setOpen(true)} disabled={disabled} data-testid="asset-picker-open">
          {value ? translate('ls.assets.picker.change') : translate('ls.assets.picker.choose')}
        </Button>
        {value && !required && !disabled && (
          <Tooltip title={translate('ls.assets.picker.clear')}>
            <IconButton
              size="small"
              onClick={() => {
                setPicked(null);
                onChange(null, null);
              }}
              aria-label={translate('ls.assets.picker.clear')}
              data-testid="asset-picker-clear"
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      {helperText && <FormHelperText>{helperText}</FormHelperText>}
      {open && (
        <AssetPickerDialog
          open
          title={label ?? translate('ls.assets.picker.title')}
          kinds={kinds}
          selected={value ? [value] : []}
          onClose={() => setOpen(false)}
          onChoose={(assets) => assets[0] && choose(assets[0])}
        />
      )}
    </FormControl>
  );
}

export interface AssetPickerDialogProps {
  open: boolean;
  title: ReactNode;
  kinds?: readonly string[];
  /** Several at once ("Add N assets"); otherwise a click or Enter chooses one and closes. */
  multiple?: boolean;
  /** Shown as chosen (single: the current value). */
  selected?: readonly string[];
  /** Not offered (already in a collection): shown, marked and disabled. */
  exclude?: readonly string[];
  onClose: () => void;
  onChoose: (assets: AssetRecord[]) => void;
  /** Uploads from the dialog (default: the account's API); tests pass fakes. */
  uploadDeps?: UploaderDeps;
}

/** Columns of the grid as laid out (CSS grid auto-fill), for the up and down arrows. */
function columnsOf(grid: HTMLElement | null): number {
  if (!grid) return 1;
  const cols = getComputedStyle(grid).gridTemplateColumns.split(' ').filter(Boolean).length;
  return Math.max(1, cols);
}

/**
 * The picker's dialog: search (title and name, prefix), the kinds' assets as a grid of thumbnails, paged; single
 * (click or Enter chooses) or multiple (toggle, then "Add"). An "Upload" button adds a file as a new asset (title and
 * name from its file name) and picks it.
 */
export function AssetPickerDialog({ open, title, kinds, multiple, selected = [], exclude = [], onClose, onChoose, uploadDeps }: AssetPickerDialogProps) {
  const translate = useTranslate();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<Map<string, AssetRecord>>(new Map());
  const grid = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const types = useMemo(() => (kinds?.length ? typesOfKinds(kinds) : undefined), [kinds]);

  useEffect(() => {
    // Only a changed search goes back to page 1: on opening nothing is pending, so a quick "Next" is not undone.
    const next = text.trim();
    if (next === q) return;
    const timer = setTimeout(() => {
      setQ(next);
      setPage(1);
      setActive(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, q]);

  const {
    data = [],
    total = 0,
    isPending,
    isFetching,
    refetch,
  } = useGetList<AssetRecord>(
    'assets',
    { pagination: { page, perPage: PICKER_PAGE }, sort: { field: 'as_title', order: 'ASC' }, filter: { ...(q ? { q } : {}), ...(types ? { as_type: types } : {}) } },
    { enabled: open, placeholderData: keepPreviousData },
  );
  const pages = Math.max(1, Math.ceil(total / PICKER_PAGE));
  const isOut = (a: AssetRecord) => exclude.includes(a.id);
  const isChosen = (a: AssetRecord) => (multiple ? chosen.has(a.id) : selected.includes(a.id));

  const focusTile = (i: number) => {
    setActive(i);
    const tile = () => grid.current?.querySelector<HTMLElement>(`[data-index="${i}"]`);
    // At once when the tile is there (a key pressed right after must reach it), else once it is drawn.
    if (tile()) tile()!.focus();
    else requestAnimationFrame(() => tile()?.focus());
  };

  function pick(asset: AssetRecord) {
    if (isOut(asset)) return;
    if (!multiple) return onChoose([asset]);
    setChosen((prev) => {
      const next = new Map(prev);
      if (next.has(asset.id)) next.delete(asset.id);
      else next.set(asset.id, asset);
      return next;
    });
  }

  function onGridKey(e: KeyboardEvent<HTMLDivElement>) {
    if (!data.length) return;
    const cols = columnsOf(grid.current);
    const last = data.length - 1;
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols, Home: -active, End: last - active };
    if (e.key in moves) {
      e.preventDefault();
      const to = active + moves[e.key];
      if (e.key === 'ArrowUp' && to < 0) return search.current?.focus();
      focusTile(Math.max(0, Math.min(last, to)));
    } else if (e.key === 'PageDown' && page < pages) {
      e.preventDefault();
      setPage(page + 1);
      setActive(0);
    } else if (e.key === 'PageUp' && page > 1) {
      e.preventDefault();
      setPage(page - 1);
      setActive(0);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (data[active]) pick(data[active]);
    }
  }

  const from = total ? (page - 1) * PICKER_PAGE + 1 : 0;
  const to = Math.min(total, page * PICKER_PAGE);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="asset-picker-dialog-title" data-testid="asset-picker-dialog">
      <DialogTitle id="asset-picker-dialog-title">{title}</DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, minHeight: 360 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            inputRef={search}
            autoFocus
            size="small"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' && data.length) {
                e.preventDefault();
                focusTile(Math.min(active, data.length - 1));
              } else if (e.key === 'Enter') {
                e.preventDefault();
                setQ(text.trim());
                setPage(1);
              }
            }}
            placeholder={translate('ls.assets.picker.search')}
            sx={{ flex: '1 1 240px' }}
            slotProps={{
              htmlInput: { 'aria-label': translate('ls.assets.picker.search'), 'data-testid': 'asset-picker-search' },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <PickerUpload kinds={kinds} deps={uploadDeps} onUploaded={(asset) => (multiple ? (void refetch(), pick(asset)) : onChoose([asset]))} />
        </Box>
        {kinds?.length ? (
          <Typography variant="caption" color="text.secondary">
            {translate('ls.assets.picker.only', { kinds: kinds.map((k) => translate(`ls.assets.kinds.${k}`)).join(', ') })}
          </Typography>
        ) : null}
        <Box sx={{ height: 4 }}>{isFetching && <LinearProgress sx={{ height: 4 }} />}</Box>
        {!isPending && !data.length ? (
          <Typography color="text.secondary" sx={{ textAlign: 'center', py: 6 }} data-testid="asset-picker-empty">
            {translate(q ? 'ls.assets.picker.no_match' : 'ls.assets.picker.empty')}
          </Typography>
        ) : (
          <Box
            ref={grid}
            role="listbox"
            aria-label={translate('ls.assets.picker.grid')}
            aria-multiselectable={multiple || undefined}
            onKeyDown={onGridKey}
            data-testid="asset-picker-grid"
            sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(132px, 1fr))', gap: 1.5 }}
          >
            {data.map((asset, i) => {
              const out = isOut(asset);
              const on = isChosen(asset);
              return (
                <Box
                  key={asset.id}
                  role="option"
                  aria-selected={on}
                  aria-disabled={out || undefined}
                  tabIndex={i === active ? 0 : -1}
                  data-index={i}
                  data-testid="asset-picker-option"
                  onClick={() => {
                    setActive(i);
                    pick(asset);
                  }}
                  onFocus={() => setActive(i)}
                  sx={{
                    position: 'relative',
                    p: 0.75,
                    borderRadius: 1.5,
                    border: 2,
                    borderColor: on ? 'primary.main' : 'transparent',
                    bgcolor: on ? 'action.selected' : 'transparent',
                    cursor: out ? 'default' : 'pointer',
                    opacity: out ? 0.5 : 1,
                    outline: 'none',
                    '&:hover': out ? undefined : { bgcolor: 'action.hover' },
                    '&:focus-visible': { boxShadow: (t) => `0 0 0 3px ${t.palette.primary.light}` },
                    minWidth: 0,
                  }}
                >
                  <AssetThumb asset={asset} fill />
                  <Typography variant="body2" noWrap title={asset.as_title} sx={{ mt: 0.5, fontWeight: 500 }}>
                    {asset.as_title}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" noWrap component="div" sx={{ fontFamily: 'monospace' }}>
                    {out ? translate('ls.assets.picker.already') : asset.as_name}
                  </Typography>
                  {on && <CheckCircleIcon color="primary" sx={{ position: 'absolute', top: 10, right: 10, bgcolor: 'background.paper', borderRadius: '50%' }} />}
                </Box>
              );
            })}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto', pl: 1 }} data-testid="asset-picker-range">
          {total ? translate('ls.assets.picker.range', { from, to, total }) : ''}
        </Typography>
        {pages > 1 && (
          <>
            <Button onClick={() => (setPage(page - 1), setActive(0))} disabled={page <= 1} data-testid="asset-picker-prev">
              {translate('ls.assets.picker.previous')}
            </Button>
            <Button onClick={() => (setPage(page + 1), setActive(0))} disabled={page >= pages} data-testid="asset-picker-next">
              {translate('ls.assets.picker.next')}
            </Button>
          </>
        )}
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        {multiple && (
          <Button variant="contained" disabled={!chosen.size} onClick={() => onChoose([...chosen.values()])} data-testid="asset-picker-add">
            {translate('ls.assets.picker.add', { smart_count: chosen.size, count: chosen.size })}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** Tries a taken name with -2, -3… this many times before saying so. */
const NAME_TRIES = 5;

/** "Upload" inside the picker: one file becomes a new asset (title and name from its file name) and is picked. */
function PickerUpload({ kinds, deps, onUploaded }: { kinds?: readonly string[]; deps?: UploaderDeps; onUploaded: (asset: AssetRecord) => void }) {
  const translate = useTranslate();
  const account = useContext(ConsoleContext);
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const extensions = ASSET_EXTENSIONS.filter((e) => !kinds?.length || kinds.includes(assetKind(typeForExtension(e)?.mime ?? '')));

  // Outside an account's console there is nowhere to upload to.
  if (!deps && !account) return null;

  async function upload(file: File) {
    const use = deps ?? realUploaderDeps(account!.accountId);
    setError(null);
    setProgress(0);
    const type = assetTypeOf(file.name);
    const thumb = type ? await use.thumbnail(file, type).catch(() => null) : null;
    const taken = new Set<string>();
    let job: AssetJob = { file, title: titleFromFilename(file.name), name: nameFromFilename(file.name), thumb };
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const asset = await runAssetJob(job, use, (p) => {
            if (p.progress !== undefined) setProgress(p.progress);
            if ('uploaded' in p) job = { ...job, uploaded: p.uploaded };
          });
          onUploaded(asset);
          return;
        } catch (e) {
          // A taken name: the same stored bytes under the next free-looking name.
          if (e instanceof AssetUploadError && e.fields.as_name === 'error_name_taken' && attempt < NAME_TRIES) {
            taken.add(job.name);
            job = { ...job, name: uniqueName(job.name, taken) };
            continue;
          }
          throw e;
        }
      }
    } catch (e) {
      setError(e instanceof AssetUploadError ? e.key : 'error_upload_failed');
    } finally {
      setProgress(null);
    }
  }

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => input.current?.click()} disabled={progress !== null} data-testid="asset-picker-upload">
        {progress !== null ? translate('ls.assets.upload.percent', { percent: Math.round(progress * 100) }) : translate('ls.assets.picker.upload')}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept={extensions.map((e) => `.${e}`).join(',')}
        data-testid="asset-picker-upload-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload(file);
        }}
      />
      {error && (
        <Typography variant="caption" color="error" role="alert" data-testid="asset-picker-upload-error">
          {translate(error, { _: error })}
        </Typography>
      )}
    </Box>
  );
}

/**
 * The generated form's input for an `asset` field (kinds.tsx): the AssetPicker bound to the form, offering the kinds the
 * declaration names (`assetKinds`), with the field's label, required mark and error under it.
 */
export function AssetInput({ source, meta, decl, label, disabled, helperText }: FieldInputProps) {
  const { field, fieldState, formState, isRequired } = useInput({ source, isRequired: meta.required });
  const invalid = fieldState.invalid && (fieldState.isTouched || formState.isSubmitted);
  return (
    <AssetPicker
      value={(field.value as string | null | undefined) || null}
      onChange={(id) => {
        field.onChange(id);
        field.onBlur();
      }}
      kinds={meta.assetKinds}
      label={<FieldTitle label={label} source={source} resource={decl.name} isRequired={isRequired} />}
      disabled={disabled}
      required={isRequired}
      error={invalid}
      helperText={invalid || helperText ? <InputHelperText error={invalid ? fieldState.error?.message : undefined} helperText={helperText} /> : undefined}
      testId={`asset-input-${source}`}
    />
  );
}
