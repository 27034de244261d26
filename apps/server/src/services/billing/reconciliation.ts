// Finds payments the webhook missed (decision 20.5): lists the invoices paid and checkouts
// completed at the provider in the last five weeks and settles each one not recorded yet through the
// same steps as its event, which grant once per payment. Runs daily on the billing job and when
// an admin asks; each run is recorded, and one that repaired anything is logged at error level,
// since it means deliveries are failing (a wrong webhook secret, an endpoint that is down).
import type { Clock } from '../../clock.js';
import { newId } from '../../ids.js';
import type { PaymentProvider } from '../../payments/provider.js';
import type { BillingEventsRepository, ReconciliationRow } from '../../repositories/billing-events.repository.js';
import type { PaymentsRepository } from '../../repositories/payments.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import type { BillingActions } from './billing-actions.js';
import type { BillingEventsService } from './billing-events.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How far back each run looks, by when an invoice was made: longer than Stripe retries a delivery
 * (three days) and longer than a renewal's payment is retried before the subscription ends (weeks,
 * by the account's retry settings), since a renewal paid on its last retry was made that long ago.
 */
export const RECONCILE_WINDOW_MS = 35 * DAY_MS;

export class Reconciliation {
  constructor(
    private readonly provider: PaymentProvider,
    private readonly events: BillingEventsService,
    private readonly actions: BillingActions,
    private readonly repo: BillingEventsRepository,
    private readonly payments: PaymentsRepository,
    private readonly users: Pick<UsersRepository, 'findById'>,
    private readonly clock: Clock,
    private readonly log: { error(obj: unknown, msg?: string): void },
  ) {}

  /** The daily run, when the last one started a day ago or more (one server's job at a time). */
  async runIfDue(): Promise<void> {
    const last = await this.repo.lastReconciliation();
    if (last && this.clock.now().getTime() - last.startedAt.getTime() < DAY_MS) return;
    await this.run(null);
  }

  /** A trial's saved card was acted on already: the trial started, was refused, or a plan followed. */
  private async trialDecided(userId: string): Promise<boolean> {
    const user = await this.users.findById(userId);
    if (!user) return true;
    return user.planName !== 'none' || user.grantedPlan !== null || user.trialRefusedAt !== null;
  }

  async run(requestedBy: string | null): Promise<ReconciliationRow> {
    const startedAt = this.clock.now();
    const id = newId(startedAt);
    await this.repo.startReconciliation({ id, startedAt, requestedBy });
    let checked = 0;
    let repaired = 0;
    let error: string | null = null;
    try {
      const { invoiceIds, checkoutIds } = await this.provider.listPaidSince(
        new Date(startedAt.getTime() - RECONCILE_WINDOW_MS),
      );
      for (const checkoutId of checkoutIds) {
        checked++;
        if (await this.payments.find(checkoutId)) continue;
        const checkout = await this.provider.getCheckout(checkoutId);
        // A plan checkout's payment is its subscription's first invoice, listed with the others.
        if (!checkout || checkout.kind === 'plan') continue;
        const { userId } = checkout;
        if (checkout.kind === 'trial' && (await this.trialDecided(userId))) continue;
        if (await this.events.withAccount(userId, () => this.events.settleCheckout(userId, checkoutId))) repaired++;
      }
      for (const invoiceId of invoiceIds) {
        checked++;
        if (await this.payments.find(invoiceId)) continue;
        const userId = (await this.provider.getInvoice(invoiceId))?.userId;
        if (!userId) continue;
        if (await this.events.withAccount(userId, () => this.events.settleInvoice(userId, invoiceId))) repaired++;
      }
      await this.actions.run();
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
      this.log.error(caught, 'billing: the reconciliation with the payment provider failed; it runs again tomorrow');
    }
    if (repaired > 0) {
      this.log.error(
        { repaired, checked },
        `billing: reconciliation applied ${repaired} payment(s) the webhook had missed; check that the provider's webhook reaches this server and STRIPE_WEBHOOK_SECRET is right`,
      );
    }
    const finishedAt = this.clock.now();
    await this.repo.finishReconciliation(id, { finishedAt, checked, repaired, error });
    return { id, startedAt, requestedBy, finishedAt, checked, repaired, error };
  }
}
