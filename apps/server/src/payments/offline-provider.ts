// The offline payment provider (OWNVOICE_BILLING=offline, the embedded default): a test checkout
// page on this server where no card is charged. It keeps what Stripe would keep (checkouts,
// subscriptions) in its own tables, renews subscriptions on the service clock, and reports
// everything as Stripe-shaped events signed with its webhook secret and handed to the webhook
// handler — the same code that handles Stripe's deliveries, so a paid plan has one path.
import { createHmac, randomBytes } from 'node:crypto';
import {
  addMonthsUtc,
  type BillingCycle,
  PACKS,
  PAY_LATER_FIRST_CHARGE_CENTS,
  type PackId,
  type PaidPlanName,
  planPriceCents,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { OfflineCheckoutRow, OfflineSubscriptionRow } from '../db/schema.js';
import type { OfflineBillingRepository } from '../repositories/offline-billing.repository.js';
import type { CheckoutBase, CheckoutSession, PaymentProvider, PlanTarget, SubscriptionState } from './provider.js';
import { PaymentProviderError } from './provider.js';
import { type BillingEvent, META, readSignedEvent, signPayload } from './stripe-events.js';

/** Hands a signed delivery to the webhook handler. */
export type WebhookSink = (payload: string, signature: string) => Promise<void>;

/** The offline provider's signing secret, derived from the server's secret key so every process agrees. */
export function offlineWebhookSecret(secretKey: Buffer): string {
  return `whsec_${createHmac('sha256', secretKey).update('ownvoice offline webhook').digest('hex')}`;
}

const offlineId = (prefix: string) => `${prefix}_offline_${randomBytes(12).toString('hex')}`;
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

export class OfflineProvider implements PaymentProvider {
  readonly name = 'offline';
  readonly testMode = true;
  private sink: WebhookSink | undefined;

  constructor(
    private readonly repo: OfflineBillingRepository,
    private readonly clock: Clock,
    private readonly webhookSecret: string,
    /** Where its checkout page is served: the page for a session is `${pagePath}/${id}`. */
    private readonly pagePath: string,
  ) {}

  /** Where events go: the webhook handler, connected once the billing service exists. */
  connect(sink: WebhookSink): void {
    this.sink = sink;
  }

  async createCustomer(): Promise<string> {
    return offlineId('cus');
  }

  createPlanCheckout(input: CheckoutBase & PlanTarget & { payNow: boolean }): Promise<CheckoutSession> {
    return this.checkout(input, {
      kind: 'plan',
      plan: input.plan,
      billingCycle: input.billingCycle,
      payNow: input.payNow,
      amountCents: planPriceCents(input.plan, input.billingCycle, { payNow: input.payNow }),
    });
  }

  createTrialSetupCheckout(input: CheckoutBase): Promise<CheckoutSession> {
    return this.checkout(input, { kind: 'trial', amountCents: 0 });
  }

  createPackCheckout(input: CheckoutBase & { pack: PackId }): Promise<CheckoutSession> {
    return this.checkout(input, { kind: 'pack', pack: input.pack, amountCents: PACKS[input.pack].priceCents });
  }

  private async checkout(
    base: CheckoutBase,
    what: Pick<OfflineCheckoutRow, 'kind' | 'amountCents'> & Partial<OfflineCheckoutRow>,
  ): Promise<CheckoutSession> {
    const id = offlineId('cs');
    const row = await this.repo.insertCheckout({
      id,
      idempotencyKey: base.idempotencyKey,
      userId: base.userId,
      customerId: base.customerId,
      successUrl: base.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
      cancelUrl: base.cancelUrl,
      createdAt: this.clock.now(),
      ...what,
    });
    return { id: row.id, url: `${this.pagePath}/${row.id}` };
  }

  /** The checkout page's view of a session. */
  findCheckout(id: string): Promise<OfflineCheckoutRow | undefined> {
    return this.repo.findCheckout(id);
  }

  /**
   * "Pay" on the test checkout page: the session completes as Stripe's would, and its events are
   * delivered before this returns, so the page the buyer lands on already shows the result.
   * Answers where the browser goes next; paying twice delivers nothing more.
   */
  async pay(id: string): Promise<string> {
    const session = await this.repo.findCheckout(id);
    if (!session) throw new PaymentProviderError('This checkout does not exist.', 404);
    if (!(await this.repo.closeCheckout(id, 'complete'))) return session.successUrl;
    let subscription: OfflineSubscriptionRow | null = null;
    if (session.kind === 'plan' && session.plan && session.billingCycle) {
      subscription = await this.createSubscription({
        idempotencyKey: `checkout:${session.id}`,
        userId: session.userId,
        customerId: session.customerId,
        plan: session.plan,
        billingCycle: session.billingCycle,
        payNow: session.payNow,
      });
    }
    await this.deliver('checkout.session.completed', {
      id: session.id,
      object: 'checkout.session',
      mode: { plan: 'subscription', trial: 'setup', pack: 'payment' }[session.kind],
      customer: session.customerId,
      payment_status: session.kind === 'trial' ? 'no_payment_required' : 'paid',
      status: 'complete',
      amount_total: session.amountCents,
      subscription: subscription?.id ?? null,
      setup_intent: session.kind === 'trial' ? offlineId('seti') : null,
      metadata: {
        [META.userId]: session.userId,
        [META.kind]: session.kind,
        ...(session.pack ? { [META.pack]: session.pack } : {}),
      },
    });
    if (subscription)
      await this.announceNewSubscription(
        subscription,
        planPriceCents(subscription.plan, subscription.billingCycle, subscription),
      );
    return session.successUrl;
  }

  /** "Cancel" on the test checkout page: nothing is charged or granted. */
  async abandon(id: string): Promise<string> {
    const session = await this.repo.findCheckout(id);
    if (!session) throw new PaymentProviderError('This checkout does not exist.', 404);
    await this.repo.closeCheckout(id, 'canceled');
    return session.cancelUrl;
  }

  async startPlanAfterTrial(input: {
    userId: string;
    customerId: string;
    idempotencyKey: string;
  }): Promise<SubscriptionState> {
    const subscription = await this.createSubscription({
      idempotencyKey: input.idempotencyKey,
      userId: input.userId,
      customerId: input.customerId,
      plan: 'minimum',
      billingCycle: 'monthly',
      payNow: false,
    });
    if (subscription.createdNow) await this.announceNewSubscription(subscription, PAY_LATER_FIRST_CHARGE_CENTS);
    return toState(subscription);
  }

  private async createSubscription(input: {
    idempotencyKey: string;
    userId: string;
    customerId: string;
    plan: PaidPlanName;
    billingCycle: BillingCycle;
    payNow: boolean;
  }): Promise<OfflineSubscriptionRow & { createdNow: boolean }> {
    const now = this.clock.now();
    const { subscription, created } = await this.repo.insertSubscription({
      id: offlineId('sub'),
      ...input,
      status: 'active',
      currentPeriodStart: now,
      currentPeriodEnd: addMonthsUtc(now, input.billingCycle === 'annual' ? 12 : 1),
      createdAt: now,
    });
    return { ...subscription, createdNow: created };
  }

  private async announceNewSubscription(subscription: OfflineSubscriptionRow, amountPaidCents: number): Promise<void> {
    await this.deliver('customer.subscription.created', subscriptionObject(subscription));
    await this.deliverInvoice(subscription, 'subscription_create', amountPaidCents);
  }

  async getSubscription(id: string): Promise<SubscriptionState | null> {
    const row = await this.repo.findSubscription(id);
    return row ? toState(row) : null;
  }

  async upgrade(id: string, target: PlanTarget): Promise<SubscriptionState> {
    const current = await this.activeSubscription(id);
    const now = this.clock.now();
    const cycleChanged = target.billingCycle !== current.billingCycle;
    // As Stripe does: a change of interval starts a new period now; a change of tier keeps the
    // period and charges the prorated difference for what is left of it.
    const newPrice = planPriceCents(target.plan, target.billingCycle, current);
    const oldPrice = planPriceCents(current.plan, current.billingCycle, current);
    const left = unusedFraction(current, now);
    const amount = cycleChanged
      ? Math.max(0, newPrice - Math.floor(oldPrice * left))
      : Math.max(0, Math.floor((newPrice - oldPrice) * left));
    // As the Stripe provider does: an upgrade replaces a scheduled downgrade and keeps the
    // subscription going.
    const updated = await this.repo.updateSubscription(id, {
      plan: target.plan,
      billingCycle: target.billingCycle,
      scheduledPlan: null,
      scheduledBillingCycle: null,
      cancelAtPeriodEnd: false,
      ...(cycleChanged
        ? { currentPeriodStart: now, currentPeriodEnd: addMonthsUtc(now, target.billingCycle === 'annual' ? 12 : 1) }
        : {}),
    });
    if (!updated) throw new PaymentProviderError('This subscription does not exist.', 404);
    await this.deliver('customer.subscription.updated', subscriptionObject(updated));
    await this.deliverInvoice(updated, 'subscription_update', amount);
    return toState(updated);
  }

  async scheduleDowngrade(id: string, target: PlanTarget): Promise<SubscriptionState> {
    await this.activeSubscription(id);
    // Choosing a lower plan for next period means staying: a pending cancellation is undone.
    return this.changed(id, {
      scheduledPlan: target.plan,
      scheduledBillingCycle: target.billingCycle,
      cancelAtPeriodEnd: false,
    });
  }

  async cancelAtPeriodEnd(id: string): Promise<SubscriptionState> {
    await this.activeSubscription(id);
    // Nothing follows a subscription that ends: a scheduled downgrade goes with it.
    return this.changed(id, { cancelAtPeriodEnd: true, scheduledPlan: null, scheduledBillingCycle: null });
  }

  async reactivate(id: string): Promise<SubscriptionState> {
    await this.activeSubscription(id);
    return this.changed(id, { cancelAtPeriodEnd: false });
  }

  readWebhook(rawBody: Buffer, signature: string | undefined): BillingEvent {
    return readSignedEvent(rawBody, signature, this.webhookSecret);
  }

  /**
   * Renews every subscription whose period has ended by the service clock: a scheduled downgrade
   * takes effect and the period's invoice is paid; one set to cancel ends instead.
   */
  async renewDue(): Promise<number> {
    const now = this.clock.now();
    let renewed = 0;
    for (const due of await this.repo.dueForRenewal(now)) {
      let subscription = due;
      // Catch up period by period (a server that was off for two months renews twice).
      while (subscription.status === 'active' && subscription.currentPeriodEnd.getTime() <= now.getTime()) {
        const next = await this.renewOnce(subscription);
        if (!next) break;
        subscription = next;
        renewed++;
      }
    }
    return renewed;
  }

  private async renewOnce(subscription: OfflineSubscriptionRow): Promise<OfflineSubscriptionRow | undefined> {
    if (subscription.cancelAtPeriodEnd) {
      const ended = await this.repo.updateSubscription(subscription.id, { status: 'canceled' });
      if (ended) await this.deliver('customer.subscription.deleted', subscriptionObject(ended));
      return ended;
    }
    const plan = subscription.scheduledPlan ?? subscription.plan;
    const billingCycle = subscription.scheduledBillingCycle ?? subscription.billingCycle;
    const start = subscription.currentPeriodEnd;
    const renewed = await this.repo.updateSubscription(subscription.id, {
      plan,
      billingCycle,
      scheduledPlan: null,
      scheduledBillingCycle: null,
      currentPeriodStart: start,
      currentPeriodEnd: addMonthsUtc(start, billingCycle === 'annual' ? 12 : 1),
    });
    if (!renewed) return undefined;
    await this.deliver('customer.subscription.updated', subscriptionObject(renewed));
    await this.deliverInvoice(renewed, 'subscription_cycle', planPriceCents(plan, billingCycle, renewed));
    return renewed;
  }

  private async activeSubscription(id: string): Promise<OfflineSubscriptionRow> {
    const row = await this.repo.findSubscription(id);
    if (!row) throw new PaymentProviderError('This subscription does not exist.', 404);
    if (row.status !== 'active')
      throw new PaymentProviderError('This subscription has ended: choose a plan to subscribe again.', 409);
    return row;
  }

  private async changed(id: string, patch: Partial<OfflineSubscriptionRow>): Promise<SubscriptionState> {
    const updated = await this.repo.updateSubscription(id, patch);
    if (!updated) throw new PaymentProviderError('This subscription does not exist.', 404);
    await this.deliver('customer.subscription.updated', subscriptionObject(updated));
    return toState(updated);
  }

  private async deliverInvoice(
    subscription: OfflineSubscriptionRow,
    reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update',
    amountPaidCents: number,
  ): Promise<void> {
    await this.deliver('invoice.paid', {
      id: offlineId('in'),
      object: 'invoice',
      customer: subscription.customerId,
      billing_reason: reason,
      status: 'paid',
      amount_paid: amountPaidCents,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: subscriptionMetadata(subscription) },
      },
    });
  }

  private async deliver(type: string, object: Record<string, unknown>): Promise<void> {
    if (!this.sink) throw new Error('The offline provider is not connected to the webhook handler.');
    const payload = JSON.stringify({
      id: offlineId('evt'),
      object: 'event',
      type,
      created: seconds(this.clock.now()),
      livemode: false,
      api_version: null,
      pending_webhooks: 1,
      request: null,
      data: { object },
    });
    await this.sink(payload, signPayload(payload, this.webhookSecret));
  }
}

function subscriptionMetadata(row: OfflineSubscriptionRow): Record<string, string> {
  return {
    [META.userId]: row.userId,
    [META.plan]: row.plan,
    [META.billingCycle]: row.billingCycle,
    [META.payNow]: String(row.payNow),
  };
}

function subscriptionObject(row: OfflineSubscriptionRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'subscription',
    customer: row.customerId,
    status: row.status,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    metadata: subscriptionMetadata(row),
    items: {
      object: 'list',
      data: [
        { current_period_start: seconds(row.currentPeriodStart), current_period_end: seconds(row.currentPeriodEnd) },
      ],
    },
  };
}

function toState(row: OfflineSubscriptionRow): SubscriptionState {
  return {
    id: row.id,
    customerId: row.customerId,
    userId: row.userId,
    plan: row.plan,
    billingCycle: row.billingCycle,
    payNow: row.payNow,
    status: row.status,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    currentPeriodEnd: row.currentPeriodEnd,
    scheduledChange:
      row.scheduledPlan && row.scheduledBillingCycle
        ? { plan: row.scheduledPlan, billingCycle: row.scheduledBillingCycle, effectiveAt: row.currentPeriodEnd }
        : null,
  };
}

/** What part of the current period is still to come, from 0 to 1. */
function unusedFraction(row: OfflineSubscriptionRow, now: Date): number {
  const total = row.currentPeriodEnd.getTime() - row.currentPeriodStart.getTime();
  const left = row.currentPeriodEnd.getTime() - now.getTime();
  return total > 0 ? Math.min(1, Math.max(0, left / total)) : 0;
}
