import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { billingProblem, isTrialUnavailable, payLink, plainProblem } from './billing-problem';

const FALLBACK = 'Failed to change plan. Please try again.';

describe('billingProblem', () => {
  it("shows a declined card in the bank's words, with the link to pay", () => {
    const declined = new ApiError({
      status: 402,
      code: 'PAYMENT_DECLINED',
      msg: 'The first payment of $8.99 did not go through: Your card was declined. Pay it with another card on the payment page.',
      details: { payUrl: 'https://invoice.stripe.com/i/acct_1/test_1' },
    });
    expect(billingProblem(declined, FALLBACK)).toEqual({
      message: declined.msg,
      pay: { url: 'https://invoice.stripe.com/i/acct_1/test_1', label: 'Pay now' },
    });
  });

  it('asks to confirm a payment the bank wants confirmed', () => {
    const confirm = new ApiError({
      status: 402,
      code: 'PAYMENT_REQUIRES_ACTION',
      msg: 'Your bank asks you to confirm the first payment of $8.99.',
      details: { payUrl: '/api/offline-checkout/invoice/in_offline_0123456789abcdef01234567' },
    });
    expect(billingProblem(confirm, FALLBACK).pay).toEqual({
      url: '/api/offline-checkout/invoice/in_offline_0123456789abcdef01234567',
      label: 'Confirm payment',
    });
  });

  it("shows the server's message without a link when it sent none (an upgrade declined)", () => {
    const declined = new ApiError({ status: 402, code: 'PAYMENT_DECLINED', msg: 'Your card has insufficient funds.' });
    expect(billingProblem(declined, FALLBACK)).toEqual(plainProblem('Your card has insufficient funds.'));
  });

  it('shows the refusals that say what to do next', () => {
    for (const [status, code] of [
      [409, 'TRIAL_UNAVAILABLE'],
      [503, 'PAYMENT_PROVIDER_ERROR'],
      [502, 'PAYMENT_PROVIDER_ERROR'],
      [409, 'SUBSCRIPTION_EXISTS'],
    ] as const) {
      expect(billingProblem(new ApiError({ status, code, msg: `said ${code}` }), FALLBACK)).toEqual(
        plainProblem(`said ${code}`),
      );
    }
  });

  it('keeps the general line for any other failure', () => {
    expect(billingProblem(new ApiError({ status: 400, code: 'VALIDATION_ERROR', msg: 'plan: bad' }), FALLBACK)).toEqual(
      plainProblem(FALLBACK),
    );
    expect(billingProblem(new ApiError({ status: 500, code: 'INTERNAL_ERROR', msg: 'boom' }), FALLBACK).message).toBe(
      FALLBACK,
    );
    expect(billingProblem(new ApiError({ status: 402, code: 'PAYMENT_DECLINED', msg: '' }), FALLBACK).message).toBe(
      FALLBACK,
    );
    expect(billingProblem(new TypeError('Failed to fetch'), FALLBACK)).toEqual(plainProblem(FALLBACK));
  });
});

describe('payLink', () => {
  it('opens only addresses a checkout may have', () => {
    expect(payLink('javascript:alert(1)', false)).toBeNull();
    expect(payLink('//evil.example/pay', false)).toBeNull();
    expect(payLink('', false)).toBeNull();
    expect(payLink(42, false)).toBeNull();
    expect(payLink(null, true)).toBeNull();
    expect(payLink('https://invoice.stripe.com/i/x', true)).toEqual({
      url: 'https://invoice.stripe.com/i/x',
      label: 'Confirm payment',
    });
  });
});

describe('isTrialUnavailable', () => {
  it('is the refusal of a second trial', () => {
    expect(isTrialUnavailable(new ApiError({ status: 409, code: 'TRIAL_UNAVAILABLE', msg: 'x' }))).toBe(true);
    expect(isTrialUnavailable(new ApiError({ status: 409, code: 'SUBSCRIPTION_EXISTS', msg: 'x' }))).toBe(false);
    expect(isTrialUnavailable(new Error('TRIAL_UNAVAILABLE'))).toBe(false);
  });
});
