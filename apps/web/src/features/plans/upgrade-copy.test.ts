import { describe, expect, it } from 'vitest';
import { testUser } from '../../lib/test-user';
import { renewalAfterUpgrade, upgradeCopy } from './upgrade-copy';

const now = new Date('2026-03-04T12:00:00.000Z');
const onMinimum = testUser({ plan: { name: 'minimum', billingCycle: 'monthly' } });

describe('upgradeCopy', () => {
  it("states the new plan's full price, the renewal a period from now, and what stays", () => {
    expect(upgradeCopy(onMinimum, { plan: 'pro', billingCycle: 'monthly' }, now)).toEqual({
      title: 'Upgrade to Pro monthly?',
      body: 'You are charged $36.99 now. Your new plan starts today and renews on Apr 4, 2026. What Minimum monthly already gave you stays until it expires.',
      confirmLabel: 'Upgrade and pay $36.99',
    });
  });

  it('charges a whole year for annual, renewing a year from now', () => {
    const copy = upgradeCopy(onMinimum, { plan: 'minimum', billingCycle: 'annual' }, now);
    expect(copy.title).toBe('Upgrade to Minimum annual?');
    expect(copy.body).toContain('You are charged $86.30 now.');
    expect(copy.body).toContain('renews on Mar 4, 2027.');
  });

  it('charges the pay-now price to those who have the discount for life', () => {
    const discounted = testUser({ plan: { name: 'minimum', billingCycle: 'annual', payNowDiscount: true } });
    const copy = upgradeCopy(discounted, { plan: 'pro', billingCycle: 'annual' }, now);
    expect(copy.body).toContain('You are charged $301.83 now.');
    expect(copy.body).toContain('What Minimum annual already gave you');
  });

  it('names a plan without a cycle alone', () => {
    const noCycle = testUser({ plan: { name: 'pro', billingCycle: null } });
    expect(upgradeCopy(noCycle, { plan: 'virtuoso', billingCycle: 'monthly' }, now).body).toContain(
      'What Pro already gave you',
    );
  });
});

describe('renewalAfterUpgrade', () => {
  it('counts calendar months as the provider does', () => {
    const endOfJanuary = new Date('2026-01-31T09:00:00.000Z');
    expect(renewalAfterUpgrade('monthly', endOfJanuary).toISOString()).toBe('2026-02-28T09:00:00.000Z');
    expect(renewalAfterUpgrade('annual', endOfJanuary).toISOString()).toBe('2027-01-31T09:00:00.000Z');
  });
});
