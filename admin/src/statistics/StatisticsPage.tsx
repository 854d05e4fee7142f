import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { Title, useLocaleState, useTranslate } from 'react-admin';
import { api } from '../providers/http';
import { errorText } from '../i18n';
import { DelayedProgress } from '../layout/DelayedProgress';
import { useConsoleAccount } from '../console/ConsoleContext';
// In the page's own chunk (not one of its own): a separate chart chunk made the bundler split MUI helpers the
// sign-in page shares into chunks of their own, which cost the sign-in page bytes.
import StatsChart from './StatsChart';
import { parseStatsQuery, utcDay } from '../../../resources/statistics';
import {
  isEmpty,
  LEAD_STAT_GROUPS,
  PLAY_STAT_GROUPS,
  QUICK_RANGES,
  quickRange,
  STAT_MEASURES,
  statsPath,
  statsUrl,
  type StatKind,
  type StatRow,
  type StatsAnswer,
} from './statsModel';

interface Params {
  from: string;
  to: string;
  group: string;
}

/** How a row reads in the chart and the table: dates in the reader's language, enumerations translated. */
function useRowLabel(group: string): (row: StatRow) => string {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return useMemo(() => {
    const long = new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const date = (key: string | null) => (key ? long.format(new Date(`${key}T00:00:00Z`)) : '');
    return (row: StatRow) => {
      switch (group) {
        case 'day':
          return date(row.key);
        case 'week':
          return translate('ls.statistics.week_of', { date: date(row.key) });
        case 'source':
          return translate(`resources.leads.options.ld_source.${row.key}`, { _: String(row.label ?? row.key) });
        case 'status':
          return translate(`resources.leads.options.ld_transcription_status.${row.key}`, { _: String(row.label ?? row.key) });
        case 'valid':
          return translate(`ls.statistics.valid.${row.key}`, { _: String(row.label ?? row.key) });
        case 'owner':
          return row.key === null ? translate('ls.statistics.no_owner') : String(row.label || row.key);
        default:
          return row.label ? String(row.label) : row.key ? String(row.key) : translate('ls.statistics.no_title');
      }
    };
  }, [group, locale, translate]);
}

function StatsTable({
  rows,
  measures,
  labelOf,
  groupLabel,
  ariaLabel,
  totals,
}: {
  rows: StatRow[];
  measures: readonly string[];
  labelOf: (r: StatRow) => string;
  groupLabel: string;
  ariaLabel: string;
  totals: Record<string, number>;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const n = (v: unknown) => (Number(v) || 0).toLocaleString(locale);
  return (
    <Box sx={{ overflowX: 'auto', maxHeight: 480, overflowY: 'auto' }}>
      <Table size="small" stickyHeader aria-label={ariaLabel} data-testid="stats-table">
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {groupLabel}
            </TableCell>
            {measures.map((m) => (
              <TableCell key={m} component="th" scope="col" align="right">
                {translate(`ls.statistics.measures.${m}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, i) => (
            <TableRow key={`${row.key ?? ''}-${i}`} hover>
              <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                {labelOf(row)}
              </TableCell>
              {measures.map((m) => (
                <TableCell key={m} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {n(row[m])}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableCell component="th" scope="row" sx={{ fontWeight: 600, color: 'text.primary', fontSize: '0.875rem' }}>
              {translate('ls.statistics.total')}
            </TableCell>
            {measures.map((m) => (
              <TableCell key={m} align="right" sx={{ fontWeight: 600, color: 'text.primary', fontSize: '0.875rem', fontVariantNumeric: 'tabular-nums' }}>
                {n(totals[m])}
              </TableCell>
            ))}
          </TableRow>
        </TableFooter>
      </Table>
    </Box>
  );
}

/** One kind's section: its group picker, the chart, the table and the CSV of exactly those rows. */
function StatsSection({
  kind,
  params,
  groups,
  onGroup,
  empty,
}: {
  kind: StatKind;
  params: Params;
  groups: readonly string[];
  onGroup: (g: string) => void;
  empty: (answer: StatsAnswer) => ReactNode;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { accountId } = useConsoleAccount();
  const { data, error, isPending, isFetching, refetch } = useQuery({
    queryKey: ['console', accountId, 'stats', kind, params.from, params.to, params.group],
    queryFn: () => api<StatsAnswer>(statsPath(accountId, kind, params)),
    placeholderData: keepPreviousData,
  });
  const labelOf = useRowLabel(data?.group ?? params.group);
  const measures = STAT_MEASURES[kind];
  const groupLabel = translate(`ls.statistics.groups.${params.group}`);
  const what = translate(`ls.statistics.${kind}`);
  const dateText = (d: string) => new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`));
  const hasData = data && !isEmpty(data.rows, measures);
  const headingId = `stats-${kind}-heading`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId} data-testid={`stats-${kind}`} sx={{ mb: 2, containerType: 'inline-size' }}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="h6" component="h2" id={headingId}>
              {what}
            </Typography>
            {kind === 'leads' && data && (
              <Typography variant="body2" color="text.secondary" data-testid="stats-leads-total">
                {translate('ls.statistics.leads_total', { count: data.totals.count, total: data.totals.count.toLocaleString(locale), smart_count: data.totals.count })}
              </Typography>
            )}
          </Box>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <TextField
              select
              size="small"
              label={translate('ls.statistics.group')}
              value={params.group}
              onChange={(e) => onGroup(e.target.value)}
              fullWidth={false}
              sx={{ width: 180, minWidth: 180 }}
              slotProps={{ select: { inputProps: { 'data-testid': `stats-${kind}-group` } } }}
            >
              {groups.map((g) => (
                <MenuItem key={g} value={g}>
                  {translate(`ls.statistics.groups.${g}`)}
                </MenuItem>
              ))}
            </TextField>
            {hasData && (
              <Button
                component="a"
                href={statsUrl(accountId, kind, params, 'csv')}
                download
                variant="outlined"
                startIcon={<DownloadIcon />}
                aria-label={translate('ls.statistics.download_label', { what: what.toLowerCase(), group: groupLabel.toLowerCase() })}
                data-testid={`stats-${kind}-csv`}
              >
                {translate('ls.statistics.download')}
              </Button>
            )}
          </Box>
        </Box>
        <DelayedProgress bar active={isFetching} />
        {error ? (
          <Alert severity="error" action={<Button onClick={() => refetch()}>{translate('ls.statistics.retry')}</Button>}>
            {translate('ls.statistics.load_failed')} {errorText((error as { body?: { code: string } }).body ?? { code: 'network' })}
          </Alert>
        ) : isPending || !data ? (
          <Skeleton variant="rounded" height={280} />
        ) : !hasData ? (
          empty(data)
        ) : (
          <Box sx={{ opacity: isFetching ? 0.6 : 1, transition: 'opacity 150ms' }}>
            <StatsChart
              rows={data.rows}
              labelOf={labelOf}
              measures={measures}
              group={data.group}
              ariaLabel={translate('ls.statistics.chart_label', { what, group: groupLabel.toLowerCase(), from: dateText(data.from), to: dateText(data.to) })}
            />
            <StatsTable
              rows={data.rows}
              measures={measures}
              labelOf={labelOf}
              groupLabel={groupLabel}
              totals={data.totals}
              ariaLabel={translate('ls.statistics.table_label', { what, group: groupLabel.toLowerCase() })}
            />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * /console/{a}/statistics (account_statistics read): a period (from/to and quick ranges), then leads and plays, each
 * grouped by its own picker, as a chart, a table and "Download CSV" of the same rows (the API's format=csv with the
 * same parameters). Everything is in the address (?from&to&group&plays), so reload, back and a shared link keep it.
 */
export default function StatisticsPage() {
  const translate = useTranslate();
  const [search, setSearch] = useSearchParams();
  const today = utcDay(new Date());
  // One rule, two sides: the API's own parser decides the range and reports bad values.
  const leads = parseStatsQuery({ from: search.get('from') ?? undefined, to: search.get('to') ?? undefined, group: search.get('group') ?? undefined }, LEAD_STAT_GROUPS, today);
  const plays = parseStatsQuery({ from: search.get('from') ?? undefined, to: search.get('to') ?? undefined, group: search.get('plays') ?? undefined }, PLAY_STAT_GROUPS, today);
  const fields = leads.ok ? {} : leads.fields;
  const range = leads.ok ? { from: leads.query.from, to: leads.query.to } : { from: search.get('from') ?? '', to: search.get('to') ?? '' };

  // react-router's setter does not queue: two changes before the address updates (from, then to) would each start
  // from the same old parameters. So each change starts from the last one asked for.
  const latest = useRef(search);
  useEffect(() => {
    latest.current = search;
  }, [search]);
  const update = useCallback(
    (changes: Record<string, string | null>) => {
      const next = new URLSearchParams(latest.current);
      for (const [k, v] of Object.entries(changes))
        if (v) next.set(k, v);
        else next.delete(k);
      latest.current = next;
      setSearch(next, { replace: true });
    },
    [setSearch],
  );
  const activeQuick = QUICK_RANGES.find((q) => {
    const r = quickRange(q, today);
    return r.from === range.from && r.to === range.to;
  });

  return (
    <Box sx={{ mt: 2, mb: 4, maxWidth: 1200 }}>
      <Title title={translate('ls.statistics.title')} />
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
        {translate('ls.statistics.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('ls.statistics.subtitle')}
      </Typography>
      <Card variant="outlined" sx={{ mb: 2 }} component="section" aria-label={translate('ls.statistics.range')}>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {(['from', 'to'] as const).map((name) => (
              <TextField
                key={name}
                type="date"
                size="small"
                label={translate(`ls.statistics.${name}`)}
                value={range[name]}
                onChange={(e) => update({ [name]: e.target.value || null })}
                error={Boolean(fields[name])}
                helperText={fields[name] ? translate(fields[name]) : undefined}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `stats-${name}`, max: '9999-12-31' } }}
                sx={{ width: 170 }}
              />
            ))}
          </Box>
          <Box role="group" aria-label={translate('ls.statistics.quick')} sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', minHeight: 40 }}>
            {QUICK_RANGES.map((q) => (
              <Chip
                key={q}
                label={translate(`ls.statistics.${q}`)}
                color={activeQuick === q ? 'primary' : 'default'}
                variant={activeQuick === q ? 'filled' : 'outlined'}
                aria-pressed={activeQuick === q}
                onClick={() => update(quickRange(q, today))}
              />
            ))}
          </Box>
        </CardContent>
      </Card>
      {leads.ok ? (
        <StatsSection
          kind="leads"
          params={leads.query}
          groups={LEAD_STAT_GROUPS}
          onGroup={(g) => update({ group: g === 'day' ? null : g })}
          empty={() => <Typography color="text.secondary">{translate('ls.statistics.no_leads')}</Typography>}
        />
      ) : (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate(Object.values(leads.fields)[0] ?? 'error_stats_query_invalid')}
        </Alert>
      )}
      {leads.ok && !plays.ok && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate(Object.values(plays.fields)[0] ?? 'error_stats_query_invalid')}
        </Alert>
      )}
      {plays.ok && leads.ok && (
        <StatsSection
          kind="plays"
          params={plays.query}
          groups={PLAY_STAT_GROUPS}
          onGroup={(g) => update({ plays: g === 'day' ? null : g })}
          empty={() => (
            <Box sx={{ py: 3, textAlign: 'center' }} data-testid="stats-no-plays">
              <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
                {translate('ls.statistics.no_plays')}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate('ls.statistics.no_plays_text')}
              </Typography>
            </Box>
          )}
        />
      )}
    </Box>
  );
}
