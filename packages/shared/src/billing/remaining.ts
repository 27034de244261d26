// What is left of a resource: the tranches that have not expired and still hold something, summed.
// The account screen shows it, and the edit pass compares it with what it needs before starting.
import type { Tranche } from '../api.js';

export function remainingOf(tranches: readonly Tranche[], now: Date): number {
  const live = tranches.filter((t) => t.amount > 0 && Date.parse(t.expiresAt) > now.getTime());
  return Math.round(live.reduce((sum, t) => sum + t.amount, 0) * 100) / 100;
}
