import { describe, expect, it } from 'vitest';
import { PAY_LATER_FIRST_CHARGE_CENTS } from './catalog.js';
import { planPriceCents } from './prices.js';
import { TRIAL_CHARGE_STATEMENT, TRIAL_START_STATEMENT } from './trial-charge.js';

describe('the trial charge statement', () => {
  it('adds up: the first month and the trial day make the first charge', () => {
    expect(TRIAL_CHARGE_STATEMENT).toBe(
      "The first charge is $10.00: the Minimum plan's first month ($8.99) and $1.01 for the trial day. Then $8.99 a month until you cancel.",
    );
    expect(planPriceCents('minimum', 'monthly', { payNow: false }) + 101).toBe(PAY_LATER_FIRST_CHARGE_CENTS);
  });

  it('says before the trial that nothing is charged today, and when the plan starts', () => {
    expect(TRIAL_START_STATEMENT).toMatch(/^Nothing is charged today\. The Minimum plan starts after 24 hours/);
    expect(TRIAL_START_STATEMENT.endsWith(TRIAL_CHARGE_STATEMENT)).toBe(true);
    // Stripe Checkout's submit message is at most 1,200 characters.
    expect(TRIAL_START_STATEMENT.length).toBeLessThan(1200);
  });
});
