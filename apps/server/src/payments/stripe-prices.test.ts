import { PACKS, PAY_LATER_FIRST_CHARGE_CENTS, PLANS } from '@ownvoice/shared';
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  PRICE_SPECS,
  type PriceSpec,
  packPriceLookupKey,
  planPriceLookupKey,
  priceMismatch,
  TRIAL_FIRST_CHARGE_CENTS,
  TRIAL_FIRST_CHARGE_LOOKUP_KEY,
} from './stripe-prices.js';

const spec = (lookupKey: string): PriceSpec => {
  const found = PRICE_SPECS.find((each) => each.lookupKey === lookupKey);
  if (!found) throw new Error(`no spec ${lookupKey}`);
  return found;
};

describe('the prices OwnVoice sells in Stripe', () => {
  it('has one price per lookup key: 12 plan prices, 5 packs and the trial day', () => {
    expect(PRICE_SPECS).toHaveLength(18);
    expect(new Set(PRICE_SPECS.map((each) => each.lookupKey)).size).toBe(18);
  });

  it('charges the decided plan prices, pay-now and annual included', () => {
    const amounts = Object.fromEntries(PRICE_SPECS.map((each) => [each.lookupKey, each.unitAmountCents]));
    expect(amounts).toMatchObject({
      ownvoice_minimum_monthly: 899,
      ownvoice_minimum_monthly_pay_now: 764,
      ownvoice_minimum_annual: 8630,
      ownvoice_pro_annual_pay_now: 30183,
      ownvoice_virtuoso_monthly_pay_now: 25499,
      ownvoice_virtuoso_annual_pay_now: 244791,
    });
    expect(spec(planPriceLookupKey('pro', 'annual', true)).interval).toBe('year');
    expect(spec(planPriceLookupKey('pro', 'monthly', false)).interval).toBe('month');
  });

  it('sells each pack once at its listed price, without the pay-now discount', () => {
    for (const [pack, { priceCents }] of Object.entries(PACKS)) {
      expect(spec(packPriceLookupKey(pack as keyof typeof PACKS))).toMatchObject({
        unitAmountCents: priceCents,
        interval: null,
      });
    }
  });

  it('makes the first invoice after a trial exactly the pay-later first charge', () => {
    expect(TRIAL_FIRST_CHARGE_CENTS).toBe(101);
    expect(spec(TRIAL_FIRST_CHARGE_LOOKUP_KEY)).toMatchObject({ unitAmountCents: 101, interval: null });
    expect(PLANS.minimum.monthlyCents + TRIAL_FIRST_CHARGE_CENTS).toBe(PAY_LATER_FIRST_CHARGE_CENTS);
  });
});

describe('priceMismatch', () => {
  const minimumMonthly = spec('ownvoice_minimum_monthly');
  const stripePrice = (changes: Partial<Stripe.Price> = {}) =>
    ({
      id: 'price_1',
      active: true,
      currency: 'usd',
      unit_amount: 899,
      recurring: { interval: 'month', interval_count: 1 },
      product: 'ownvoice_plan_minimum',
      tax_behavior: 'inclusive',
      ...changes,
    }) as Stripe.Price;

  it('accepts the price the spec describes', () => {
    expect(priceMismatch(minimumMonthly, stripePrice())).toBeNull();
  });

  it('accepts a price whose tax behavior was never set, which billing:setup sets to inclusive', () => {
    expect(priceMismatch(minimumMonthly, stripePrice({ tax_behavior: 'unspecified' }))).toBeNull();
    expect(priceMismatch(minimumMonthly, stripePrice({ tax_behavior: null }))).toBeNull();
  });

  it.each([
    [{ unit_amount: 999 }, /999 cents, not 899/],
    [{ active: false }, /archived/],
    [{ currency: 'eur' }, /EUR/],
    [{ recurring: null }, /one-time/],
    [{ recurring: { interval: 'year', interval_count: 1 } as Stripe.Price.Recurring }, /every 1 year/],
    [{ product: 'prod_other' }, /prod_other/],
    [{ tax_behavior: 'exclusive' }, /tax is added on top/],
  ])('names what differs: %o', (changes, why) => {
    expect(priceMismatch(minimumMonthly, stripePrice(changes))).toMatch(why);
  });
});
