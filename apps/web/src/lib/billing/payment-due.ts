// An unpaid invoice as the account screen and the plans page say it (decision 20.1): how much, what
// the bank said, what it means for the plan, and where to pay. Nothing is retried behind the
// person's back after the trial, so the link is the way on.
import { formatUsd, type User } from '@ownvoice/shared';
import { type PayLink, payLink } from './billing-problem';

export type PaymentDue = NonNullable<User['subscription']['paymentDue']>;

export interface PaymentDueView {
  title: string;
  /** The bank's own words, or that it asks for a confirmation. */
  reason: string;
  /** What happens to the plan meanwhile. */
  meaning: string;
  /** Null when the provider gave no page to pay on: then the person can only wait or choose again. */
  pay: PayLink | null;
}

const sentence = (text: string): string => {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

export function paymentDueView(due: PaymentDue): PaymentDueView {
  const amount = formatUsd(Math.max(0, due.amountCents));
  const reason = due.requiresAction
    ? 'Your bank asks you to confirm this payment.'
    : due.failure?.trim()
      ? sentence(due.failure)
      : 'The payment did not go through.';
  const meaning = due.startsPlan
    ? 'Your Minimum plan starts as soon as it is paid.'
    : 'Your plan continues while we try the card again; pay now to keep it.';
  return {
    title: due.requiresAction ? `Confirm your payment of ${amount}` : `A payment of ${amount} is due`,
    reason,
    meaning,
    pay: payLink(due.payUrl, due.requiresAction),
  };
}
