import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { SelectInput, useGetManyAggregate, useLocaleState, useTranslate } from 'react-admin';
import { ASSET_KINDS, assetKind, typesOfKinds } from '../../../resources/assets';
import type { CellProps } from '../generated/cells';
import type { FieldInputProps } from '../generated/kinds';
import { formatBytes } from '../media/format';
import type { AssetRecord } from './assetsApi';
import { AssetThumb } from './AssetThumb';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '0.85em' } as const;

/** An asset's title with its thumbnail before it (the list's first column, and a phone row's title). */
export function AssetTitleCell({ record, compact }: CellProps) {
  const asset = record as unknown as AssetRecord;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
      <AssetThumb asset={asset} size={compact ? 48 : 64} />
      <Box component="span" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="asset-title">
        {asset.as_title}
      </Box>
    </Box>
  );
}

/** Bytes in the reader's number format ("1.2 MB"). */
export function SizeCell({ record, source }: CellProps) {
  const [locale] = useLocaleState();
  const v = record[source];
  return v === null || v === undefined ? null : <>{formatBytes(Number(v), locale ?? 'en')}</>;
}

/** The MIME type under the kind's name (on a phone the kind alone). */
export function TypeCell({ record, source }: CellProps) {
  const translate = useTranslate();
  const type = String(record[source] ?? '');
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
      <span>{translate(`ls.assets.kinds.${assetKind(type)}`)}</span>
      <Box component="span" sx={{ ...mono, color: 'text.secondary', display: { xs: 'none', sm: 'block' } }}>
        {type}
      </Box>
    </Box>
  );
}

const kindOfTypes = (value: unknown) => (Array.isArray(value) && value.length ? assetKind(String(value[0])) : typeof value === 'string' && value ? assetKind(value) : '');

/**
 * The list's type filter as a kind (image, video, audio, PDF, font): the API filters by a set of types, so a kind is
 * sent as all its types (filter.as_type = [...]).
 */
export function KindFilter({ source, alwaysOn }: FieldInputProps) {
  const translate = useTranslate();
  return (
    <SelectInput
      source={source}
      label="ls.assets.kind"
      alwaysOn={alwaysOn}
      choices={ASSET_KINDS.map((k) => ({ id: k, name: translate(`ls.assets.kinds.${k}`) }))}
      format={kindOfTypes}
      // '' clears the filter (react-admin's filter form keeps a previous value over an undefined one).
      parse={(kind: string) => (kind ? typesOfKinds([kind]) : '')}
      emptyText="ls.assets.all_kinds"
      sx={{ minWidth: 160 }}
      data-testid="asset-kind-filter"
    />
  );
}

/** An asset field (a logo, a button image) shown by the asset's thumbnail and title (records fetched in one batch). */
export function AssetCell({ record, source }: CellProps) {
  const v = record[source];
  const { data } = useGetManyAggregate('assets', { ids: v ? [String(v)] : [] }, { enabled: !!v });
  if (!v)
    return (
      <Box component="span" sx={{ color: 'text.disabled' }}>
        —
      </Box>
    );
  const asset = data?.[0] as AssetRecord | undefined;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
      <AssetThumb asset={asset} size={32} />
      {asset ? (
        <Typography component="span" variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {asset.as_title}
        </Typography>
      ) : (
        <Box component="span" sx={mono}>
          {String(v).slice(0, 8)}…
        </Box>
      )}
    </Box>
  );
}
