import type { UsageLimits } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { formatRemaining, usageSummary } from './usage-summary';

const NOW = new Date('2026-03-01T00:00:00Z');
const limits: UsageLimits = {
  modelStorageSlotsTotal: 3,
  modelStorageSlotsUsed: 1,
  modelsTrained: [
    { amount: 2, expiresAt: '2026-05-01T00:00:00Z' },
    { amount: 1, expiresAt: '2026-04-01T00:00:00Z' },
    // Expired and empty tranches do not count.
    { amount: 9, expiresAt: '2026-02-01T00:00:00Z' },
    { amount: 0, expiresAt: '2026-03-15T00:00:00Z' },
  ],
  chunkEdits: [],
  shortContent: [{ amount: 100, expiresAt: '2026-03-01T00:00:00Z' }],
  activationHours: [{ amount: 2.5, expiresAt: '2026-06-01T00:00:00Z' }],
};

describe('usageSummary', () => {
  it('sums live tranches and shows the nearest expiry of those', () => {
    const byKey = Object.fromEntries(usageSummary(limits, NOW).map((l) => [l.key, l]));
    expect(byKey.modelsTrained).toMatchObject({ remaining: 3, nearestExpiry: '2026-04-01T00:00:00Z' });
    expect(byKey.chunkEdits).toMatchObject({ remaining: 0, nearestExpiry: null });
    // A tranche expiring exactly now has expired.
    expect(byKey.shortContent).toMatchObject({ remaining: 0, nearestExpiry: null });
    expect(byKey.storageSlots).toMatchObject({ remaining: 2, total: 3 });
    expect(formatRemaining(byKey.activationHours as never)).toBe('2.5 h');
    expect(formatRemaining(byKey.modelsTrained as never)).toBe('3');
  });
});
