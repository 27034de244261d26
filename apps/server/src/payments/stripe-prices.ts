// Every price OwnVoice sells in Stripe, named by a lookup key and derived from the catalog in
// packages/shared (never an amount typed here), so `npm run billing:setup` creates exactly what
// the plans page shows and the provider charges exactly that. A price is found by its lookup key,
// which a changed amount moves to a new price: subscribers keep the price they signed up at.
// Prices include tax (decision 20.1): the catalog's price is what is paid.
import {
  BILLING_CYCLES,
  type BillingCycle,
  PACK_IDS,
  PACKS,
  PAID_PLAN_NAMES,
  PAY_LATER_FIRST_CHARGE_CENTS,
  type PackId,
  type PaidPlanName,
  PLANS,
  PRODUCT_NAME,
  planPriceCents,
  resourceAmount,
} from '@ownvoice/shared';
import type Stripe from 'stripe';

export const PRICE_CURRENCY = 'usd';

/**
 * The catalog's prices are what is paid, tax included: with Stripe Tax on, the tax is computed
 * inside the price rather than added to it (SDK: Price.tax_behavior).
 */
export const PRICE_TAX_BEHAVIOR = 'inclusive' as const;

export interface PriceSpec {
  lookupKey: string;
  /** The product's id in Stripe: chosen by us, so setup finds it again. */
  productId: string;
  productName: string;
  /** Shown in the Stripe dashboard. */
  nickname: string;
  unitAmountCents: number;
  /** How often a subscription price charges; null for a one-time price. */
  interval: 'month' | 'year' | null;
}

export const planPriceLookupKey = (plan: PaidPlanName, cycle: BillingCycle, payNow: boolean): string =>
  `ownvoice_${plan}_${cycle}${payNow ? '_pay_now' : ''}`;

export const packPriceLookupKey = (pack: PackId): string => `ownvoice_pack_${pack}`;

export const TRIAL_FIRST_CHARGE_LOOKUP_KEY = 'ownvoice_trial_first_charge';

/**
 * The metadata key a price keeps the lookup key it was made for under: the lookup key itself moves
 * to a replacement price, but subscribers on the old one must still be read as what they bought.
 */
export const PRICE_SELLS_KEY = 'ownvoice_sells';

export const planProductId = (plan: PaidPlanName): string => `ownvoice_plan_${plan}`;
export const TRIAL_DAY_PRODUCT_ID = 'ownvoice_trial_day';

/**
 * Added to the minimum plan's first invoice after a pay-later trial, so that invoice totals the
 * first charge the pay-later page states: the first month plus the trial day.
 */
export const TRIAL_FIRST_CHARGE_CENTS = PAY_LATER_FIRST_CHARGE_CENTS - PLANS.minimum.monthlyCents;

export const CYCLE_INTERVAL = { monthly: 'month', annual: 'year' } as const satisfies Record<BillingCycle, string>;

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function planSpecs(plan: PaidPlanName): PriceSpec[] {
  return BILLING_CYCLES.flatMap((cycle) =>
    [false, true].map((payNow) => ({
      lookupKey: planPriceLookupKey(plan, cycle, payNow),
      productId: planProductId(plan),
      productName: `${PRODUCT_NAME} ${capitalized(plan)}`,
      nickname: `${capitalized(plan)} ${cycle}${payNow ? ', pay-now discount' : ''}`,
      unitAmountCents: planPriceCents(plan, cycle, { payNow }),
      interval: CYCLE_INTERVAL[cycle],
    })),
  );
}

function packSpec(pack: PackId): PriceSpec {
  const { resource, amount, priceCents } = PACKS[pack];
  return {
    lookupKey: packPriceLookupKey(pack),
    productId: `ownvoice_pack_${pack}`,
    productName: `${PRODUCT_NAME} top-up: +${resourceAmount(resource, amount)}`,
    nickname: `Pack ${pack}`,
    unitAmountCents: priceCents,
    interval: null,
  };
}

const TRIAL_FIRST_CHARGE_SPEC: PriceSpec = {
  lookupKey: TRIAL_FIRST_CHARGE_LOOKUP_KEY,
  productId: TRIAL_DAY_PRODUCT_ID,
  productName: `${PRODUCT_NAME} trial day`,
  nickname: 'Pay-later trial day, on the first invoice',
  unitAmountCents: TRIAL_FIRST_CHARGE_CENTS,
  interval: null,
};

export const PRICE_SPECS: readonly PriceSpec[] = [
  ...PAID_PLAN_NAMES.flatMap(planSpecs),
  ...PACK_IDS.map(packSpec),
  TRIAL_FIRST_CHARGE_SPEC,
];

/** Why a price Stripe has under a spec's lookup key cannot be sold as that spec, or null when it can. */
export function priceMismatch(spec: PriceSpec, price: Stripe.Price): string | null {
  const productId = typeof price.product === 'string' ? price.product : price.product.id;
  if (!price.active) return 'it is archived';
  if (price.currency !== PRICE_CURRENCY) return `it is in ${price.currency.toUpperCase()}, not USD`;
  if (price.unit_amount !== spec.unitAmountCents) {
    return `it charges ${price.unit_amount ?? 'a custom amount of'} cents, not ${spec.unitAmountCents}`;
  }
  const interval = price.recurring?.interval ?? null;
  if (interval !== spec.interval || (price.recurring && price.recurring.interval_count !== 1)) {
    return interval ? `it recurs every ${price.recurring?.interval_count} ${interval}` : 'it is one-time';
  }
  if (productId !== spec.productId) return `it belongs to product ${productId}, not ${spec.productId}`;
  // `unspecified` can still be set to inclusive once (billing:setup does); `exclusive` never can.
  if (price.tax_behavior === 'exclusive') return 'its tax is added on top of the price (tax_behavior exclusive)';
  return null;
}

/** Stripe finds at most 10 lookup keys per list call. */
const LOOKUP_KEYS_PER_CALL = 10;

/**
 * The prices Stripe has under these lookup keys (archived ones included), by lookup key; an
 * active one wins. Stripe's "List all prices" returns only active prices unless `active` is
 * false ("Returns a list of your active prices … For the list of inactive prices, set `active`
 * to false", API reference, prices/list), so archived ones need a call of their own.
 */
export async function findPricesByLookupKey(
  stripe: Stripe,
  lookupKeys: readonly string[],
): Promise<Map<string, Stripe.Price>> {
  const found = new Map<string, Stripe.Price>();
  for (let at = 0; at < lookupKeys.length; at += LOOKUP_KEYS_PER_CALL) {
    const keys = lookupKeys.slice(at, at + LOOKUP_KEYS_PER_CALL);
    for (const active of [false, true]) {
      const page = await stripe.prices.list({ lookup_keys: keys, active, limit: 100 });
      for (const price of page.data) if (price.lookup_key) found.set(price.lookup_key, price);
    }
  }
  return found;
}
