// What a checkout buys, kept in the tab while the person is at the payment provider, so the
// success page can say what was bought and for how much. It is tied to the checkout's id, which
// the provider sends back in the success address: a success page for another checkout (an older
// link, another tab) shows none of it. Prices come from the one catalogue the server charges by.
import {
  billingCycleSchema,
  formatUsd,
  PAY_NOW_DISCOUNT_PERCENT,
  PLAN_LABELS,
  packIdSchema,
  packsPriceCents,
  paidPlanNameSchema,
  planPriceCents,
} from '@ownvoice/shared';
import { z } from 'zod';
import { packLabel } from './catalog-copy';
import { browserSessionStore, type SessionStore } from './session-store';

export const PURCHASE_KEY = 'ownvoice.checkout.purchase';

const purchaseSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('plan'),
    plan: paidPlanNameSchema,
    billingCycle: billingCycleSchema,
    payNow: z.boolean(),
  }),
  z.object({ kind: z.literal('packs'), packs: z.array(packIdSchema).min(1) }),
]);
export type Purchase = z.infer<typeof purchaseSchema>;

const keptSchema = z.object({ checkoutId: z.string().min(1), purchase: purchaseSchema });

export interface PurchaseWords {
  /** "Pro plan, billed monthly", "+100 Proofreads". */
  item: string;
  /** "$7.64 a month", "$4.99". */
  amount: string;
  /** Anything else the price depends on, or null. */
  note: string | null;
}

export function purchaseWords(purchase: Purchase): PurchaseWords {
  if (purchase.kind === 'packs') {
    return {
      item: purchase.packs.map(packLabel).join(' and '),
      amount: formatUsd(packsPriceCents(purchase.packs)),
      note: null,
    };
  }
  const { plan, billingCycle, payNow } = purchase;
  const annual = billingCycle === 'annual';
  return {
    item: `${PLAN_LABELS[plan]} plan, billed ${annual ? 'annually' : 'monthly'}`,
    amount: `${formatUsd(planPriceCents(plan, billingCycle, { payNow }))} a ${annual ? 'year' : 'month'}`,
    note: payNow ? `${PAY_NOW_DISCOUNT_PERCENT}% off for life` : null,
  };
}

/** Remembers what the checkout `checkoutId` buys, or forgets an older one when it is not known. */
export function savePurchase(
  kept: { checkoutId: string; purchase: Purchase } | null,
  store: SessionStore | null = browserSessionStore(),
): void {
  if (!store) return;
  if (kept === null) store.removeItem(PURCHASE_KEY);
  else store.setItem(PURCHASE_KEY, JSON.stringify(kept));
}

/** What the checkout `checkoutId` bought, when this tab started it; else null. */
export function readPurchase(
  checkoutId: string | null,
  store: SessionStore | null = browserSessionStore(),
): Purchase | null {
  const raw = store?.getItem(PURCHASE_KEY);
  if (!raw || !checkoutId) return null;
  try {
    const parsed = keptSchema.safeParse(JSON.parse(raw));
    return parsed.success && parsed.data.checkoutId === checkoutId ? parsed.data.purchase : null;
  } catch {
    return null;
  }
}

export function clearPurchase(store: SessionStore | null = browserSessionStore()): void {
  store?.removeItem(PURCHASE_KEY);
}
