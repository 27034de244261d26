// The packs the purchase modal offers for what ran out, bought in one checkout: one per resource
// the action lacks; none where nothing is sold, for credits, or when the answer did not say which.
import { type PackId, packForLimitType } from '@ownvoice/shared';
import type { InsufficientLimit } from '../insufficient-limit';
import type { BillingAvailability } from './billing-availability';

export function quickTopUpPacks(limit: InsufficientLimit | null, availability: BillingAvailability): PackId[] {
  if (availability.kind !== 'selling' || limit?.kind !== 'limit') return [];
  const packs = [limit.resource, ...(limit.also ?? [])].map((resource) => packForLimitType(resource));
  return packs.every((pack): pack is PackId => pack !== null) ? packs : [];
}
