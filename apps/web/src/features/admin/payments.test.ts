import type { AdminPayment } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { dollarsToCents, paymentRow, REFUND_FORM_MESSAGES, refundRequest, rehearsalSteps } from './payments';

const payment = (changes: Partial<AdminPayment> = {}): AdminPayment => ({
  id: 'pay_1',
  description: 'Pro (monthly)',
  amountCents: 3699,
  refundedCents: 0,
  disputeStatus: null,
  outcome: 'granted',
  paidAt: '2026-03-04T10:00:00.000Z',
  ...changes,
});

describe('dollarsToCents', () => {
  it('reads dollars and cents as typed', () => {
    expect(dollarsToCents('12')).toBe(1200);
    expect(dollarsToCents('12.5')).toBe(1250);
    expect(dollarsToCents('12.05')).toBe(1205);
    expect(dollarsToCents(' $1,234.56 ')).toBe(123456);
    expect(dollarsToCents('1,000')).toBe(100000);
    expect(dollarsToCents('0.01')).toBe(1);
    expect(dollarsToCents('0')).toBe(0);
  });

  it('is exact where floating point is not', () => {
    // 0.29 * 100 is 28.999999999999996 in floating point.
    expect(dollarsToCents('0.29')).toBe(29);
    expect(dollarsToCents('36.99')).toBe(3699);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', '.5', '12.', '12.345', '-1', '1e3', 'abc', '12,5', '1,23.00', '$', '12 .50', '99999999']) {
      expect(dollarsToCents(text)).toBeNull();
    }
  });
});

describe('refundRequest', () => {
  it('refunds all that is left when no amount is given', () => {
    expect(refundRequest({ amount: '', endSubscription: false }, payment({ refundedCents: 699 }))).toEqual({
      ok: true,
      body: { endSubscription: false },
      cents: 3000,
    });
  });

  it('sends a part in cents, and whether to end the subscription', () => {
    expect(refundRequest({ amount: '10.50', endSubscription: true }, payment())).toEqual({
      ok: true,
      body: { amountCents: 1050, endSubscription: true },
      cents: 1050,
    });
    expect(refundRequest({ amount: '36.99', endSubscription: false }, payment())).toMatchObject({
      ok: true,
      body: { amountCents: 3699 },
    });
  });

  it('refuses more than is left, nothing, or what is not an amount', () => {
    expect(refundRequest({ amount: '37', endSubscription: false }, payment())).toEqual({
      ok: false,
      message: 'Only $36.99 of this payment is left to refund',
    });
    expect(refundRequest({ amount: '0.00', endSubscription: false }, payment())).toEqual({
      ok: false,
      message: REFUND_FORM_MESSAGES.zero,
    });
    expect(refundRequest({ amount: '1.234', endSubscription: false }, payment())).toEqual({
      ok: false,
      message: REFUND_FORM_MESSAGES.notAnAmount,
    });
    expect(refundRequest({ amount: '', endSubscription: false }, payment({ refundedCents: 3699 }))).toEqual({
      ok: false,
      message: REFUND_FORM_MESSAGES.nothingLeft,
    });
  });
});

describe('paymentRow', () => {
  it('shows a payment as the table reads it', () => {
    const row = paymentRow(payment({ refundedCents: 1000, disputeStatus: 'open' }));
    expect(row).toMatchObject({
      id: 'pay_1',
      what: 'Pro (monthly)',
      amount: '$36.99',
      refunded: '$10.00',
      dispute: 'Chargeback open',
      outcome: 'Granted',
      leftCents: 2699,
    });
    expect(row.date).toMatch(/^Mar 4, 2026/);
  });

  it('shows dashes for nothing refunded and no dispute', () => {
    expect(paymentRow(payment({ outcome: 'rejected' }))).toMatchObject({
      refunded: '—',
      dispute: '—',
      outcome: 'Rejected',
      leftCents: 3699,
    });
  });
});

describe('a dispute in the console', () => {
  it('names an inquiry apart from a chargeback', () => {
    expect(paymentRow(payment({ disputeStatus: 'inquiry' })).dispute).toBe('Inquiry');
    expect(paymentRow(payment({ disputeStatus: 'inquiry_closed' })).dispute).toBe('Inquiry closed');
  });

  it('offers to rehearse what a bank could do next, and nothing once it decided', () => {
    const steps = (disputeStatus: AdminPayment['disputeStatus']) =>
      rehearsalSteps(payment({ disputeStatus })).map(({ step }) => step);
    expect(steps(null)).toEqual(['inquiry', 'chargeback']);
    expect(steps('inquiry')).toEqual(['escalate', 'close_inquiry']);
    expect(steps('open')).toEqual(['won', 'lost']);
    expect(steps('inquiry_closed')).toEqual([]);
    expect(steps('won')).toEqual([]);
    expect(steps('lost')).toEqual([]);
  });
});
