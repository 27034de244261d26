// One of the overview's 30-day charts: a figure per day, with its total above.
import { BarChart, LineChart } from '@mantine/charts';
import { Card, Group, Text } from '@mantine/core';
import { ADMIN_CHART_DAYS } from '@ownvoice/shared';
import { formatCount } from '../../../lib/format';
import { type ChartDay, totalOf } from '../chart-days';

export type DailyFigure = keyof Omit<ChartDay, 'day'>;

export interface DailyChartProps {
  days: ChartDay[];
  figure: DailyFigure;
  /** "Sign-ups per day". */
  title: string;
  color: string;
  /**
   * Bars for counts, a line for hours. Not an AreaChart: Mantine wraps its areas in fragments, which
   * recharts 2 cannot see under React 19 (its react-is is v18), so it would draw nothing.
   */
  kind: 'bar' | 'line';
  unit?: string;
  testId: string;
}

export function DailyChart({ days, figure, title, color, kind, unit = '', testId }: DailyChartProps) {
  const total = totalOf(days, figure);
  const label = `${title}, last ${ADMIN_CHART_DAYS} days: ${formatCount(total)}${unit} in all`;
  const common = {
    h: 160,
    data: days,
    dataKey: 'day',
    series: [{ name: figure, label: title, color }],
    tickLine: 'none' as const,
    // A label every week keeps 30 days readable on a narrow card.
    xAxisProps: { interval: 6 },
    // The unit is in the heading and the tooltip; on the axis it would wrap.
    yAxisProps: { width: 36, allowDecimals: kind === 'line', tickFormatter: (value: number) => formatCount(value) },
    valueFormatter: (value: number) => `${formatCount(value)}${unit}`,
    role: 'img',
    'aria-label': label,
    'data-testid': testId,
  };
  return (
    <Card padding="md">
      <Group justify="space-between" align="baseline" mb="sm">
        <Text fw={600} fz="sm">
          {title}
        </Text>
        <Text fz="xs" c="dimmed">
          {formatCount(total)}
          {unit} in {ADMIN_CHART_DAYS} days
        </Text>
      </Group>
      {kind === 'bar' ? (
        <BarChart {...common} maxBarWidth={14} />
      ) : (
        <LineChart {...common} curveType="linear" withDots={false} />
      )}
    </Card>
  );
}
