// The billing simulation (docs/decisions/0020): many random sequences of what customers, their
// banks, the provider and admins do — buy a pack, subscribe, pay now, take the trial and finish
// it, upgrade, downgrade, cancel, reactivate, two tabs paying at once, cards declined or held for
// 3-D Secure, invoices paid late, refunds, chargebacks, account deletion, time passing, admin
// edits, a bank's inquiries, and an operator's edits in Stripe's dashboard (prorations, a new period
// crediting the old, an amount off) — with the provider's events delivered late, twice or out of
// order, on the offline provider and on the Stripe stand-in. After every step it checks that no
// grant lacks the money behind it and that balances equal the ledger; whenever every event has
// arrived, also that nobody has two running subscriptions, nothing is charged after deletion,
// every payment granted what it bought (or was refunded in full), and the account shows what the
// provider holds. What a payment bought is worked out from the catalogue and the provider's
// amounts (test/what-it-bought.ts), never by the grant rule under test.

import { readFileSync } from 'node:fs';
import {
  disputeWithdrewMoney,
  isPaidPlanName,
  PACK_IDS,
  PAID_PLAN_NAMES,
  type PackId,
  type PaidPlanName,
  packCheckoutMetadata,
  type User,
} from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ledgerEntries, payments, type UserRow, usageTranches, users } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import {
  type BillingWorld,
  type Card,
  type HeldEvent,
  type OperatorEdit,
  offlineWorld,
  stripeWorld,
} from '../../test/billing-world.js';
import { newAccount, type TestClient } from '../../test/test-app.js';
import { testDatabaseKind } from '../../test/test-database.js';
import { type Bought, invoiceBought, packsBought } from '../../test/what-it-bought.js';

const SEED = 20_261_126;
/**
 * Sequences per provider, and steps per sequence: a few thousand steps in all, in a few minutes.
 * BILLING_SIMULATION_RUNS=n runs n sequences on each, for a longer search.
 */
const moreRuns = Number(process.env.BILLING_SIMULATION_RUNS) || 0;
const RUNS = { offline: moreRuns || 150, stripe: moreRuns || 100 };
/**
 * The sequences in two halves, each from its own seed. When the run has PostgreSQL too (CI), each
 * database runs one half: together they run every sequence once, where each ran all of them
 * before (CI's longest two test files, 306 s). What is checked stays the same on both: every
 * invariant, after every step, on either database.
 */
const HALVES = !process.env.TEST_DATABASE_URL
  ? [SEED, SEED + 1]
  : testDatabaseKind() === 'postgres'
    ? [SEED + 1]
    : [SEED];
const STEPS = { minLength: 6, maxLength: 18 };

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

// --- What can happen -----------------------------------------------------------------------------

const plan = fc.constantFrom<PaidPlanName>(...PAID_PLAN_NAMES);
const cycle = fc.constantFrom<'monthly' | 'annual'>('monthly', 'annual');
const card = fc.constantFrom<Card>('works', 'works', 'works', 'declines', 'requires_action');
/** What the bank does after opening a dispute: nothing yet, close an inquiry, escalate it, decide. */
type DisputeNext = 'stay' | 'close' | 'escalate' | 'won' | 'lost';

type Action =
  | { kind: 'pack'; pack: PackId; card: Card }
  | { kind: 'subscribe'; plan: PaidPlanName; cycle: 'monthly' | 'annual'; card: Card }
  | { kind: 'payNow'; plan: PaidPlanName; cycle: 'monthly' | 'annual'; promo: boolean; card: Card }
  | { kind: 'trial' }
  | { kind: 'finishTrial' }
  | { kind: 'change'; plan: PaidPlanName; cycle: 'monthly' | 'annual' }
  | { kind: 'cancel' }
  | { kind: 'reactivate' }
  | { kind: 'twoTabs'; plan: PaidPlanName; other: PaidPlanName }
  | { kind: 'card'; card: Card }
  | { kind: 'payDue'; card: Card }
  | { kind: 'refund'; pick: number; half: boolean; endSubscription: boolean }
  | { kind: 'dispute'; pick: number; inquiry: boolean; next: DisputeNext }
  | { kind: 'operator'; edit: OperatorEdit }
  | { kind: 'adminStatus'; status: 'active' | 'canceled' }
  | { kind: 'adminPlan'; plan: PaidPlanName | 'none' }
  | { kind: 'delete' }
  | { kind: 'wait'; ms: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pack'), pack: fc.constantFrom(...PACK_IDS), card }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('subscribe'), plan, cycle, card }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('payNow'), plan, cycle, promo: fc.boolean(), card }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('trial') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('finishTrial') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('change'), plan, cycle }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reactivate') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('twoTabs'), plan, other: plan }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('card'), card }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('payDue'), card }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('refund'),
      pick: fc.nat(),
      half: fc.boolean(),
      endSubscription: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dispute'),
      pick: fc.nat(),
      inquiry: fc.boolean(),
      next: fc.constantFrom<DisputeNext>('stay', 'close', 'escalate', 'won', 'lost'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('operator'),
      edit: fc.oneof(
        fc.record({ kind: fc.constantFrom<'prorate' | 'reset'>('prorate', 'reset'), plan, billingCycle: cycle }),
        fc.record({ kind: fc.constant<'discount'>('discount'), amountOffCents: fc.integer({ min: 1, max: 6000 }) }),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('adminStatus'), status: fc.constantFrom('active', 'canceled') }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('adminPlan'),
      plan: fc.constantFrom<PaidPlanName | 'none'>('none', ...PAID_PLAN_NAMES),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete') }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('wait'),
      ms: fc.constantFrom(HOUR, DAY + HOUR, 3 * DAY, 32 * DAY, 366 * DAY),
    }),
  },
);

/** How the provider's events reach the webhook after a step: now or later, in some order, some twice. */
const delivery = fc.record({ now: fc.boolean(), order: fc.nat(), twice: fc.boolean() });

const step = fc.record({ action, delivery });
type Step = { action: Action; delivery: { now: boolean; order: number; twice: boolean } };

// --- One person, through one world --------------------------------------------------------------

interface Person {
  client: TestClient;
  account: ReturnType<typeof newAccount>;
  id: string;
  customerId: string | null;
  deleted: boolean;
}

class Simulation {
  held: HeldEvent[] = [];
  steps = 0;
  sequences = 0;
  private admin: UserRow | undefined;
  /** Payments the cardholder disputed already (a payment is disputed once). */
  private readonly disputed = new Set<string>();

  constructor(readonly world: BillingWorld) {}

  private get services() {
    return this.world.ctx.app.platform.services;
  }

  async run(sequence: Step[]): Promise<void> {
    this.sequences++;
    const person = await this.signUp();
    for (const { action, delivery } of sequence) {
      this.steps++;
      if (process.env.BILLING_SIMULATION_REPLAY) console.log(`step ${this.steps}: ${JSON.stringify(action)}`);
      if (!person.deleted) await this.act(person, action);
      else if (action.kind === 'wait') await this.world.advance(action.ms);
      await this.collect();
      if (delivery.now) await this.deliverHeld(delivery.order, delivery.twice);
      await this.check(person);
    }
    // Everything arrives in the end; then the account goes, which must stop every charge.
    await this.deliverHeld(0, false);
    await this.check(person);
    if (!person.deleted) await this.act(person, { kind: 'delete' });
    await this.deliverHeld(0, false);
    await this.world.advance(40 * DAY);
    await this.deliverHeld(0, false);
    await this.check(person);
  }

  private async signUp(): Promise<Person> {
    const client = this.world.ctx.client();
    const account = newAccount('sim');
    const { res } = await client.register(account);
    return { client, account, id: res.json<{ user: User }>().user.id, customerId: null, deleted: false };
  }

  // --- Actions ---

  private async act(person: Person, action: Action): Promise<void> {
    const { client } = person;
    await this.signedIn(person);
    switch (action.kind) {
      case 'pack':
        return this.checkout(
          person,
          '/api/stripe/create-checkout-session',
          { metadata: packCheckoutMetadata(action.pack) },
          action.card,
        );
      case 'subscribe':
        return this.checkout(
          person,
          '/api/stripe/change-plan',
          { plan: action.plan, billingCycle: action.cycle },
          action.card,
        );
      case 'payNow':
        return this.checkout(
          person,
          '/api/stripe/onboarding/pay-now/plan-checkout',
          { plan: action.plan, billingCycle: action.cycle, payNowPromo: action.promo },
          action.card,
        );
      case 'trial':
        return this.checkout(person, '/api/stripe/onboarding/pay-later/setup-session', undefined, 'works');
      case 'finishTrial':
        return this.answered(await client.post('/api/auth/finish-trial'));
      case 'change':
        return this.answered(
          await client.post('/api/stripe/change-plan', { plan: action.plan, billingCycle: action.cycle }),
          true,
        );
      case 'cancel':
        return this.answered(await client.post('/api/stripe/cancel-subscription'));
      case 'reactivate':
        return this.answered(await client.post('/api/stripe/reactivate-subscription'));
      case 'twoTabs':
        return this.twoTabs(person, action.plan, action.other);
      case 'card': {
        const customerId = await this.customerOf(person);
        if (customerId) await this.world.setCard(customerId, action.card);
        return;
      }
      case 'payDue': {
        const due = await this.unpaidInvoice(person);
        if (due) await this.world.payInvoice(due, action.card);
        return;
      }
      case 'refund':
        return this.refund(person, action);
      case 'dispute':
        return this.dispute(person, action);
      case 'operator': {
        const customerId = await this.customerOf(person);
        if (customerId) await this.world.operatorEdit?.(customerId, action.edit);
        return;
      }
      case 'adminStatus':
        await this.asAdmin(() =>
          this.services.adminActions.updateLimits(this.adminRow(), person.id, {
            subscription: { status: action.status },
          }),
        );
        return;
      case 'adminPlan': {
        const refused = await this.asAdmin(() =>
          this.services.adminActions.updateLimits(this.adminRow(), person.id, { plan: { name: action.plan } }),
        );
        // With payments on, a plan comes only with its payment (decision 20.6).
        if (action.plan !== 'none') expect(refused).toBe('PLAN_MANAGED_BY_PROVIDER');
        return;
      }
      case 'delete': {
        person.customerId = await this.customerOf(person);
        const res = await client.delete('/api/auth/account', { password: person.account.password });
        expect(res.statusCode, res.body).toBe(200);
        person.deleted = true;
        return;
      }
      case 'wait':
        return this.world.advance(action.ms);
    }
  }

  private async checkout(person: Person, path: string, body: unknown, card: Card): Promise<void> {
    const res = await person.client.post(path, body);
    this.answered(res, true);
    if (res.statusCode !== 200) return;
    const answer = res.json<{ id: string; url: string | null; mode?: string }>();
    if (answer.mode === 'subscription' || !answer.url) return; // a change of plan, not a checkout
    await this.world.payCheckout({ id: answer.id, url: answer.url }, card);
  }

  /** Two checkouts made at once and both paid, before either could close the other. */
  private async twoTabs(person: Person, first: PaidPlanName, second: PaidPlanName): Promise<void> {
    const customerId = await this.customerOf(person);
    if (!customerId) return;
    for (const [index, planName] of [first, second].entries()) {
      const checkout = await this.world.provider.createPlanCheckout({
        userId: person.id,
        customerId,
        plan: planName,
        billingCycle: 'monthly',
        payNow: false,
        successUrl: 'https://ownvoice.example/done?session_id={CHECKOUT_SESSION_ID}',
        cancelUrl: 'https://ownvoice.example/plans',
        idempotencyKey: `tab-${person.id}-${this.steps}-${index}`,
      });
      await this.world.payCheckout(checkout, 'works');
    }
  }

  private async refund(person: Person, action: Extract<Action, { kind: 'refund' }>): Promise<void> {
    const paid = (await this.paymentsOf(person.id)).filter(
      (row) => row.refundedCents < row.amountCents && row.paymentIntentId,
    );
    const payment = paid[action.pick % Math.max(1, paid.length)];
    if (!payment) return;
    const left = payment.amountCents - payment.refundedCents;
    await this.asAdmin(() =>
      this.services.billingAdmin.refund(this.adminRow(), person.id, payment.id, {
        ...(action.half && left > 1 ? { amountCents: Math.floor(left / 2) } : {}),
        endSubscription: action.endSubscription,
      }),
    );
  }

  private async dispute(person: Person, { pick, inquiry, next }: Extract<Action, { kind: 'dispute' }>): Promise<void> {
    const paid = (await this.paymentsOf(person.id)).filter(
      (row) => row.paymentIntentId && !this.disputed.has(row.paymentIntentId),
    );
    const payment = paid[pick % Math.max(1, paid.length)];
    if (!payment?.paymentIntentId) return;
    const id = payment.paymentIntentId;
    await this.world.dispute(id, inquiry ? 'inquiry' : 'chargeback');
    this.disputed.add(id);
    if (next === 'stay' || (!inquiry && (next === 'close' || next === 'escalate'))) return;
    await this.collect();
    if (inquiry && next === 'close') return this.world.closeDispute(id, 'inquiry_closed');
    if (inquiry) {
      await this.world.escalateDispute(id);
      if (next === 'escalate') return;
      await this.collect();
    }
    if (next === 'won' || next === 'lost') await this.world.closeDispute(id, next);
  }

  // --- The provider's events ---

  private async collect(): Promise<void> {
    this.held.push(...(await this.world.takeEvents()));
  }

  /** Delivers what is held in a shuffled order (some twice), and what that brings, until none is left. */
  private async deliverHeld(order: number, twice: boolean): Promise<void> {
    for (let round = 0; round < 20 && this.held.length > 0; round++) {
      const batch = shuffled(this.held, order + round);
      this.held = [];
      for (const event of batch) expect(await this.world.deliver(event), event.payload.slice(0, 120)).toBe(200);
      if (twice)
        for (const event of batch.slice(0, 1 + (order % batch.length)))
          expect(await this.world.deliver(event)).toBe(200);
      await this.services.payments?.actions.run();
      await this.collect();
    }
    expect(this.held).toEqual([]);
  }

  // --- The invariants ---

  private async check(person: Person): Promise<void> {
    if (!person.deleted) await this.checkMoneyAlways(person);
    if (this.held.length === 0) await this.checkSettled(person);
  }

  /** Every grant traces to a payment that covers it, and balances equal the ledger. */
  private async checkMoneyAlways(person: Person): Promise<void> {
    const db = this.world.ctx.database.db;
    const lines = await db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, person.id));
    const tranches = await db.select().from(usageTranches).where(eq(usageTranches.userId, person.id));
    for (const tranche of tranches) {
      const sum = lines.filter((line) => line.trancheId === tranche.id).reduce((total, line) => total + line.amount, 0);
      expect(sum, `tranche ${tranche.id} holds the sum of its ledger lines`).toBe(tranche.amount);
      expect(tranche.amount).toBeGreaterThanOrEqual(0);
    }
    const [row] = await db.select().from(users).where(eq(users.id, person.id));
    const slots = lines
      .filter((line) => line.resource === 'storageSlots')
      .reduce((total, line) => total + line.amount, 0);
    expect(slots, 'storage slots equal their ledger lines').toBe(row?.modelStorageSlotsTotal);

    const paid = new Map((await this.paymentsOf(person.id)).map((payment) => [payment.id, payment]));
    const granted = lines.filter(
      (line) => line.reason === 'plan' || line.reason === 'pack' || line.reason === 'plan_upgrade',
    );
    for (const line of granted.filter((each) => each.reference !== null)) {
      const payment = paid.get(line.reference ?? '');
      expect(payment, `grant ${line.id} (${line.reason}) names a payment`).toBeDefined();
      expect(payment?.outcome, `grant ${line.id} comes from a payment that granted`).toBe('granted');
    }
    for (const payment of paid.values()) {
      if (payment.outcome !== 'granted') continue;
      const bought = await this.whatItBought(payment.id);
      // A chargeback took the money (a won one gave it back, but not what it took back).
      const taken = disputeWithdrewMoney(payment.disputeStatus) || payment.disputeStatus === 'won';
      const fraction = taken ? 1 : payment.amountCents > 0 ? payment.refundedCents / payment.amountCents : 0;
      const types = new Set([
        ...Object.keys(bought.most),
        ...lines.filter((line) => line.reference === payment.id).map((line) => line.resource),
      ]);
      for (const type of types) {
        const ofType = lines.filter((line) => line.reference === payment.id && line.resource === type);
        const given = ofType.reduce((total, line) => total + line.amount, 0);
        expect(given, `${payment.id} granted no more ${type} than it bought`).toBeLessThanOrEqual(
          bought.most[type] ?? 0,
        );
        const reversed = lines
          .filter(
            (line) =>
              line.reason === 'reversal' &&
              line.resource === type &&
              line.reference?.startsWith(`reversal:${payment.id}:`),
          )
          .reduce((total, line) => total - line.amount, 0);
        expect(reversed, `${payment.id}: no more ${type} taken back than refunded`).toBeLessThanOrEqual(
          Math.ceil(given * fraction),
        );
      }
    }
  }

  /** With every event delivered: one subscription, nothing charged unbought, the account as the provider has it. */
  private async checkSettled(person: Person): Promise<void> {
    const customerId = person.customerId ?? (await this.customerOf(person));
    if (!customerId) return;
    const running = await this.world.provider.listSubscriptions(customerId);
    expect(running.length, 'at most one running subscription').toBeLessThanOrEqual(person.deleted ? 0 : 1);

    const recorded = await this.paymentsOf(person.id);
    for (const money of await this.world.paymentsOf(customerId)) {
      if (money.amountCents === 0) continue;
      const row = recorded.find((payment) => payment.paymentIntentId === money.paymentIntentId);
      expect(row, `money ${money.paymentIntentId} is known to billing`).toBeDefined();
      if (row?.outcome === 'rejected')
        expect(money.refundedCents, `${row.id} was refunded in full`).toBe(money.amountCents);
    }
    // A bank's inquiry took nothing back: its payment still owes all it bought (decision 35).
    const kept = (row: (typeof recorded)[number]) =>
      row.refundedCents === 0 && !disputeWithdrewMoney(row.disputeStatus) && row.disputeStatus !== 'won';
    for (const payment of recorded.filter((row) => row.outcome === 'granted' && kept(row))) {
      if (person.deleted) continue;
      const bought = await this.whatItBought(payment.id);
      for (const [type, least] of Object.entries(bought.least) as [string, number][]) {
        const db = this.world.ctx.database.db;
        const given = (await db.select().from(ledgerEntries).where(eq(ledgerEntries.reference, payment.id)))
          .filter((line) => line.resource === type)
          .reduce((total, line) => total + line.amount, 0);
        expect(given, `${payment.id} granted the ${type} it bought`).toBeGreaterThanOrEqual(least);
      }
    }
    if (person.deleted) return;
    await this.signedIn(person);
    const me = (await person.client.get('/api/auth/me')).json<{ user: User }>().user;
    const current = me.subscription.stripeSubscriptionId;
    if (running.length === 1) expect(current, 'the running subscription is the account’s').toBe(running[0]?.id);
    const state = current ? await this.world.provider.getSubscription(current) : null;
    if (!state || state.status === 'canceled') {
      expect(isPaidPlanName(me.plan.name), 'no paid plan without a running subscription').toBe(false);
      return;
    }
    if (state.status === 'incomplete') {
      expect(me.subscription.paymentDue?.startsPlan).toBe(true);
      return;
    }
    expect({ plan: me.plan.name, billingCycle: me.plan.billingCycle }).toEqual({
      plan: state.plan,
      billingCycle: state.billingCycle,
    });
    expect(me.subscription.cancelAtPeriodEnd).toBe(state.cancelAtPeriodEnd);
    expect(me.subscription.currentPeriodEnd).toBe(state.currentPeriodEnd.toISOString());
    expect(me.subscription.pendingChange?.plan ?? null).toBe(state.scheduledChange?.plan ?? null);
    expect(me.subscription.paymentDue === null).toBe(state.unpaidInvoice === null);
  }

  /** What a payment bought, from the catalogue and the provider's amounts (test/what-it-bought.ts). */
  private async whatItBought(paymentId: string): Promise<Bought> {
    const invoice = await this.world.provider.getInvoice(paymentId);
    if (invoice) return invoiceBought(invoice);
    return packsBought((await this.world.provider.getCheckout(paymentId))?.packs ?? []);
  }

  // --- Plumbing ---

  /** The answer of a person's call: anything but a server error (a refusal is a fine answer). */
  private answered(res: { statusCode: number; body: string }, mayDecline = false): void {
    expect(res.statusCode, res.body).toBeLessThan(500);
    if (res.statusCode === 402) expect(mayDecline || res.body.includes('PAYMENT_')).toBe(true);
  }

  private async asAdmin(work: () => Promise<unknown>): Promise<string | null> {
    try {
      await work();
      return null;
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) return error.code;
      throw error;
    }
  }

  private adminRow(): UserRow {
    if (!this.admin) throw new Error('no admin');
    return this.admin;
  }

  async makeAdmin(): Promise<void> {
    const { client } = { client: this.world.ctx.client() };
    const { res } = await client.register(newAccount('simadmin'));
    const id = res.json<{ user: User }>().user.id;
    const [row] = await this.world.ctx.database.db
      .update(users)
      .set({ role: 'admin' })
      .where(eq(users.id, id))
      .returning();
    this.admin = row;
  }

  /** Signs in again after a long wait ended the session (a day idle). */
  private async signedIn(person: Person): Promise<void> {
    if ((await person.client.get('/api/auth/me')).statusCode === 200) return;
    const res = await person.client.post('/api/auth/login', {
      email: person.account.email,
      password: person.account.password,
    });
    expect(res.statusCode, res.body).toBe(200);
    person.client.token = res.json<{ token: string }>().token;
  }

  private async customerOf(person: Person): Promise<string | null> {
    if (person.deleted) return person.customerId;
    const [row] = await this.world.ctx.database.db.select().from(users).where(eq(users.id, person.id));
    return row?.providerCustomerId ?? null;
  }

  private async unpaidInvoice(person: Person): Promise<string | null> {
    const [row] = await this.world.ctx.database.db.select().from(users).where(eq(users.id, person.id));
    return row?.paymentDue?.invoiceId ?? null;
  }

  private paymentsOf(userId: string) {
    return this.world.ctx.database.db.select().from(payments).where(eq(payments.userId, userId));
  }
}

/** A deterministic shuffle (the order comes from the generated step, so a failure replays). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = (seed % 2_147_483_647) + 1;
  for (let at = out.length - 1; at > 0; at--) {
    state = (state * 48_271) % 2_147_483_647;
    const other = state % (at + 1);
    [out[at], out[other]] = [out[other] as T, out[at] as T];
  }
  return out;
}

// --- The runs -----------------------------------------------------------------------------------

const worlds: BillingWorld[] = [];
afterAll(async () => {
  for (const world of worlds) await world.close();
});

describe('the billing simulation', () => {
  for (const [name, start] of [
    ['offline', offlineWorld],
    ['stripe', stripeWorld],
  ] as const) {
    it(`holds the money invariants on the ${name} provider`, async () => {
      const world = await start();
      worlds.push(world);
      const simulation = new Simulation(world);
      await simulation.makeAdmin();
      // BILLING_SIMULATION_REPLAY=<file>: runs only the sequence in that file (a counterexample, as JSON).
      const replay = process.env.BILLING_SIMULATION_REPLAY;
      const property = fc.asyncProperty(fc.array(step, STEPS), (sequence) => simulation.run(sequence));
      if (replay) {
        const examples = [JSON.parse(readFileSync(replay, 'utf8')) as [Step[]]];
        await fc.assert(property, { examples, numRuns: 1, endOnFailure: true });
        return;
      }
      const numRuns = Math.ceil(RUNS[name] / 2);
      for (const seed of HALVES) await fc.assert(property, { seed, numRuns, endOnFailure: true });
      console.log(`billing simulation (${name}): ${simulation.sequences} sequences, ${simulation.steps} steps`);
      expect(simulation.steps).toBeGreaterThanOrEqual(numRuns * HALVES.length * STEPS.minLength);
    }, 900_000);
  }
});
