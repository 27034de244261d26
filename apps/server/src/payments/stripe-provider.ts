// The payment provider over Stripe's official SDK. Checkouts and subscriptions carry what they are
// for in their metadata (META), which readStripeEvent reads back from the webhooks; prices are
// found by lookup key (stripe-prices.ts), created by `npm run billing:setup`. Stripe's errors
// become PaymentProviderErrors that say what to do.
import type { PackId } from '@ownvoice/shared';
import Stripe from 'stripe';
import {
  type CheckoutBase,
  type CheckoutSession,
  type PaymentProvider,
  PaymentProviderError,
  type PlanTarget,
  type SubscriptionState,
} from './provider.js';
import { type BillingEvent, type CheckoutKind, META, readPlan, readSignedEvent } from './stripe-events.js';
import {
  CYCLE_INTERVAL,
  findPricesByLookupKey,
  PRICE_CURRENCY,
  PRICE_SPECS,
  packPriceLookupKey,
  planPriceLookupKey,
  priceMismatch,
  TRIAL_FIRST_CHARGE_LOOKUP_KEY,
} from './stripe-prices.js';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another Stripe API address, such as a local stand-in: `http://127.0.0.1:12111`. */
  apiBase?: string;
}

/** Long enough for a slow checkout creation, short enough that a retry still fits a request. */
const REQUEST_TIMEOUT_MS = 20_000;

/** The SDK client, on the SDK's pinned API version, that the provider and billing setup use. */
export function createStripeClient(secretKey: string, apiBase?: string): Stripe {
  const base = apiBase ? new URL(apiBase) : null;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: REQUEST_TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: 'OwnVoice' },
    ...(base && { host: base.hostname, port: base.port || (protocol === 'http' ? 80 : 443), protocol }),
  });
}

/** A pay-later trial always becomes this plan, at its list price. */
const PLAN_AFTER_TRIAL: PlanTarget = { plan: 'minimum', billingCycle: 'monthly' };

const ENDED: ReadonlySet<Stripe.Subscription.Status> = new Set(['canceled', 'incomplete_expired']);

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly testMode: boolean;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  private priceIds: Promise<Map<string, string>> | null = null;

  constructor({ secretKey, webhookSecret, apiBase }: StripeProviderOptions) {
    this.testMode = /^(sk|rk)_test_/.test(secretKey);
    this.stripe = createStripeClient(secretKey, apiBase);
    this.webhookSecret = webhookSecret;
  }

  async createCustomer({ userId, email, idempotencyKey }: { userId: string; email: string; idempotencyKey: string }) {
    const customer = await this.call('create the customer', () =>
      this.stripe.customers.create({ email, metadata: { [META.userId]: userId } }, { idempotencyKey }),
    );
    return customer.id;
  }

  async createPlanCheckout({
    plan,
    billingCycle,
    payNow,
    ...base
  }: CheckoutBase & PlanTarget & { payNow: boolean }): Promise<CheckoutSession> {
    const price = await this.priceId(planPriceLookupKey(plan, billingCycle, payNow));
    return this.checkout(base, 'plan', {
      mode: 'subscription',
      line_items: [{ price, quantity: 1 }],
      // The subscription's metadata is how every later invoice says what it paid for.
      subscription_data: { metadata: subscriptionMetadata(base.userId, { plan, billingCycle }, payNow) },
    });
  }

  createTrialSetupCheckout(base: CheckoutBase): Promise<CheckoutSession> {
    return this.checkout(base, 'trial', {
      mode: 'setup',
      currency: PRICE_CURRENCY,
      setup_intent_data: { metadata: { [META.userId]: base.userId } },
    });
  }

  async createPackCheckout({ pack, ...base }: CheckoutBase & { pack: PackId }): Promise<CheckoutSession> {
    const price = await this.priceId(packPriceLookupKey(pack));
    return this.checkout(
      base,
      'pack',
      { mode: 'payment', line_items: [{ price, quantity: 1 }] },
      { [META.pack]: pack },
    );
  }

  async startPlanAfterTrial({
    userId,
    customerId,
    setupIntentId,
    idempotencyKey,
  }: {
    userId: string;
    customerId: string;
    setupIntentId: string | null;
    idempotencyKey: string;
  }): Promise<SubscriptionState> {
    const { plan, billingCycle } = PLAN_AFTER_TRIAL;
    const [planPrice, trialDayPrice] = await Promise.all([
      this.priceId(planPriceLookupKey(plan, billingCycle, false)),
      this.priceId(TRIAL_FIRST_CHARGE_LOOKUP_KEY),
    ]);
    const card = setupIntentId ? await this.savedCard(setupIntentId) : undefined;
    const subscription = await this.call('start the minimum plan', () =>
      this.stripe.subscriptions.create(
        {
          customer: customerId,
          items: [{ price: planPrice, quantity: 1 }],
          // The first invoice is the first month plus the trial day: the pay-later first charge.
          add_invoice_items: [{ price: trialDayPrice, quantity: 1 }],
          default_payment_method: card,
          off_session: true,
          // A declined card leaves the subscription incomplete rather than failing the call.
          payment_behavior: 'allow_incomplete',
          metadata: subscriptionMetadata(userId, PLAN_AFTER_TRIAL, false),
        },
        { idempotencyKey },
      ),
    );
    return subscriptionState(subscription);
  }

  async getSubscription(id: string): Promise<SubscriptionState | null> {
    const subscription = await this.fetchSubscription(id);
    return subscription && subscriptionState(subscription);
  }

  async upgrade(id: string, target: PlanTarget, idempotencyKey: string): Promise<SubscriptionState> {
    const subscription = await this.liveSubscription(id, 'be upgraded');
    const current = subscriptionState(subscription);
    const price = await this.priceId(planPriceLookupKey(target.plan, target.billingCycle, current.payNow));
    // The upgrade replaces a downgrade waiting for the next period.
    await this.releaseSchedule(subscription, `${idempotencyKey}:release`);
    const updated = await this.call('upgrade the plan', () =>
      this.stripe.subscriptions.update(
        id,
        {
          items: [{ id: firstItem(subscription).id, price, quantity: 1 }],
          // Charged now for the rest of the period; a declined card leaves the plan as it was.
          proration_behavior: 'always_invoice',
          payment_behavior: 'error_if_incomplete',
          cancel_at_period_end: false,
          metadata: subscriptionMetadata(current.userId, target, current.payNow),
          expand: ['schedule'],
        },
        { idempotencyKey: `${idempotencyKey}:update` },
      ),
    );
    return subscriptionState(updated);
  }

  async scheduleDowngrade(id: string, target: PlanTarget, idempotencyKey: string): Promise<SubscriptionState> {
    let subscription = await this.liveSubscription(id, 'be changed');
    const current = subscriptionState(subscription);
    const price = await this.priceId(planPriceLookupKey(target.plan, target.billingCycle, current.payNow));
    if (subscription.cancel_at_period_end) {
      // Choosing a plan for the next period means the subscription goes on.
      subscription = await this.call('keep the subscription going', () =>
        this.stripe.subscriptions.update(
          id,
          { cancel_at_period_end: false, expand: ['schedule'] },
          { idempotencyKey: `${idempotencyKey}:resume` },
        ),
      );
    }
    const item = firstItem(subscription);
    const schedule = await this.scheduleOf(subscription, `${idempotencyKey}:schedule`);
    await this.call('schedule the change of plan', () =>
      this.stripe.subscriptionSchedules.update(
        schedule.id,
        {
          end_behavior: 'release',
          phases: [
            {
              items: [{ price: item.price.id, quantity: 1 }],
              start_date: schedule.current_phase?.start_date ?? item.current_period_start,
              end_date: item.current_period_end,
              proration_behavior: 'none',
            },
            {
              items: [{ price, quantity: 1 }],
              duration: { interval: CYCLE_INTERVAL[target.billingCycle], interval_count: 1 },
              // Entering the phase writes this into the subscription, and so into its invoices.
              metadata: subscriptionMetadata(current.userId, target, current.payNow),
              proration_behavior: 'none',
            },
          ],
        },
        { idempotencyKey: `${idempotencyKey}:phases` },
      ),
    );
    const changed = await this.fetchSubscription(id);
    if (!changed) throw new PaymentProviderError(`Stripe lost subscription ${id} while changing it. Try again.`, 404);
    return subscriptionState(changed);
  }

  async cancelAtPeriodEnd(id: string): Promise<SubscriptionState> {
    const subscription = await this.knownSubscription(id);
    if (ENDED.has(subscription.status)) return subscriptionState(subscription);
    // A downgrade waiting for the next period goes with it; Stripe also refuses to cancel a
    // subscription a schedule manages.
    await this.releaseSchedule(subscription);
    const updated = await this.call('cancel the subscription', () =>
      this.stripe.subscriptions.update(id, { cancel_at_period_end: true, expand: ['schedule'] }),
    );
    return subscriptionState(updated);
  }

  async reactivate(id: string): Promise<SubscriptionState> {
    const subscription = await this.liveSubscription(id, 'be reactivated');
    if (!subscription.cancel_at_period_end) return subscriptionState(subscription);
    const updated = await this.call('reactivate the subscription', () =>
      this.stripe.subscriptions.update(id, { cancel_at_period_end: false, expand: ['schedule'] }),
    );
    return subscriptionState(updated);
  }

  readWebhook(rawBody: Buffer, signature: string | undefined): BillingEvent {
    return readSignedEvent(rawBody, signature, this.webhookSecret);
  }

  private async checkout(
    base: CheckoutBase,
    kind: CheckoutKind,
    params: Stripe.Checkout.SessionCreateParams,
    metadata: Record<string, string> = {},
  ): Promise<CheckoutSession> {
    const session = await this.call('start the checkout', () =>
      this.stripe.checkout.sessions.create(
        {
          ...params,
          customer: base.customerId,
          client_reference_id: base.userId,
          success_url: base.successUrl,
          cancel_url: base.cancelUrl,
          metadata: { [META.userId]: base.userId, [META.kind]: kind, ...metadata },
        },
        { idempotencyKey: base.idempotencyKey },
      ),
    );
    if (!session.url) throw new PaymentProviderError('Stripe started a checkout without a page to pay on. Try again.');
    return { id: session.id, url: session.url };
  }

  /** The card a pay-later checkout saved. */
  private async savedCard(setupIntentId: string): Promise<string> {
    const intent = await this.call('read the card saved at checkout', () =>
      this.stripe.setupIntents.retrieve(setupIntentId),
    );
    const card = idOf(intent.payment_method);
    if (!card) {
      throw new PaymentProviderError('No card was saved at the pay-later checkout: choose a plan to add one.', 400);
    }
    return card;
  }

  private async fetchSubscription(id: string): Promise<Stripe.Subscription | null> {
    try {
      return await this.stripe.subscriptions.retrieve(id, { expand: ['schedule'] });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw providerError('read the subscription', error);
    }
  }

  private async knownSubscription(id: string): Promise<Stripe.Subscription> {
    const subscription = await this.fetchSubscription(id);
    if (!subscription) throw new PaymentProviderError(`Stripe has no subscription ${id}.`, 404);
    return subscription;
  }

  /** A subscription that has not ended; `could` says what an ended one cannot do. */
  private async liveSubscription(id: string, could: string): Promise<Stripe.Subscription> {
    const subscription = await this.knownSubscription(id);
    if (ENDED.has(subscription.status)) {
      throw new PaymentProviderError(
        `The subscription has ended and cannot ${could}: choose a plan to subscribe again.`,
        409,
      );
    }
    return subscription;
  }

  /** The schedule managing the subscription, attaching a new one when there is none. */
  private async scheduleOf(subscription: Stripe.Subscription, idempotencyKey: string) {
    const attached = subscription.schedule;
    if (attached && typeof attached !== 'string' && isPending(attached)) return attached;
    return this.call('schedule the change of plan', () =>
      this.stripe.subscriptionSchedules.create({ from_subscription: subscription.id }, { idempotencyKey }),
    );
  }

  /** Detaches the subscription's schedule (dropping what it had planned), keeping the subscription. */
  private async releaseSchedule(subscription: Stripe.Subscription, idempotencyKey?: string): Promise<void> {
    const attached = subscription.schedule;
    if (!attached || (typeof attached !== 'string' && !isPending(attached))) return;
    await this.call('drop the scheduled change of plan', () =>
      this.stripe.subscriptionSchedules.release(
        typeof attached === 'string' ? attached : attached.id,
        {},
        idempotencyKey ? { idempotencyKey } : {},
      ),
    );
  }

  /** A price id by lookup key; all are looked up at the first need, and again after a failure. */
  private async priceId(lookupKey: string): Promise<string> {
    this.priceIds ??= this.resolvePrices();
    let ids: Map<string, string>;
    try {
      ids = await this.priceIds;
    } catch (error) {
      this.priceIds = null;
      throw error;
    }
    const id = ids.get(lookupKey);
    if (!id) throw new Error(`${lookupKey} is not a price OwnVoice sells.`);
    return id;
  }

  private async resolvePrices(): Promise<Map<string, string>> {
    const found = await this.call('look up the prices', () =>
      findPricesByLookupKey(
        this.stripe,
        PRICE_SPECS.map((spec) => spec.lookupKey),
      ),
    );
    const ids = new Map<string, string>();
    const problems: string[] = [];
    for (const spec of PRICE_SPECS) {
      const price = found.get(spec.lookupKey);
      const why = price ? priceMismatch(spec, price) : 'it does not exist';
      if (price && !why) ids.set(spec.lookupKey, price.id);
      else problems.push(`${spec.lookupKey}: ${why}`);
    }
    if (problems.length > 0) {
      throw new PaymentProviderError(
        `The Stripe account of STRIPE_SECRET_KEY lacks prices OwnVoice sells (${problems.join('; ')}). ` +
          'Run `npm run billing:setup` with the same STRIPE_SECRET_KEY, then try again.',
        503,
      );
    }
    return ids;
  }

  private async call<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw providerError(action, error);
    }
  }
}

function subscriptionMetadata(userId: string, { plan, billingCycle }: PlanTarget, payNow: boolean) {
  return {
    [META.userId]: userId,
    [META.plan]: plan,
    [META.billingCycle]: billingCycle,
    [META.payNow]: String(payNow),
  };
}

function subscriptionState(subscription: Stripe.Subscription): SubscriptionState {
  const target = readPlan(subscription.metadata);
  const userId = subscription.metadata[META.userId];
  const item = subscription.items.data[0];
  if (!target || !userId || !item) {
    throw new PaymentProviderError(
      `Stripe subscription ${subscription.id} was not made by OwnVoice: its metadata names no plan or user.`,
    );
  }
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    userId,
    ...target,
    payNow: subscription.metadata[META.payNow] === 'true',
    status: subscriptionStatusOf(subscription.status),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodEnd: fromUnix(item.current_period_end),
    scheduledChange: scheduledChange(subscription.schedule, item.current_period_end),
  };
}

/** How billing sees Stripe's subscription status. */
export function subscriptionStatusOf(status: Stripe.Subscription.Status): SubscriptionState['status'] {
  switch (status) {
    case 'active':
    case 'trialing':
    case 'past_due': // Still the person's plan while Stripe retries the card.
      return 'active';
    case 'canceled':
    case 'unpaid':
    case 'incomplete_expired':
      return 'canceled';
    default: // incomplete, paused: not paid for, not over.
      return 'incomplete';
  }
}

/** The plan a pending schedule switches to at the end of the current period. */
function scheduledChange(
  schedule: Stripe.Subscription['schedule'],
  periodEnd: number,
): SubscriptionState['scheduledChange'] {
  if (!schedule || typeof schedule === 'string' || !isPending(schedule)) return null;
  const next = schedule.phases.find((phase) => phase.start_date >= periodEnd);
  const target = next && readPlan(next.metadata);
  return next && target ? { ...target, effectiveAt: fromUnix(next.start_date) } : null;
}

const isPending = (schedule: Stripe.SubscriptionSchedule) =>
  schedule.status === 'active' || schedule.status === 'not_started';

function firstItem(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) throw new PaymentProviderError(`Stripe subscription ${subscription.id} has no price to change.`);
  return item;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** Stripe's error as one a person or the operator can act on; anything else is a bug, passed on. */
function providerError(action: string, error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  const status = error.statusCode;
  if (error instanceof Stripe.errors.StripeCardError) {
    return new PaymentProviderError(`The card was declined: ${error.message} Try another card.`, status);
  }
  if (error instanceof Stripe.errors.StripeAuthenticationError) {
    return new PaymentProviderError(
      `Stripe refused the secret key, so could not ${action}: check STRIPE_SECRET_KEY.`,
      status,
    );
  }
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new PaymentProviderError(`Could not reach Stripe to ${action}. Try again in a moment.`, 503);
  }
  if (error instanceof Stripe.errors.StripeRateLimitError) {
    return new PaymentProviderError(`Stripe is busy and could not ${action}. Try again in a moment.`, status);
  }
  return new PaymentProviderError(`Stripe could not ${action}: ${error.message}`, status);
}
