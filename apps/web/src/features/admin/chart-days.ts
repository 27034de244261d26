// The overview charts' rows: one per UTC day, labelled "Mar 4" on the axis.
import type { AdminDay } from '@ownvoice/shared';

const DAY_LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export interface ChartDay {
  day: string;
  signUps: number;
  voicesTrained: number;
  wakingHours: number;
}

/** "Mar 4" for "2026-03-04"; the raw value when it is not a date. */
export function dayLabel(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : DAY_LABEL.format(parsed);
}

export const chartDays = (daily: readonly AdminDay[]): ChartDay[] =>
  daily.map(({ date, signUps, voicesTrained, wakingHours }) => ({
    day: dayLabel(date),
    signUps,
    voicesTrained,
    // Tenths of an hour, as the server rounds them; float sums must not show 0.30000000000000004.
    wakingHours: Math.round(wakingHours * 10) / 10,
  }));

/** The sum over the days, for the chart's heading. */
export const totalOf = (days: readonly ChartDay[], key: keyof Omit<ChartDay, 'day'>): number =>
  Math.round(days.reduce((sum, day) => sum + day[key], 0) * 10) / 10;
