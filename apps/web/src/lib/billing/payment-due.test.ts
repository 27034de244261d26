import { describe, expect, it } from 'vitest';
import { type PaymentDue, paymentDueView } from './payment-due';

const due = (changes: Partial<PaymentDue> = {}): PaymentDue => ({
  amountCents: 899,
  payUrl: 'https://invoice.stripe.com/i/acct_1/test_1',
  failure: 'Your card was declined.',
  requiresAction: false,
  startsPlan: true,
  ...changes,
});

describe('paymentDueView', () => {
  it("says a declined first payment in the bank's words, and that the plan waits for it", () => {
    expect(paymentDueView(due())).toEqual({
      title: 'A payment of $8.99 is due',
      reason: 'Your card was declined.',
      meaning: 'Your Minimum plan starts as soon as it is paid.',
      pay: { url: 'https://invoice.stripe.com/i/acct_1/test_1', label: 'Pay now' },
    });
  });

  it('asks to confirm when the bank wants it, whatever the failure says', () => {
    const view = paymentDueView(due({ requiresAction: true, failure: 'authentication_required' }));
    expect(view.title).toBe('Confirm your payment of $8.99');
    expect(view.reason).toBe('Your bank asks you to confirm this payment.');
    expect(view.pay?.label).toBe('Confirm payment');
  });

  it('says a failed renewal keeps the plan while the card is retried', () => {
    const view = paymentDueView(
      due({ amountCents: 3699, startsPlan: false, failure: 'Your card has insufficient funds' }),
    );
    expect(view.title).toBe('A payment of $36.99 is due');
    expect(view.reason).toBe('Your card has insufficient funds.');
    expect(view.meaning).toBe('Your plan continues while we try the card again; pay now to keep it.');
  });

  it('has a plain reason when the bank gave none, and no link without a page to pay on', () => {
    const view = paymentDueView(due({ failure: null, payUrl: null }));
    expect(view.reason).toBe('The payment did not go through.');
    expect(view.pay).toBeNull();
    expect(paymentDueView(due({ failure: '  ' })).reason).toBe('The payment did not go through.');
  });
});
