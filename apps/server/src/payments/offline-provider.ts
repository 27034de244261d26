// The offline payment provider (OWNVOICE_BILLING=offline, the default on loopback): a test
// checkout page on this server that takes Stripe's test card numbers and charges nothing. It keeps
// what Stripe would keep (customers and their cards, checkouts, subscriptions, invoices,
// payments) in its own tables, renews, retries and expires on the service clock, and reports
// everything as Stripe-shaped events signed with its webhook secret. Events wait in an outbox and
// are delivered after the call that caused them, and again on the billing job until the handler
// takes them, as Stripe retries its deliveries; the handler is the same code that handles Stripe's.
import { createHmac, randomBytes } from 'node:crypto';
import {
  addMonthsUtc,
  type BillingCycle,
  type DisputeStatus,
  encodePacks,
  type PackId,
  type PaidPlanName,
  packsPriceCents,
  planPriceCents,
  planWithCycle,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type {
  OfflineCheckoutRow,
  OfflineInvoiceLine,
  OfflineInvoiceRow,
  OfflineSubscriptionRow,
} from '../db/schema.js';
import type { OfflineBillingRepository } from '../repositories/offline-billing.repository.js';
import {
  chargeObject,
  checkoutFacts,
  checkoutObject,
  disputeObject,
  invoiceFacts,
  invoiceObject,
  paymentFacts,
  subscriptionObject,
  subscriptionState,
} from './offline-objects.js';
import {
  type BillingEvent,
  type CheckoutBase,
  type CheckoutFacts,
  type CheckoutSession,
  type InvoiceFacts,
  type PaymentFacts,
  type PaymentProvider,
  PaymentProviderError,
  type PlanPrice,
  type PlanTarget,
  type SubscriptionState,
} from './provider.js';
import { readSignedEvent, signPayload } from './stripe-events.js';
import { TRIAL_FIRST_CHARGE_CENTS } from './stripe-prices.js';
import { DEFAULT_TEST_CARD, type TestCard, testCard } from './test-cards.js';

/** What the provider's checkout page shows of a checkout (routes render it without the row). */
export type OfflineCheckoutView = Pick<
  OfflineCheckoutRow,
  'kind' | 'pack' | 'plan' | 'billingCycle' | 'payNow' | 'amountCents' | 'status' | 'successUrl' | 'cancelUrl'
>;
/** What the provider's invoice page shows of an invoice. */
export type OfflineInvoiceView = Pick<OfflineInvoiceRow, 'status' | 'requiresAction' | 'failure' | 'totalCents'>;

/** Hands a signed delivery to the webhook handler. */
export type WebhookSink = (payload: string, signature: string) => Promise<void>;

/** The offline provider's signing secret, derived from the server's secret key so every process agrees. */
export function offlineWebhookSecret(secretKey: Buffer): string {
  return `whsec_${createHmac('sha256', secretKey).update('ownvoice offline webhook').digest('hex')}`;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Stripe's: a checkout session expires 24 hours after it is created. */
const CHECKOUT_LIFETIME_MS = DAY_MS;
/** Stripe's: an incomplete subscription whose first invoice is not paid in 23 hours expires. */
const INCOMPLETE_LIFETIME_MS = 23 * HOUR_MS;
/** Days after the failed renewal on which the card is tried again (as Stripe's retry settings allow); then it ends. */
const RETRY_DAYS = [3, 5, 7];

const offlineId = (prefix: string) => `${prefix}_offline_${randomBytes(12).toString('hex')}`;
const monthsOf = (cycle: BillingCycle) => (cycle === 'annual' ? 12 : 1);

type InvoiceReason = OfflineInvoiceRow['billingReason'];

export class OfflineProvider implements PaymentProvider {
  readonly name = 'offline';
  readonly testMode = true;
  /** `auto` delivers events right after the call that made them; `manual` keeps them until asked (tests). */
  deliveryMode: 'auto' | 'manual' = 'auto';
  private sink: WebhookSink | undefined;
  private delivering: Promise<void> | null = null;
  /** Events were made since the running delivery read what was pending. */
  private more = false;

  constructor(
    private readonly repo: OfflineBillingRepository,
    private readonly clock: Clock,
    private readonly webhookSecret: string,
    /** Where its pages are served: a checkout at `${pagePath}/${id}`, an invoice at `${pagePath}/invoice/${id}`. */
    private readonly pagePath: string,
  ) {}

  /** Where events go: the webhook handler, connected once the billing service exists. */
  connect(sink: WebhookSink): void {
    this.sink = sink;
  }

  async createCustomer({ userId }: { userId: string }): Promise<string> {
    const id = offlineId('cus');
    await this.repo.insertCustomer({ id, userId, createdAt: this.clock.now() });
    return id;
  }

  /**
   * Nothing to update: the offline provider keeps no address for its customers (its test checkout
   * asks for none, and it mails nobody; OwnVoice's own mail goes to the account's address).
   */
  async updateCustomerEmail(): Promise<void> {}

  // --- Checkouts ---------------------------------------------------------------------------

  createPlanCheckout(input: CheckoutBase & PlanPrice): Promise<CheckoutSession> {
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

  createPackCheckout(input: CheckoutBase & { packs: readonly PackId[] }): Promise<CheckoutSession> {
    return this.checkout(input, {
      kind: 'pack',
      pack: encodePacks(input.packs),
      amountCents: packsPriceCents(input.packs),
    });
  }

  private async checkout(
    base: CheckoutBase,
    what: Pick<OfflineCheckoutRow, 'kind' | 'amountCents'> & Partial<OfflineCheckoutRow>,
  ): Promise<CheckoutSession> {
    const id = offlineId('cs');
    const now = this.clock.now();
    const row = await this.repo.insertCheckout({
      id,
      idempotencyKey: base.idempotencyKey,
      userId: base.userId,
      customerId: base.customerId,
      successUrl: base.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
      cancelUrl: base.cancelUrl,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
      ...what,
    });
    return { id: row.id, url: `${this.pagePath}/${row.id}` };
  }

  /** The checkout page's view of a session (expired first when its day is over). */
  async findCheckout(id: string): Promise<OfflineCheckoutRow | undefined> {
    await this.expireOverdueCheckouts();
    return this.repo.findCheckout(id);
  }

  async getCheckout(id: string): Promise<CheckoutFacts | null> {
    const row = await this.findCheckout(id);
    return row ? checkoutFacts(row) : null;
  }

  async listOpenCheckouts(customerId: string): Promise<CheckoutFacts[]> {
    await this.expireOverdueCheckouts();
    return (await this.repo.openCheckouts(customerId)).map(checkoutFacts);
  }

  async expireCheckout(id: string): Promise<void> {
    const expired = await this.repo.closeCheckout(id, { status: 'expired' });
    if (expired) await this.emit('checkout.session.expired', checkoutObject(expired));
  }

  /**
   * "Pay" on the test checkout page with one of the test cards: a declined card is a
   * PaymentProviderError and the checkout stays open, as Stripe's page shows the bank's answer.
   * A card whose bank asks to confirm is confirmed on the page, as Stripe's Checkout does.
   * Answers where the browser goes next; paying a closed checkout does nothing more.
   */
  async pay(id: string, cardNumber: string = DEFAULT_TEST_CARD): Promise<string> {
    const session = await this.findCheckout(id);
    if (!session) throw new PaymentProviderError('This checkout does not exist.', 'not_found', 404);
    if (session.status !== 'open') return session.status === 'complete' ? session.successUrl : session.cancelUrl;
    const card = this.knownCard(cardNumber);
    // A card the bank refuses outright; one saved and declined only later (0341) passes here, and
    // one whose bank asks to confirm is confirmed on the page, as Stripe's Checkout does.
    if (card.declinedOnPage || (card.behaviour === 'declines' && session.kind !== 'trial')) {
      throw new PaymentProviderError(`${card.declineMessage} Try another card.`, 'card_declined', 402);
    }
    // Closing it first makes a second Pay (another tab, a double click) do nothing.
    if (!(await this.repo.closeCheckout(id, { status: 'complete' }))) return session.successUrl;
    // A plan's card is its subscription's, and a setup checkout saves one; a payment-mode
    // checkout keeps its card to itself unless asked to save it ("You can set
    // payment_intent_data.setup_future_usage to have Checkout automatically attach the payment
    // method to the Customer", SDK: SessionCreateParams.customer), which OwnVoice never asks.
    if (session.kind !== 'pack') await this.saveCard(session.customerId, card);
    const now = this.clock.now();
    let paid: Partial<OfflineCheckoutRow>;
    if (session.kind === 'plan' && session.plan && session.billingCycle) {
      const { subscription } = await this.newSubscription({
        idempotencyKey: `checkout:${session.id}`,
        userId: session.userId,
        customerId: session.customerId,
        plan: session.plan,
        billingCycle: session.billingCycle,
        payNow: session.payNow,
        status: 'active',
      });
      const invoice = await this.invoice(subscription, 'subscription_create', [this.planLine(subscription, now)]);
      await this.markPaid(invoice, now);
      await this.announce(subscription, invoice.id, 'customer.subscription.created');
      paid = { subscriptionId: subscription.id, invoiceId: invoice.id };
    } else if (session.kind === 'pack') {
      paid = { paymentIntentId: await this.payment(session.customerId, session.amountCents, now) };
    } else {
      paid = { setupIntentId: offlineId('seti') };
    }
    const completed = await this.repo.updateCheckout(id, paid);
    if (completed) await this.emit('checkout.session.completed', checkoutObject(completed));
    return session.successUrl;
  }

  /** "Cancel" on the test checkout page: the checkout closes, nothing is charged or granted. */
  async abandon(id: string): Promise<string> {
    const session = await this.findCheckout(id);
    if (!session) throw new PaymentProviderError('This checkout does not exist.', 'not_found', 404);
    await this.expireCheckout(id);
    return session.cancelUrl;
  }

  // --- Subscriptions -----------------------------------------------------------------------

  async startPlanAfterTrial(input: {
    userId: string;
    customerId: string;
    idempotencyKey: string;
  }): Promise<SubscriptionState> {
    const { subscription, created } = await this.newSubscription({
      idempotencyKey: input.idempotencyKey,
      userId: input.userId,
      customerId: input.customerId,
      plan: 'minimum',
      billingCycle: 'monthly',
      payNow: false,
      status: 'incomplete',
    });
    if (!created) return this.stateOf(subscription);
    const now = this.clock.now();
    // The first invoice is the pay-later first charge: the first month and the trial's day.
    const trialDay: OfflineInvoiceLine = {
      amountCents: TRIAL_FIRST_CHARGE_CENTS,
      periodStart: now.toISOString(),
      periodEnd: now.toISOString(),
      kind: 'trial_day',
      plan: null,
      description: 'Pay-later trial day',
    };
    const invoice = await this.invoice(subscription, 'subscription_create', [
      this.planLine(subscription, now),
      trialDay,
    ]);
    const paid = await this.charge(invoice, subscription.customerId);
    const updated =
      (await this.repo.updateSubscription(subscription.id, { status: paid ? 'active' : 'incomplete' })) ?? subscription;
    await this.announce(updated, invoice.id, 'customer.subscription.created');
    return this.stateOf(updated);
  }

  async getSubscription(id: string): Promise<SubscriptionState | null> {
    const row = await this.repo.findSubscription(id);
    return row ? this.stateOf(row) : null;
  }

  async listSubscriptions(customerId: string): Promise<SubscriptionState[]> {
    return Promise.all((await this.repo.liveSubscriptions(customerId)).map((row) => this.stateOf(row)));
  }

  /**
   * A new period of the target plan starts now, charged in full to the saved card; nothing
   * changes when the card fails (decision 20.1).
   */
  async upgrade(id: string, target: PlanTarget): Promise<{ state: SubscriptionState; invoiceId: string }> {
    const current = await this.liveSubscription(id);
    const now = this.clock.now();
    const next = {
      ...current,
      ...target,
      currentPeriodStart: now,
      currentPeriodEnd: addMonthsUtc(now, monthsOf(target.billingCycle)),
    };
    const invoice = await this.invoice(next, 'subscription_update', [this.planLine(next, now)], { announce: false });
    const card = await this.savedCard(current.customerId);
    if (card.behaviour !== 'works') {
      await this.repo.updateOpenInvoice(invoice.id, { status: 'void' });
      throw cardError(card);
    }
    await this.markPaid(invoice, now);
    const updated = await this.repo.updateSubscription(id, {
      plan: target.plan,
      billingCycle: target.billingCycle,
      currentPeriodStart: now,
      currentPeriodEnd: next.currentPeriodEnd,
      scheduledPlan: null,
      scheduledBillingCycle: null,
      cancelAtPeriodEnd: false,
      latestInvoiceId: invoice.id,
      status: 'active',
    });
    if (!updated) throw new PaymentProviderError('This subscription does not exist.', 'not_found', 404);
    await this.announce(updated, invoice.id, 'customer.subscription.updated');
    return { state: await this.stateOf(updated), invoiceId: invoice.id };
  }

  async scheduleDowngrade(id: string, target: PlanTarget): Promise<SubscriptionState> {
    await this.liveSubscription(id);
    // Choosing a lower plan for next period means staying: a pending cancellation is undone.
    return this.changed(id, {
      scheduledPlan: target.plan,
      scheduledBillingCycle: target.billingCycle,
      cancelAtPeriodEnd: false,
    });
  }

  async cancelAtPeriodEnd(id: string): Promise<SubscriptionState> {
    await this.liveSubscription(id);
    // Nothing follows a subscription that ends: a scheduled downgrade goes with it.
    return this.changed(id, { cancelAtPeriodEnd: true, scheduledPlan: null, scheduledBillingCycle: null });
  }

  async reactivate(id: string): Promise<SubscriptionState> {
    await this.liveSubscription(id);
    return this.changed(id, { cancelAtPeriodEnd: false });
  }

  async cancelNow(id: string): Promise<void> {
    const row = await this.repo.findSubscription(id);
    if (!row || row.status === 'canceled') return;
    await this.end(row);
  }

  // --- Invoices and payments ---------------------------------------------------------------

  async getInvoice(id: string): Promise<InvoiceFacts | null> {
    const row = await this.repo.findInvoice(id);
    return row ? invoiceFacts(row) : null;
  }

  /** The hosted invoice page's view of an invoice. */
  findInvoice(id: string): Promise<OfflineInvoiceRow | undefined> {
    return this.repo.findInvoice(id);
  }

  async getPayment(paymentIntentId: string): Promise<PaymentFacts | null> {
    const row = await this.repo.findPayment(paymentIntentId);
    return row ? paymentFacts(row) : null;
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
    const row = await this.repo.findPayment(paymentIntentId);
    if (!row) throw new PaymentProviderError(`No payment ${paymentIntentId} to refund.`, 'not_found', 404);
    // As Stripe's idempotency keys: the same request again is answered, not made twice.
    if (row.refundKeys.includes(idempotencyKey)) return;
    const left = row.amountCents - row.refundedCents;
    const amount = amountCents ?? left;
    if (amount <= 0 || amount > left) {
      if (amountCents === null && left === 0) return; // Refunded in full already: asking again is no error.
      throw new PaymentProviderError(
        `Only ${left} cents of payment ${paymentIntentId} are left to refund.`,
        'refused',
        400,
      );
    }
    const refundedCents = row.refundedCents + amount;
    await this.repo.updatePayment(paymentIntentId, { refundedCents, refundKeys: [...row.refundKeys, idempotencyKey] });
    await this.emit('charge.refunded', chargeObject({ ...row, refundedCents }));
  }

  async cardFingerprint(setupIntentId: string): Promise<string | null> {
    const checkout = await this.repo.findCheckoutBySetupIntent(setupIntentId);
    const customer = checkout && (await this.repo.findCustomer(checkout.customerId));
    return customer?.cardFingerprint ?? null;
  }

  async listPaidSince(since: Date): Promise<{ invoiceIds: string[]; checkoutIds: string[] }> {
    return {
      invoiceIds: (await this.repo.paidInvoicesSince(since)).map((row) => row.id),
      checkoutIds: (await this.repo.completedSince(since)).map((row) => row.id),
    };
  }

  readWebhook(rawBody: Buffer, signature: string | undefined): BillingEvent {
    return readSignedEvent(rawBody, signature, this.webhookSecret);
  }

  /**
   * The hosted invoice page's Pay: the person pays an unpaid invoice with a test card, which
   * becomes their saved card. A declined card is a PaymentProviderError; the invoice stays open.
   */
  async payInvoice(id: string, cardNumber: string = DEFAULT_TEST_CARD): Promise<void> {
    const invoice = await this.repo.findInvoice(id);
    if (!invoice) throw new PaymentProviderError('This invoice does not exist.', 'not_found', 404);
    if (invoice.status !== 'open') return;
    const card = this.knownCard(cardNumber);
    if (card.behaviour === 'declines') throw cardError(card);
    await this.saveCard(invoice.customerId, card);
    await this.settlePaid(invoice);
  }

  // --- The clock's work (the billing job) --------------------------------------------------

  /**
   * Everything due by the service clock: checkouts expire after a day, unpaid first invoices
   * after 23 hours, failed renewals are tried again on days 3, 5 and 7 and the subscription ends
   * after the last, and periods that ended renew (a scheduled downgrade taking effect), or end
   * when set to. Answers how many periods renewed.
   */
  async renewDue(): Promise<number> {
    const now = this.clock.now();
    await this.expireOverdueCheckouts();
    for (const subscription of await this.repo.incompleteSince(new Date(now.getTime() - INCOMPLETE_LIFETIME_MS))) {
      await this.end(subscription);
    }
    for (const invoice of await this.repo.retriesDue(now)) await this.retry(invoice);
    let renewed = 0;
    for (const due of await this.repo.dueForRenewal(now)) {
      let subscription: OfflineSubscriptionRow | undefined = due;
      // Catch up period by period (a server that was off for two months renews twice).
      while (
        subscription &&
        subscription.status !== 'canceled' &&
        subscription.currentPeriodEnd.getTime() <= now.getTime()
      ) {
        subscription = await this.renewOnce(subscription);
        if (subscription && subscription.status !== 'canceled') renewed++;
      }
    }
    return renewed;
  }

  /**
   * Delivers what is waiting, oldest first; one that the handler refuses is tried again later.
   * One delivery runs at a time, so no event is delivered twice by two callers.
   */
  deliverPending(): Promise<void> {
    const run = this.deliveryQueue.then(() => this.deliverOnce());
    this.deliveryQueue = run.catch(() => {});
    return run;
  }

  private deliveryQueue: Promise<void> = Promise.resolve();

  private async deliverOnce(): Promise<void> {
    if (!this.sink) throw new Error('The offline provider is not connected to the webhook handler.');
    if (this.deliveryMode === 'manual') return;
    for (const event of await this.repo.pendingEvents(this.clock.now())) {
      try {
        await this.sink(event.payload, signPayload(event.payload, this.webhookSecret));
        await this.repo.eventDelivered(event.id, this.clock.now());
      } catch (error) {
        const attempts = event.attempts + 1;
        const wait = Math.min(2 ** attempts, 60) * 60_000;
        await this.repo.eventFailed(
          event.id,
          attempts,
          new Date(this.clock.now().getTime() + wait),
          error instanceof Error ? error.message : String(error),
        );
      }
    }
  }

  /** Waits until the events delivered after the last calls have been handled (tests, and shutdown). */
  async settled(): Promise<void> {
    // A delivery's handler can cause more events (a refund, a cancellation), delivered by a new
    // round: wait until no round runs and none is queued.
    while (this.delivering) {
      await this.delivering;
      await this.deliveryQueue;
    }
  }

  // --- Test controls: what a cardholder or their bank does --------------------------------

  /**
   * The cardholder disputes a payment with their bank, as Stripe reports it (stripe-read.ts,
   * disputeStatusOf): a chargeback withdraws the money until the bank decides; an inquiry only
   * asks, and withdraws nothing unless it is escalated. Also the admin's rehearsal of one.
   */
  async dispute(paymentIntentId: string, kind: 'chargeback' | 'inquiry' = 'chargeback'): Promise<void> {
    const inquiry = kind === 'inquiry';
    const types = ['charge.dispute.created', ...(inquiry ? [] : ['charge.dispute.funds_withdrawn'])];
    await this.moveDispute(paymentIntentId, [null], inquiry ? 'inquiry' : 'open', types);
  }

  /** The bank turns its inquiry into a chargeback: the money is withdrawn. */
  async escalateDispute(paymentIntentId: string): Promise<void> {
    await this.moveDispute(paymentIntentId, ['inquiry'], 'open', ['charge.dispute.funds_withdrawn']);
  }

  /** The bank decides: a chargeback is won or lost; an inquiry closes without a chargeback. */
  async closeDispute(paymentIntentId: string, outcome: 'won' | 'lost' | 'inquiry_closed'): Promise<void> {
    const from = outcome === 'inquiry_closed' ? 'inquiry' : 'open';
    await this.moveDispute(paymentIntentId, [from], outcome, ['charge.dispute.closed']);
  }

  /**
   * Takes the events not delivered yet, oldest first, as delivered: a test then delivers them
   * itself, late, twice or out of order (with `deliveryMode` 'manual').
   */
  async takeEvents(): Promise<{ id: string; type: string; payload: string }[]> {
    const now = this.clock.now();
    const taken = [];
    for (const event of await this.repo.pendingEvents(new Date('9999-12-31T00:00:00Z'))) {
      await this.repo.eventDelivered(event.id, now);
      taken.push({ id: event.id, type: (JSON.parse(event.payload) as { type: string }).type, payload: event.payload });
    }
    return taken;
  }

  /** The money a customer paid: each payment received, with how much of it was refunded. */
  async paymentsOf(
    customerId: string,
  ): Promise<{ paymentIntentId: string; amountCents: number; refundedCents: number }[]> {
    return (await this.repo.paymentsOf(customerId)).map((row) => ({
      paymentIntentId: row.id,
      amountCents: row.amountCents,
      refundedCents: row.refundedCents,
    }));
  }

  /** Changes the customer's saved card (as the hosted pages would). */
  async setCard(customerId: string, cardNumber: string): Promise<void> {
    await this.saveCard(customerId, this.knownCard(cardNumber));
  }

  // --- Inside ------------------------------------------------------------------------------

  private async newSubscription(input: {
    idempotencyKey: string;
    userId: string;
    customerId: string;
    plan: PaidPlanName;
    billingCycle: BillingCycle;
    payNow: boolean;
    status: OfflineSubscriptionRow['status'];
  }): Promise<{ subscription: OfflineSubscriptionRow; created: boolean }> {
    const now = this.clock.now();
    return this.repo.insertSubscription({
      id: offlineId('sub'),
      ...input,
      currentPeriodStart: now,
      currentPeriodEnd: addMonthsUtc(now, monthsOf(input.billingCycle)),
      createdAt: now,
    });
  }

  /** A period of the subscription's plan at its price, from `start`. */
  private planLine(
    subscription: Pick<OfflineSubscriptionRow, 'plan' | 'billingCycle' | 'payNow'>,
    start: Date,
  ): OfflineInvoiceLine {
    const { plan, billingCycle, payNow } = subscription;
    return {
      amountCents: planPriceCents(plan, billingCycle, { payNow }),
      periodStart: start.toISOString(),
      periodEnd: addMonthsUtc(start, monthsOf(billingCycle)).toISOString(),
      kind: 'plan',
      plan: { plan, billingCycle, payNow },
      description: `${planWithCycle(plan, billingCycle)}${payNow ? ', pay-now price' : ''}`,
    };
  }

  private async invoice(
    subscription: OfflineSubscriptionRow,
    billingReason: InvoiceReason,
    lines: OfflineInvoiceLine[],
    { announce = true }: { announce?: boolean } = {},
  ): Promise<OfflineInvoiceRow> {
    const row: OfflineInvoiceRow = {
      id: offlineId('in'),
      subscriptionId: subscription.id,
      userId: subscription.userId,
      customerId: subscription.customerId,
      billingReason,
      lines,
      totalCents: lines.reduce((sum, line) => sum + line.amountCents, 0),
      status: 'open',
      paymentIntentId: null,
      failure: null,
      requiresAction: false,
      attempts: 0,
      nextAttemptAt: null,
      createdAt: this.clock.now(),
      paidAt: null,
    };
    await this.repo.insertInvoice(row);
    if (announce) await this.repo.updateSubscription(subscription.id, { latestInvoiceId: row.id });
    return row;
  }

  /** Charges an invoice to the customer's saved card: paid, or left open with the bank's answer. */
  private async charge(invoice: OfflineInvoiceRow, customerId: string): Promise<boolean> {
    const card = await this.savedCard(customerId);
    if (card.behaviour === 'works') {
      await this.markPaid(invoice, this.clock.now());
      return true;
    }
    const attempts = invoice.attempts + 1;
    const retryDay = invoice.billingReason === 'subscription_cycle' ? RETRY_DAYS[attempts - 1] : undefined;
    await this.repo.updateOpenInvoice(invoice.id, {
      attempts,
      failure:
        card.behaviour === 'requires_action' ? 'Your bank asks you to confirm this payment.' : card.declineMessage,
      requiresAction: card.behaviour === 'requires_action',
      nextAttemptAt: retryDay === undefined ? null : new Date(invoice.createdAt.getTime() + retryDay * DAY_MS),
    });
    return false;
  }

  private async markPaid(invoice: OfflineInvoiceRow, at: Date): Promise<void> {
    const paymentIntentId = await this.payment(invoice.customerId, invoice.totalCents, at);
    await this.repo.updateOpenInvoice(invoice.id, {
      status: 'paid',
      paidAt: at,
      paymentIntentId,
      failure: null,
      requiresAction: false,
      nextAttemptAt: null,
    });
  }

  private async payment(customerId: string, amountCents: number, at: Date): Promise<string> {
    const id = offlineId('pi');
    await this.repo.insertPayment({ id, customerId, amountCents, createdAt: at });
    return id;
  }

  /** An open invoice paid (on its page, or by a retry): its subscription runs again. */
  private async settlePaid(invoice: OfflineInvoiceRow): Promise<void> {
    await this.markPaid(invoice, this.clock.now());
    const subscription = await this.paidUp(invoice.subscriptionId);
    if (subscription) await this.announce(subscription, invoice.id, 'customer.subscription.updated');
  }

  private async retry(invoice: OfflineInvoiceRow): Promise<void> {
    if (await this.charge(invoice, invoice.customerId)) {
      const subscription = await this.paidUp(invoice.subscriptionId);
      if (subscription) await this.announce(subscription, invoice.id, 'customer.subscription.updated');
      return;
    }
    const subscription = await this.repo.findSubscription(invoice.subscriptionId);
    if (!subscription) return;
    const after = await this.repo.findInvoice(invoice.id);
    if (after?.nextAttemptAt === null)
      await this.end(subscription); // The last retry failed.
    else if (after) await this.emit('invoice.payment_failed', invoiceObject(after, subscription));
  }

  private async renewOnce(subscription: OfflineSubscriptionRow): Promise<OfflineSubscriptionRow | undefined> {
    if (subscription.cancelAtPeriodEnd) {
      await this.end(subscription);
      return this.repo.findSubscription(subscription.id);
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
      currentPeriodEnd: addMonthsUtc(start, monthsOf(billingCycle)),
    });
    if (!renewed) return undefined;
    // As the Stripe stand-in models schedule phases: a new interval is invoiced as an update.
    const reason: InvoiceReason =
      billingCycle !== subscription.billingCycle ? 'subscription_update' : 'subscription_cycle';
    const invoice = await this.invoice(renewed, reason, [this.planLine(renewed, start)]);
    const paid = await this.charge(invoice, renewed.customerId);
    const after = (await this.repo.updateSubscription(renewed.id, { status: paid ? 'active' : 'past_due' })) ?? renewed;
    await this.announce(after, invoice.id, 'customer.subscription.updated');
    return after;
  }

  /** Ends a subscription now: all its open invoices are void, so nothing more is charged. */
  private async end(subscription: OfflineSubscriptionRow): Promise<void> {
    const ended = await this.repo.updateSubscription(subscription.id, { status: 'canceled', cancelAtPeriodEnd: false });
    await this.repo.voidOpenInvoices(subscription.id);
    if (ended) await this.emit('customer.subscription.deleted', subscriptionObject(ended));
  }

  /** An unpaid subscription paid up runs again; one that ended stays ended. */
  private async paidUp(subscriptionId: string): Promise<OfflineSubscriptionRow | undefined> {
    return this.repo.updateSubscriptionIn(subscriptionId, ['past_due', 'incomplete'], { status: 'active' });
  }

  /** The subscription's event and its latest invoice's (paid or failed), as Stripe sends them. */
  private async announce(subscription: OfflineSubscriptionRow, invoiceId: string, type: string): Promise<void> {
    await this.emit(type, subscriptionObject(subscription));
    const invoice = await this.repo.findInvoice(invoiceId);
    if (!invoice) return;
    if (invoice.status === 'paid') await this.emit('invoice.paid', invoiceObject(invoice, subscription));
    else if (invoice.status === 'open') await this.emit('invoice.payment_failed', invoiceObject(invoice, subscription));
  }

  private async changed(id: string, patch: Partial<OfflineSubscriptionRow>): Promise<SubscriptionState> {
    const updated = await this.repo.updateSubscription(id, patch);
    if (!updated) throw new PaymentProviderError('This subscription does not exist.', 'not_found', 404);
    await this.emit('customer.subscription.updated', subscriptionObject(updated));
    return this.stateOf(updated);
  }

  private async liveSubscription(id: string): Promise<OfflineSubscriptionRow> {
    const row = await this.repo.findSubscription(id);
    if (!row) throw new PaymentProviderError('This subscription does not exist.', 'not_found', 404);
    if (row.status === 'canceled' || row.status === 'incomplete') {
      throw new PaymentProviderError('This subscription has ended: choose a plan to subscribe again.', 'ended', 409);
    }
    return row;
  }

  private async stateOf(row: OfflineSubscriptionRow): Promise<SubscriptionState> {
    const latest = row.latestInvoiceId ? await this.repo.findInvoice(row.latestInvoiceId) : undefined;
    const state = subscriptionState(row, latest);
    return state.unpaidInvoice
      ? {
          ...state,
          unpaidInvoice: { ...state.unpaidInvoice, payUrl: `${this.pagePath}/invoice/${state.unpaidInvoice.id}` },
        }
      : state;
  }

  private async saveCard(customerId: string, card: TestCard): Promise<void> {
    await this.repo.updateCustomer(customerId, {
      card: card.behaviour,
      cardDecline: card.declineMessage,
      cardFingerprint: card.fingerprint,
    });
  }

  /** How the customer's saved card behaves; a customer without one is charged as Stripe's 4242 card would be. */
  private async savedCard(customerId: string): Promise<Pick<TestCard, 'behaviour' | 'declineMessage'>> {
    const customer = await this.repo.findCustomer(customerId);
    return customer?.card
      ? { behaviour: customer.card, declineMessage: customer.cardDecline }
      : { behaviour: 'works', declineMessage: null };
  }

  private knownCard(number: string): TestCard {
    const card = testCard(number);
    if (!card) throw new PaymentProviderError('That is not a card number: check its digits.', 'card_declined', 402);
    return card;
  }

  /** A dispute moves on from one of the states `from` (null: none yet), with Stripe's events for it. */
  private async moveDispute(
    paymentIntentId: string,
    from: readonly (DisputeStatus | null)[],
    to: DisputeStatus,
    types: readonly string[],
  ): Promise<void> {
    const row = await this.repo.findPayment(paymentIntentId);
    if (!row) throw new PaymentProviderError(`No payment ${paymentIntentId}.`, 'not_found', 404);
    if (!from.includes(row.disputeStatus)) {
      throw new PaymentProviderError(
        `The dispute of payment ${paymentIntentId} is ${row.disputeStatus ?? 'not opened'}, so it cannot become ${to}.`,
        'refused',
        409,
      );
    }
    await this.repo.updatePayment(paymentIntentId, { disputeStatus: to });
    for (const type of types) await this.emit(type, disputeObject({ ...row, disputeStatus: to }));
  }

  private async expireOverdueCheckouts(): Promise<void> {
    for (const row of await this.repo.expiredBy(this.clock.now())) await this.expireCheckout(row.id);
  }

  /** Keeps an event for delivery, and in `auto` mode starts delivering. */
  private async emit(type: string, object: Record<string, unknown>): Promise<void> {
    const id = offlineId('evt');
    const now = this.clock.now();
    const payload = JSON.stringify({
      id,
      object: 'event',
      type,
      created: Math.floor(now.getTime() / 1000),
      livemode: false,
      api_version: null,
      pending_webhooks: 1,
      request: null,
      data: { object },
    });
    await this.repo.insertEvent({ id, payload, nextAttemptAt: now });
    if (this.deliveryMode === 'auto') this.deliverSoon();
  }

  private deliverSoon(): void {
    this.more = true;
    if (this.delivering || !this.sink) return;
    this.delivering = (async () => {
      try {
        while (this.more) {
          this.more = false;
          // Let the call that made the event answer first, as a webhook arrives after the API's answer.
          await new Promise((resolve) => setImmediate(resolve));
          await this.deliverPending();
        }
      } finally {
        this.delivering = null;
      }
    })();
  }
}

function cardError(card: Pick<TestCard, 'behaviour' | 'declineMessage'>): PaymentProviderError {
  return card.behaviour === 'requires_action'
    ? new PaymentProviderError(
        'Your bank asks you to confirm this payment, which it allows only on a payment page. Nothing was charged and nothing changed: use another card, or ask your bank to allow the payment.',
        'requires_action',
        402,
      )
    : new PaymentProviderError(`${card.declineMessage} Nothing was charged.`, 'card_declined', 402);
}
