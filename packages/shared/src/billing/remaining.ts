// What is left of a resource: the tranches that have not expired and still hold something, summed.
// The account screen shows it, and the edit pass compares it with what it needs before starting.
import type { Tranche } from '../api.js';

/** The tranches that still count: not expired, and holding something. */
export const liveTranchesOf = (tranches: readonly Tranche[], now: Date): Tranche[] =>
  tranches.filter((t) => t.amount > 0 && Date.parse(t.expiresAt) > now.getTime());

export function remainingOf(tranches: readonly Tranche[], now: Date): number {
  const live = liveTranchesOf(tranches, now);
  return Math.round(live.reduce((sum, t) => sum + t.amount, 0) * 100) / 100;
}
