// What an admin does about money (docs/decisions/0020): sees a person's payments, refunds one (in
// full or in part, optionally ending the subscription now), sees billing's health and runs a
// reconciliation. A refund goes through the provider and is applied at once through the same step
// as its event, which takes back that share of what the payment granted; the event then changes
// nothing. Each action is in the person's activity log, with the admin who did it.
import {
  type AdminBillingStatus,
  type AdminPayment,
  type AdminRefundBody,
  formatUsd,
  isPaidPlanName,
  type Reconciliation as ReconciliationView,
} from '@ownvoice/shared';
import type { PaymentRow, UserRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
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
