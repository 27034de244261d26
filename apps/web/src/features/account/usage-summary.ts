// What the account screen shows of usage limits: per resource, the amount
// left and the nearest expiry, counting only tranches that have not expired and hold something.
import {
  liveTranchesOf,
  RESOURCE_LABELS,
  remainingOf,
  TRANCHE_TYPES,
  type TrancheType,
  type UsageLimits,
} from '@ownvoice/shared';

export interface UsageLine {
  key: TrancheType | 'storageSlots';
  label: string;
  /** What is left: a count, or hours for waking hours. */
  remaining: number;
  /** The total, for storage slots (used of total); null for tranches. */
  total: number | null;
  /** When the soonest live tranche runs out; null when nothing is left or nothing expires. */
  nearestExpiry: string | null;
}

export function usageSummary(limits: UsageLimits, now: Date): UsageLine[] {
  const lines: UsageLine[] = TRANCHE_TYPES.map((key) => {
    const soonest =
      liveTranchesOf(limits[key], now)
        .map((t) => t.expiresAt)
        .sort()[0] ?? null;
    return {
      key,
      label: RESOURCE_LABELS[key],
      remaining: remainingOf(limits[key], now),
      total: null,
      nearestExpiry: soonest,
    };
  });
  lines.push({
    key: 'storageSlots',
    label: RESOURCE_LABELS.storageSlots,
    remaining: Math.max(0, limits.modelStorageSlotsTotal - limits.modelStorageSlotsUsed),
    total: limits.modelStorageSlotsTotal,
    nearestExpiry: null,
  });
  return lines;
}

/** "12", "2.5 h": hours carry their unit, counts do not. */
export const formatRemaining = (line: UsageLine): string =>
  line.key === 'activationHours' ? `${line.remaining} h` : String(line.remaining);
