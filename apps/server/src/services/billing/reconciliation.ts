// Finds payments the webhook missed (decision 20.5): lists the invoices paid and checkouts
// completed at the provider in the last week and settles each one not recorded yet through the
// same steps as its event, which grant once per payment. Runs daily on the billing job and when
// an admin asks; each run is recorded, and one that repaired anything is logged at error level,
// since it means deliveries are failing (a wrong webhook secret, an endpoint that is down).
import type { Clock } from '../../clock.js';
import { newId } from '../../ids.js';
import type { PaymentProvider } from '../../payments/provider.js';
import type { BillingEventsRepository, ReconciliationRow } from '../../repositories/billing-events.repository.js';
import type { PaymentsRepository } from '../../repositories/payments.repository.js';
import type { BillingActions } from './billing-actions.js';
import type { BillingEventsService } from './billing-events.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far back each run looks: longer than Stripe retries a delivery (three days). */
export const RECONCILE_WINDOW_MS = 7 * DAY_MS;

export class Reconciliation {
  constructor(
    private readonly provider: PaymentProvider,
    private readonly events: BillingEventsService,
    private readonly actions: BillingActions,
    private readonly repo: BillingEventsRepository,
    private readonly payments: PaymentsRepository,
    private readonly clock: Clock,
    private readonly log: { error(obj: unknown, msg?: string): void },
  ) {}

  /** The daily run, when the last one started a day ago or more (one server's job at a time). */
  async runIfDue(): Promise<void> {
    const last = await this.repo.lastReconciliation();
    if (last && this.clock.now().getTime() - last.startedAt.getTime() < DAY_MS) return;
    await this.run(null);
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
