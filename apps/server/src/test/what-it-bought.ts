// What a payment bought, worked out for the billing simulation from the catalogue and the
// provider's amounts alone, never through the grant rule it checks (services/billing/invoice-grant.ts,
// packsGrant), so a wrong rule cannot agree with itself (docs/decisions/0035): each line that
// charged a period of a plan bought that period, in the share of its price paid once the invoice's
// discounts and credits are spread over what its lines charged; a proration, the trial's day and
// what OwnVoice does not sell bought nothing; a pack bought its amounts.
import { PACKS, type PackId, PLANS, planPriceCents, TRANCHE_TYPES, type TrancheType } from '@ownvoice/shared';
import type { InvoiceFacts } from '../payments/provider.js';
import { STORED_UNITS } from '../services/usage.service.js';

/** Per resource, in stored units: the most a payment may have granted, and the least it must have. */
export interface Bought {
  most: Record<string, number>;
  least: Record<string, number>;
}

export function invoiceBought(invoice: InvoiceFacts): Bought {
  const bought: Bought = { most: {}, least: {} };
  const charged = invoice.lines.reduce((sum, line) => sum + Math.max(0, line.amountCents), 0);
  const paid = Math.min(Math.max(0, invoice.totalCents), charged);
  // The Minimum plan's one-time training comes with its first period ever: at most once here, and
  // not owed (the account may have had it).
  let onceLeft = true;
  for (const line of invoice.lines) {
    if (line.kind !== 'plan' || !line.plan || line.proration || line.amountCents <= 0) continue;
    const { plan, billingCycle, payNow } = line.plan;
    const months = billingCycle === 'annual' ? 12 : 1;
    // The share of the catalogue's price this line was paid, as a fraction of whole cents.
    const share = { of: line.amountCents * paid, over: charged * planPriceCents(plan, billingCycle, { payNow }) };
    const whole = share.of >= share.over;
    const part = (amount: number) => (whole ? amount : Math.floor((amount * share.of) / share.over));
    for (const type of TRANCHE_TYPES) {
      const period = PLANS[plan].perMonth[type] * months;
      const once = onceLeft ? ((PLANS[plan].once as Partial<Record<TrancheType, number>>)[type] ?? 0) : 0;
      add(bought.most, type, part(period + once) * STORED_UNITS[type]);
      // A share is computed in floating point by the product: it may come out one unit short.
      add(bought.least, type, Math.max(0, part(period) - (whole ? 0 : 1)) * STORED_UNITS[type]);
    }
    if (share.of > 0 && Object.keys(PLANS[plan].once).length > 0) onceLeft = false;
  }
  return bought;
}

export function packsBought(packs: readonly PackId[]): Bought {
  const amounts: Record<string, number> = {};
  for (const pack of packs) {
    const { resource, amount } = PACKS[pack];
    add(amounts, resource, resource === 'storageSlots' ? amount : amount * STORED_UNITS[resource]);
  }
  return { most: amounts, least: amounts };
}

function add(into: Record<string, number>, resource: string, amount: number): void {
  if (amount > 0) into[resource] = (into[resource] ?? 0) + amount;
}
