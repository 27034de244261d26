import { describe, expect, it } from 'vitest';
import { BILLING_CYCLES } from '../constants.js';
import { PACK_IDS, PACKS, PAID_PLAN_NAMES, PLANS } from './catalog.js';
import { annualPriceCents, formatUsd, payNowPriceCents, planPriceCents } from './prices.js';

// Property checks run over every price up to $1,000 plus the table's own prices: cheap and exhaustive.
const EVERY_PRICE = [...Array.from({ length: 100_001 }, (_, cents) => cents), 29999 * 12, 10_000_000];

describe('annualPriceCents', () => {
  it('is twelve months less 20%, rounded down to a cent', () => {
    expect(annualPriceCents(899)).toBe(8630); // 12 × 8.99 × 0.8 = 86.304
    expect(annualPriceCents(3699)).toBe(35510); // 355.104
    expect(annualPriceCents(29999)).toBe(287990); // 2,879.904
  });

  it('is never more than 80% of twelve months, and less than a cent below it', () => {
    const wrong = EVERY_PRICE.slice(0, 20_001).filter((monthly) => {
      const exact = monthly * 12 * 80; // the annual price in hundredths of a cent
      const annual = annualPriceCents(monthly);
      return !Number.isSafeInteger(annual) || annual * 100 > exact || exact - annual * 100 >= 100;
    });
    expect(wrong).toEqual([]);
  });
});

describe('payNowPriceCents', () => {
  it('is the price × 0.85 rounded down to cents', () => {
    expect(payNowPriceCents(899)).toBe(764); // 7.6415
    expect(payNowPriceCents(3699)).toBe(3144); // 31.4415
    expect(payNowPriceCents(29999)).toBe(25499); // 254.9915
    expect(payNowPriceCents(100)).toBe(85);
    expect(payNowPriceCents(0)).toBe(0);
  });

  it('equals floor(price × 85 / 100) and never exceeds the price, for every price', () => {
    const wrong = EVERY_PRICE.filter((cents) => {
      const discounted = payNowPriceCents(cents);
      return discounted !== Math.floor((cents * 85) / 100) || discounted > cents;
    });
    expect(wrong).toEqual([]);
  });

  it('refuses what is not a whole, non-negative number of cents', () => {
    for (const bad of [8.99, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => payNowPriceCents(bad)).toThrow(RangeError);
    }
  });
});

describe('planPriceCents', () => {
  it('gives every plan, cycle and discount its one price', () => {
    const table = Object.fromEntries(
      PAID_PLAN_NAMES.map((plan) => [
        plan,
        Object.fromEntries(
          BILLING_CYCLES.flatMap((cycle) => [
            [cycle, planPriceCents(plan, cycle, { payNow: false })],
            [`${cycle} pay now`, planPriceCents(plan, cycle, { payNow: true })],
          ]),
        ),
      ]),
    );
    expect(table).toEqual({
      minimum: { monthly: 899, 'monthly pay now': 764, annual: 8630, 'annual pay now': 7335 },
      pro: { monthly: 3699, 'monthly pay now': 3144, annual: 35510, 'annual pay now': 30183 },
      virtuoso: { monthly: 29999, 'monthly pay now': 25499, annual: 287990, 'annual pay now': 244791 },
    });
  });

  it('takes the pay-now discount off the price of the cycle, and the annual price is the cheaper per month', () => {
    for (const plan of PAID_PLAN_NAMES) {
      for (const cycle of BILLING_CYCLES) {
        const base = planPriceCents(plan, cycle, { payNow: false });
        expect(planPriceCents(plan, cycle, { payNow: true })).toBe(payNowPriceCents(base));
      }
      expect(planPriceCents(plan, 'annual', { payNow: false })).toBeLessThan(PLANS[plan].monthlyCents * 12);
    }
  });
});

describe('formatUsd', () => {
  it('writes cents as dollars with two decimals and thousands separators', () => {
    expect(formatUsd(899)).toBe('$8.99');
    expect(formatUsd(1000)).toBe('$10.00');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(287990)).toBe('$2,879.90');
    expect(formatUsd(123456789)).toBe('$1,234,567.89');
    expect(PACK_IDS.map((id) => formatUsd(PACKS[id].priceCents))).toEqual([
      '$8.99',
      '$7.99',
      '$4.99',
      '$8.99',
      '$14.99',
    ]);
  });

  it('matches the locale formatter for every price', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    for (const cents of EVERY_PRICE.filter((c) => c % 97 === 0)) expect(formatUsd(cents)).toBe(usd.format(cents / 100));
  });
});
