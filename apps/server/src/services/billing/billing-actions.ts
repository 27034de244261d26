// Does at the payment provider what a decision needs (docs/decisions/0020, 20.4): end a second
// subscription, refund a payment nothing was granted for, close a checkout; and, when an account's
// address changes (decision 24), give its customer the new address. Each action was written in the
// decision's transaction; it is done after the transaction commits and again by the billing job
// until the provider accepts it. A failure is logged at error level each time.
import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { BillingActionRow } from '../../db/schema.js';
import type { PaymentProvider } from '../../payments/provider.js';
import type { BillingActionKind, BillingActionsRepository } from '../../repositories/billing-actions.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';

export interface ActionLog {
  error(obj: unknown, msg?: string): void;
}

export class BillingActions {
  constructor(
    private readonly repo: BillingActionsRepository,
    private readonly provider: PaymentProvider,
    private readonly users: Pick<UsersRepository, 'findById'>,
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

  /**
   * Asks, in the transaction that changed the account's address, for its provider customer to get
   * the address. One action per change: actions are unique per kind and target, and a person may
   * change their address twice, so the target is the customer and the change's link.
   */
  updateCustomerEmail(tx: Database, change: { userId: string; customerId: string; linkId: string }): Promise<void> {
    return this.add(tx, {
      userId: change.userId,
      kind: 'update_customer_email',
      target: `${change.customerId}${TARGET_SEPARATOR}${change.linkId}`,
      reason: 'the account’s address changed',
    });
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
      case 'update_customer_email':
        return this.sendAddress(action, key);
    }
  }

  /**
   * The address sent is the account's address now, not the one the change set: an action done
   * late (after an outage, behind a newer change's) then cannot put back an older address, and
   * two changes' actions both send the latest. The idempotency key names that address too: a
   * retry of the same address is done once, and a retry that now sends a newer one is a new
   * request rather than a key reused with other parameters (which Stripe refuses).
   */
  private async sendAddress(action: BillingActionRow, key: string): Promise<void> {
    const customerId = customerOf(action.target);
    const user = action.userId ? await this.users.findById(action.userId) : undefined;
    // The account was deleted since: no address of it to give, and nothing of it to keep current.
    if (!user) return;
    const address = createHash('sha256').update(user.email).digest('hex').slice(0, 16);
    await this.provider.updateCustomerEmail(customerId, user.email, `${key}:${address}`);
  }
}

/** Between an address action's customer and the change's link (neither id has a colon). */
const TARGET_SEPARATOR = ':';

/** The customer an address action is for: its target is the customer, then the change's link. */
function customerOf(target: string): string {
  const at = target.lastIndexOf(TARGET_SEPARATOR);
  return at < 0 ? target : target.slice(0, at);
}

function describe(action: BillingActionRow): string {
  const what: Record<BillingActionKind, string> = {
    cancel_subscription: 'end subscription',
    refund_payment: 'refund payment',
    expire_checkout: 'close checkout',
    update_customer_email: 'give the new address to customer',
  };
  const target = action.kind === 'update_customer_email' ? customerOf(action.target) : action.target;
  return `${what[action.kind]} ${target}`;
}
