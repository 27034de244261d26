// The pack the purchase modal offers for what ran out: none where nothing is sold, for credits,
// or when the answer did not say which resource.
import { type PackId, packForLimitType } from '@ownvoice/shared';
import type { InsufficientLimit } from '../insufficient-limit';
import type { BillingAvailability } from './billing-availability';

export function quickTopUpPack(limit: InsufficientLimit | null, availability: BillingAvailability): PackId | null {
  if (availability.kind !== 'selling' || limit?.kind !== 'limit') return null;
  return packForLimitType(limit.resource);
}
