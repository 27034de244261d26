import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inactivityLimitFor, startInactivityTimer } from './inactivity-timer';

const HOUR = 60 * 60 * 1000;

describe('inactivity timer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-08-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses 1 hour for admins and super admins and 24 hours for users', () => {
    expect(inactivityLimitFor('admin')).toBe(HOUR);
    expect(inactivityLimitFor('super_admin')).toBe(HOUR);
    expect(inactivityLimitFor('user')).toBe(24 * HOUR);
  });

  it('expires once the limit passes without activity', () => {
    const onExpire = vi.fn();
    startInactivityTimer({ limitMs: HOUR, onExpire });
    vi.advanceTimersByTime(HOUR - 1);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onExpire).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * HOUR);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('restarts the full limit from the latest activity', () => {
    const onExpire = vi.fn();
    const timer = startInactivityTimer({ limitMs: HOUR, onExpire });
    vi.advanceTimersByTime(50 * 60 * 1000);
    timer.touch();
    vi.advanceTimersByTime(50 * 60 * 1000);
    timer.touch();
    vi.advanceTimersByTime(HOUR - 1);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('keeps a 24-hour session alive while there is activity', () => {
    const onExpire = vi.fn();
    const timer = startInactivityTimer({ limitMs: inactivityLimitFor('user'), onExpire });
    for (let hour = 0; hour < 72; hour += 1) {
      vi.advanceTimersByTime(HOUR);
      timer.touch();
    }
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(24 * HOUR);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('counts activity in other tabs', () => {
    const onExpire = vi.fn();
    let otherTab: number | null = null;
    startInactivityTimer({ limitMs: HOUR, onExpire, lastActivityElsewhere: () => otherTab });
    vi.advanceTimersByTime(45 * 60 * 1000);
    otherTab = Date.now();
    vi.advanceTimersByTime(15 * 60 * 1000);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(45 * 60 * 1000 - 1);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('never fires after stop', () => {
    const onExpire = vi.fn();
    const timer = startInactivityTimer({ limitMs: HOUR, onExpire });
    timer.stop();
    timer.touch();
    vi.advanceTimersByTime(5 * HOUR);
    expect(onExpire).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
