// A local stand-in of the Stripe API for tests, reached by the real SDK (StripeProvider's apiBase).
// It answers exactly the calls OwnVoice makes, in Stripe's shapes for the SDK's API version, with
// Stripe's checks where a wrong call would otherwise pass unnoticed, and records every state change
// as the Stripe events billing reads. Test controls stand for the outside world: the buyer paying
// (completeCheckout), time passing (advanceTo), cards failing (declinePayments).
// It is not a Stripe clone: no taxes, discounts, pending prorations or retries of failed payments.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addMonthsUtc } from '@ownvoice/shared';
import Stripe from 'stripe';

// --- Shapes: Stripe's fields, as many as OwnVoice reads plus the identifying ones ---------------

type Metadata = Record<string, string>;
interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}
type Interval = 'month' | 'year';

type PriceRecord = Pick<
  Stripe.Price,
  'id' | 'object' | 'active' | 'billing_scheme' | 'created' | 'currency' | 'livemode' | 'lookup_key' | 'nickname'
> &
  Pick<Stripe.Price, 'type' | 'unit_amount'> & {
    metadata: Metadata;
    product: string;
    recurring: { interval: Interval; interval_count: number; meter: null; usage_type: 'licensed' } | null;
  };
type ProductRecord = Pick<Stripe.Product, 'id' | 'object' | 'active' | 'created' | 'livemode' | 'name' | 'updated'> & {
  metadata: Metadata;
};
type CustomerRecord = Pick<Stripe.Customer, 'id' | 'object' | 'created' | 'email' | 'livemode'> & {
  metadata: Metadata;
  invoice_settings: { default_payment_method: string | null };
};
type SessionRecord = Pick<
  Stripe.Checkout.Session,
  'id' | 'object' | 'amount_total' | 'cancel_url' | 'client_reference_id' | 'created' | 'currency' | 'expires_at'
> &
  Pick<Stripe.Checkout.Session, 'livemode' | 'mode' | 'payment_status' | 'status' | 'success_url' | 'url'> & {
    metadata: Metadata;
    customer: string | null;
    invoice: string | null;
    payment_intent: string | null;
    setup_intent: string | null;
    subscription: string | null;
  };
type SetupIntentRecord = Pick<Stripe.SetupIntent, 'id' | 'object' | 'created' | 'livemode' | 'status' | 'usage'> & {
  metadata: Metadata;
  customer: string | null;
  payment_method: string | null;
};
type ItemRecord = Pick<
  Stripe.SubscriptionItem,
  'id' | 'object' | 'created' | 'current_period_end' | 'current_period_start' | 'quantity' | 'subscription'
> & { metadata: Metadata; price: PriceRecord };
type SubscriptionRecord = Pick<
  Stripe.Subscription,
  'id' | 'object' | 'billing_cycle_anchor' | 'cancel_at' | 'cancel_at_period_end' | 'canceled_at' | 'created'
> &
  Pick<Stripe.Subscription, 'collection_method' | 'currency' | 'ended_at' | 'livemode' | 'start_date' | 'status'> & {
    metadata: Metadata;
    customer: string;
    default_payment_method: string | null;
    items: List<ItemRecord>;
    latest_invoice: string | null;
    schedule: string | null;
  };
interface PhaseRecord {
  start_date: number;
  end_date: number;
  items: { price: string; quantity: number; metadata: Metadata }[];
  metadata: Metadata;
  proration_behavior: Stripe.SubscriptionSchedule.Phase.ProrationBehavior;
}
type ScheduleRecord = Pick<
  Stripe.SubscriptionSchedule,
  'id' | 'object' | 'canceled_at' | 'completed_at' | 'created' | 'current_phase' | 'end_behavior' | 'livemode'
> &
  Pick<Stripe.SubscriptionSchedule, 'released_at' | 'released_subscription' | 'status'> & {
    metadata: Metadata;
    customer: string;
    subscription: string | null;
    phases: PhaseRecord[];
  };
interface Charge {
  amount: number;
  description: string;
  price: PriceRecord;
  quantity: number;
}
interface LineRecord {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  quantity: number;
  period: { start: number; end: number };
  pricing: { type: 'price_details'; price_details: { price: string; product: string } };
}
type InvoiceRecord = Pick<
  Stripe.Invoice,
  'id' | 'object' | 'amount_due' | 'amount_paid' | 'amount_remaining' | 'attempted' | 'billing_reason' | 'created'
> &
  Pick<Stripe.Invoice, 'currency' | 'livemode' | 'period_end' | 'period_start' | 'status' | 'subtotal' | 'total'> & {
    customer: string;
    lines: List<LineRecord>;
    parent: {
      type: 'subscription_details';
      quote_details: null;
      subscription_details: { subscription: string; metadata: Metadata };
    };
  };

// --- Form bodies as the SDK sends them: `line_items[0][price]=…&metadata[key]=…` ---------------

type Param = string | Param[] | { [key: string]: Param };
type Params = { [key: string]: Param };

/** Nested keys become objects, and objects keyed 0, 1, … become arrays. */
export function parseForm(encoded: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((part, at) => {
      if (at === path.length - 1) {
        node[part] = value;
        return;
      }
      const next = node[part];
      if (isParams(next)) node = next;
      else {
        const created: Params = {};
        node[part] = created;
        node = created;
      }
    });
  }
  return arrays(root) as Params;
}

const isParams = (value: Param | undefined): value is Params =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function arrays(value: Param): Param {
  if (!isParams(value)) return value;
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => arrays(value[key] as Param));
  }
  return Object.fromEntries(keys.map((key) => [key, arrays(value[key] as Param)]));
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: 'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error',
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const invalid = (message: string, param?: string) =>
  new ApiError(400, 'invalid_request_error', message, undefined, param);
const noSuch = (kind: string, id: string, status = 404, param?: string) =>
  new ApiError(status, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param);

function text(params: Params, key: string): string | undefined {
  const value = params[key];
  if (value !== undefined && typeof value !== 'string') throw invalid(`Invalid ${key}: must be a string`, key);
  return value;
}
function required(params: Params, key: string): string {
  const value = text(params, key);
  if (value === undefined || value === '') throw invalid(`Missing required param: ${key}.`, key);
  return value;
}
function whole(params: Params, key: string): number | undefined {
  const value = text(params, key);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw invalid(`Invalid integer: ${value}`, key);
  return Number(value);
}
function flag(params: Params, key: string): boolean | undefined {
  const value = text(params, key);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${value}`, key);
  return value === 'true';
}
function nested(params: Params, key: string): Params | undefined {
  const value = params[key];
  if (value === undefined || value === '') return undefined;
  if (!isParams(value)) throw invalid(`Invalid object: ${key}`, key);
  return value;
}
function records(params: Params, key: string): Params[] {
  const value = params[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isParams)) throw invalid(`Invalid array: ${key}`, key);
  return value;
}
function strings(params: Params, key: string): string[] {
  const value = params[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw invalid(`Invalid array: ${key}`, key);
  return value;
}
function metadataOf(params: Params, key = 'metadata'): Metadata {
  const value = nested(params, key) ?? {};
  return Object.fromEntries(Object.keys(value).map((name) => [name, required(value, name)]));
}
/** Stripe's rule for metadata updates: keys are added or replaced, and an empty value removes one. */
function mergeMetadata(into: Metadata, changes: Metadata): Metadata {
  const merged = { ...into };
  for (const [key, value] of Object.entries(changes)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const list = <T>(data: T[], url: string): List<T> => ({ object: 'list', data, has_more: false, url });
const clone = <T>(value: T): T => structuredClone(value);

export interface RecordedRequest {
  method: string;
  path: string;
  params: Params;
  idempotencyKey: string | null;
}

type Handler = (params: Params, id: string) => unknown;

export class StripeStandIn {
  /** Every API request, in order, as parsed: what the SDK sent. */
  readonly requests: RecordedRequest[] = [];
  /** While true, every charge fails as a declined card. */
  declinePayments = false;

  private readonly server = http.createServer((request, response) => void this.handle(request, response));
  private nowMs: number;
  private events: Stripe.Event[] = [];
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();
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
  private readonly invoices = new Map<string, InvoiceRecord>();

  private readonly routes: [string, RegExp, Handler][] = [
    ['POST', /^\/v1\/customers$/, (p) => this.createCustomer(p)],
    ['POST', /^\/v1\/products$/, (p) => this.createProduct(p)],
    ['GET', /^\/v1\/products\/([^/]+)$/, (_, id) => this.find(this.products, 'product', id)],
    ['GET', /^\/v1\/prices$/, (p) => this.listPrices(p)],
    ['POST', /^\/v1\/prices$/, (p) => this.createPrice(p)],
    ['POST', /^\/v1\/checkout\/sessions$/, (p) => this.createSession(p)],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, (_, id) => this.find(this.sessions, 'checkout.session', id)],
    ['GET', /^\/v1\/setup_intents\/([^/]+)$/, (_, id) => this.find(this.setupIntents, 'setupintent', id)],
    ['POST', /^\/v1\/subscriptions$/, (p) => this.expanded(this.createSubscription(p), p)],
    [
      'GET',
      /^\/v1\/subscriptions\/([^/]+)$/,
      (p, id) => this.expanded(this.find(this.subscriptions, 'subscription', id), p),
    ],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, (p, id) => this.expanded(this.updateSubscription(id, p), p)],
    ['POST', /^\/v1\/subscription_schedules$/, (p) => this.createSchedule(p)],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)$/, (p, id) => this.updateSchedule(id, p)],
    ['POST', /^\/v1\/subscription_schedules\/([^/]+)\/release$/, (_, id) => this.releaseSchedule(id)],
    ['GET', /^\/v1\/invoices\/([^/]+)$/, (_, id) => this.find(this.invoices, 'invoice', id)],
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

  /**
   * The buyer pays on the checkout page: a payment is made, a card is saved (setup mode), or a
   * subscription starts with its first paid invoice (subscription mode).
   */
  completeCheckout(sessionId: string): Stripe.Checkout.Session {
    const session = this.sessions.get(sessionId);
    const order = this.sessionOrders.get(sessionId);
    if (!session || !order) throw new Error(`No checkout session ${sessionId}.`);
    if (session.status !== 'open') throw new Error(`Checkout session ${sessionId} is ${session.status}, not open.`);
    const card = newId('pm');
    if (this.declinePayments && session.mode !== 'setup') throw new Error('The card is declined (declinePayments).');
    if (session.mode === 'setup') {
      const intent = this.setupIntents.get(session.setup_intent ?? '');
      if (intent) Object.assign(intent, { status: 'succeeded', payment_method: card });
    } else if (session.mode === 'payment') {
      session.payment_intent = newId('pi');
      session.payment_status = 'paid';
    } else {
      const { subscription, invoice } = this.startSubscription({
        customer: this.customerOf(session.customer),
        lines: order.lines,
        extraLines: [],
        metadata: order.subscriptionMetadata,
        card,
        paymentBehavior: 'allow_incomplete',
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
   * Time passes until `date`: every period that ended renews (entering a scheduled phase), with a
   * `subscription_cycle` invoice; a subscription set to cancel at its period end ends instead.
   */
  advanceTo(date: Date): void {
    if (date.getTime() < this.nowMs) throw new Error('The stand-in clock only moves forward.');
    this.nowMs = date.getTime();
    for (const subscription of this.subscriptions.values()) {
      while (isLive(subscription) && firstItemOf(subscription).current_period_end <= this.seconds()) {
        if (!this.renew(subscription)) break;
      }
    }
  }

  // --- HTTP ------------------------------------------------------------------------------------

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const method = request.method ?? 'GET';
    const params = parseForm(method === 'GET' ? url.search.slice(1) : body);
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
    if (headerOf(request, 'authorization') !== `Bearer ${this.secretKey}`) {
      send(401, errorBody(new ApiError(401, 'invalid_request_error', 'Invalid API Key provided.')));
      return;
    }
    const fingerprint = `${method} ${url.pathname} ${body}`;
    const earlier = method === 'POST' && idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
    if (earlier) {
      if (earlier.fingerprint === fingerprint) send(earlier.status, earlier.body, true);
      else {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
        send(400, errorBody(new ApiError(400, 'idempotency_error', message)));
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
      json = errorBody(apiError);
    }
    if (method === 'POST' && idempotencyKey && status < 500)
      this.idempotent.set(idempotencyKey, { fingerprint, status, body: json });
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
      type: recurring ? 'recurring' : 'one_time',
      unit_amount: unitAmount,
    };
    this.prices.set(price.id, price);
    return price;
  }

  private listPrices(params: Params): List<PriceRecord> {
    const lookupKeys = strings(params, 'lookup_keys');
    if (lookupKeys.length > 10) throw invalid('You may only specify up to 10 lookup keys.', 'lookup_keys');
    const active = flag(params, 'active');
    const limit = whole(params, 'limit') ?? 10;
    const matching = [...this.prices.values()]
      .filter((price) => lookupKeys.length === 0 || (price.lookup_key && lookupKeys.includes(price.lookup_key)))
      .filter((price) => active === undefined || price.active === active)
      .reverse();
    return { ...list(matching.slice(0, limit), '/v1/prices'), has_more: matching.length > limit };
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
    const mode = required(params, 'mode');
    if (mode !== 'payment' && mode !== 'setup' && mode !== 'subscription')
      throw invalid(`Invalid mode: ${mode}`, 'mode');
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
      cancel_url: text(params, 'cancel_url') ?? null,
      client_reference_id: text(params, 'client_reference_id') ?? null,
      created: this.seconds(),
      currency,
      customer: customerId ?? null,
      expires_at: this.seconds() + 24 * 60 * 60,
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
    const paymentBehavior = text(params, 'payment_behavior') ?? 'allow_incomplete';
    if (paymentBehavior !== 'allow_incomplete' && paymentBehavior !== 'error_if_incomplete') {
      throw invalid(`The stand-in does not model payment_behavior ${paymentBehavior}.`, 'payment_behavior');
    }
    return this.startSubscription({
      customer,
      lines,
      extraLines,
      metadata: metadataOf(params),
      card: text(params, 'default_payment_method') ?? null,
      paymentBehavior,
    }).subscription;
  }

  private startSubscription(input: {
    customer: CustomerRecord;
    lines: { price: PriceRecord; quantity: number }[];
    extraLines: { price: PriceRecord; quantity: number }[];
    metadata: Metadata;
    card: string | null;
    paymentBehavior: 'allow_incomplete' | 'error_if_incomplete';
  }): { subscription: SubscriptionRecord; invoice: InvoiceRecord } {
    const recurring = input.lines.filter((line) => line.price.recurring);
    const interval = recurring[0]?.price.recurring?.interval;
    if (!interval || recurring.some((line) => line.price.recurring?.interval !== interval)) {
      throw invalid('All prices on a subscription must have the same recurring interval.', 'items');
    }
    const start = this.seconds();
    const end = addInterval(start, interval);
    const id = newId('sub');
    const subscription: SubscriptionRecord = {
      id,
      object: 'subscription',
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
          current_period_end: end,
          current_period_start: start,
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
    };
    const charges = [...recurring, ...input.extraLines].map((line) => ({
      amount: (line.price.unit_amount ?? 0) * line.quantity,
      description: `${line.quantity} × ${line.price.nickname ?? line.price.id}`,
      ...line,
    }));
    const paid = this.canCharge(subscription);
    if (!paid && input.paymentBehavior === 'error_if_incomplete') throw declined();
    const invoice = this.invoice(subscription, 'subscription_create', charges, { start, end }, paid);
    subscription.status = paid ? 'active' : 'incomplete';
    this.subscriptions.set(id, subscription);
    this.emit('customer.subscription.created', subscription);
    if (paid) this.emit('invoice.paid', invoice);
    return { subscription, invoice };
  }

  private updateSubscription(id: string, params: Params): SubscriptionRecord {
    const current = this.find(this.subscriptions, 'subscription', id);
    const changes = Object.keys(params).filter((key) => key !== 'metadata' && key !== 'expand');
    if (!isLive(current) && changes.length > 0) {
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    }
    const draft = clone(current);
    draft.metadata = mergeMetadata(draft.metadata, metadataOf(params));
    draft.default_payment_method = text(params, 'default_payment_method') ?? draft.default_payment_method;
    const cancelAtPeriodEnd = flag(params, 'cancel_at_period_end');
    if (cancelAtPeriodEnd !== undefined && cancelAtPeriodEnd !== draft.cancel_at_period_end) {
      if (draft.schedule) {
        throw invalid(
          `The subscription is managed by the subscription schedule \`${draft.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
        );
      }
      draft.cancel_at_period_end = cancelAtPeriodEnd;
      draft.canceled_at = cancelAtPeriodEnd ? this.seconds() : null;
      draft.cancel_at = cancelAtPeriodEnd ? firstItemOf(draft).current_period_end : null;
    }
    const prorationBehavior = text(params, 'proration_behavior') ?? 'create_prorations';
    const paymentBehavior = text(params, 'payment_behavior') ?? 'allow_incomplete';
    const charges: Charge[] = [];
    let period: { start: number; end: number } | null = null;
    for (const [at, change] of records(params, 'items').entries()) {
      const item = draft.items.data.find((candidate) => candidate.id === text(change, 'id'));
      if (!item) throw invalid('Every item to change needs the id of an item on the subscription.', `items[${at}][id]`);
      const price = change.price === undefined ? item.price : this.priceFor(change, `items[${at}][price]`, 'recurring');
      const quantity = whole(change, 'quantity') ?? item.quantity ?? 1;
      if (price.id === item.price.id && quantity === item.quantity) continue;
      const now = this.seconds();
      const unused = (item.current_period_end - now) / (item.current_period_end - item.current_period_start);
      const credit = Math.round((item.price.unit_amount ?? 0) * (item.quantity ?? 1) * unused);
      const newInterval = price.recurring?.interval !== item.price.recurring?.interval;
      if (newInterval) {
        // A new interval starts a new period at once, billed in full now (as Stripe does).
        item.current_period_start = now;
        item.current_period_end = addInterval(now, intervalOf(price.recurring ?? {}));
        draft.billing_cycle_anchor = now;
      }
      const fullPrice = (price.unit_amount ?? 0) * quantity;
      const creditLine = {
        amount: -credit,
        description: `Unused time on ${item.price.id}`,
        price: item.price,
        quantity: 1,
      };
      if (newInterval) {
        charges.push(...(prorationBehavior === 'none' ? [] : [creditLine]));
        charges.push({ amount: fullPrice, description: `${quantity} × ${price.id}`, price, quantity });
      } else if (prorationBehavior === 'always_invoice') {
        const remaining = Math.round(fullPrice * unused);
        charges.push(creditLine, { amount: remaining, description: `Remaining time on ${price.id}`, price, quantity });
      }
      // Otherwise Stripe keeps prorations for the next invoice, which the stand-in does not model.
      period = { start: now, end: item.current_period_end };
      item.price = price;
      item.quantity = quantity;
    }
    let invoice: InvoiceRecord | null = null;
    if (period && charges.length > 0) {
      const paid = this.canCharge(draft);
      if (!paid && paymentBehavior === 'error_if_incomplete') throw declined();
      invoice = this.invoice(draft, 'subscription_update', charges, period, paid);
      if (!paid) draft.status = 'past_due';
    }
    this.subscriptions.set(id, draft);
    this.emit('customer.subscription.updated', draft);
    if (invoice?.status === 'paid') this.emit('invoice.paid', invoice);
    return draft;
  }

  private expanded(subscription: SubscriptionRecord, params: Params): object {
    const expand = strings(params, 'expand');
    const unknown = expand.find((field) => field !== 'schedule');
    if (unknown) throw invalid(`The stand-in cannot expand ${unknown}.`, 'expand');
    if (!expand.includes('schedule') || !subscription.schedule) return subscription;
    return { ...subscription, schedule: this.schedules.get(subscription.schedule) };
  }

  private canCharge(subscription: SubscriptionRecord): boolean {
    const customer = this.customers.get(subscription.customer);
    const card = subscription.default_payment_method ?? customer?.invoice_settings.default_payment_method;
    return !this.declinePayments && Boolean(card);
  }

  private invoice(
    subscription: SubscriptionRecord,
    reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update',
    charges: Charge[],
    period: { start: number; end: number },
    paid: boolean,
  ): InvoiceRecord {
    const total = charges.reduce((sum, charge) => sum + charge.amount, 0);
    const due = Math.max(0, total);
    const id = newId('in');
    const invoice: InvoiceRecord = {
      id,
      object: 'invoice',
      amount_due: due,
      amount_paid: paid ? due : 0,
      amount_remaining: paid ? 0 : due,
      attempted: true,
      billing_reason: reason,
      created: this.seconds(),
      currency: subscription.currency,
      customer: subscription.customer,
      lines: list(
        charges.map((charge) => ({
          id: newId('il'),
          object: 'line_item' as const,
          amount: charge.amount,
          currency: subscription.currency,
          description: charge.description,
          quantity: charge.quantity,
          period,
          pricing: {
            type: 'price_details' as const,
            price_details: { price: charge.price.id, product: charge.price.product },
          },
        })),
        `/v1/invoices/${id}/lines`,
      ),
      livemode: false,
      // What the subscription was for when the invoice was made: billing reads the plan from here.
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
      },
      period_end: period.end,
      period_start: period.start,
      status: paid ? 'paid' : 'open',
      subtotal: total,
      total,
    };
    this.invoices.set(id, invoice);
    subscription.latest_invoice = id;
    return invoice;
  }

  /** One period ends; answers false when the subscription ended with it. */
  private renew(subscription: SubscriptionRecord): boolean {
    const end = firstItemOf(subscription).current_period_end;
    if (subscription.cancel_at_period_end) {
      this.endSubscription(subscription, end);
      return false;
    }
    const schedule = subscription.schedule ? this.schedules.get(subscription.schedule) : undefined;
    if (schedule) {
      const next = schedule.phases.find((phase) => phase.start_date === end);
      if (next) {
        subscription.items.data = next.items.map((phaseItem, at) => ({
          ...firstItemOf(subscription),
          ...(at > 0 && { id: newId('si') }),
          price: this.find(this.prices, 'price', phaseItem.price),
          quantity: phaseItem.quantity,
        }));
        subscription.metadata = mergeMetadata(subscription.metadata, next.metadata);
        schedule.current_phase = { start_date: next.start_date, end_date: next.end_date };
      } else if (schedule.end_behavior === 'cancel') {
        Object.assign(schedule, { status: 'completed', completed_at: end, current_phase: null });
        this.endSubscription(subscription, end);
        return false;
      } else {
        this.detachSchedule(schedule, subscription, end);
      }
    }
    const interval = intervalOf(firstItemOf(subscription).price.recurring ?? {});
    const period = { start: end, end: addInterval(end, interval) };
    for (const item of subscription.items.data) {
      item.current_period_start = period.start;
      item.current_period_end = period.end;
    }
    const charges = subscription.items.data.map((item) => ({
      amount: (item.price.unit_amount ?? 0) * (item.quantity ?? 1),
      description: `${item.quantity ?? 1} × ${item.price.nickname ?? item.price.id}`,
      price: item.price,
      quantity: item.quantity ?? 1,
    }));
    const paid = this.canCharge(subscription);
    const invoice = this.invoice(subscription, 'subscription_cycle', charges, period, paid);
    subscription.status = paid ? 'active' : 'past_due';
    this.emit('customer.subscription.updated', subscription);
    if (paid) this.emit('invoice.paid', invoice);
    return true;
  }

  private endSubscription(subscription: SubscriptionRecord, at: number): void {
    subscription.status = 'canceled';
    subscription.ended_at = at;
    subscription.canceled_at ??= at;
    this.emit('customer.subscription.deleted', subscription);
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
    if (subscription.schedule) {
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
    if (schedule.status !== 'active' && schedule.status !== 'not_started') {
      throw invalid(
        `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    }
    const endBehavior = text(params, 'end_behavior');
    if (endBehavior !== undefined && endBehavior !== 'release' && endBehavior !== 'cancel') {
      throw invalid(`The stand-in does not model end_behavior ${endBehavior}.`, 'end_behavior');
    }
    const given = records(params, 'phases');
    const subscription = schedule.subscription ? this.subscriptions.get(schedule.subscription) : undefined;
    const phases: PhaseRecord[] = [];
    given.forEach((phase, at) => {
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
      phases.push({
        start_date: start,
        end_date: end,
        items,
        metadata: metadataOf(phase),
        proration_behavior:
          (text(phase, 'proration_behavior') as PhaseRecord['proration_behavior']) ?? 'create_prorations',
      });
    });
    const currentPrices = subscription?.items.data.map((item) => item.price.id).join() ?? '';
    if (phases[0] && phases[0].items.map((item) => item.price).join() !== currentPrices) {
      throw invalid(
        'The stand-in cannot change the prices of the current phase; only later phases.',
        'phases[0][items]',
      );
    }
    if (phases.length > 0) schedule.phases = phases;
    if (endBehavior) schedule.end_behavior = endBehavior;
    return schedule;
  }

  private releaseSchedule(id: string): ScheduleRecord {
    const schedule = this.find(this.schedules, 'subscription schedule', id);
    if (schedule.status !== 'active' && schedule.status !== 'not_started') {
      throw invalid(
        `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    }
    const subscription = schedule.subscription ? this.subscriptions.get(schedule.subscription) : undefined;
    this.detachSchedule(schedule, subscription, this.seconds());
    if (subscription) this.emit('customer.subscription.updated', subscription);
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

function headerOf(request: http.IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}

function errorBody(error: ApiError): string {
  return JSON.stringify({
    error: {
      type: error.type,
      message: error.message,
      ...(error.code && { code: error.code }),
      ...(error.param && { param: error.param }),
    },
  });
}

const declined = () => new ApiError(402, 'card_error', 'Your card was declined.', 'card_declined', undefined);

const isLive = (subscription: SubscriptionRecord) =>
  subscription.status !== 'canceled' && subscription.status !== 'incomplete_expired';

function firstItemOf(subscription: SubscriptionRecord): ItemRecord {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Subscription ${subscription.id} has no items.`);
  return item;
}

function intervalOf(params: Params | { interval?: unknown }): Interval {
  const interval = params.interval;
  if (interval !== 'month' && interval !== 'year') {
    throw invalid(`The stand-in models month and year intervals only, not ${String(interval)}.`, 'interval');
  }
  return interval;
}

/** Periods run in calendar months, as Stripe counts them. */
function addInterval(seconds: number, interval: Interval, count = 1): number {
  const months = (interval === 'year' ? 12 : 1) * count;
  return Math.floor(addMonthsUtc(new Date(seconds * 1000), months).getTime() / 1000);
}
