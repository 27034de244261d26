// What a person does about paying: start a checkout (a plan, the pay-later trial, a pack), change
// plan, cancel and reactivate, finish the trial; and what deletion and the billing job need. Each
// runs under the account's billing lock and applies what the provider then has through the same
// steps as its events (billing-events.service.ts), which only ever grant from a paid invoice or
// checkout. docs/decisions/0012-billing.md and 0020-money-that-is-right.md.
import {
  type BillingHealth,
  type BillingInfo,
  type BillingProviderName,
  type ChangePlanResponse,
  type CheckoutResponse,
  classifyPlanChange,
  formatUsd,
  isPaidPlanName,
  type LedgerEntry,
  type PackId,
  type PlanSelection,
  payNowDiscountAvailable,
  TRIAL_LENGTH_MS,
} from '@ownvoice/shared';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { UserRow } from '../../db/schema.js';
import { AppError, errors } from '../../errors.js';
import type { OfflineProvider } from '../../payments/offline-provider.js';
import type { CheckoutSession, PaymentProvider, SubscriptionState } from '../../payments/provider.js';
import type { BillingEventsRepository } from '../../repositories/billing-events.repository.js';
import type { BillingRecordsRepository } from '../../repositories/billing-records.repository.js';
import type { LedgerRepository } from '../../repositories/ledger.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import type { ActivityService } from '../activity.service.js';
import { STORED_UNITS } from '../usage.service.js';
import type { BillingActions } from './billing-actions.js';
import type { BillingEventsService } from './billing-events.service.js';
import { providerFailure, sentence } from './provider-errors.js';
import type { Reconciliation } from './reconciliation.js';
import { trialKeys } from './trial-keys.js';

export interface BillingOptions {
  provider: BillingProviderName;
  /** The address people open the service at, for the provider's return links; else the request's. */
  publicUrl: string | undefined;
  prioritySupportUrl: string | undefined;
  log: { warn(msg: string): void; error(obj: unknown, msg?: string): void };
}

/** The payment side, present unless billing is `none`. */
export interface Payments {
  provider: PaymentProvider;
  events: BillingEventsService;
  actions: BillingActions;
  reconciliation: Reconciliation;
  /** The offline provider, which renews and delivers on the service clock (Stripe does its own). */
  offline: OfflineProvider | null;
}

const LEDGER_PAGE = 100;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Checkouts of one kind a person may start, pay or close in one minute before being asked to wait. */
const CHECKOUTS_PER_MINUTE = 10;
/** How long health reuses what it read of billing's tables. */
const HEALTH_READ_MS = 60_000;

const degraded = (reason: string): BillingHealth => ({ status: 'degraded', reason });

/** What billing works with, by name. */
export interface BillingServiceDeps {
  db: Database;
  /** The payment provider's side; null on a server that sells nothing. */
  payments: Payments | null;
  users: UsersRepository;
  billingEvents: BillingEventsRepository;
  records: BillingRecordsRepository;
  ledgerRepo: LedgerRepository;
  activity: Pick<ActivityService, 'record'>;
  clock: Clock;
  options: BillingOptions;
}

export class BillingService {
  private readonly db: Database;
  private readonly payments: Payments | null;
  private readonly users: UsersRepository;
  private readonly billingEvents: BillingEventsRepository;
  private readonly records: BillingRecordsRepository;
  private readonly ledgerRepo: LedgerRepository;
  private readonly activity: Pick<ActivityService, 'record'>;
  private readonly clock: Clock;
  private readonly options: BillingOptions;

  constructor({
    db,
    payments,
    users,
    billingEvents,
    records,
    ledgerRepo,
    activity,
    clock,
    options,
  }: BillingServiceDeps) {
    this.db = db;
    this.payments = payments;
    this.users = users;
    this.billingEvents = billingEvents;
    this.records = records;
    this.ledgerRepo = ledgerRepo;
    this.activity = activity;
    this.clock = clock;
    this.options = options;
  }

  info(): BillingInfo {
    return { provider: this.options.provider, testMode: this.payments?.provider.testMode ?? false };
  }

  /**
   * Pay later: a setup checkout that saves a card; the trial starts when it completes. The trial
   * is one per person, keyed by address, so the address must be confirmed first (asked before the
   * trial keys: an unconfirmed sign-up cannot probe whose address had a trial).
   */
  async startTrialSetup(user: UserRow, origin: string): Promise<CheckoutResponse> {
    const { provider } = this.require();
    if (!user.emailVerifiedAt) throw errors.emailNotVerified(user.email);
    if ((await this.records.claimedTrialKeys(trialKeys(user.email, null))).length > 0) {
      throw errors.trialUnavailable(
        'This address has had a trial before, so there is no second one. Choose a plan to go on.',
      );
    }
    return this.forAccount(user, async (fresh) => {
      if (fresh.planName !== 'none' || fresh.grantedPlan !== null || fresh.providerSubscriptionId !== null) {
        throw errors.subscriptionExists();
      }
      const customerId = await this.customer(fresh);
      const session = await this.openCheckout(this.key('trial-setup', fresh.id), (idempotencyKey) =>
        provider.createTrialSetupCheckout({
          userId: fresh.id,
          customerId,
          ...this.returnUrls(origin, 'pay_later'),
          idempotencyKey,
        }),
      );
      await this.closeOtherCheckouts(fresh, session.id);
      await this.users.moveOnboardingForward(fresh.id, 'pay_later_setup_started');
      return session;
    });
  }

  /** Pay now at onboarding: a plan checkout, 15% off for life when it is the account's first plan. */
  async startPayNowCheckout(
    user: UserRow,
    target: PlanSelection & { payNowPromo: boolean },
    origin: string,
  ): Promise<CheckoutResponse> {
    return this.forAccount(user, async (fresh) => {
      if (this.hasRunningSubscription(fresh)) throw errors.subscriptionExists();
      // The discount is for life: a customer who had it keeps it on a new subscription too.
      const payNow = fresh.payNowDiscount || (target.payNowPromo && this.mayHavePayNowDiscount(fresh));
      if (target.payNowPromo && !payNow) {
        throw errors.validation(
          'The pay-now discount is for a first plan chosen at sign-up. Choose a plan from the plans page.',
        );
      }
      const session = await this.planCheckout(fresh, target, payNow, origin, 'pay_now');
      await this.users.moveOnboardingForward(fresh.id, 'plan_checkout_started');
      return session;
    });
  }

  /**
   * The plans page: a first plan is a checkout; otherwise an upgrade now (a new period, charged in
   * full: decision 20.1) or a downgrade next period.
   */
  async changePlan(user: UserRow, target: PlanSelection, origin: string): Promise<ChangePlanResponse> {
    return this.forAccount(user, async (fresh) => {
      const subscriptionId = fresh.providerSubscriptionId;
      if (!this.hasRunningSubscription(fresh) || !subscriptionId) {
        const session = await this.planCheckout(fresh, target, fresh.payNowDiscount, origin);
        return { mode: 'checkout', id: session.id, action: 'checkout', url: session.url, effectiveAt: null };
      }
      const { provider, events } = this.require();
      const kind = classifyPlanChange({ plan: fresh.planName, billingCycle: fresh.billingCycle }, target);
      if (kind === 'current') throw errors.validation('You are already on this plan and billing cycle.');
      const key = this.key(`change:${subscriptionId}:${target.plan}:${target.billingCycle}`, fresh.id);
      if (kind === 'upgrade') {
        const { state, invoiceId } = await this.call(() => provider.upgrade(subscriptionId, target, key));
        // Granted now, from the paid invoice, as its event would (which then changes nothing).
        await events.settleInvoice(fresh.id, invoiceId);
        await events.syncSubscription(fresh.id, state.id);
        return { mode: 'subscription', id: state.id, action: 'upgraded', url: null, effectiveAt: null };
      }
      const state = await this.call(() => provider.scheduleDowngrade(subscriptionId, target, key));
      await events.syncSubscription(fresh.id, state.id);
      const effectiveAt = state.scheduledChange?.effectiveAt ?? state.currentPeriodEnd;
      return {
        mode: 'subscription',
        id: state.id,
        action: 'downgrade_scheduled',
        url: null,
        effectiveAt: effectiveAt.toISOString(),
      };
    });
  }

  /** One payment for `packs` (the first is the one asked for; more when an action needs them all). */
  async startPackCheckout(user: UserRow, packs: readonly PackId[], origin: string): Promise<CheckoutResponse> {
    const { provider } = this.require();
    const customerId = await this.forAccount(user, (fresh) => this.customer(fresh));
    return this.openCheckout(this.key(`pack:${packs.join('+')}`, user.id), (idempotencyKey) =>
      provider.createPackCheckout({ userId: user.id, customerId, packs, ...this.returnUrls(origin), idempotencyKey }),
    );
  }

  async cancel(user: UserRow): Promise<UserRow> {
    return this.forAccount(user, async (fresh) => {
      const { provider } = this.require();
      const id = fresh.providerSubscriptionId;
      if (!id || !isPaidPlanName(fresh.planName) || fresh.cancelAtPeriodEnd) {
        throw errors.noSubscription('You have no active subscription to cancel.');
      }
      await this.sync(fresh, await this.call(() => provider.cancelAtPeriodEnd(id)));
      return this.reload(fresh.id);
    });
  }

  async reactivate(user: UserRow): Promise<UserRow> {
    return this.forAccount(user, async (fresh) => {
      const { provider } = this.require();
      const id = fresh.providerSubscriptionId;
      if (!id || !fresh.cancelAtPeriodEnd || !isPaidPlanName(fresh.planName)) {
        throw errors.noSubscription(
          'There is no cancelled subscription to reactivate. Choose a plan to subscribe again.',
        );
      }
      await this.sync(fresh, await this.call(() => provider.reactivate(id)));
      return this.reload(fresh.id);
    });
  }

  /**
   * Starts the minimum plan now instead of when the trial's day is over. A declined card, or a
   * bank that asks to confirm, is a 402 that says so, with where to pay: the plan starts then.
   */
  async finishTrial(user: UserRow): Promise<UserRow> {
    return this.forAccount(user, async (fresh) => {
      if (fresh.planName !== 'trial') throw errors.notOnTrial();
      const started = !fresh.providerSubscriptionId;
      await this.startPlanAfterTrial(fresh);
      const after = await this.reload(fresh.id);
      const due = after.paymentDue;
      if (due?.blocksPlan) {
        const amount = formatUsd(due.amountCents);
        if (due.requiresAction) {
          throw errors.paymentRequiresAction(
            `Your bank asks you to confirm the first payment of ${amount}. Confirm it on the payment page; the Minimum plan starts as soon as it is paid.`,
            due.payUrl,
          );
        }
        throw errors.paymentDeclined(
          `The first payment of ${amount} did not go through: ${sentence(due.failure ?? 'the card was declined')} Pay it with another card on the payment page; the Minimum plan starts as soon as it is paid.`,
          due.payUrl,
        );
      }
      if (started) {
        await this.activity.record({
          userId: fresh.id,
          actorId: fresh.id,
          action: 'trial_finished',
          details: 'Finished the trial early to start the minimum plan',
        });
      }
      return after;
    });
  }

  /**
   * Deleting an account (decision 20.1): every subscription ends and every checkout closes at the
   * provider, then `prepare` and `deleteRows` run, all holding the account's lock so nothing
   * starts in between. If the provider cannot be reached, nothing is deleted.
   */
  async closeAccount(
    user: UserRow,
    prepare: () => Promise<void>,
    deleteRows: (tx: Database) => Promise<void>,
  ): Promise<void> {
    if (!this.payments) {
      await prepare();
      await this.db.transaction(deleteRows);
      return;
    }
    const { provider, events } = this.payments;
    await events.withAccount(user.id, async () => {
      const customerId = (await this.users.findById(user.id))?.providerCustomerId ?? user.providerCustomerId;
      if (customerId) {
        try {
          for (const subscription of await provider.listSubscriptions(customerId)) {
            await provider.cancelNow(subscription.id, `delete-account:${user.id}:${subscription.id}`);
          }
          for (const checkout of await provider.listOpenCheckouts(customerId))
            await provider.expireCheckout(checkout.id);
        } catch (error) {
          this.options.log.error(
            error,
            `billing: could not end the subscriptions of user ${user.id} before deleting it`,
          );
          throw new AppError(
            503,
            'PAYMENT_PROVIDER_ERROR',
            'Your subscription could not be ended at the payment provider, so nothing was deleted and nothing more will be charged by this attempt. Try again in a moment.',
          );
        }
      }
      await prepare();
      await this.db.transaction(async (tx) => {
        await deleteRows(tx);
        await this.records.rememberDeleted(tx, user.id, customerId, this.clock.now());
      });
    });
  }

  /**
   * An admin sets the subscription's status (decision 20.6): through the provider, as the person's
   * own Cancel and Reactivate do. Answers null when the account pays nothing through a provider.
   */
  async setStatusForAdmin(target: UserRow, status: 'active' | 'canceled'): Promise<UserRow | null> {
    if (!this.payments || !target.providerSubscriptionId || !isPaidPlanName(target.planName)) return null;
    if (status === 'canceled') return target.cancelAtPeriodEnd ? target : this.cancel(target);
    return target.cancelAtPeriodEnd ? this.reactivate(target) : target;
  }

  /**
   * The scheduled work, run every minute by the billing job on the service clock: trials whose
   * day is over start the minimum plan; what must be done at the provider is retried; the offline
   * provider renews what is due and delivers its events; once a day, a reconciliation.
   */
  async tick(): Promise<void> {
    if (!this.payments) return;
    const { events, actions, offline, reconciliation } = this.payments;
    const due = await this.billingEvents.trialsStartedBy(new Date(this.clock.now().getTime() - TRIAL_LENGTH_MS));
    for (const user of due) {
      await events
        .withAccount(user.id, async () => {
          const fresh = await this.users.findById(user.id);
          if (fresh?.planName === 'trial' && !fresh.providerSubscriptionId) await this.startPlanAfterTrial(fresh);
        })
        .catch((error: unknown) =>
          this.options.log.error(error, `could not start the minimum plan after the trial of user ${user.id}`),
        );
    }
    await offline?.renewDue();
    await offline?.deliverPending();
    await actions.run();
    await reconciliation.runIfDue();
  }

  /**
   * Billing's part of /api/health (decision 20.5): degraded while webhook deliveries are refused,
   * when the last reconciliation failed or found payments the webhook missed, or when something
   * to do at the provider has waited over an hour. The database's part is read at most once a minute.
   */
  async health(): Promise<BillingHealth> {
    if (!this.payments) return { status: 'off', reason: null };
    const { lastRefusedAt, lastVerifiedAt } = this.payments.events.deliveries;
    if (lastRefusedAt && (!lastVerifiedAt || lastVerifiedAt < lastRefusedAt)) {
      return degraded(
        'The last webhook delivery was refused because its signature does not verify: check STRIPE_WEBHOOK_SECRET.',
      );
    }
    const now = this.clock.now().getTime();
    if (!this.healthRead || now - this.healthRead.at >= HEALTH_READ_MS) {
      this.healthRead = { at: now, reason: await this.storedHealthProblem(now) };
    }
    return this.healthRead.reason ? degraded(this.healthRead.reason) : { status: 'ok', reason: null };
  }

  private healthRead: { at: number; reason: string | null } | null = null;

  private async storedHealthProblem(now: number): Promise<string | null> {
    const last = await this.billingEvents.lastReconciliation();
    if (last?.error) return `The last reconciliation with the payment provider failed: ${last.error}`;
    if (last && last.repaired > 0 && now - last.startedAt.getTime() < 2 * DAY_MS) {
      return `The last reconciliation found ${last.repaired} payment(s) the webhook had missed: check that the provider's webhook reaches this server.`;
    }
    const stuck = (await this.require().actions.pending()).filter(
      (action) => now - action.createdAt.getTime() > HOUR_MS,
    );
    if (stuck.length) {
      return `${stuck.length} action(s) at the payment provider (refunds, cancellations, closed checkouts, customers' new addresses) have waited over an hour: ${stuck[0]?.lastError ?? 'not tried yet'}`;
    }
    return null;
  }

  prioritySupportLink(user: UserRow): string {
    if (user.planName !== 'virtuoso') {
      throw errors.forbidden('The priority support call comes with the Virtuoso plan.');
    }
    if (!this.options.prioritySupportUrl) throw errors.notFound('Priority support booking link');
    return this.options.prioritySupportUrl;
  }

  async ledger(user: UserRow): Promise<LedgerEntry[]> {
    const rows = await this.ledgerRepo.latest(user.id, LEDGER_PAGE);
    const expiries = await this.ledgerRepo.trancheExpiries(rows.flatMap((r) => (r.trancheId ? [r.trancheId] : [])));
    return rows.map((row) => ({
      id: row.id,
      resource: row.resource,
      amount:
        row.resource === 'storageSlots' || row.resource === 'credits'
          ? row.amount
          : row.amount / STORED_UNITS[row.resource],
      reason: row.reason,
      expiresAt: (row.trancheId && expiries.get(row.trancheId)?.toISOString()) || null,
      apiKeyName: row.apiKeyName,
      createdAt: row.createdAt.toISOString(),
    }));
  }

  /** The trial's end: charges the saved card once (lock held); a second call reads what the first did. */
  private async startPlanAfterTrial(user: UserRow): Promise<void> {
    const { provider, events } = this.require();
    if (user.providerSubscriptionId) {
      await events.syncSubscription(user.id, user.providerSubscriptionId);
      return;
    }
    const customerId = await this.customer(user);
    const state = await this.call(() =>
      provider.startPlanAfterTrial({
        userId: user.id,
        customerId,
        setupIntentId: user.trialSetupIntentId,
        // One subscription per trial, however many times this is asked for.
        idempotencyKey: `trial-end:${user.id}`,
      }),
    );
    await this.sync(user, state);
    // A plan checkout left open must not start a second subscription on top.
    await this.closeOtherCheckouts(user, null);
  }

  /** Applies a subscription the provider just changed, and grants its paid invoice at once. */
  private async sync(user: UserRow, state: SubscriptionState): Promise<void> {
    const { events } = this.require();
    if (state.latestInvoiceId) await events.settleInvoice(user.id, state.latestInvoiceId);
    await events.syncSubscription(user.id, state.id);
  }

  private async planCheckout(
    user: UserRow,
    target: PlanSelection,
    payNow: boolean,
    origin: string,
    source?: string,
  ): Promise<CheckoutSession> {
    const { provider } = this.require();
    const customerId = await this.customer(user);
    // The page it came from is part of the request (its return address), so part of the key.
    const key = this.key(`plan:${target.plan}:${target.billingCycle}:${payNow}:${source ?? 'plans'}`, user.id);
    const session = await this.openCheckout(key, (idempotencyKey) =>
      provider.createPlanCheckout({
        userId: user.id,
        customerId,
        ...target,
        payNow,
        ...this.returnUrls(origin, source),
        idempotencyKey,
      }),
    );
    // One plan checkout open at a time: an older tab's can no longer start a second subscription.
    await this.closeOtherCheckouts(user, session.id);
    return session;
  }

  /** Closes the account's open plan and trial checkouts but `keep`, through the retried actions. */
  private async closeOtherCheckouts(user: UserRow, keep: string | null): Promise<void> {
    const { provider, actions } = this.require();
    if (!user.providerCustomerId) return;
    const customerId = user.providerCustomerId;
    const open = await this.call(() => provider.listOpenCheckouts(customerId));
    const closing = open.filter((checkout) => checkout.id !== keep && checkout.kind !== 'pack');
    if (!closing.length) return;
    await this.db.transaction(async (tx) => {
      for (const checkout of closing) {
        await actions.add(tx, {
          userId: user.id,
          kind: 'expire_checkout',
          target: checkout.id,
          reason: 'a newer checkout',
        });
      }
    });
    await actions.run(user.id);
  }

  /** The provider's customer for the user, created once. */
  private async customer(user: UserRow): Promise<string> {
    if (user.providerCustomerId) return user.providerCustomerId;
    const { provider } = this.require();
    const id = await this.call(() =>
      provider.createCustomer({ userId: user.id, email: user.email, idempotencyKey: `customer:${user.id}` }),
    );
    await this.users.update(user.id, { providerCustomerId: id });
    user.providerCustomerId = id;
    return id;
  }

  /** Runs `work` on the account's row as it is now, holding its billing lock; then does pending actions. */
  private async forAccount<T>(user: UserRow, work: (fresh: UserRow) => Promise<T>): Promise<T> {
    const { events, actions } = this.require();
    try {
      return await events.withAccount(user.id, async () => {
        const fresh = await this.reload(user.id);
        try {
          return await work(fresh);
        } catch (error) {
          // The subscription ended at the provider before its event arrived: catch up now, so
          // the page the person sees next is right.
          const ended = error instanceof AppError && error.code === 'NO_SUBSCRIPTION';
          if (ended && fresh.providerSubscriptionId)
            await events.syncSubscription(fresh.id, fresh.providerSubscriptionId);
          throw error;
        }
      });
    } finally {
      await actions.run(user.id);
    }
  }

  private hasRunningSubscription(user: UserRow): boolean {
    return user.providerSubscriptionId !== null && isPaidPlanName(user.planName);
  }

  /** The pay-now discount belongs to the choice at sign-up: a first plan, not after the trial. */
  private mayHavePayNowDiscount(user: UserRow): boolean {
    return payNowDiscountAvailable({
      planName: user.planName,
      hadPlan: user.grantedPlan !== null,
      hasSubscription: user.providerSubscriptionId !== null,
    });
  }

  private returnUrls(origin: string, source?: string): { successUrl: string; cancelUrl: string } {
    const base = (this.options.publicUrl ?? origin).replace(/\/+$/, '');
    const query = `session_id={CHECKOUT_SESSION_ID}${source ? `&source=${source}` : ''}`;
    return { successUrl: `${base}/dashboard/plans/success?${query}`, cancelUrl: `${base}/dashboard/plans/cancel` };
  }

  /**
   * An idempotency key for a create: the same request within the same minute (a double click, a
   * retry after a lost answer) gets the same checkout instead of a second one.
   */
  private key(what: string, userId: string): string {
    return `${what}:${userId}:${Math.floor(this.clock.now().getTime() / 60_000)}`;
  }

  /**
   * A checkout that can still be paid. The key's checkout answers a double click or a retry; but a
   * key answers what it first made for as long as it is kept (Stripe: at least 24 hours), so once
   * that checkout was paid or closed within the minute, a new one is made, keyed after it.
   */
  private async openCheckout(
    key: string,
    create: (idempotencyKey: string) => Promise<CheckoutSession>,
  ): Promise<CheckoutSession> {
    const { provider } = this.require();
    let idempotencyKey = key;
    for (let made = 0; made < CHECKOUTS_PER_MINUTE; made++) {
      const session = await this.call(() => create(idempotencyKey));
      if ((await this.call(() => provider.getCheckout(session.id)))?.status === 'open') return session;
      idempotencyKey = `${key}:after:${session.id}`;
    }
    throw errors.paymentProvider('Too many checkouts were started this minute. Please try again in a minute.', 409);
  }

  private async reload(id: string): Promise<UserRow> {
    const user = await this.users.findById(id);
    if (!user) throw errors.notFound('User');
    return user;
  }

  private require(): Payments {
    if (!this.payments) throw errors.billingDisabled();
    return this.payments;
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw this.providerError(error);
    }
  }

  private providerError(error: unknown): unknown {
    return providerFailure(error, this.options.log);
  }
}
