import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import CheckIcon from '@mui/icons-material/Check';
import { useGetList, useGetManyAggregate, useLocaleState, useTranslate } from 'react-admin';
import type { FieldMeta, ResourceDeclaration } from '../../../resources/types';
import { useDeclaration } from './declarations';
import { optionLabelKey, titleOf } from './rules';
import { useChosenRecord } from './references';

/** What a cell gets: the record, the field, its metadata and declaration; compact in a list row. */
export interface CellProps {
  record: Record<string, unknown>;
  source: string;
  meta: FieldMeta;
  decl: ResourceDeclaration;
  compact?: boolean;
}

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: '0.85em' } as const;
const empty = (v: unknown) => v === undefined || v === null || v === '';
const Dash = () => (
  <Box component="span" sx={{ color: 'text.disabled' }}>
    —
  </Box>
);

export function TextCell({ record, source, compact }: CellProps) {
  const v = record[source];
  if (empty(v)) return <Dash />;
  const text = String(v);
  return <>{compact && text.length > 80 ? `${text.slice(0, 80)}…` : text}</>;
}

/**
 * Rich text as its plain text (blocks and line breaks as spaces), an excerpt in a list row. DOMParser's document is
 * inert: nothing in it runs or loads.
 */
export function richTextToPlain(html: string): string {
  const spaced = html.replace(/<\/(p|h2|h3|li|blockquote)>|<br\s*\/?>/gi, '$& ');
  return (new DOMParser().parseFromString(spaced, 'text/html').body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export function RichTextCell({ record, source, compact }: CellProps) {
  const v = record[source];
  const text = empty(v) ? '' : richTextToPlain(String(v));
  if (!text) return <Dash />;
  return <>{compact && text.length > 80 ? `${text.slice(0, 80)}…` : text}</>;
}

export function MonoCell({ record, source }: CellProps) {
  const v = record[source];
  return empty(v) ? (
    <Dash />
  ) : (
    <Box component="span" sx={mono}>
      {String(v)}
    </Box>
  );
}

export function NumberCell({ record, source }: CellProps) {
  const [locale] = useLocaleState();
  const v = record[source];
  return empty(v) ? <Dash /> : <>{Number(v).toLocaleString(locale)}</>;
}

export function BooleanCell({ record, source }: CellProps) {
  const translate = useTranslate();
  const yes = record[source] === true;
  return yes ? (
    <CheckIcon fontSize="small" color="success" titleAccess={translate('ls.common.yes')} />
  ) : (
    <Box component="span" sx={{ color: 'text.disabled' }} aria-label={translate('ls.common.no')}>
      —
    </Box>
  );
}

/** YYYY-MM-DD as a date in the reader's language (the day itself: no time zone shifts it). */
export function DateCell({ record, source }: CellProps) {
  const [locale] = useLocaleState();
  const v = record[source];
  if (empty(v)) return <Dash />;
  const d = new Date(`${String(v)}T00:00:00Z`);
  return <>{Number.isNaN(d.getTime()) ? String(v) : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(d)}</>;
}

export function DateTimeCell({ record, source }: CellProps) {
  const [locale] = useLocaleState();
  const v = record[source];
  if (empty(v)) return <Dash />;
  const d = new Date(String(v));
  return <>{Number.isNaN(d.getTime()) ? String(v) : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d)}</>;
}

export function ColourCell({ record, source }: CellProps) {
  const v = record[source];
  if (empty(v)) return <Dash />;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box component="span" sx={{ width: 16, height: 16, borderRadius: 0.5, bgcolor: String(v), border: 1, borderColor: 'divider' }} />
      <Box component="span" sx={mono}>
        {String(v)}
      </Box>
    </Box>
  );
}

export function UrlCell({ record, source, compact }: CellProps) {
  const v = record[source];
  if (empty(v)) return <Dash />;
  const text = String(v);
  return (
    <Link href={text} target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()} sx={{ wordBreak: 'break-all' }}>
      {compact && text.length > 48 ? `${text.slice(0, 48)}…` : text}
    </Link>
  );
}

export function EnumCell({ record, source, decl }: CellProps) {
  const translate = useTranslate();
  const v = record[source];
  if (empty(v)) return <Dash />;
  return <Chip size="small" variant="outlined" label={translate(optionLabelKey(decl, source, String(v)), { _: String(v) })} />;
}

/** A referenced record by its title (records by id are fetched in one batch for the whole list). */
export function ReferenceCell({ record, source, meta }: CellProps) {
  const v = record[source];
  if (empty(v)) return <Dash />;
  return meta.referenceKey ? <ReferenceByKey value={String(v)} meta={meta} /> : <ReferenceById value={String(v)} meta={meta} />;
}

function ReferenceById({ value, meta }: { value: string; meta: FieldMeta }) {
  const target = useDeclaration(meta.reference!);
  const { data } = useGetManyAggregate(meta.reference!, { ids: [value] });
  const row = data?.[0];
  return (
    <>
      {row ? (
        target ? (
          titleOf(target, row)
        ) : (
          String(row.id ?? value)
        )
      ) : (
        <Box component="span" sx={mono}>
          {value.slice(0, 8)}…
        </Box>
      )}
    </>
  );
}

function ReferenceByKey({ value, meta }: { value: string; meta: FieldMeta }) {
  const target = useDeclaration(meta.reference!);
  const { data } = useGetList(meta.reference!, { pagination: { page: 1, perPage: 100 }, sort: target?.defaultSort ?? { field: 'id', order: 'ASC' }, filter: {} });
  const loaded = data?.find((r) => r[meta.referenceKey!] === value);
  // beyond the first 100 (one list for the whole page), the record by its key
  const [found] = useChosenRecord(meta.reference!, meta.referenceKey!, value, !!data && !loaded);
  const row = loaded ?? found;
  return (
    <>
      {row ? (
        target ? (
          titleOf(target, row)
        ) : (
          String(row.id ?? value)
        )
      ) : (
        <Box component="span" sx={mono}>
          {value.slice(0, 8)}…
        </Box>
      )}
    </>
  );
}

/** A secret is never sent: the record says whether one is set. */
export function SecretCell({ record, source }: CellProps) {
  const translate = useTranslate();
  const isSet = !!record[`${source}_set`];
  return (
    <Chip
      size="small"
      variant="outlined"
      color={isSet ? 'success' : 'default'}
      label={translate(isSet ? 'ls.generated.secret_set' : 'ls.generated.secret_not_set', { _: isSet ? 'Set' : 'Not set' })}
    />
  );
}

export function JsonCell({ record, source, compact }: CellProps) {
  const v = record[source];
  if (empty(v)) return <Dash />;
  const text = JSON.stringify(v, null, compact ? 0 : 2);
  return (
    <Box component={compact ? 'span' : 'pre'} sx={{ ...mono, m: 0, whiteSpace: compact ? 'nowrap' : 'pre-wrap' }}>
      {compact && text.length > 60 ? `${text.slice(0, 60)}…` : text}
    </Box>
  );
}

/** tags: small chips; in a list row the first three and "+n" for the rest. */
export function TagsCell({ record, source, compact }: CellProps) {
  const v = record[source];
  const tags = Array.isArray(v) ? v.map(String) : [];
  if (!tags.length) return <Dash />;
  const shown = compact ? tags.slice(0, 3) : tags;
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexWrap: 'wrap', gap: 0.5 }} data-testid={`tags-${source}`}>
      {shown.map((t) => (
        <Chip key={t} label={t} size="small" variant="outlined" />
      ))}
      {tags.length > shown.length ? <Chip label={`+${tags.length - shown.length}`} size="small" /> : null}
    </Box>
  );
}
