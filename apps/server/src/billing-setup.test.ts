import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SetupError, setUpStripeCatalog } from './billing-setup.js';
import { findPricesByLookupKey, PRICE_SPECS } from './payments/stripe-prices.js';
import { createStripeClient } from './payments/stripe-provider.js';
import { StripeStandIn } from './test/stripe-stand-in.js';

let standIn: StripeStandIn;
let stripe: Stripe;

beforeEach(async () => {
  standIn = await StripeStandIn.start();
  stripe = createStripeClient(standIn.secretKey, standIn.apiBase);
});
afterEach(() => standIn.close());

const creates = (path: string) => standIn.requests.filter((r) => r.method === 'POST' && r.path === path).length;

describe('setUpStripeCatalog', () => {
  it('creates every product and price once, and nothing when run again', async () => {
    const lines: string[] = [];
    const first = await setUpStripeCatalog(stripe, (line) => lines.push(line));
    expect(first.prices.map((p) => p.action)).toEqual(PRICE_SPECS.map(() => 'created'));
    expect(first.products).toHaveLength(9);
    expect(lines.join('\n')).toContain('created  ownvoice_minimum_monthly: $8.99 a month');
    expect(lines.join('\n')).toContain('created  ownvoice_trial_first_charge: $1.01 once');

    const second = await setUpStripeCatalog(stripe);
    expect(second.prices.map((p) => p.action)).toEqual(PRICE_SPECS.map(() => 'kept'));
    expect(second.prices.map((p) => p.priceId)).toEqual(first.prices.map((p) => p.priceId));
    expect(second.products.every((p) => p.action === 'kept')).toBe(true);
    expect(creates('/v1/prices')).toBe(PRICE_SPECS.length);
    expect(creates('/v1/products')).toBe(9);

    const found = await findPricesByLookupKey(
      stripe,
      PRICE_SPECS.map((spec) => spec.lookupKey),
    );
    expect(found.get('ownvoice_pro_annual_pay_now')).toMatchObject({
      unit_amount: 30183,
      currency: 'usd',
      recurring: { interval: 'year', interval_count: 1 },
      product: 'ownvoice_plan_pro',
      type: 'recurring',
      tax_behavior: 'inclusive',
    });
    expect(found.get('ownvoice_pack_extra_storage_slots')).toMatchObject({ unit_amount: 1499, type: 'one_time' });
  });

  it('replaces a price whose amount is out of date, moving its lookup key and keeping the old price', async () => {
    await stripe.products.create({ id: 'ownvoice_plan_minimum', name: 'OwnVoice Minimum' });
    const old = await stripe.prices.create({
      product: 'ownvoice_plan_minimum',
      currency: 'usd',
      unit_amount: 799,
      recurring: { interval: 'month' },
      lookup_key: 'ownvoice_minimum_monthly',
    });

    const report = await setUpStripeCatalog(stripe);

    const line = report.prices.find((p) => p.lookupKey === 'ownvoice_minimum_monthly');
    expect(line).toMatchObject({ action: 'replaced' });
    expect(line?.priceId).not.toBe(old.id);
    const found = await findPricesByLookupKey(stripe, ['ownvoice_minimum_monthly']);
    expect(found.get('ownvoice_minimum_monthly')).toMatchObject({ id: line?.priceId, unit_amount: 899 });
    const { data } = await stripe.prices.list({ limit: 100 });
    expect(data.find((price) => price.id === old.id)).toMatchObject({ lookup_key: null, unit_amount: 799 });
  });

  it('makes a price whose tax behavior was never set include tax, keeping the price', async () => {
    await stripe.products.create({ id: 'ownvoice_plan_minimum', name: 'OwnVoice Minimum' });
    const unspecified = await stripe.prices.create({
      product: 'ownvoice_plan_minimum',
      currency: 'usd',
      unit_amount: 899,
      recurring: { interval: 'month' },
      lookup_key: 'ownvoice_minimum_monthly',
    });
    expect(unspecified.tax_behavior).toBe('unspecified');
    const lines: string[] = [];

    const report = await setUpStripeCatalog(stripe, (line) => lines.push(line));

    expect(report.prices.find((p) => p.lookupKey === 'ownvoice_minimum_monthly')).toEqual({
      lookupKey: 'ownvoice_minimum_monthly',
      priceId: unspecified.id,
      action: 'updated',
    });
    expect(lines).toContain(`updated  ownvoice_minimum_monthly: $8.99 a month (${unspecified.id})`);
    expect(standIn.requests.findLast((r) => r.path === `/v1/prices/${unspecified.id}`)?.params).toEqual({
      tax_behavior: 'inclusive',
    });
    const found = await findPricesByLookupKey(stripe, ['ownvoice_minimum_monthly']);
    expect(found.get('ownvoice_minimum_monthly')).toMatchObject({ id: unspecified.id, tax_behavior: 'inclusive' });
    expect((await setUpStripeCatalog(stripe)).prices.every((p) => p.action === 'kept')).toBe(true);
  });

  it('replaces a price that adds tax on top, which Stripe does not let change', async () => {
    await stripe.products.create({ id: 'ownvoice_plan_pro', name: 'OwnVoice Pro' });
    const exclusive = await stripe.prices.create({
      product: 'ownvoice_plan_pro',
      currency: 'usd',
      unit_amount: 3699,
      recurring: { interval: 'month' },
      lookup_key: 'ownvoice_pro_monthly',
      tax_behavior: 'exclusive',
    });
    await expect(stripe.prices.update(exclusive.id, { tax_behavior: 'inclusive' })).rejects.toThrow(
      /cannot be changed/,
    );

    const report = await setUpStripeCatalog(stripe);

    const line = report.prices.find((p) => p.lookupKey === 'ownvoice_pro_monthly');
    expect(line).toMatchObject({ action: 'replaced' });
    const found = await findPricesByLookupKey(stripe, ['ownvoice_pro_monthly']);
    expect(found.get('ownvoice_pro_monthly')).toMatchObject({ id: line?.priceId, tax_behavior: 'inclusive' });
  });

  it('replaces an archived price, moving its lookup key to the new one', async () => {
    await stripe.products.create({ id: 'ownvoice_plan_minimum', name: 'OwnVoice Minimum' });
    const archived = await stripe.prices.create({
      product: 'ownvoice_plan_minimum',
      currency: 'usd',
      unit_amount: 899,
      recurring: { interval: 'month' },
      lookup_key: 'ownvoice_minimum_monthly',
      tax_behavior: 'inclusive',
    });
    await stripe.prices.update(archived.id, { active: false });

    const report = await setUpStripeCatalog(stripe);

    const line = report.prices.find((p) => p.lookupKey === 'ownvoice_minimum_monthly');
    expect(line).toMatchObject({ action: 'replaced' });
    expect(line?.priceId).not.toBe(archived.id);
  });

  it('stops at an archived product, saying how to fix it', async () => {
    await stripe.products.create({ id: 'ownvoice_plan_pro', name: 'OwnVoice Pro', active: false });
    await expect(setUpStripeCatalog(stripe)).rejects.toThrow(SetupError);
    await expect(setUpStripeCatalog(stripe)).rejects.toThrow(/ownvoice_plan_pro is archived.*unarchive/);
  });
});
