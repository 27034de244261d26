// The payment provider over Stripe's official SDK, on the SDK's pinned API version. Checkouts and
// subscriptions carry what they are for in their metadata (META), which readStripeEvent reads back
// from the webhooks; prices are found by lookup key (stripe-prices.ts), created by
// `npm run billing:setup`. Every Stripe failure becomes a PaymentProviderError that says what to
// do (stripe-errors.ts); Stripe's objects are read into billing's facts in stripe-read.ts. How each
// call behaves is taken from the SDK's type docs (node_modules/stripe/esm/resources).
import { encodePacks, type PackId, TRIAL_START_STATEMENT } from '@ownvoice/shared';
import Stripe from 'stripe';
import {
  type BillingEvent,
  type CheckoutBase,
  type CheckoutFacts,
  type CheckoutKind,
  type CheckoutSession,
  type InvoiceFacts,
  type InvoiceLine,
  type PaymentFacts,
  type PaymentProvider,
  PaymentProviderError,
  type PlanPrice,
  type PlanTarget,
  type SubscriptionState,
  type UnpaidInvoice,
} from './provider.js';
import { providerError } from './stripe-errors.js';
import { idOf, META, readPlan, readSignedEvent } from './stripe-events.js';
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
import {
  checkoutFacts,
  firstItem,
  fromUnix,
  invoiceStatusOf,
  isPending,
  lineFacts,
  paymentDispute,
  pendingSchedule,
  type Sold,
  scheduledChange,
  soldBy,
  soldByPrice,
  subscriptionStatusOf,
} from './stripe-read.js';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another Stripe API address, such as a local stand-in: `http://127.0.0.1:12111`. */
  apiBase?: string;
  /**
   * Stripe Tax computes the tax included in each price from the billing address Checkout
   * collects (decision 20.1, OWNVOICE_STRIPE_AUTOMATIC_TAX).
   */
  automaticTax?: boolean;
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

/** Every subscription is read with its schedule, which holds a downgrade waiting for the next period. */
const SUBSCRIPTION_EXPAND = ['schedule'];

interface Catalog {
  /** Price id by lookup key. */
  ids: Map<string, string>;
  /** What each price id sells, for reading invoice lines back. */
  sold: Map<string, Sold>;
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly testMode: boolean;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  private readonly automaticTax: boolean;
  private catalog: Promise<Catalog> | null = null;
  /** Prices no longer in the catalog, by id: what each sells (null: not OwnVoice's). */
  private readonly olderPrices = new Map<string, Sold | null>();

  constructor({ secretKey, webhookSecret, apiBase, automaticTax = false }: StripeProviderOptions) {
    this.testMode = /^(sk|rk)_test_/.test(secretKey);
    this.stripe = createStripeClient(secretKey, apiBase);
    this.webhookSecret = webhookSecret;
    this.automaticTax = automaticTax;
  }

  async createCustomer({ userId, email, idempotencyKey }: { userId: string; email: string; idempotencyKey: string }) {
    const customer = await this.call('create the customer', () =>
      this.stripe.customers.create({ email, metadata: { [META.userId]: userId } }, { idempotencyKey }),
    );
    return customer.id;
  }

  async updateCustomerEmail(customerId: string, email: string, idempotencyKey: string): Promise<void> {
    // POST /v1/customers/:id (stripe 23.1.0, Customers.d.ts: customers.update(id, params, options)
    // "Updates the specified customer by setting the values of the parameters passed. Any
    // parameters not provided are left unchanged."). Only `email` is sent: the address Stripe's
    // own mails to the customer use, and "If the Customer already has a valid email set, the email
    // will be prefilled and not editable in Checkout" (Checkout/Sessions.d.ts,
    // SessionCreateParams.customer). An id Stripe does not have is a 404, `not_found`.
    await this.call('give the customer its new address', () =>
      this.stripe.customers.update(customerId, { email }, { idempotencyKey }),
    );
  }

  // --- Checkouts -------------------------------------------------------------------------------

  async createPlanCheckout({
    plan,
    billingCycle,
    payNow,
    ...base
  }: CheckoutBase & PlanPrice): Promise<CheckoutSession> {
    const price = await this.priceId(planPriceLookupKey(plan, billingCycle, payNow));
    return this.checkout(base, 'plan', {
      mode: 'subscription',
      line_items: [{ price, quantity: 1 }],
      // The subscription's metadata is how every later invoice says whose it is.
      subscription_data: { metadata: subscriptionMetadata(base.userId, { plan, billingCycle }, payNow) },
    });
  }

  createTrialSetupCheckout(base: CheckoutBase): Promise<CheckoutSession> {
    return this.checkout(base, 'trial', {
      mode: 'setup',
      currency: PRICE_CURRENCY,
      setup_intent_data: { metadata: { [META.userId]: base.userId } },
      // Stripe's page beside its button says what the saved card will be charged and when
      // (custom_text.submit.message, at most 1,200 characters, API reference "Create a Checkout
      // Session"), the statement every page of ours uses.
      custom_text: { submit: { message: TRIAL_START_STATEMENT } },
    });
  }

  async createPackCheckout({ packs, ...base }: CheckoutBase & { packs: readonly PackId[] }): Promise<CheckoutSession> {
    // One line per pack: Checkout sums them into one payment (amount_total), and the metadata
    // names them all for the grant.
    const prices = await Promise.all(packs.map((pack) => this.priceId(packPriceLookupKey(pack))));
    return this.checkout(
      base,
      'pack',
      { mode: 'payment', line_items: prices.map((price) => ({ price, quantity: 1 })) },
      { [META.pack]: encodePacks(packs) },
    );
  }

  async getCheckout(id: string): Promise<CheckoutFacts | null> {
    const session = await this.orNull('read the checkout', () => this.stripe.checkout.sessions.retrieve(id));
    return session && checkoutFacts(session);
  }

  async listOpenCheckouts(customerId: string): Promise<CheckoutFacts[]> {
    return this.call('list the open checkouts', async () => {
      const open: CheckoutFacts[] = [];
      for await (const session of this.stripe.checkout.sessions.list({
        customer: customerId,
        status: 'open',
        limit: 100,
      })) {
        const facts = checkoutFacts(session);
        if (facts) open.push(facts);
      }
      return open;
    });
  }

  async expireCheckout(id: string): Promise<void> {
    try {
      // Stripe expires only an open session (SDK: checkout.sessions.expire).
      await this.stripe.checkout.sessions.expire(id);
    } catch (error) {
      // One that was paid or expired meanwhile is left as it is.
      const closed = error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400;
      if (closed && (await this.getCheckout(id))?.status !== 'open') return;
      throw providerError('close the checkout', error);
    }
  }

  // --- Subscriptions ---------------------------------------------------------------------------

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
          // A declined card, or a bank that asks to confirm, leaves the subscription incomplete
          // with its first invoice open to pay, rather than failing the call.
          payment_behavior: 'allow_incomplete',
          metadata: subscriptionMetadata(userId, PLAN_AFTER_TRIAL, false),
          ...this.subscriptionTax(),
          expand: SUBSCRIPTION_EXPAND,
        },
        { idempotencyKey },
      ),
    );
    return this.ownState(subscription);
  }

  async getSubscription(id: string): Promise<SubscriptionState | null> {
    const subscription = await this.fetchSubscription(id);
    return subscription && this.stateOf(subscription);
  }

  async listSubscriptions(customerId: string): Promise<SubscriptionState[]> {
    return this.call('list the subscriptions', async () => {
      const running: SubscriptionState[] = [];
      const all = this.stripe.subscriptions.list({
        customer: customerId,
        status: 'all',
        limit: 100,
        expand: SUBSCRIPTION_EXPAND.map((field) => `data.${field}`),
      });
      for await (const subscription of all) {
        if (ENDED.has(subscription.status)) continue;
        const state = await this.stateOf(subscription);
        if (state) running.push(state);
      }
      return running;
    });
  }

  async upgrade(
    id: string,
    target: PlanTarget,
    idempotencyKey: string,
  ): Promise<{ state: SubscriptionState; invoiceId: string }> {
    const subscription = await this.liveSubscription(id, 'be upgraded');
    const current = await this.ownState(subscription);
    if (current.status === 'incomplete') {
      throw new PaymentProviderError(
        'The subscription’s first payment is still due: pay that invoice first, then change the plan.',
        'refused',
        409,
      );
    }
    const price = await this.priceId(planPriceLookupKey(target.plan, target.billingCycle, current.payNow));
    // A waiting downgrade goes: its schedule would bring the lower plan back at the old period's
    // end, and Stripe refuses the cancellation setting sent below on a subscription a schedule
    // manages. It comes back if the charge fails.
    const released = await this.releaseSchedule(subscription, `${idempotencyKey}:release`);
    let updated: Stripe.Subscription;
    try {
      updated = await this.stripe.subscriptions.update(
        id,
        {
          items: [{ id: firstItem(subscription).id, price, quantity: 1 }],
          // A new period of the new plan starts now, charged in full, with no credit for the old
          // one ("if you set proration_behavior to none ... we don't generate any credits",
          // SDK: subscriptions.update): what the old plan granted stays (decision 20.1).
          billing_cycle_anchor: { type: 'now' },
          proration_behavior: 'none',
          // A declined card fails the call (402) and leaves the subscription as it was.
          payment_behavior: 'error_if_incomplete',
          cancel_at_period_end: false,
          metadata: subscriptionMetadata(current.userId, target, current.payNow),
          ...this.subscriptionTax(),
          expand: SUBSCRIPTION_EXPAND,
        },
        { idempotencyKey: `${idempotencyKey}:update` },
      );
    } catch (error) {
      const failure = providerError('upgrade the plan', error);
      if (released && current.scheduledChange) {
        await this.restoreDowngrade(subscription, current, failure, `${idempotencyKey}:restore`);
      }
      throw failure;
    }
    const invoiceId = idOf(updated.latest_invoice);
    if (!invoiceId) throw new PaymentProviderError('Stripe changed the plan without an invoice. Try again.', 'refused');
    return { state: await this.ownState(updated), invoiceId };
  }

  async scheduleDowngrade(id: string, target: PlanTarget, idempotencyKey: string): Promise<SubscriptionState> {
    let subscription = await this.liveSubscription(id, 'be changed');
    const current = await this.ownState(subscription);
    if (subscription.cancel_at_period_end) {
      // Choosing a plan for the next period means the subscription goes on.
      subscription = await this.call('keep the subscription going', () =>
        this.stripe.subscriptions.update(
          id,
          { cancel_at_period_end: false, expand: SUBSCRIPTION_EXPAND },
          { idempotencyKey: `${idempotencyKey}:resume` },
        ),
      );
    }
    await this.planDowngrade(subscription, { ...target, payNow: current.payNow }, current.userId, idempotencyKey);
    return this.ownState(await this.knownSubscription(id));
  }

  async cancelAtPeriodEnd(id: string): Promise<SubscriptionState> {
    const subscription = await this.knownSubscription(id);
    if (ENDED.has(subscription.status)) return this.ownState(subscription);
    // A downgrade waiting for the next period goes with it; Stripe also refuses to change the
    // cancellation of a subscription a schedule manages.
    await this.releaseSchedule(subscription);
    const updated = await this.call('cancel the subscription', () =>
      this.stripe.subscriptions.update(id, { cancel_at_period_end: true, expand: SUBSCRIPTION_EXPAND }),
    );
    return this.ownState(updated);
  }

  async reactivate(id: string): Promise<SubscriptionState> {
    const subscription = await this.liveSubscription(id, 'be reactivated');
    if (!subscription.cancel_at_period_end) return this.ownState(subscription);
    const updated = await this.call('reactivate the subscription', () =>
      this.stripe.subscriptions.update(id, { cancel_at_period_end: false, expand: SUBSCRIPTION_EXPAND }),
    );
    return this.ownState(updated);
  }

  async cancelNow(id: string, idempotencyKey: string): Promise<void> {
    const subscription = await this.knownSubscription(id);
    if (ENDED.has(subscription.status)) return;
    const schedule = pendingSchedule(subscription);
    try {
      if (schedule) {
        // A subscription a schedule manages ends with its schedule ("Cancels a subscription
        // schedule and its associated subscription immediately", SDK: subscriptionSchedules.cancel),
        // whose final invoice and proration credit are on unless turned off.
        await this.stripe.subscriptionSchedules.cancel(
          schedule.id,
          { invoice_now: false, prorate: false },
          { idempotencyKey },
        );
      } else {
        // No final invoice and no credit: the period was granted in full when it was paid.
        await this.stripe.subscriptions.cancel(id, { invoice_now: false, prorate: false });
      }
    } catch (error) {
      // One that ended meanwhile is left as it is.
      const now = await this.fetchSubscription(id).catch(() => null);
      if (now && ENDED.has(now.status)) return;
      throw providerError('end the subscription', error);
    }
  }

  // --- Invoices and payments -------------------------------------------------------------------

  async getInvoice(id: string): Promise<InvoiceFacts | null> {
    // `payments` is included only when asked for (SDK: Invoice.payments).
    const invoice = await this.orNull('read the invoice', () =>
      this.stripe.invoices.retrieve(id, { expand: ['payments'] }),
    );
    if (!invoice?.id) return null;
    const invoiceId = invoice.id;
    const lines = await this.call('read the invoice’s lines', async () => {
      const read: InvoiceLine[] = [];
      for await (const line of this.stripe.invoices.listLineItems(invoiceId, { limit: 100 })) {
        read.push(lineFacts(line, await this.soldFor(idOf(line.pricing?.price_details?.price))));
      }
      return read;
    });
    const details = invoice.parent?.subscription_details;
    const paid = invoice.payments?.data.find((payment) => payment.status === 'paid');
    return {
      id: invoiceId,
      subscriptionId: idOf(details?.subscription),
      customerId: idOf(invoice.customer) ?? '',
      userId: details?.metadata?.[META.userId] || null,
      status: invoiceStatusOf(invoice.status),
      totalCents: invoice.total,
      amountPaidCents: invoice.amount_paid,
      paidAt: invoice.status_transitions.paid_at === null ? null : fromUnix(invoice.status_transitions.paid_at),
      paymentIntentId: idOf(paid?.payment.payment_intent),
      renewal: invoice.billing_reason === 'subscription_cycle',
      lines,
    };
  }

  async getPayment(paymentIntentId: string): Promise<PaymentFacts | null> {
    const intent = await this.orNull('read the payment', () =>
      this.stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] }),
    );
    if (!intent) return null;
    // Every dispute of the payment: an inquiry that closed may be followed by a chargeback.
    const disputes = await this.call('read the payment’s disputes', () =>
      this.stripe.disputes.list({ payment_intent: paymentIntentId, limit: 100 }),
    );
    const charge = intent.latest_charge;
    return {
      paymentIntentId,
      customerId: idOf(intent.customer),
      amountCents: intent.amount_received,
      refundedCents: charge && typeof charge !== 'string' ? charge.amount_refunded : 0,
      dispute: paymentDispute(disputes.data),
    };
  }

  async refund({
    paymentIntentId,
    amountCents,
    idempotencyKey,
  }: {
    paymentIntentId: string;
    amountCents: number | null;
    idempotencyKey: string;
  }): Promise<void> {
    await this.call('refund the payment', () =>
      this.stripe.refunds.create(
        { payment_intent: paymentIntentId, ...(amountCents !== null && { amount: amountCents }) },
        { idempotencyKey },
      ),
    );
  }

  async cardFingerprint(setupIntentId: string): Promise<string | null> {
    const intent = await this.orNull('read the saved card', () =>
      this.stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] }),
    );
    const method = intent?.payment_method;
    return method && typeof method !== 'string' ? (method.card?.fingerprint ?? null) : null;
  }

  async listPaidSince(since: Date): Promise<{ invoiceIds: string[]; checkoutIds: string[] }> {
    const created = { gte: Math.floor(since.getTime() / 1000) };
    return this.call('list the payments since the last reconciliation', async () => {
      const invoiceIds: string[] = [];
      for await (const invoice of this.stripe.invoices.list({ status: 'paid', created, limit: 100 })) {
        if (invoice.id) invoiceIds.push(invoice.id);
      }
      const checkoutIds: string[] = [];
      for await (const session of this.stripe.checkout.sessions.list({ status: 'complete', created, limit: 100 })) {
        checkoutIds.push(session.id);
      }
      return { invoiceIds, checkoutIds };
    });
  }

  readWebhook(rawBody: Buffer, signature: string | undefined): BillingEvent {
    return readSignedEvent(rawBody, signature, this.webhookSecret);
  }

  // --- Reading subscriptions -------------------------------------------------------------------

  /** The subscription as billing sees it, or null when OwnVoice did not make it. */
  private async stateOf(subscription: Stripe.Subscription): Promise<SubscriptionState | null> {
    const target = readPlan(subscription.metadata);
    const userId = subscription.metadata[META.userId];
    const item = subscription.items.data[0];
    if (!target || !userId || !item) return null;
    const status = subscriptionStatusOf(subscription.status);
    const unpaid = status === 'incomplete' || status === 'past_due';
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer) ?? '',
      userId,
      ...target,
      payNow: subscription.metadata[META.payNow] === 'true',
      status,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      currentPeriodStart: fromUnix(item.current_period_start),
      currentPeriodEnd: fromUnix(item.current_period_end),
      scheduledChange: scheduledChange(subscription.schedule, item.current_period_end),
      unpaidInvoice: unpaid ? await this.unpaidInvoice(idOf(subscription.latest_invoice)) : null,
      latestInvoiceId: idOf(subscription.latest_invoice),
    };
  }

  private async ownState(subscription: Stripe.Subscription): Promise<SubscriptionState> {
    const state = await this.stateOf(subscription);
    if (!state) {
      throw new PaymentProviderError(
        `Stripe subscription ${subscription.id} was not made by OwnVoice: its metadata names no plan or user.`,
        'not_found',
      );
    }
    return state;
  }

  /**
   * The latest invoice while it waits to be paid: its page, and what its payment's last attempt
   * met, read from the PaymentIntent behind the invoice's payment (SDK: InvoicePayment.payment).
   */
  private async unpaidInvoice(invoiceId: string | null): Promise<UnpaidInvoice | null> {
    if (!invoiceId) return null;
    const invoice = await this.call('read the unpaid invoice', () =>
      this.stripe.invoices.retrieve(invoiceId, { expand: ['payments'] }),
    );
    if (invoice.status !== 'open') return null;
    const payment = invoice.payments?.data.find((each) => each.is_default) ?? invoice.payments?.data[0];
    const intentId = idOf(payment?.payment.payment_intent);
    const intent = intentId
      ? await this.call('read the unpaid invoice’s payment', () => this.stripe.paymentIntents.retrieve(intentId))
      : null;
    return {
      id: invoiceId,
      amountDueCents: invoice.amount_remaining,
      payUrl: invoice.hosted_invoice_url ?? null,
      failure: intent?.last_payment_error?.message ?? null,
      requiresAction: intent?.status === 'requires_action',
    };
  }

  private async fetchSubscription(id: string): Promise<Stripe.Subscription | null> {
    return this.orNull('read the subscription', () =>
      this.stripe.subscriptions.retrieve(id, { expand: SUBSCRIPTION_EXPAND }),
    );
  }

  private async knownSubscription(id: string): Promise<Stripe.Subscription> {
    const subscription = await this.fetchSubscription(id);
    if (!subscription) throw new PaymentProviderError(`Stripe has no subscription ${id}.`, 'not_found', 404);
    return subscription;
  }

  /** A subscription that has not ended; `could` says what an ended one cannot do. */
  private async liveSubscription(id: string, could: string): Promise<Stripe.Subscription> {
    const subscription = await this.knownSubscription(id);
    if (ENDED.has(subscription.status)) {
      throw new PaymentProviderError(
        `The subscription has ended and cannot ${could}: choose a plan to subscribe again.`,
        'ended',
        409,
      );
    }
    return subscription;
  }

  // --- Scheduled downgrades --------------------------------------------------------------------

  /** Schedules `target` for the next period: the current phase runs out, then the lower plan. */
  private async planDowngrade(
    subscription: Stripe.Subscription,
    target: PlanPrice,
    userId: string,
    idempotencyKey: string,
  ): Promise<void> {
    const price = await this.priceId(planPriceLookupKey(target.plan, target.billingCycle, target.payNow));
    const item = firstItem(subscription);
    const schedule = await this.scheduleOf(subscription, `${idempotencyKey}:schedule`);
    const newInterval = CYCLE_INTERVAL[target.billingCycle] !== item.price.recurring?.interval;
    const tax = this.automaticTax ? { automatic_tax: { enabled: true } } : {};
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
              ...tax,
            },
            {
              items: [{ price, quantity: 1 }],
              duration: { interval: CYCLE_INTERVAL[target.billingCycle], interval_count: 1 },
              // Entering the phase writes this into the subscription, and so into its invoices.
              metadata: subscriptionMetadata(userId, target, target.payNow),
              proration_behavior: 'none',
              // A new interval starts its period at the phase start, invoiced then; with the
              // default (`automatic`) Stripe may keep the old anchor (SDK: Phase.billing_cycle_anchor).
              ...(newInterval && { billing_cycle_anchor: 'phase_start' as const }),
              ...tax,
            },
          ],
        },
        { idempotencyKey: `${idempotencyKey}:phases` },
      ),
    );
  }

  /**
   * Schedules again the downgrade an upgrade released before its charge failed. If that fails
   * too, the person is told the downgrade is gone.
   */
  private async restoreDowngrade(
    subscription: Stripe.Subscription,
    current: SubscriptionState,
    failure: unknown,
    idempotencyKey: string,
  ): Promise<void> {
    const downgrade = current.scheduledChange;
    if (!downgrade) return;
    try {
      await this.planDowngrade(
        { ...subscription, schedule: null },
        { ...downgrade, payNow: current.payNow },
        current.userId,
        idempotencyKey,
      );
    } catch {
      if (!(failure instanceof PaymentProviderError)) return;
      throw new PaymentProviderError(
        `${failure.message} The change to ${downgrade.plan} (${downgrade.billingCycle}) that was scheduled for the next period was dropped: choose it again.`,
        failure.code,
        failure.status,
      );
    }
  }

  /** The schedule managing the subscription, attaching a new one when there is none. */
  private async scheduleOf(subscription: Stripe.Subscription, idempotencyKey: string) {
    const attached = pendingSchedule(subscription);
    if (attached) return attached;
    return this.call('schedule the change of plan', () =>
      this.stripe.subscriptionSchedules.create({ from_subscription: subscription.id }, { idempotencyKey }),
    );
  }

  /**
   * Detaches the subscription's schedule, dropping what it had planned and keeping the
   * subscription as it is (SDK: subscriptionSchedules.release); answers whether there was one.
   */
  private async releaseSchedule(subscription: Stripe.Subscription, idempotencyKey?: string): Promise<boolean> {
    const attached = subscription.schedule;
    if (!attached || (typeof attached !== 'string' && !isPending(attached))) return false;
    await this.call('drop the scheduled change of plan', () =>
      this.stripe.subscriptionSchedules.release(idOf(attached) ?? '', {}, idempotencyKey ? { idempotencyKey } : {}),
    );
    return true;
  }

  // --- Odds and ends ---------------------------------------------------------------------------

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
          ...this.checkoutTax(params.mode),
          customer: base.customerId,
          client_reference_id: base.userId,
          success_url: base.successUrl,
          cancel_url: base.cancelUrl,
          metadata: { [META.userId]: base.userId, [META.kind]: kind, ...metadata },
        },
        { idempotencyKey: base.idempotencyKey },
      ),
    );
    if (!session.url) {
      throw new PaymentProviderError('Stripe started a checkout without a page to pay on. Try again.', 'refused');
    }
    return { id: session.id, url: session.url };
  }

  /**
   * With Stripe Tax, Checkout collects the billing address the tax is computed from and saves it
   * on the customer for the invoices that follow. A setup session charges nothing, and Stripe
   * refuses `automatic_tax` in setup mode; it still saves the address for the plan after the trial.
   */
  private checkoutTax(mode: Stripe.Checkout.SessionCreateParams.Mode | undefined) {
    if (!this.automaticTax) return {};
    return {
      billing_address_collection: 'required' as const,
      customer_update: { address: 'auto' as const },
      ...(mode !== 'setup' && { automatic_tax: { enabled: true } }),
    };
  }

  private subscriptionTax() {
    return this.automaticTax ? { automatic_tax: { enabled: true } } : {};
  }

  /** The card a pay-later checkout saved. */
  private async savedCard(setupIntentId: string): Promise<string> {
    const intent = await this.call('read the card saved at checkout', () =>
      this.stripe.setupIntents.retrieve(setupIntentId),
    );
    const card = idOf(intent.payment_method);
    if (!card) {
      throw new PaymentProviderError(
        'No card was saved at the pay-later checkout: choose a plan to add one.',
        'refused',
        400,
      );
    }
    return card;
  }

  /**
   * What a price sells: one of today's prices by the catalog, an older one (still charging the
   * subscriptions made on it) by its own record, read once per process.
   */
  private async soldFor(priceId: string | null): Promise<Sold | null> {
    if (!priceId) return null;
    const current = (await this.prices()).sold.get(priceId);
    if (current) return current;
    if (!this.olderPrices.has(priceId)) {
      const price = await this.orNull('read a price', () => this.stripe.prices.retrieve(priceId));
      this.olderPrices.set(priceId, price ? soldByPrice(price) : null);
    }
    return this.olderPrices.get(priceId) ?? null;
  }

  /** A price id by lookup key. */
  private async priceId(lookupKey: string): Promise<string> {
    const id = (await this.prices()).ids.get(lookupKey);
    if (!id) throw new Error(`${lookupKey} is not a price OwnVoice sells.`);
    return id;
  }

  /** All prices are looked up at the first need, and again after a failure. */
  private async prices(): Promise<Catalog> {
    this.catalog ??= this.resolvePrices();
    try {
      return await this.catalog;
    } catch (error) {
      this.catalog = null;
      throw error;
    }
  }

  private async resolvePrices(): Promise<Catalog> {
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
        'misconfigured',
        503,
      );
    }
    return { ids, sold: soldBy(ids) };
  }

  private async call<T>(action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw providerError(action, error);
    }
  }

  /** What Stripe has under an id, or null when it has nothing by that id. */
  private async orNull<T>(action: string, run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
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
