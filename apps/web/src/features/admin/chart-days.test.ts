import { describe, expect, it } from 'vitest';
import { chartDays, dayLabel, totalOf } from './chart-days';

describe('overview chart days', () => {
  it('labels UTC days whatever the browser time zone', () => {
    expect(dayLabel('2026-03-04')).toBe('Mar 4');
    expect(dayLabel('2026-12-31')).toBe('Dec 31');
    expect(dayLabel('not a date')).toBe('not a date');
  });

  it('keeps the figures in order and rounds hours to tenths', () => {
    const days = chartDays([
      { date: '2026-03-03', signUps: 2, voicesTrained: 0, wakingHours: 0.1 + 0.2 },
      { date: '2026-03-04', signUps: 0, voicesTrained: 3, wakingHours: 1.25 },
    ]);
    expect(days).toEqual([
      { day: 'Mar 3', signUps: 2, voicesTrained: 0, wakingHours: 0.3 },
      { day: 'Mar 4', signUps: 0, voicesTrained: 3, wakingHours: 1.3 },
    ]);
    expect(totalOf(days, 'signUps')).toBe(2);
    expect(totalOf(days, 'wakingHours')).toBe(1.6);
  });
});
