// Billing's own records, inserted directly: a payment as settling one records it, an event as
// handled, and the trial claims an address or card leaves behind. Money a provider holds (its
// checkouts, subscriptions, invoices) is made through the offline provider instead, which keeps
// its facts and the events about them together.
import { billingEvents, type PaymentRow, payments, trialClaims } from '../../db/schema.js';
import { trialKeys } from '../../services/billing/trial-keys.js';
import { inserted, type RowTarget } from './rows.js';

let serial = 0;

/** A payment recorded for `userId` (a granted pack's checkout at $4.99 unless told). */
export async function createPayment(
  target: RowTarget,
  userId: string,
  overrides: Partial<PaymentRow> = {},
): Promise<PaymentRow> {
  serial += 1;
  const now = target.clock.now();
  return inserted(
    await target.database.db
      .insert(payments)
      .values({
        id: `cs_factory_${serial}`,
        userId,
        kind: 'checkout',
        paymentIntentId: `pi_factory_${serial}`,
        subscriptionId: null,
        amountCents: 499,
        outcome: 'granted',
        description: '100 proofreads',
        paidAt: now,
        createdAt: now,
        ...overrides,
      })
      .returning(),
    'payments',
  );
}

/** An event id recorded as handled, as the webhook records each one it applied. */
export async function createHandledEvent(target: RowTarget, id: string, type = 'invoice.paid'): Promise<void> {
  const now = target.clock.now();
  await target.database.db.insert(billingEvents).values({ id, type, createdAt: now, handledAt: now });
}

/** The trial claimed by `email` (and a card's fingerprint), as a started trial claims it. */
export async function createTrialClaim(target: RowTarget, email: string, cardFingerprint: string | null = null) {
  const now = target.clock.now();
  await target.database.db
    .insert(trialClaims)
    .values(trialKeys(email, cardFingerprint).map((key) => ({ key, claimedAt: now })));
}
