// How Stripe's dispute statuses read (decision 35): an inquiry withdraws no money, a chargeback does,
// and a status this code does not know reads as a chargeback (never fail open).
import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { disputeStatusOf, paymentDispute } from './stripe-read.js';

describe('a dispute’s status', () => {
  it('reads the warning_ statuses as an inquiry and every chargeback status as one', () => {
    const read = (status: string) => disputeStatusOf(status as Stripe.Dispute.Status);
    expect(read('warning_needs_response')).toBe('inquiry');
    expect(read('warning_under_review')).toBe('inquiry');
    expect(read('warning_closed')).toBe('inquiry_closed');
    expect(read('prevented')).toBe('inquiry_closed');
    expect(read('needs_response')).toBe('open');
    expect(read('under_review')).toBe('open');
    expect(read('appeal_needs_response')).toBe('open');
    expect(read('won')).toBe('won');
    expect(read('lost')).toBe('lost');
    expect(read('something_new')).toBe('open');
  });

  it('reads a payment’s disputes as the one that says most about its money', () => {
    const dispute = (id: string, status: string) => ({ id, status: status as Stripe.Dispute.Status });
    expect(paymentDispute([])).toBeNull();
    expect(paymentDispute([dispute('du_1', 'warning_closed'), dispute('du_2', 'needs_response')])).toEqual({
      id: 'du_2',
      status: 'open',
    });
    expect(paymentDispute([dispute('du_3', 'lost'), dispute('du_4', 'warning_under_review')])).toEqual({
      id: 'du_3',
      status: 'lost',
    });
  });
});
