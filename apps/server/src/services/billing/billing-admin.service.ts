// What an admin does about money (docs/decisions/0020): sees a person's payments, refunds one (in
// full or in part, optionally ending the subscription now), rehearses a dispute of one on the
// offline provider (0035), sees billing's health and runs a reconciliation. A refund or a
// rehearsed dispute goes through the provider and is applied at once through the same step as its
// event, which takes back what it should of what the payment granted; the event then changes
// nothing. Each action is in the person's activity log, with the admin who did it.
import {
  type AdminBillingStatus,
  type AdminDisputeRehearsalBody,
  type AdminPayment,
  type AdminRefundBody,
  type DisputeRehearsalStep,
  formatUsd,
  isPaidPlanName,
  type Reconciliation as ReconciliationView,
} from '@ownvoice/shared';
import type { PaymentRow, UserRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import type { OfflineProvider } from '../../payments/offline-provider.js';
import { adminPolicy } from '../../policies/index.js';
import type { BillingEventsRepository, ReconciliationRow } from '../../repositories/billing-events.repository.js';
import type { PaymentsRepository } from '../../repositories/payments.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import type { ActivityService } from '../activity.service.js';
import type { BillingService, Payments } from './billing.service.js';
import { type ProviderErrorLog, providerFailure } from './provider-errors.js';

const PAYMENTS_PAGE = 100;

export class BillingAdminService {
  constructor(
    private readonly payments: Payments | null,
    private readonly billing: Pick<BillingService, 'health'>,
    private readonly paymentsRepo: PaymentsRepository,
    private readonly billingEvents: BillingEventsRepository,
    private readonly users: UsersRepository,
    private readonly activity: Pick<ActivityService, 'record'>,
    private readonly log: ProviderErrorLog,
  ) {}

  async paymentsOf(userId: string): Promise<AdminPayment[]> {
    if (!(await this.users.findById(userId))) throw errors.notFound('User');
    return (await this.paymentsRepo.listForUser(userId, PAYMENTS_PAGE)).map(paymentView);
  }

  /** Refunds a payment of `targetId` (decision 20.1: what it granted goes in the same share). */
  async refund(
    actor: UserRow,
    targetId: string,
    paymentId: string,
    body: AdminRefundBody,
  ): Promise<{ payment: AdminPayment; user: UserRow }> {
    const { provider, events } = this.require();
    const owner = await this.users.findById(targetId);
    if (!owner) throw errors.notFound('User');
    // Money back to oneself, or to a super admin by an admin, goes through someone else.
    const refusal = adminPolicy.refusalToActOn(actor, owner, { kind: 'refund' }, 0);
    if (refusal) throw errors.forbidden(refusal);
    const payment = await this.paymentsRepo.find(paymentId);
    if (!payment || payment.userId !== targetId) throw errors.notFound('Payment');
    if (!payment.paymentIntentId)
      throw errors.validation('This payment was not made by card, so there is nothing to refund through the provider.');
    const paymentIntentId = payment.paymentIntentId;
    const left = payment.amountCents - payment.refundedCents;
    const amount = body.amountCents ?? left;
    if (left <= 0) throw errors.validation('This payment is refunded in full already.');
    if (amount > left) throw errors.validation(`Only ${formatUsd(left)} of this payment is left to refund.`);
    await events.withAccount(targetId, async () => {
      await this.call(() =>
        provider.refund({
          paymentIntentId,
          amountCents: amount === left && payment.refundedCents === 0 ? null : amount,
          idempotencyKey: `admin-refund:${paymentId}:${payment.refundedCents}:${amount}`,
        }),
      );
      await events.settlePayment(targetId, paymentIntentId);
      const target = await this.users.findById(targetId);
      if (body.endSubscription && target?.providerSubscriptionId && isPaidPlanName(target.planName)) {
        const subscriptionId = target.providerSubscriptionId;
        await this.call(() => provider.cancelNow(subscriptionId, `admin-refund-end:${paymentId}`));
        await events.syncSubscription(targetId, subscriptionId);
      }
      await this.activity.record({
        userId: targetId,
        actorId: actor.id,
        action: 'payment_refunded',
        details: `Refunded ${formatUsd(amount)} of ${formatUsd(payment.amountCents)} (${payment.description})${body.endSubscription ? ' and ended the subscription' : ''}`,
        after: { paymentId, amountCents: amount, endSubscription: body.endSubscription },
      });
    });
    const [refreshed, user] = await Promise.all([this.paymentsRepo.find(paymentId), this.users.findById(targetId)]);
    if (!refreshed || !user) throw errors.notFound('Payment');
    return { payment: paymentView(refreshed), user };
  }

  /**
   * Rehearses a step of a dispute of a payment of `targetId` on the offline test provider, as a
   * bank would take it (decision 35): reported as Stripe reports it and applied at once through the
   * same step as its event, which then changes nothing. Stripe's disputes come from banks (its
   * test mode has cards for them), so a server selling through Stripe refuses.
   */
  async rehearseDispute(
    actor: UserRow,
    targetId: string,
    paymentId: string,
    { step }: AdminDisputeRehearsalBody,
  ): Promise<{ payment: AdminPayment; user: UserRow }> {
    const { events, actions, offline } = this.require();
    if (!offline) {
      throw errors.paymentProvider(
        'Disputes are rehearsed on the offline test provider only. Stripe’s come from banks: in its test mode, pay with one of its dispute test cards.',
        409,
      );
    }
    const owner = await this.users.findById(targetId);
    if (!owner) throw errors.notFound('User');
    const refusal = adminPolicy.refusalToActOn(actor, owner, { kind: 'dispute' }, 0);
    if (refusal) throw errors.forbidden(refusal);
    const payment = await this.paymentsRepo.find(paymentId);
    if (!payment || payment.userId !== targetId) throw errors.notFound('Payment');
    const paymentIntentId = payment.paymentIntentId;
    if (!paymentIntentId) throw errors.validation('This payment was not made by card, so no bank can dispute it.');
    await events.withAccount(targetId, async () => {
      await this.call(() => REHEARSE[step](offline, paymentIntentId));
      await events.settlePayment(targetId, paymentIntentId);
      await this.activity.record({
        userId: targetId,
        actorId: actor.id,
        action: 'dispute_rehearsed',
        details: `Rehearsed a dispute of ${formatUsd(payment.amountCents)} (${payment.description}): ${REHEARSAL_WORDS[step]}`,
        after: { paymentId, step },
      });
    });
    // A chargeback ends the subscription it paid for now; the account shows it, as after a refund.
    await actions.run(targetId);
    const subscriptionId = (await this.users.findById(targetId))?.providerSubscriptionId;
    if (subscriptionId) await events.withAccount(targetId, () => events.syncSubscription(targetId, subscriptionId));
    const [refreshed, user] = await Promise.all([this.paymentsRepo.find(paymentId), this.users.findById(targetId)]);
    if (!refreshed || !user) throw errors.notFound('Payment');
    return { payment: paymentView(refreshed), user };
  }

  async status(): Promise<AdminBillingStatus> {
    const last = await this.billingEvents.lastReconciliation();
    return {
      health: await this.billing.health(),
      lastReconciliation: last ? reconciliationView(last) : null,
      pendingActions: this.payments ? (await this.payments.actions.pending()).length : 0,
    };
  }

  async reconcile(actor: UserRow): Promise<ReconciliationView> {
    const { reconciliation } = this.require();
    const run = await reconciliation.run(actor.id);
    await this.activity.record({
      userId: actor.id,
      actorId: actor.id,
      action: 'billing_reconciled',
      details: `Checked ${run.checked} payment(s) with the provider; ${run.repaired} had been missed${run.error ? `; failed: ${run.error}` : ''}`,
    });
    return reconciliationView(run);
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw providerFailure(error, this.log);
    }
  }

  private require(): Payments {
    if (!this.payments) throw errors.billingDisabled();
    return this.payments;
  }
}

/** Each rehearsal step as the offline provider's bank takes it. */
const REHEARSE: Record<DisputeRehearsalStep, (offline: OfflineProvider, paymentIntentId: string) => Promise<void>> = {
  inquiry: (offline, id) => offline.dispute(id, 'inquiry'),
  chargeback: (offline, id) => offline.dispute(id, 'chargeback'),
  escalate: (offline, id) => offline.escalateDispute(id),
  close_inquiry: (offline, id) => offline.closeDispute(id, 'inquiry_closed'),
  won: (offline, id) => offline.closeDispute(id, 'won'),
  lost: (offline, id) => offline.closeDispute(id, 'lost'),
};

const REHEARSAL_WORDS: Record<DisputeRehearsalStep, string> = {
  inquiry: 'the bank asks about it (an inquiry)',
  chargeback: 'a chargeback opened',
  escalate: 'the inquiry became a chargeback',
  close_inquiry: 'the inquiry closed without a chargeback',
  won: 'the chargeback was won',
  lost: 'the chargeback was lost',
};

function paymentView(row: PaymentRow): AdminPayment {
  return {
    id: row.id,
    description: row.description,
    amountCents: row.amountCents,
    refundedCents: row.refundedCents,
    disputeStatus: row.disputeStatus,
    outcome: row.outcome,
    paidAt: row.paidAt.toISOString(),
  };
}

function reconciliationView(row: ReconciliationRow): ReconciliationView {
  return {
    id: row.id,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    checked: row.checked,
    repaired: row.repaired,
    error: row.error,
    requestedBy: row.requestedBy,
  };
}
