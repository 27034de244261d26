// A local stand-in of the Stripe API for tests, reached by the real SDK (StripeProvider's apiBase).
// It answers the calls OwnVoice makes, in Stripe's shapes for the SDK's API version, with
// Stripe's checks where a wrong call would otherwise pass unnoticed, and records every state
// change as the Stripe events billing reads. Each modelled behaviour names its source: the SDK's
// type docs (node_modules/stripe/esm/resources) or Stripe's documentation. Test controls stand for
// the outside world: the buyer paying (completeCheckout, payInvoice), cards (setCustomerCard),
// the bank (dispute, escalateDispute, closeDispute), Stripe being out of reach (outage) and time passing (advanceTo).
// It is not a Stripe clone: it computes no tax (prices include it), applies only a coupon's amount
// off once, keeps no pending prorations, and retries failed payments on a fixed schedule
// (RETRY_DAYS).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import {
  ApiError,
  addInterval,
  automaticTaxOf,
  clone,
  createdFilter,
  DAY,
  flag,
  intervalOf,
  invalid,
  list,
  type Metadata,
  mergeMetadata,
  metadataOf,
  nested,
  newId,
  noSuch,
  notModelled,
  oneOf,
  type Params,
  page,
  parseForm,
  records,
  required,
  strings,
  text,
  whole,
} from './form.js';
import { fullPeriod, Invoices, type LineSpec } from './invoices.js';
import { type Outcome, Payments, paymentError, type TestCard } from './payments.js';
import type {
  CouponRecord,
  CustomerRecord,
  DiscountRecord,
  InvoiceRecord,
  ItemRecord,
  PhaseRecord,
  PriceRecord,
  ProductRecord,
  ScheduleRecord,
  SessionRecord,
  SetupIntentRecord,
  SubscriptionRecord,
} from './records.js';

export interface RecordedRequest {
  method: string;
  path: string;
  params: Params;
  idempotencyKey: string | null;
}

/** A Checkout Session expires 24 hours after creation by default (SDK: SessionCreateParams.expires_at). */
const SESSION_LIFETIME = DAY;
/**
 * Stripe keeps an idempotency key's result for at least 24 hours, then may prune it
 * (https://docs.stripe.com/api/idempotent_requests); the stand-in prunes at 24 hours exactly.
 */
const IDEMPOTENCY_LIFETIME_MS = DAY * 1000;
/** "If the first invoice is not paid within 23 hours, the subscription transitions to incomplete_expired" (SDK: Subscription.status). */
const INCOMPLETE_LIFETIME = 23 * 60 * 60;

type Handler = (params: Params, id: string) => unknown;

export class StripeStandIn {
  /** Every API request, in order, as parsed: what the SDK sent. */
  readonly requests: RecordedRequest[] = [];

  private readonly server = http.createServer((request, response) => void this.handle(request, response));
  private nowMs: number;
  private down = false;
  private events: Stripe.Event[] = [];
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: string; at: number }>();
  private readonly customers = new Map<string, CustomerRecord>();
  private readonly products = new Map<string, ProductRecord>();
  private readonly prices = new Map<string, PriceRecord>();
  private readonly sessions = new Map<string, SessionRecord>();
  /** What a session will buy, which Stripe keeps but does not show on the session. */
  private readonly sessionOrders = new Map<
    string,
    { lines: { price: PriceRecord; quantity: number }[]; subscriptionMetadata: Metadata }
  >();
  private readonly setupIntents = new Map<string, SetupIntentRecord>();
  private readonly subscriptions = new Map<string, SubscriptionRecord>();
  private readonly schedules = new Map<string, ScheduleRecord>();
  private readonly coupons = new Map<string, CouponRecord>();
  private readonly discounts = new Map<string, DiscountRecord>();
  private readonly payments = new Payments(
    () => this.seconds(),
    (type, object) => this.emit(type, object),
  );
  private readonly invoices = new Invoices(
    this.payments,
    () => this.seconds(),
    (type, object) => this.emit(type, object),
    (id) => `${this.apiBase}/invoice/${id}`,
  );

  private readonly routes: [string, RegExp, Handler][] = [
    ['POST', /^\/v1\/customers$/, (p) => this.createCustomer(p)],
    ['GET', /^\/v1\/customers\/([^/]+)$/, (p, id) => this.expanded(this.find(this.customers, 'customer', id), p)],
    ['POST', /^\/v1\/customers\/([^/]+)$/, (p, id) => this.updateCustomer(id, p)],
    ['POST', /^\/v1\/coupons$/, (p) => this.createCoupon(p)],
    ['POST', /^\/v1\/products$/, (p) => this.createProduct(p)],
    ['GET', /^\/v1\/products\/([^/]+)$/, (_, id) => this.find(this.products, 'product', id)],
    ['GET', /^\/v1\/prices$/, (p) => this.listPrices(p)],
    ['POST', /^\/v1\/prices$/, (p) => this.createPrice(p)],
    ['GET', /^\/v1\/prices\/([^/]+)$/, (_, id) => this.find(this.prices, 'price', id)],
    ['POST', /^\/v1\/prices\/([^/]+)$/, (p, id) => this.updatePrice(id, p)],
    ['GET', /^\/v1\/checkout\/sessions$/, (p) => this.expanded(this.listSessions(p), p)],
    ['POST', /^\/v1\/checkout\/sessions$/, (p) => this.createSession(p)],
    [
      'GET',
      /^\/v1\/checkout\/sessions\/([^/]+)$/,
      (p, id) => this.expanded(this.find(this.sessions, 'checkout.session', id), p),
    ],
    ['POST', /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, (_, id) => this.expireSession(id)],
    [
      'GET',
      /^\/v1\/setup_intents\/([^/]+)$/,
      (p, id) => this.expanded(this.find(this.setupIntents, 'setupintent', id), p),
    ],
    ['GET', /^\/v1\/payment_intents\/([^/]+)$/, (p, id) => this.expanded(this.payments.intent(id), p)],
    ['POST', /^\/v1\/refunds$/, (p) => this.payments.refund(p)],
    ['GET', /^\/v1\/disputes$/, (p) => this.payments.listDisputes(p)],
    ['GET', /^\/v1\/subscriptions$/, (p) => this.expanded(this.listSubscriptions(p), p)],
    ['POST', /^\/v1\/subscriptions$/, (p) => this.expanded(this.createSubscription(p), p)],
    [
      'GET',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (p, id) => this.expanded(this.find(this.subscriptions, 'subscription', id), p),
    ],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, (p, id) => this.expanded(this.updateSubscription(id, p), p)],
    ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, (p, id) => this.expanded(this.cancelSubscription(id, p), p)],
    ['POST', /^\/v1\/subscription_schedules$/, (p) => this.createSchedule(p)],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)$/, (p, id) => this.updateSchedule(id, p)],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)\/release$/, (_, id) => this.releaseSchedule(id)],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)\/cancel$/, (p, id) => this.cancelSchedule(id, p)],
    ['GET', /^\/v1\/invoices$/, (p) => this.expanded(this.invoices.list(p), p)],
    ['GET', /^\/v1\/invoices\/([^/]+)$/, (p, id) => this.expanded(this.invoices.get(id), p)],
    ['GET', /^\/v1\/invoices\/([^/]+)\/lines$/, (_, id) => this.invoices.get(id).lines],
  ];

  private constructor(
    readonly secretKey: string,
    now: Date,
  ) {
    this.nowMs = now.getTime();
  }

  /** Listens on a free local port; the SDK reaches it through `apiBase`. */
  static async start(options: { secretKey?: string; now?: Date } = {}): Promise<StripeStandIn> {
    const standIn = new StripeStandIn(options.secretKey ?? 'sk_test_stand_in', options.now ?? new Date());
    await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
    return standIn;
  }

  get apiBase(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The stand-in's clock, which only advanceTo moves. */
  get now(): Date {
    return new Date(this.nowMs);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The events recorded since the last call, oldest first. */
  takeEvents(): Stripe.Event[] {
    const taken = this.events;
    this.events = [];
    return taken;
  }

  // --- Test controls: the outside world ---------------------------------------------------------

  /**
   * The buyer pays on the Checkout page with a test card: a payment is made, a card is saved
   * (setup mode), or a subscription starts with its first paid invoice (subscription mode).
   * A declined card leaves the session open and throws, as the page shows the bank's refusal and
   * lets the buyer try again; a card that asks to authenticate pays, since Checkout runs the
   * challenge on the page. `fingerprint` names the card: the same string is the same card.
   */
  completeCheckout(
    sessionId: string,
    card: TestCard = 'works',
    options: { fingerprint?: string } = {},
  ): Stripe.Checkout.Session {
    const session = this.sessions.get(sessionId);
    const order = this.sessionOrders.get(sessionId);
    if (!session || !order) throw new Error(`No checkout session ${sessionId}.`);
    if (session.status !== 'open') throw new Error(`Checkout session ${sessionId} is ${session.status}, not open.`);
    if (card === 'declines') throw new Error('The card was declined: Your card was declined.');
    const saved = session.mode !== 'payment';
    const method = this.payments.addCard(card, saved ? session.customer : null, options.fingerprint);
    if (session.mode === 'setup') {
      const intent = this.setupIntents.get(session.setup_intent ?? '');
      if (intent) Object.assign(intent, { status: 'succeeded', payment_method: method.id });
    } else if (session.mode === 'payment') {
      const intent = this.payments.createIntent({
        amount: session.amount_total ?? 0,
        currency: session.currency ?? 'usd',
        customer: session.customer,
        description: 'Checkout payment',
      });
      this.payments.attempt(intent, method.id, true);
      session.payment_intent = intent.id;
      session.payment_status = 'paid';
    } else {
      const { subscription, invoice } = this.startSubscription({
        customer: this.customerOf(session.customer),
        lines: order.lines,
        extraLines: [],
        metadata: order.subscriptionMetadata,
        card: method.id,
        present: true,
        paymentBehavior: 'allow_incomplete',
        automaticTax: session.automatic_tax.enabled,
      });
      session.subscription = subscription.id;
      session.invoice = invoice.id;
      session.payment_status = 'paid';
    }
    session.status = 'complete';
    this.emit('checkout.session.completed', session);
    return clone(session) as unknown as Stripe.Checkout.Session;
  }

  /**
   * The customer pays an open invoice on its hosted invoice page (`hosted_invoice_url`), where
   * they can confirm with their bank or enter another card: the invoice is paid and its
   * subscription, `incomplete` or `past_due`, becomes `active` ("Once the first invoice is paid,
   * the subscription moves into an active status", SDK: Subscription.status). A declined card
   * throws, as the page shows the refusal.
   */
  payInvoice(invoiceId: string, card: TestCard = 'works', options: { fingerprint?: string } = {}): void {
    const invoice = this.invoices.records.get(invoiceId);
    if (!invoice) throw new Error(`No invoice ${invoiceId}.`);
    if (invoice.status !== 'open') throw new Error(`Invoice ${invoiceId} is ${invoice.status}, not open.`);
    const method = this.payments.addCard(card, null, options.fingerprint);
    const outcome = this.invoices.collect(invoice, method.id, true);
    if (outcome !== 'succeeded') throw new Error('The card was declined: Your card was declined.');
    const subscription = this.subscriptions.get(invoice.parent.subscription_details.subscription);
    this.emit('invoice.paid', invoice);
    if (subscription && (subscription.status === 'incomplete' || subscription.status === 'past_due')) {
      subscription.status = 'active';
      this.emit('customer.subscription.updated', subscription);
    }
  }

  /**
   * How the customer's saved cards behave from now on when charged off-session (renewals,
   * upgrades, the first invoice after a trial); a customer with no saved card gets one, as their
   * default payment method.
   */
  setCustomerCard(customerId: string, card: TestCard): void {
    const customer = this.customers.get(customerId);
    if (!customer) throw new Error(`No customer ${customerId}.`);
    const cards = this.payments.cardsOf(customerId);
    for (const method of cards) this.payments.behaveAs(method.id, card);
    if (cards.length === 0) {
      customer.invoice_settings.default_payment_method = this.payments.addCard(card, customerId).id;
    }
  }

  /**
   * Stripe has an outage, or cannot be reached, until `outage(false)`: every request is recorded
   * and answers 500 `api_error`, which the SDK retries and then throws as a StripeAPIError, and
   * which is never saved against its idempotency key (a later try runs the request).
   */
  outage(down: boolean): void {
    this.down = down;
  }

  /** The money a customer paid: each payment received, with how much of it was refunded. */
  paymentsOf(customerId: string): { paymentIntentId: string; amountCents: number; refundedCents: number }[] {
    return [...this.payments.intents.values()]
      .filter((intent) => intent.customer === customerId && intent.status === 'succeeded')
      .map((intent) => {
        const charge = intent.latest_charge ? this.payments.charges.get(intent.latest_charge) : undefined;
        return {
          paymentIntentId: intent.id,
          amountCents: intent.amount_received,
          refundedCents: charge?.amount_refunded ?? 0,
        };
      });
  }

  /** The cardholder disputes a payment with their bank: a chargeback, or the bank's inquiry first. */
  dispute(paymentIntentId: string, kind: 'chargeback' | 'inquiry' = 'chargeback'): Stripe.Dispute {
    return clone(this.payments.openDispute(paymentIntentId, kind)) as unknown as Stripe.Dispute;
  }

  /** The bank turns its inquiry into a chargeback, withdrawing the money. */
  escalateDispute(paymentIntentId: string): Stripe.Dispute {
    return clone(this.payments.escalateDispute(paymentIntentId)) as unknown as Stripe.Dispute;
  }

  /** The bank decides the dispute on a payment (`warning_closed` ends an inquiry). */
  closeDispute(paymentIntentId: string, outcome: 'won' | 'lost' | 'warning_closed'): Stripe.Dispute {
    return clone(this.payments.closeDispute(paymentIntentId, outcome)) as unknown as Stripe.Dispute;
  }

  /**
   * Time passes until `date`, and what falls due happens in the order it falls due: checkout
   * sessions expire, unpaid first invoices expire their subscriptions, failed renewals are tried
   * again, and periods end (renewing, entering a scheduled phase, or ending the subscription).
   */
  advanceTo(date: Date): void {
    if (date.getTime() < this.nowMs) throw new Error('The stand-in clock only moves forward.');
    const until = Math.floor(date.getTime() / 1000);
    for (let due = this.nextDue(until); due; due = this.nextDue(until)) {
      this.nowMs = Math.max(this.nowMs, due.at * 1000);
      due.run();
    }
    this.nowMs = date.getTime();
  }

  private nextDue(until: number): { at: number; run: () => void } | null {
    const due: { at: number; run: () => void }[] = [];
    for (const session of this.sessions.values()) {
      if (session.status === 'open') due.push({ at: session.expires_at, run: () => this.expire(session) });
    }
    for (const subscription of this.subscriptions.values()) {
      if (subscription.status === 'incomplete') {
        due.push({ at: subscription.created + INCOMPLETE_LIFETIME, run: () => this.expireIncomplete(subscription) });
      } else if (isLive(subscription)) {
        due.push({ at: firstItemOf(subscription).current_period_end, run: () => this.renew(subscription) });
      }
    }
    for (const invoice of this.invoices.records.values()) {
      const at = invoice.next_payment_attempt;
      if (invoice.status === 'open' && at !== null) due.push({ at, run: () => this.retry(invoice) });
    }
    const next = due.filter((each) => each.at <= until).sort((a, b) => a.at - b.at)[0];
    return next ?? null;
  }

  // --- HTTP ------------------------------------------------------------------------------------

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const method = request.method ?? 'GET';
    // The SDK sends GET and DELETE parameters in the query string, POST ones in the body.
    const params = { ...parseForm(url.search.slice(1)), ...parseForm(body) };
    const idempotencyKey = headerOf(request, 'idempotency-key');
    this.requests.push({ method, path: url.pathname, params, idempotencyKey });

    const send = (status: number, json: string, replayed = false) => {
      response.writeHead(status, {
        'content-type': 'application/json',
        'request-id': newId('req'),
        ...(replayed && { 'idempotent-replayed': 'true' }),
      });
      response.end(json);
    };
    if (this.down) {
      send(500, new ApiError(500, 'api_error', 'An error occurred with our connection to Stripe.').body);
      return;
    }
    if (headerOf(request, 'authorization') !== `Bearer ${this.secretKey}`) {
      send(401, new ApiError(401, 'invalid_request_error', 'Invalid API Key provided.').body);
      return;
    }
    for (const [key, { at }] of this.idempotent) {
      if (at + IDEMPOTENCY_LIFETIME_MS <= this.nowMs) this.idempotent.delete(key);
    }
    const fingerprint = `${method} ${url.pathname} ${body}`;
    const earlier = method === 'POST' && idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
    if (earlier) {
      if (earlier.fingerprint === fingerprint) send(earlier.status, earlier.body, true);
      else {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
        send(400, new ApiError(400, 'idempotency_error', message).body);
      }
      return;
    }
    let status = 200;
    let json: string;
    try {
      json = JSON.stringify(this.route(method, url.pathname, params));
    } catch (error) {
      // A fault of the stand-in itself answers as Stripe's own failures do, so the test shows it.
      const apiError = error instanceof ApiError ? error : new ApiError(500, 'api_error', String(error));
      status = apiError.status;
      json = apiError.body;
    }
    // Stripe saves the result of a keyed POST once its endpoint ran, errors included (a declined
    // card's 402 is replayed), but not a 500 (https://docs.stripe.com/api/idempotent_requests);
    // the stand-in saves every answer but a 500.
    if (method === 'POST' && idempotencyKey && status < 500) {
      this.idempotent.set(idempotencyKey, { fingerprint, status, body: json, at: this.nowMs });
    }
    send(status, json);
  }

  private route(method: string, path: string, params: Params): unknown {
    for (const [routeMethod, pattern, handler] of this.routes) {
      const match = method === routeMethod ? pattern.exec(path) : null;
      if (match) return handler(params, decodeURIComponent(match[1] ?? ''));
    }
    throw new ApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  private find<T>(records: Map<string, T>, kind: string, id: string): T {
    const record = records.get(id);
    if (!record) throw noSuch(kind, id);
    return record;
  }

  private seconds(): number {
    return Math.floor(this.nowMs / 1000);
  }

  private emit(type: Stripe.Event.Type, object: object): void {
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.seconds(),
      data: { object: clone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    // The recorded objects carry the fields OwnVoice reads, not every one Stripe sends.
    this.events.push(event as unknown as Stripe.Event);
  }

  /**
   * The object with `expand[]` applied (https://docs.stripe.com/expand): an id becomes the
   * object it names, `data.` reaches into a list, an invoice's `payments` is included only when
   * asked for, and at most four levels deep.
   */
  private expanded(object: object, params: Params): object {
    let result = object;
    for (const path of strings(params, 'expand')) {
      const fields = path.split('.');
      if (fields.length > 4) throw invalid(`You cannot expand more than 4 levels of a property (${path}).`, 'expand');
      result = this.expand(result, fields, path) as object;
    }
    return result;
  }

  private expand(value: unknown, fields: string[], path: string): unknown {
    const [field, ...rest] = fields;
    if (field === undefined || value === null) return value;
    if (typeof value !== 'object') throw invalid(`This property cannot be expanded (${path}).`, 'expand');
    const record = value as Record<string, unknown>;
    if (field === 'data' && record.object === 'list' && Array.isArray(record.data)) {
      return { ...record, data: record.data.map((each) => this.expand(each, rest, path)) };
    }
    let child = record[field];
    if (field === 'payments' && record.object === 'invoice') {
      child = this.invoices.paymentsOf(String(record.id));
    } else if (typeof child === 'string') {
      child = this.lookup(child);
    } else if (rest.length === 0 && child !== null) {
      throw invalid(`This property cannot be expanded (${path}).`, 'expand');
    }
    if (child === undefined) throw invalid(`This property cannot be expanded (${path}).`, 'expand');
    return { ...record, [field]: this.expand(child, rest, path) };
  }

  /** The object an id names, by Stripe's id prefixes. */
  private lookup(id: string): object | undefined {
    const byPrefix: [string, Map<string, object>][] = [
      ['sub_sched_', this.schedules],
      ['sub_', this.subscriptions],
      ['seti_', this.setupIntents],
      ['in_', this.invoices.records],
      ['cus_', this.customers],
      ['price_', this.prices],
      ['pi_', this.payments.intents],
      ['pm_', this.payments.methods],
      ['ch_', this.payments.charges],
    ];
    const records = byPrefix.find(([prefix]) => id.startsWith(prefix))?.[1];
    return records?.get(id);
  }

  // --- Catalog ---------------------------------------------------------------------------------

  private createCustomer(params: Params): CustomerRecord {
    const customer: CustomerRecord = {
      id: newId('cus'),
      object: 'customer',
      created: this.seconds(),
      email: text(params, 'email') ?? null,
      livemode: false,
      metadata: metadataOf(params),
      invoice_settings: { default_payment_method: null },
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  /**
   * POST /v1/customers/:id: "Updates the specified customer by setting the values of the
   * parameters passed. Any parameters not provided are left unchanged" (SDK: customers.update);
   * an id it does not have is a 404 `resource_missing`. Stripe then sends `customer.updated`
   * ("Occurs whenever any property of a customer changes", https://docs.stripe.com/api/events/types).
   */
  private updateCustomer(id: string, params: Params): CustomerRecord {
    const customer = this.find(this.customers, 'customer', id);
    const unknown = Object.keys(params).find((key) => !['email', 'metadata'].includes(key));
    if (unknown) throw notModelled(`updating a customer's ${unknown}`, unknown);
    const email = text(params, 'email');
    // "This may be up to 512 characters." (SDK: CustomerUpdateParams.email)
    if (email !== undefined && email.length > 512) throw invalid('Invalid email: at most 512 characters.', 'email');
    Object.assign(customer, {
      email: email ?? customer.email,
      metadata: mergeMetadata(customer.metadata, metadataOf(params)),
    });
    this.emit('customer.updated', customer);
    return customer;
  }

  private createProduct(params: Params): ProductRecord {
    const id = text(params, 'id') ?? newId('prod');
    if (this.products.has(id))
      throw new ApiError(400, 'invalid_request_error', 'Product already exists.', 'resource_already_exists', 'id');
    const product: ProductRecord = {
      id,
      object: 'product',
      active: flag(params, 'active') ?? true,
      created: this.seconds(),
      livemode: false,
      metadata: metadataOf(params),
      name: required(params, 'name'),
      updated: this.seconds(),
    };
    this.products.set(id, product);
    return product;
  }

  private createPrice(params: Params): PriceRecord {
    const product = required(params, 'product');
    if (!this.products.has(product)) throw noSuch('product', product, 400, 'product');
    const unitAmount = whole(params, 'unit_amount');
    if (unitAmount === undefined) throw invalid('Missing required param: unit_amount.', 'unit_amount');
    const recurring = nested(params, 'recurring');
    const lookupKey = text(params, 'lookup_key') ?? null;
    const holder = lookupKey ? [...this.prices.values()].find((price) => price.lookup_key === lookupKey) : undefined;
    if (holder && !flag(params, 'transfer_lookup_key')) {
      throw invalid(`A price (\`${holder.id}\`) already uses that lookup key.`, 'lookup_key');
    }
    if (holder) holder.lookup_key = null;
    const price: PriceRecord = {
      id: newId('price'),
      object: 'price',
      active: flag(params, 'active') ?? true,
      billing_scheme: 'per_unit',
      created: this.seconds(),
      currency: required(params, 'currency'),
      livemode: false,
      lookup_key: lookupKey,
      metadata: metadataOf(params),
      nickname: text(params, 'nickname') ?? null,
      product,
      recurring: recurring
        ? {
            interval: intervalOf(recurring),
            interval_count: whole(recurring, 'interval_count') ?? 1,
            meter: null,
            usage_type: 'licensed',
          }
        : null,
      // Without a default tax behavior in the account's Tax settings a price is `unspecified`.
      tax_behavior: oneOf(params, 'tax_behavior', TAX_BEHAVIORS) ?? 'unspecified',
      type: recurring ? 'recurring' : 'one_time',
      unit_amount: unitAmount,
    };
    this.prices.set(price.id, price);
    return price;
  }

  private updatePrice(id: string, params: Params): PriceRecord {
    const price = this.find(this.prices, 'price', id);
    const unknown = Object.keys(params).find(
      (key) => !['tax_behavior', 'nickname', 'metadata', 'active'].includes(key),
    );
    if (unknown) throw notModelled(`updating a price's ${unknown}`, unknown);
    const taxBehavior = oneOf(params, 'tax_behavior', TAX_BEHAVIORS);
    // "Once specified as either `inclusive` or `exclusive`, it cannot be changed." (SDK: Price.tax_behavior)
    if (taxBehavior && price.tax_behavior !== 'unspecified' && price.tax_behavior !== taxBehavior) {
      throw invalid(`The tax_behavior of price ${id} is ${price.tax_behavior} and cannot be changed.`, 'tax_behavior');
    }
    Object.assign(price, {
      tax_behavior: taxBehavior ?? price.tax_behavior,
      nickname: text(params, 'nickname') ?? price.nickname,
      active: flag(params, 'active') ?? price.active,
      metadata: mergeMetadata(price.metadata, metadataOf(params)),
    });
    return price;
  }

  private listPrices(params: Params) {
    const lookupKeys = strings(params, 'lookup_keys');
    if (lookupKeys.length > 10) throw invalid('You may only specify up to 10 lookup keys.', 'lookup_keys');
    // Active prices unless `active` is false: "Returns a list of your active prices … For the list
    // of inactive prices, set `active` to false" (API reference, prices/list).
    const active = flag(params, 'active') ?? true;
    const matching = [...this.prices.values()]
      .filter((price) => lookupKeys.length === 0 || (price.lookup_key && lookupKeys.includes(price.lookup_key)))
      .filter((price) => price.active === active);
    return page(matching, params, '/v1/prices');
  }

  private priceFor(params: Params, param: string, kind: 'recurring' | 'one_time' | 'any'): PriceRecord {
    const id = required(params, 'price');
    const price = this.prices.get(id);
    if (!price) throw noSuch('price', id, 400, param);
    if (!price.active) throw invalid(`The price \`${id}\` is not active.`, param);
    if (kind !== 'any' && price.type !== kind) {
      throw invalid(`The price \`${id}\` is ${price.type}, but ${param} needs a ${kind} price.`, param);
    }
    return price;
  }

  private customerOf(id: string | null | undefined, param = 'customer'): CustomerRecord {
    const customer = id ? this.customers.get(id) : undefined;
    if (!customer) throw noSuch('customer', id ?? '', 400, param);
    return customer;
  }

  // --- Checkout --------------------------------------------------------------------------------

  private createSession(params: Params): SessionRecord {
    const mode = oneOf(params, 'mode', ['payment', 'setup', 'subscription'] as const);
    if (!mode) throw invalid('Missing required param: mode.', 'mode');
    const successUrl = required(params, 'success_url');
    const customerId = text(params, 'customer');
    if (customerId) this.customerOf(customerId);
    const lines = records(params, 'line_items').map((line, at) => {
      const quantity = whole(line, 'quantity');
      if (!quantity) throw invalid('Quantity is required for a price line item.', `line_items[${at}][quantity]`);
      const kind = mode === 'payment' ? 'one_time' : 'any';
      return { price: this.priceFor(line, `line_items[${at}][price]`, kind), quantity };
    });
    if (mode === 'setup' && lines.length > 0) throw invalid('line_items cannot be used in setup mode.', 'line_items');
    if (mode !== 'setup' && lines.length === 0) throw invalid(`line_items is required in ${mode} mode.`, 'line_items');
    if (mode === 'subscription' && !lines.some((line) => line.price.type === 'recurring')) {
      throw invalid('You must specify at least one recurring price in `subscription` mode.', 'line_items');
    }
    const subscriptionData = nested(params, 'subscription_data');
    if (subscriptionData && mode !== 'subscription') {
      throw invalid('You can only pass subscription_data in `subscription` mode.', 'subscription_data');
    }
    const setupData = nested(params, 'setup_intent_data');
    if (setupData && mode !== 'setup')
      throw invalid('You can only pass setup_intent_data in `setup` mode.', 'setup_intent_data');
    const currency = lines[0]?.price.currency ?? text(params, 'currency');
    if (!currency)
      throw invalid('currency is required in setup mode when payment_method_types is not passed.', 'currency');
    const automaticTax = automaticTaxOf(params) ?? false;
    // Stripe refuses automatic tax in setup mode, where nothing is charged (its wording).
    if (automaticTax && mode === 'setup') {
      throw invalid('You cannot set `automatic_tax[enabled]=true` in `setup` mode.', 'automatic_tax[enabled]');
    }
    // "Can only be provided when `customer` is provided." (SDK: SessionCreateParams.customer_update)
    const customerUpdate = nested(params, 'customer_update');
    if (customerUpdate && !customerId) {
      throw invalid('customer_update can only be used with customer.', 'customer_update');
    }
    if (customerUpdate) oneOf(customerUpdate, 'address', ['auto', 'never'] as const);
    const id = newId('cs_test');
    let setupIntent: string | null = null;
    if (mode === 'setup') {
      const intent: SetupIntentRecord = {
        id: newId('seti'),
        object: 'setup_intent',
        created: this.seconds(),
        customer: customerId ?? null,
        livemode: false,
        metadata: setupData ? metadataOf(setupData) : {},
        payment_method: null,
        status: 'requires_payment_method',
        usage: 'off_session',
      };
      this.setupIntents.set(intent.id, intent);
      setupIntent = intent.id;
    }
    const session: SessionRecord = {
      id,
      object: 'checkout.session',
      amount_total:
        mode === 'setup' ? null : lines.reduce((sum, line) => sum + (line.price.unit_amount ?? 0) * line.quantity, 0),
      automatic_tax: { enabled: automaticTax, liability: null, provider: null, status: null },
      billing_address_collection: oneOf(params, 'billing_address_collection', ['auto', 'required'] as const) ?? null,
      cancel_url: text(params, 'cancel_url') ?? null,
      client_reference_id: text(params, 'client_reference_id') ?? null,
      created: this.seconds(),
      currency,
      customer: customerId ?? null,
      expires_at: this.seconds() + SESSION_LIFETIME,
      invoice: null,
      livemode: false,
      metadata: metadataOf(params),
      mode,
      payment_intent: null,
      payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
      setup_intent: setupIntent,
      status: 'open',
      subscription: null,
      success_url: successUrl,
      url: `${this.apiBase}/checkout/${id}`,
    };
    this.sessions.set(id, session);
    this.sessionOrders.set(id, {
      lines,
      subscriptionMetadata: subscriptionData ? metadataOf(subscriptionData) : {},
    });
    return session;
  }

  /** GET /v1/checkout/sessions, with the `customer`, `status` and `created` filters of the SDK's list params. */
  private listSessions(params: Params) {
    const customer = text(params, 'customer');
    const status = oneOf(params, 'status', ['open', 'complete', 'expired'] as const);
    const created = createdFilter(params);
    const matching = [...this.sessions.values()].filter(
      (session) =>
        (customer === undefined || session.customer === customer) &&
        (status === undefined || session.status === status) &&
        created(session.created),
    );
    return page(matching, params, '/v1/checkout/sessions');
  }

  /**
   * "A Checkout Session can be expired when it is in one of these statuses: open. After it
   * expires, a customer can't complete a Checkout Session" (SDK: checkout.sessions.expire).
   */
  private expireSession(id: string): SessionRecord {
    const session = this.find(this.sessions, 'checkout.session', id);
    if (session.status !== 'open') {
      throw invalid(`This Checkout Session is ${session.status}; only an open session can be expired.`);
    }
    this.expire(session);
    return session;
  }

  private expire(session: SessionRecord): void {
    session.status = 'expired';
    this.emit('checkout.session.expired', session);
  }

  // --- Subscriptions ---------------------------------------------------------------------------

  private createSubscription(params: Params): SubscriptionRecord {
    const customer = this.customerOf(text(params, 'customer'));
    const lines = records(params, 'items').map((item, at) => ({
      price: this.priceFor(item, `items[${at}][price]`, 'recurring'),
      quantity: whole(item, 'quantity') ?? 1,
    }));
    if (lines.length === 0) throw invalid('Missing required param: items.', 'items');
    const extraLines = records(params, 'add_invoice_items').map((item, at) => ({
      price: this.priceFor(item, `add_invoice_items[${at}][price]`, 'one_time'),
      quantity: whole(item, 'quantity') ?? 1,
    }));
    const paymentBehavior = this.paymentBehaviorOf(params);
    return this.startSubscription({
      customer,
      lines,
      extraLines,
      metadata: metadataOf(params),
      card: text(params, 'default_payment_method') ?? null,
      present: false,
      paymentBehavior,
      automaticTax: automaticTaxOf(params) ?? false,
    }).subscription;
  }

  /**
   * `allow_incomplete` (the default) leaves a subscription whose first invoice cannot be paid
   * `incomplete`, and a changed one `past_due`; `error_if_incomplete` answers a 402 and changes
   * nothing (SDK and https://docs.stripe.com/api/subscriptions/create#create_subscription-payment_behavior).
   */
  private paymentBehaviorOf(params: Params): 'allow_incomplete' | 'error_if_incomplete' {
    const behavior = text(params, 'payment_behavior') ?? 'allow_incomplete';
    if (behavior !== 'allow_incomplete' && behavior !== 'error_if_incomplete') {
      throw notModelled(`payment_behavior ${behavior}`, 'payment_behavior');
    }
    return behavior;
  }

  private startSubscription(input: {
    customer: CustomerRecord;
    lines: { price: PriceRecord; quantity: number }[];
    extraLines: { price: PriceRecord; quantity: number }[];
    metadata: Metadata;
    card: string | null;
    /** The buyer is on the Checkout page, where a bank's challenge can be met. */
    present: boolean;
    paymentBehavior: 'allow_incomplete' | 'error_if_incomplete';
    automaticTax: boolean;
  }): { subscription: SubscriptionRecord; invoice: InvoiceRecord } {
    const recurring = input.lines.filter((line) => line.price.recurring);
    const interval = recurring[0]?.price.recurring?.interval;
    if (!interval || recurring.some((line) => line.price.recurring?.interval !== interval)) {
      throw invalid('All prices on a subscription must have the same recurring interval.', 'items');
    }
    const start = this.seconds();
    const period = { start, end: addInterval(start, interval) };
    const id = newId('sub');
    const subscription: SubscriptionRecord = {
      id,
      object: 'subscription',
      automatic_tax: { enabled: input.automaticTax, disabled_reason: null, liability: null },
      billing_cycle_anchor: start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      collection_method: 'charge_automatically',
      created: start,
      currency: input.lines[0]?.price.currency ?? 'usd',
      customer: input.customer.id,
      default_payment_method: input.card,
      ended_at: null,
      items: list(
        recurring.map((line) => ({
          id: newId('si'),
          object: 'subscription_item' as const,
          created: start,
          current_period_end: period.end,
          current_period_start: period.start,
          metadata: {},
          price: line.price,
          quantity: line.quantity,
          subscription: id,
        })),
        `/v1/subscription_items?subscription=${id}`,
      ),
      latest_invoice: null,
      livemode: false,
      metadata: input.metadata,
      schedule: null,
      start_date: start,
      status: 'incomplete',
      discounts: [],
    };
    const card = this.cardOf(subscription);
    const expected = this.payments.outcome(card, input.present);
    if (expected !== 'succeeded' && input.paymentBehavior === 'error_if_incomplete') throw paymentError(expected);
    const lines: LineSpec[] = [
      ...subscription.items.data.map((item) => fullPeriod(item, item.price, item.quantity ?? 1, period)),
      ...input.extraLines.map((line) => ({
        amount: (line.price.unit_amount ?? 0) * line.quantity,
        description: `${line.quantity} × ${line.price.nickname ?? line.price.id}`,
        price: line.price,
        quantity: line.quantity,
        item: null,
        proration: false,
        period,
      })),
    ];
    const invoice = this.invoice(subscription, 'subscription_create', lines);
    const outcome = this.invoices.collect(invoice, card, input.present);
    // An unpaid first invoice is not retried: it expires with the subscription after 23 hours.
    subscription.status = outcome === 'succeeded' ? 'active' : 'incomplete';
    this.subscriptions.set(id, subscription);
    this.emit('customer.subscription.created', subscription);
    this.invoices.emitOutcome(invoice, outcome);
    return { subscription, invoice };
  }

  private updateSubscription(id: string, params: Params): SubscriptionRecord {
    const current = this.find(this.subscriptions, 'subscription', id);
    const changes = Object.keys(params).filter((key) => key !== 'expand');
    // "After it's canceled, the subscription is largely immutable. You can still update its
    // metadata and cancellation_details." (SDK: subscriptions.cancel)
    if (!isLive(current) && changes.some((key) => key !== 'metadata' && key !== 'cancellation_details')) {
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    }
    // "A subscription in this status can only have metadata and default_source updated." (SDK: Subscription.status)
    if (current.status === 'incomplete' && changes.some((key) => key !== 'metadata' && key !== 'default_source')) {
      throw invalid('A subscription in status `incomplete` can only have `metadata` and `default_source` updated.');
    }
    const managing = this.managingSchedule(current);
    if (managing && ('cancel_at_period_end' in params || 'cancel_at' in params)) {
      // Stripe's refusal, in its wording: a schedule owns the cancellation, so any write of a
      // cancellation field is refused, even one that changes nothing.
      throw invalid(
        `The subscription is managed by the subscription schedule \`${managing.id}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
      );
    }
    if (managing && 'items' in params) {
      throw notModelled(
        'changing the items of a subscription a schedule manages (release the schedule first)',
        'items',
      );
    }
    const draft = clone(current);
    if ('discounts' in params) draft.discounts = this.redeem(params, id);
    draft.metadata = mergeMetadata(draft.metadata, metadataOf(params));
    draft.default_payment_method = text(params, 'default_payment_method') ?? draft.default_payment_method;
    draft.automatic_tax.enabled = automaticTaxOf(params) ?? draft.automatic_tax.enabled;
    const cancelAtPeriodEnd = flag(params, 'cancel_at_period_end');
    if (cancelAtPeriodEnd !== undefined && cancelAtPeriodEnd !== draft.cancel_at_period_end) {
      draft.cancel_at_period_end = cancelAtPeriodEnd;
      draft.canceled_at = cancelAtPeriodEnd ? this.seconds() : null;
      draft.cancel_at = cancelAtPeriodEnd ? firstItemOf(draft).current_period_end : null;
    }
    const anchor = nested(params, 'billing_cycle_anchor');
    const anchorNow = anchor ? oneOf(anchor, 'type', ['now', 'unchanged'] as const) === 'now' : false;
    const proration =
      oneOf(params, 'proration_behavior', ['always_invoice', 'create_prorations', 'none'] as const) ??
      'create_prorations';
    const paymentBehavior = this.paymentBehaviorOf(params);
    const itemChanges = records(params, 'items');
    for (const [at, change] of itemChanges.entries()) {
      if (!draft.items.data.some((item) => item.id === text(change, 'id'))) {
        throw notModelled('adding or removing subscription items', `items[${at}][id]`);
      }
    }
    const lines: LineSpec[] = [];
    const now = this.seconds();
    for (const item of draft.items.data) {
      const at = itemChanges.findIndex((change) => text(change, 'id') === item.id);
      const change = itemChanges[at];
      const price =
        change?.price === undefined ? item.price : this.priceFor(change, `items[${at}][price]`, 'recurring');
      // "When changing a subscription item's price, `quantity` is set to 1 unless a `quantity`
      // parameter is provided." (SDK: SubscriptionUpdateParams.Item.price)
      const quantity = (change && whole(change, 'quantity')) ?? (price.id === item.price.id ? (item.quantity ?? 1) : 1);
      const changed = price.id !== item.price.id || quantity !== item.quantity;
      const newInterval = price.recurring?.interval !== item.price.recurring?.interval;
      const unused = (item.current_period_end - now) / (item.current_period_end - item.current_period_start);
      const credit: LineSpec = {
        amount: -Math.round((item.price.unit_amount ?? 0) * (item.quantity ?? 1) * unused),
        description: `Unused time on ${item.price.nickname ?? item.price.id}`,
        price: item.price,
        quantity: item.quantity ?? 1,
        item: item.id,
        proration: true,
        period: { start: now, end: item.current_period_end },
      };
      if (anchorNow || newInterval) {
        // A reset billing cycle starts a new period now, billed in full at once; the unused time
        // of the old one is credited unless proration_behavior is `none` ("we don't generate any
        // credits for the old subscription's unused time. We still reset the billing date and bill
        // immediately", SDK: subscriptions.update).
        const period = { start: now, end: addInterval(now, intervalOf(price.recurring ?? {})) };
        if (proration !== 'none') lines.push(credit);
        lines.push(fullPeriod(item, price, quantity, period));
        item.current_period_start = period.start;
        item.current_period_end = period.end;
        draft.billing_cycle_anchor = now;
      } else if (changed && proration === 'always_invoice') {
        lines.push(credit, {
          amount: Math.round((price.unit_amount ?? 0) * quantity * unused),
          description: `Remaining time on ${price.nickname ?? price.id}`,
          price,
          quantity,
          item: item.id,
          proration: true,
          period: { start: now, end: item.current_period_end },
        });
      }
      // With create_prorations Stripe keeps the prorations for the next invoice, which the
      // stand-in does not model; with none there are none.
      item.price = price;
      item.quantity = quantity;
    }
    let invoice: InvoiceRecord | null = null;
    let outcome: Outcome = 'succeeded';
    if (lines.length > 0) {
      const card = this.cardOf(draft);
      const expected = this.payments.outcome(card, false);
      if (expected !== 'succeeded' && paymentBehavior === 'error_if_incomplete') throw paymentError(expected);
      invoice = this.invoice(draft, 'subscription_update', lines);
      outcome = this.invoices.collect(invoice, card, false);
      if (outcome !== 'succeeded') {
        draft.status = 'past_due';
        this.invoices.scheduleRetry(invoice);
      }
    }
    this.subscriptions.set(id, draft);
    this.emit('customer.subscription.updated', draft);
    if (invoice) this.invoices.emitOutcome(invoice, outcome);
    return draft;
  }

  /**
   * DELETE /v1/subscriptions/:id: "Cancels a customer's subscription immediately. The customer
   * won't be charged again", and Stripe "stops automatic collection of all finalized invoices"
   * (SDK: subscriptions.cancel). `invoice_now` and `prorate` default to false.
   */
  private cancelSubscription(id: string, params: Params): SubscriptionRecord {
    const subscription = this.find(this.subscriptions, 'subscription', id);
    if (flag(params, 'invoice_now') || flag(params, 'prorate')) {
      throw notModelled('a final invoice or a proration credit on cancellation');
    }
    if (!isLive(subscription)) throw notModelled('canceling a subscription that has already ended');
    if (this.managingSchedule(subscription)) {
      throw notModelled('canceling a schedule-managed subscription directly (cancel its schedule)');
    }
    this.endSubscription(subscription, this.seconds());
    return subscription;
  }

  /** GET /v1/subscriptions: by default those not `canceled`; `all`, `ended` or one status (SDK: SubscriptionListParams.status). */
  private listSubscriptions(params: Params) {
    const customer = text(params, 'customer');
    const status = text(params, 'status');
    const matches = (subscription: SubscriptionRecord) => {
      if (status === undefined) return subscription.status !== 'canceled';
      if (status === 'all') return true;
      if (status === 'ended') return !isLive(subscription);
      return subscription.status === status;
    };
    const matching = [...this.subscriptions.values()].filter(
      (subscription) => (customer === undefined || subscription.customer === customer) && matches(subscription),
    );
    return page(matching, params, '/v1/subscriptions');
  }

  /** The schedule that manages the subscription, while it does. */
  private managingSchedule(subscription: SubscriptionRecord): ScheduleRecord | undefined {
    const schedule = subscription.schedule ? this.schedules.get(subscription.schedule) : undefined;
    return schedule && isPending(schedule) ? schedule : undefined;
  }

  /** The card an invoice of the subscription is charged to: its own, else the customer's default. */
  private cardOf(subscription: SubscriptionRecord): string | null {
    const customer = this.customers.get(subscription.customer);
    return subscription.default_payment_method ?? customer?.invoice_settings.default_payment_method ?? null;
  }

  /** One period ends: the subscription ends, or enters its next scheduled phase, and renews. */
  private renew(subscription: SubscriptionRecord): void {
    const end = firstItemOf(subscription).current_period_end;
    if (subscription.cancel_at_period_end) {
      this.endSubscription(subscription, end);
      return;
    }
    let reason: 'subscription_cycle' | 'subscription_update' = 'subscription_cycle';
    const schedule = this.managingSchedule(subscription);
    if (schedule) {
      const next = schedule.phases.find((phase) => phase.start_date === end);
      if (next) {
        const before = firstItemOf(subscription).price.recurring?.interval;
        subscription.items.data = next.items.map((phaseItem, at) => ({
          ...firstItemOf(subscription),
          ...(at > 0 && { id: newId('si') }),
          price: this.find(this.prices, 'price', phaseItem.price),
          quantity: phaseItem.quantity,
        }));
        subscription.metadata = mergeMetadata(subscription.metadata, next.metadata);
        schedule.current_phase = { start_date: next.start_date, end_date: next.end_date };
        // A phase that resets the billing cycle anchor to its start (an interval change) is a change
        // of the subscription, invoiced at once ("A subscription was updated", SDK:
        // Invoice.billing_reason); one that keeps the period boundary is the next cycle.
        if (
          next.billing_cycle_anchor === 'phase_start' &&
          firstItemOf(subscription).price.recurring?.interval !== before
        ) {
          reason = 'subscription_update';
          subscription.billing_cycle_anchor = end;
        }
      } else if (schedule.end_behavior === 'cancel') {
        Object.assign(schedule, { status: 'completed', completed_at: end, current_phase: null });
        this.endSubscription(subscription, end);
        return;
      } else {
        this.detachSchedule(schedule, subscription, end);
      }
    }
    const period = { start: end, end: addInterval(end, intervalOf(firstItemOf(subscription).price.recurring ?? {})) };
    for (const item of subscription.items.data) {
      item.current_period_start = period.start;
      item.current_period_end = period.end;
    }
    const invoice = this.invoice(
      subscription,
      reason,
      subscription.items.data.map((item) => fullPeriod(item, item.price, item.quantity ?? 1, period)),
    );
    const outcome = this.invoices.collect(invoice, this.cardOf(subscription), false);
    if (outcome === 'succeeded') subscription.status = 'active';
    else {
      // "it becomes past_due when payment is required but cannot be paid" (SDK: Subscription.status)
      subscription.status = 'past_due';
      this.invoices.scheduleRetry(invoice);
    }
    this.emit('customer.subscription.updated', subscription);
    this.invoices.emitOutcome(invoice, outcome);
  }

  /** A failed invoice is tried again; after the last retry fails, the subscription is canceled. */
  private retry(invoice: InvoiceRecord): void {
    const subscription = this.subscriptions.get(invoice.parent.subscription_details.subscription);
    invoice.next_payment_attempt = null;
    if (!subscription || !isLive(subscription)) return;
    const outcome = this.invoices.collect(invoice, this.cardOf(subscription), false);
    if (outcome === 'succeeded') {
      subscription.status = 'active';
      this.emit('invoice.paid', invoice);
      this.emit('customer.subscription.updated', subscription);
      return;
    }
    this.invoices.emitOutcome(invoice, outcome);
    this.invoices.scheduleRetry(invoice);
    if (invoice.next_payment_attempt === null) this.endSubscription(subscription, this.seconds());
  }

  /**
   * An unpaid first invoice after 23 hours: the subscription becomes `incomplete_expired`, "a
   * terminal status, the open invoice will be voided" (SDK: Subscription.status). Stripe tells
   * of it with `customer.subscription.updated`, `canceled_at` and `ended_at` set.
   */
  private expireIncomplete(subscription: SubscriptionRecord): void {
    const at = subscription.created + INCOMPLETE_LIFETIME;
    Object.assign(subscription, { status: 'incomplete_expired', ended_at: at, canceled_at: at });
    const invoice = subscription.latest_invoice ? this.invoices.records.get(subscription.latest_invoice) : undefined;
    const voided = invoice?.status === 'open';
    if (voided) this.invoices.void(invoice, at);
    this.emit('customer.subscription.updated', subscription);
    if (voided) this.emit('invoice.voided', invoice);
  }

  private endSubscription(subscription: SubscriptionRecord, at: number): void {
    subscription.status = 'canceled';
    subscription.ended_at = at;
    subscription.canceled_at ??= at;
    this.invoices.stopCollecting(subscription.id);
    this.emit('customer.subscription.deleted', subscription);
  }

  /**
   * An invoice of the subscription, less the discount waiting on it: a coupon of `duration: once`
   * applies to one invoice (the default duration, "how long the discount will be in effect if used
   * on a subscription", SDK: CouponCreateParams.duration), then the subscription has none.
   */
  private invoice(
    subscription: SubscriptionRecord,
    reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update',
    lines: LineSpec[],
  ): InvoiceRecord {
    const discount = subscription.discounts[0] ? this.discounts.get(subscription.discounts[0]) : undefined;
    const off = discount ? { id: discount.id, amountOff: discount.coupon.amount_off ?? 0 } : null;
    subscription.discounts = [];
    return this.invoices.create(subscription, reason, lines, off);
  }

  // --- Coupons ---------------------------------------------------------------------------------

  /**
   * POST /v1/coupons: "A coupon has either a percent_off or an amount_off and currency" (SDK:
   * coupons.create). The stand-in takes an amount off, once.
   */
  private createCoupon(params: Params): CouponRecord {
    const amountOff = whole(params, 'amount_off');
    if (amountOff === undefined || amountOff < 1)
      throw notModelled('a coupon without a positive amount_off', 'amount_off');
    const currency = required(params, 'currency');
    const duration = text(params, 'duration') ?? 'once';
    if (duration !== 'once') throw notModelled(`a coupon of duration ${duration}`, 'duration');
    const coupon: CouponRecord = {
      id: text(params, 'id') ?? newId('co'),
      object: 'coupon',
      amount_off: amountOff,
      created: this.seconds(),
      currency,
      duration,
      livemode: false,
      metadata: metadataOf(params),
      percent_off: null,
      valid: true,
    };
    this.coupons.set(coupon.id, coupon);
    return coupon;
  }

  /** `discounts[n][coupon]` of a subscription update: each coupon redeemed as a discount on it ('' clears them). */
  private redeem(params: Params, subscription: string): string[] {
    if (params.discounts === '') return [];
    return records(params, 'discounts').map((each, at) => {
      const id = text(each, 'coupon');
      const coupon = id ? this.coupons.get(id) : undefined;
      if (!coupon) throw noSuch('coupon', id ?? '', 400, `discounts[${at}][coupon]`);
      const discount: DiscountRecord = {
        id: newId('di'),
        object: 'discount',
        coupon,
        subscription,
        start: this.seconds(),
        end: null,
      };
      this.discounts.set(discount.id, discount);
      return discount.id;
    });
  }

  // --- Subscription schedules ------------------------------------------------------------------

  private createSchedule(params: Params): ScheduleRecord {
    const subscriptionId = required(params, 'from_subscription');
    const other = Object.keys(params).find((key) => key !== 'from_subscription' && key !== 'expand');
    if (other) throw invalid(`You cannot set \`${other}\` if \`from_subscription\` is set.`, other);
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw noSuch('subscription', subscriptionId, 400, 'from_subscription');
    if (!isLive(subscription))
      throw invalid('You cannot migrate a canceled subscription to a schedule.', 'from_subscription');
    if (this.managingSchedule(subscription)) {
      throw invalid(
        `You cannot migrate a subscription that is already attached to a schedule: \`${subscription.schedule}\`.`,
        'from_subscription',
      );
    }
    const item = firstItemOf(subscription);
    const schedule: ScheduleRecord = {
      id: newId('sub_sched'),
      object: 'subscription_schedule',
      canceled_at: null,
      completed_at: null,
      created: this.seconds(),
      current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
      customer: subscription.customer,
      end_behavior: subscription.cancel_at_period_end ? 'cancel' : 'release',
      livemode: false,
      metadata: {},
      phases: [
        {
          start_date: item.current_period_start,
          end_date: item.current_period_end,
          billing_cycle_anchor: null,
          items: subscription.items.data.map((each) => ({
            price: each.price.id,
            quantity: each.quantity ?? 1,
            metadata: {},
          })),
          metadata: {},
          proration_behavior: 'create_prorations',
        },
      ],
      released_at: null,
      released_subscription: null,
      status: 'active',
      subscription: subscription.id,
    };
    this.schedules.set(schedule.id, schedule);
    subscription.schedule = schedule.id;
    this.emit('customer.subscription.updated', subscription);
    return schedule;
  }

  private updateSchedule(id: string, params: Params): ScheduleRecord {
    const schedule = this.find(this.schedules, 'subscription schedule', id);
    if (!isPending(schedule)) {
      throw invalid(
        `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    }
    const endBehavior = text(params, 'end_behavior');
    if (endBehavior !== undefined && endBehavior !== 'release' && endBehavior !== 'cancel') {
      throw notModelled(`end_behavior ${endBehavior}`, 'end_behavior');
    }
    const subscription = schedule.subscription ? this.subscriptions.get(schedule.subscription) : undefined;
    const phases: PhaseRecord[] = [];
    records(params, 'phases').forEach((phase, at) => {
      const param = `phases[${at}]`;
      const start = at === 0 ? whole(phase, 'start_date') : phases[at - 1]?.end_date;
      if (start === undefined) throw invalid('The current phase needs its start_date.', `${param}[start_date]`);
      if (at === 0 && start !== schedule.current_phase?.start_date) {
        throw invalid('You can not modify the start date of the current phase.', `${param}[start_date]`);
      }
      if (at > 0 && phase.start_date !== undefined && whole(phase, 'start_date') !== start) {
        throw invalid('A phase must start when the phase before it ends.', `${param}[start_date]`);
      }
      const duration = nested(phase, 'duration');
      const end =
        whole(phase, 'end_date') ??
        (duration ? addInterval(start, intervalOf(duration), whole(duration, 'interval_count') ?? 1) : undefined);
      if (end === undefined || end <= start) {
        throw invalid('Every phase needs an end_date or a duration after its start.', `${param}[end_date]`);
      }
      const items = records(phase, 'items').map((item, index) => ({
        price: this.priceFor(item, `${param}[items][${index}][price]`, 'recurring').id,
        quantity: whole(item, 'quantity') ?? 1,
        metadata: {},
      }));
      if (items.length === 0) throw invalid('Missing required param: items.', `${param}[items]`);
      automaticTaxOf(phase);
      const billingCycleAnchor = oneOf(phase, 'billing_cycle_anchor', ['phase_start', 'automatic'] as const) ?? null;
      const previous = phases[at - 1];
      const priceInterval = (price: string | undefined) =>
        price ? this.prices.get(price)?.recurring?.interval : undefined;
      if (previous && priceInterval(previous.items[0]?.price) !== priceInterval(items[0]?.price)) {
        if (billingCycleAnchor !== 'phase_start') {
          throw notModelled(
            'a change of interval between phases without billing_cycle_anchor=phase_start',
            `${param}[billing_cycle_anchor]`,
          );
        }
      }
      phases.push({
        start_date: start,
        end_date: end,
        billing_cycle_anchor: billingCycleAnchor,
        items,
        metadata: metadataOf(phase),
        proration_behavior:
          oneOf(phase, 'proration_behavior', ['always_invoice', 'create_prorations', 'none'] as const) ??
          'create_prorations',
      });
    });
    const currentPrices = subscription?.items.data.map((item) => item.price.id).join() ?? '';
    if (phases[0] && phases[0].items.map((item) => item.price).join() !== currentPrices) {
      throw notModelled('changing the prices of the current phase (only later phases)', 'phases[0][items]');
    }
    if (phases.length > 0) schedule.phases = phases;
    if (endBehavior) schedule.end_behavior = endBehavior;
    return schedule;
  }

  /**
   * "Releases the subscription schedule immediately, which will stop scheduling of its phases,
   * but leave any existing subscription in place. A schedule can only be released if its status
   * is not_started or active." (SDK: subscriptionSchedules.release)
   */
  private releaseSchedule(id: string): ScheduleRecord {
    const schedule = this.find(this.schedules, 'subscription schedule', id);
    if (!isPending(schedule)) {
      throw invalid(
        `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    }
    const subscription = schedule.subscription ? this.subscriptions.get(schedule.subscription) : undefined;
    this.detachSchedule(schedule, subscription, this.seconds());
    if (subscription) this.emit('customer.subscription.updated', subscription);
    return schedule;
  }

  /**
   * "Cancels a subscription schedule and its associated subscription immediately (if the
   * subscription schedule has an active subscription). A subscription schedule can only be
   * canceled if its status is not_started or active." `invoice_now` and `prorate` default to
   * true, so a caller that wants neither says so (SDK: subscriptionSchedules.cancel).
   */
  private cancelSchedule(id: string, params: Params): ScheduleRecord {
    const schedule = this.find(this.schedules, 'subscription schedule', id);
    if (!isPending(schedule)) {
      throw invalid(
        `You cannot cancel a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    }
    if (flag(params, 'invoice_now') !== false || flag(params, 'prorate') !== false) {
      throw notModelled('a final invoice or a proration credit when canceling a schedule (pass both as false)');
    }
    Object.assign(schedule, { status: 'canceled', canceled_at: this.seconds(), current_phase: null });
    const subscription = schedule.subscription ? this.subscriptions.get(schedule.subscription) : undefined;
    if (subscription && isLive(subscription)) this.endSubscription(subscription, this.seconds());
    return schedule;
  }

  private detachSchedule(schedule: ScheduleRecord, subscription: SubscriptionRecord | undefined, at: number): void {
    Object.assign(schedule, {
      status: 'released',
      released_at: at,
      released_subscription: schedule.subscription,
      subscription: null,
      current_phase: null,
    });
    if (subscription) subscription.schedule = null;
  }
}

const TAX_BEHAVIORS = ['inclusive', 'exclusive', 'unspecified'] as const;

function headerOf(request: http.IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}

const isLive = (subscription: SubscriptionRecord) =>
  subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired';

const isPending = (schedule: ScheduleRecord) => schedule.status === 'active' || schedule.status === 'not_started';

function firstItemOf(subscription: SubscriptionRecord): ItemRecord {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Subscription ${subscription.id} has no items.`);
  return item;
}
