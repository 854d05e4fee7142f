import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useLocaleState, useTranslate } from 'react-admin';
import { isDateGroup, type StatRow } from './statsModel';

/** A bar chart draws this many categories at most (the largest; the table lists every row). */
export const CHART_MAX_BARS = 15;

const shorten = (s: string, max = 24) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * The rows as a chart (@mui/x-charts): a line over time for days and weeks, horizontal bars for categories (events,
 * owners, sources…), one series per measure. Colours, fonts and the dark scheme come from the MUI theme.
 */
export function StatsChart({
  rows,
  labelOf,
  measures,
  group,
  ariaLabel,
}: {
  rows: StatRow[];
  labelOf: (row: StatRow) => string;
  measures: readonly string[];
  group: string;
  ariaLabel: string;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  // Counts are whole numbers: no tick labels between them.
  const countFormatter = (v: number | null, context: { location: string }) => (context.location === 'tick' && v !== null && !Number.isInteger(v) ? '' : String(v ?? ''));
  const series = (data: StatRow[]) => measures.map((m) => ({ id: m, label: translate(`ls.statistics.measures.${m}`), data: data.map((r) => Number(r[m]) || 0) }));

  const bars = useMemo(() => (isDateGroup(group) ? rows : [...rows].slice(0, CHART_MAX_BARS)), [rows, group]);

  if (isDateGroup(group)) {
    const dates = rows.map((r) => new Date(`${r.key}T00:00:00Z`));
    const byTime = new Map(rows.map((r) => [Date.parse(`${r.key}T00:00:00Z`), r]));
    const short = new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
    return (
      <Box role="img" aria-label={ariaLabel} data-testid="stats-chart" data-chart="line">
        <LineChart
          height={280}
          skipAnimation
          hideLegend={measures.length === 1}
          xAxis={[
            {
              scaleType: 'utc',
              data: dates,
              // Ticks as short dates; the tooltip names the day or week like the table.
              valueFormatter: (d: Date, context) => {
                const row = context.location === 'tick' ? undefined : byTime.get(d.getTime());
                return row ? labelOf(row) : short.format(d);
              },
              tickLabelMinGap: 24,
            },
          ]}
          yAxis={[{ width: 'auto', valueFormatter: countFormatter }]}
          // Straight segments: a smoothed curve would draw values between days that were never counted.
          series={series(rows).map((s) => ({ ...s, curve: 'linear' as const, showMark: rows.length <= 62, area: measures.length === 1 }))}
          // Room for half of the last tick's date (centred on the right edge), which 16 px cut off at 375 px.
          margin={{ right: 28 }}
          sx={{ '& .MuiLineChart-area': { fillOpacity: 0.16 } }}
        />
      </Box>
    );
  }
  return (
    <Box role="img" aria-label={ariaLabel} data-testid="stats-chart" data-chart="bar">
      <BarChart
        height={Math.max(160, 56 + bars.length * 34)}
        layout="horizontal"
        skipAnimation
        hideLegend={measures.length === 1}
        yAxis={[{ scaleType: 'band', data: bars.map((r) => shorten(labelOf(r))), width: 'auto' }]}
        xAxis={[{ valueFormatter: countFormatter }]}
        series={series(bars)}
        margin={{ right: 16 }}
      />
      {rows.length > bars.length && (
        <Typography variant="caption" color="text.secondary">
          {translate('ls.statistics.chart_top', { count: bars.length, total: rows.length })}
        </Typography>
      )}
    </Box>
  );
}

export default StatsChart;
