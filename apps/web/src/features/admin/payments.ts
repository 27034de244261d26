// A user's payments in the console: each as a table row, the dispute steps an admin may rehearse,
// and the refund form's request. The amount is typed in dollars and turned into whole cents
// without floating point, as prices are.
import {
  type AdminPayment,
  type AdminRefundBody,
  adminRefundBodySchema,
  type DisputeRehearsalStep,
  firstIssueMessage,
  formatUsd,
} from '@ownvoice/shared';
import { formatDateTime } from '../../lib/format';

const DISPUTE_LABELS: Record<NonNullable<AdminPayment['disputeStatus']>, string> = {
  // The bank asks first and withdraws nothing (decision 35); a chargeback withdraws the money.
  inquiry: 'Inquiry',
  inquiry_closed: 'Inquiry closed',
  open: 'Chargeback open',
  won: 'Won',
  lost: 'Lost',
};

/** A step of a dispute an admin may rehearse on the offline provider, by where the dispute stands. */
const REHEARSALS: Record<
  NonNullable<AdminPayment['disputeStatus']> | 'none',
  { step: DisputeRehearsalStep; label: string }[]
> = {
  none: [
    { step: 'inquiry', label: 'The bank asks (an inquiry)' },
    { step: 'chargeback', label: 'A chargeback' },
  ],
  inquiry: [
    { step: 'escalate', label: 'The inquiry becomes a chargeback' },
    { step: 'close_inquiry', label: 'The inquiry closes' },
  ],
  open: [
    { step: 'won', label: 'The chargeback is won' },
    { step: 'lost', label: 'The chargeback is lost' },
  ],
  inquiry_closed: [],
  won: [],
  lost: [],
};

/** What a bank could do next about a payment, for the console's rehearsal on the offline provider. */
export const rehearsalSteps = (payment: AdminPayment): { step: DisputeRehearsalStep; label: string }[] =>
  REHEARSALS[payment.disputeStatus ?? 'none'];

const OUTCOME_LABELS: Record<AdminPayment['outcome'], string> = {
  granted: 'Granted',
  // Nothing was granted for it (a second subscription, a deleted account): it is refunded in full.
  rejected: 'Rejected',
};

export interface PaymentRow {
  id: string;
  date: string;
  what: string;
  amount: string;
  refunded: string;
  dispute: string;
  outcome: string;
  /** What can still be refunded, in cents. */
  leftCents: number;
}

export const leftToRefund = (payment: AdminPayment): number => Math.max(0, payment.amountCents - payment.refundedCents);

export function paymentRow(payment: AdminPayment): PaymentRow {
  return {
    id: payment.id,
    date: formatDateTime(payment.paidAt),
    what: payment.description,
    amount: formatUsd(payment.amountCents),
    refunded: payment.refundedCents > 0 ? formatUsd(payment.refundedCents) : '—',
    dispute: payment.disputeStatus ? DISPUTE_LABELS[payment.disputeStatus] : '—',
    outcome: OUTCOME_LABELS[payment.outcome],
    leftCents: leftToRefund(payment),
  };
}

/** "12", "12.5", "$1,234.56" in cents; null when it is not an amount of dollars and cents. */
export function dollarsToCents(text: string): number | null {
  const typed = text.trim().replace(/^\$/, '');
  // Commas only as thousands separators: "12,5" may mean 12.50 to some, so it is refused.
  if (typed.includes(',') && !/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(typed)) return null;
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(typed.replaceAll(',', ''));
  if (!match) return null;
  const [, dollars = '0', cents = ''] = match;
  return Number(dollars) * 100 + Number(cents.padEnd(2, '0'));
}

export const REFUND_FORM_MESSAGES = {
  nothingLeft: 'This payment is refunded in full already',
  notAnAmount: 'Enter an amount in dollars, such as 12.50, or leave it empty to refund all that is left',
  zero: 'Refund more than $0.00',
} as const;

export interface RefundFormValues {
  /** Dollars as typed; empty refunds all that is left. */
  amount: string;
  endSubscription: boolean;
}

export type RefundRequest =
  | { ok: true; body: AdminRefundBody /** What will be refunded, for the button and the toast. */; cents: number }
  | { ok: false; message: string };

export function refundRequest(values: RefundFormValues, payment: AdminPayment): RefundRequest {
  const left = leftToRefund(payment);
  if (left <= 0) return { ok: false, message: REFUND_FORM_MESSAGES.nothingLeft };
  let cents = left;
  // Omitted, the server refunds all that is left: the same amount, without racing a partial refund.
  let body: AdminRefundBody = { endSubscription: values.endSubscription };
  if (values.amount.trim() !== '') {
    const typed = dollarsToCents(values.amount);
    if (typed === null) return { ok: false, message: REFUND_FORM_MESSAGES.notAnAmount };
    if (typed === 0) return { ok: false, message: REFUND_FORM_MESSAGES.zero };
    if (typed > left) return { ok: false, message: `Only ${formatUsd(left)} of this payment is left to refund` };
    cents = typed;
    body = { amountCents: typed, endSubscription: values.endSubscription };
  }
  const parsed = adminRefundBodySchema.safeParse(body);
  return parsed.success
    ? { ok: true, body: parsed.data, cents }
    : { ok: false, message: firstIssueMessage(parsed.error) };
}
