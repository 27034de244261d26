// Whether plans and packs are sold here. `none` is a self-hosted server without payments: no
// buying anywhere. A failed read still sells, since the checkout call itself will say what is wrong.
import type { BillingInfo } from '@ownvoice/shared';

export type BillingAvailability =
  | { kind: 'loading' }
  | { kind: 'none' }
  | { kind: 'selling' /** No card is ever charged (offline provider, or Stripe test mode). */; testMode: boolean };

export function billingAvailability(query: { data?: BillingInfo | undefined; isError: boolean }): BillingAvailability {
  if (query.data) {
    return query.data.provider === 'none' ? { kind: 'none' } : { kind: 'selling', testMode: query.data.testMode };
  }
  return query.isError ? { kind: 'selling', testMode: false } : { kind: 'loading' };
}
