// Whether a payment has reached the account yet. The grant arrives by webhook, after the person
// is back from the payment provider, so the success page compares the account with a snapshot
// taken before checkout and re-reads it a few times until the plan changes or a resource grows.
// Only growth counts: an awake Voice spends waking hours meanwhile.
import { TRANCHE_TYPES, type User } from '@ownvoice/shared';
import { z } from 'zod';
import { browserSessionStore, type SessionStore } from './session-store';

export const SNAPSHOT_KEY = 'ownvoice.checkout.before';

/** Re-read the account this often, this many times, before saying the payment is still on its way. */
export const CONFIRMATION_POLL = { intervalMs: 2000, maxAttempts: 10 } as const;

const snapshotSchema = z.object({
  plan: z.string(),
  billingCycle: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  status: z.string().nullable(),
  /** Everything ever granted and not yet spent, per resource (storage: the slot total). */
  totals: z.record(z.string(), z.number()),
});
export type AccountSnapshot = z.infer<typeof snapshotSchema>;

export function accountSnapshot(user: User): AccountSnapshot {
  const totals: Record<string, number> = { storageSlots: user.usageLimits.modelStorageSlotsTotal };
  for (const type of TRANCHE_TYPES) {
    totals[type] = user.usageLimits[type].reduce((sum, tranche) => sum + tranche.amount, 0);
  }
  return {
    plan: user.plan.name,
    billingCycle: user.plan.billingCycle,
    subscriptionId: user.subscription.stripeSubscriptionId,
    status: user.subscription.status,
    totals,
  };
}

/** True when the account moved the way a payment moves it: another plan or subscription, or more of something. */
export function grantArrived(before: AccountSnapshot, after: AccountSnapshot): boolean {
  if (
    before.plan !== after.plan ||
    before.billingCycle !== after.billingCycle ||
    before.subscriptionId !== after.subscriptionId ||
    before.status !== after.status
  ) {
    return true;
  }
  return Object.entries(after.totals).some(([key, amount]) => amount > (before.totals[key] ?? 0));
}

export function saveSnapshot(user: User | null, store: SessionStore | null = browserSessionStore()): void {
  if (!store) return;
  if (user === null) store.removeItem(SNAPSHOT_KEY);
  else store.setItem(SNAPSHOT_KEY, JSON.stringify(accountSnapshot(user)));
}

export function readSnapshot(store: SessionStore | null = browserSessionStore()): AccountSnapshot | null {
  const raw = store?.getItem(SNAPSHOT_KEY);
  if (!raw) return null;
  try {
    const parsed = snapshotSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function clearSnapshot(store: SessionStore | null = browserSessionStore()): void {
  store?.removeItem(SNAPSHOT_KEY);
}

/**
 * - `confirming`: not there yet, read again;
 * - `confirmed`: the account shows the payment;
 * - `pending`: read often enough; the payment is still on its way;
 * - `unknown`: no snapshot to compare with (another tab, storage off), so nothing to wait for;
 * - `trial_refused`: the card was saved for the trial, but this address or card had one before.
 */
export type ConfirmationState = 'confirming' | 'confirmed' | 'pending' | 'unknown' | 'trial_refused';

export function confirmationState(input: {
  before: AccountSnapshot | null;
  current: User | null;
  /** Reads of the account made since the page opened. */
  attempts: number;
}): ConfirmationState {
  if (input.current?.plan.trialRefused) return 'trial_refused';
  if (input.before === null) return 'unknown';
  if (input.current && grantArrived(input.before, accountSnapshot(input.current))) return 'confirmed';
  return input.attempts >= CONFIRMATION_POLL.maxAttempts ? 'pending' : 'confirming';
}
