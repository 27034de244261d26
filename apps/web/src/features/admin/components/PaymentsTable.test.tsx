// The payments table as the server renders it to HTML (no DOM here): a named button to rehearse a
// dispute only where the console offers it (the offline provider) and the bank has a step left.
import type { AdminPayment } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../../lib/test-render';
import { PaymentsTable } from './PaymentsTable';

const payment = (id: string, disputeStatus: AdminPayment['disputeStatus']): AdminPayment => ({
  id,
  description: 'Pro (monthly)',
  amountCents: 3699,
  refundedCents: 0,
  disputeStatus,
  outcome: 'granted',
  paidAt: '2026-03-04T10:00:00.000Z',
});

describe('PaymentsTable', () => {
  it('offers a dispute to rehearse where one can be, and only there', () => {
    const payments = [payment('pay_1', null), payment('pay_2', 'lost')];
    const offline = renderHtml(<PaymentsTable payments={payments} onRefund={() => {}} onRehearse={() => {}} />);
    expect(offline.match(/aria-label="Rehearse a dispute of Pro \(monthly\) of /g)).toHaveLength(1);
    expect(offline).toContain('>Lost<');
    const stripe = renderHtml(<PaymentsTable payments={payments} onRefund={() => {}} />);
    expect(stripe).not.toContain('Rehearse a dispute');
  });
});
