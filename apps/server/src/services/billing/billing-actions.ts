// Does at the payment provider what a billing decision needs (docs/decisions/0020, 20.4): end a
// second subscription, refund a payment nothing was granted for, close a checkout. Each action was
// written in the decision's transaction; it is done after the transaction commits and again by
// the billing job until the provider accepts it. A failure is logged at error level each time.
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { BillingActionRow } from '../../db/schema.js';
import type { PaymentProvider } from '../../payments/provider.js';
import type { BillingActionKind, BillingActionsRepository } from '../../repositories/billing-actions.repository.js';

export interface ActionLog {
  error(obj: unknown, msg?: string): void;
}

export class BillingActions {
  constructor(
    private readonly repo: BillingActionsRepository,
    private readonly provider: PaymentProvider,
    private readonly clock: Clock,
    private readonly log: ActionLog,
  ) {}

  /** Asks for an action in the caller's transaction; the same kind and target is asked once. */
  add(
    tx: Database,
    action: { userId: string | null; kind: BillingActionKind; target: string; reason: string; amountCents?: number },
  ): Promise<void> {
    return this.repo.add(tx, action, this.clock.now());
  }

  /** Does what is pending (of one account, or all), each at most once per call. */
  async run(userId?: string | null): Promise<void> {
    for (const action of await this.repo.pending(userId)) {
      try {
        await this.perform(action);
        await this.repo.done(action.id, this.clock.now());
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await this.repo.failed(action.id, message);
        this.log.error(
          error,
          `billing: could not ${describe(action)} (${action.reason}); the billing job tries again every minute`,
        );
      }
    }
  }

  pending(): Promise<BillingActionRow[]> {
    return this.repo.pending();
  }

  private async perform(action: BillingActionRow): Promise<void> {
    // The action's id is the idempotency key: a retry after a lost answer does it once.
    const key = `billing-action:${action.id}`;
    switch (action.kind) {
      case 'cancel_subscription':
        return this.provider.cancelNow(action.target, key);
      case 'refund_payment':
        return this.provider.refund({
          paymentIntentId: action.target,
          amountCents: action.amountCents,
          idempotencyKey: key,
        });
      case 'expire_checkout':
        return this.provider.expireCheckout(action.target);
    }
  }
}

function describe(action: BillingActionRow): string {
  const what: Record<BillingActionKind, string> = {
    cancel_subscription: 'end subscription',
    refund_payment: 'refund payment',
    expire_checkout: 'close checkout',
  };
  return `${what[action.kind]} ${action.target}`;
}
