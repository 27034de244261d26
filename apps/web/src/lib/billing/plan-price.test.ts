import { describe, expect, it } from 'vitest';
import { planPriceView } from './plan-price';

describe('planPriceView', () => {
  it('shows the monthly list prices', () => {
    expect(planPriceView('minimum', 'monthly', { payNow: false })).toEqual({
      price: '$8.99',
      period: 'mo',
      perMonth: null,
      listPrice: null,
    });
    expect(planPriceView('virtuoso', 'monthly', { payNow: false }).price).toBe('$299.99');
  });

  it('shows the yearly price and what it comes to a month', () => {
    expect(planPriceView('minimum', 'annual', { payNow: false })).toEqual({
      price: '$86.30',
      period: 'yr',
      perMonth: '$7.19',
      listPrice: null,
    });
    expect(planPriceView('virtuoso', 'annual', { payNow: false })).toMatchObject({
      price: '$2,879.90',
      perMonth: '$239.99',
    });
  });

  it('shows the pay-now price with the list price to strike through', () => {
    expect(planPriceView('pro', 'monthly', { payNow: true })).toEqual({
      price: '$31.44',
      period: 'mo',
      perMonth: null,
      listPrice: '$36.99',
    });
    expect(planPriceView('virtuoso', 'annual', { payNow: true })).toMatchObject({
      price: '$2,447.91',
      perMonth: '$203.99',
      listPrice: '$2,879.90',
    });
  });
});
