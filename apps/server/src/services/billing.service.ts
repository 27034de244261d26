// What a person does about paying: start a checkout (a plan, the pay-later trial, a pack), change
// plan, cancel and reactivate, finish the trial. Nothing here grants usage: grants come only from
// the provider's events (billing-events.service.ts). A change made through the provider's API is
// applied at once from the state it answers with, and again, idempotently, when its event arrives.
import {
  type BillingInfo,
  type BillingProviderName,
  type ChangePlanResponse,
  type CheckoutResponse,
  classifyPlanChange,
  isPaidPlanName,
  type LedgerEntry,
  type PackId,
  type PlanSelection,
  TRIAL_LENGTH_MS,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import { type PaymentProvider, PaymentProviderError, type SubscriptionState } from '../payments/provider.js';
import type { BillingEventsRepository } from '../repositories/billing-events.repository.js';
import type { LedgerRepository } from '../repositories/ledger.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ActivityService } from './activity.service.js';
import type { BillingEventsService } from './billing-events.service.js';
import { STORED_UNITS } from './usage.service.js';

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
  /** Renews the offline provider's subscriptions on the service clock (Stripe renews its own). */
  renewDue?: () => Promise<number>;
}

const LEDGER_PAGE = 100;

export class BillingService {
  constructor(
    private readonly db: Database,
    private readonly payments: Payments | null,
    private readonly users: UsersRepository,
    private readonly billingEvents: BillingEventsRepository,
    private readonly ledgerRepo: LedgerRepository,
    private readonly activity: Pick<ActivityService, 'record'>,
    private readonly clock: Clock,
    private readonly options: BillingOptions,
  ) {}

  info(): BillingInfo {
    return { provider: this.options.provider, testMode: this.payments?.provider.testMode ?? false };
  }

  /** Pay later: a setup checkout that saves a card; the trial starts when it completes. */
  async startTrialSetup(user: UserRow, origin: string): Promise<CheckoutResponse> {
    const { provider } = this.require();
    if (user.planName !== 'none' || user.grantedPlan !== null) throw errors.subscriptionExists();
    const customerId = await this.customer(user);
    const session = await this.call(() =>
      provider.createTrialSetupCheckout({
        userId: user.id,
        customerId,
        ...this.returnUrls(origin, 'pay_later'),
        idempotencyKey: this.key('trial-setup', user.id),
      }),
    );
    await this.users.moveOnboardingForward(user.id, 'pay_later_setup_started');
    return session;
  }

  /** Pay now at onboarding: a plan checkout, 15% off for life when it is the account's first plan. */
  async startPayNowCheckout(
    user: UserRow,
    target: PlanSelection & { payNowPromo: boolean },
    origin: string,
  ): Promise<CheckoutResponse> {
    if (this.hasRunningSubscription(user)) throw errors.subscriptionExists();
    const payNow = target.payNowPromo && this.mayHavePayNowDiscount(user);
    if (target.payNowPromo && !payNow) {
      throw errors.validation(
        'The pay-now discount is for a first plan chosen at sign-up. Choose a plan from the plans page.',
      );
    }
    const session = await this.planCheckout(user, target, payNow, origin, 'pay_now');
    await this.users.moveOnboardingForward(user.id, 'plan_checkout_started');
    return session;
  }

  /** The plans page: a first plan is a checkout; otherwise an upgrade now or a downgrade next period. */
  async changePlan(user: UserRow, target: PlanSelection, origin: string): Promise<ChangePlanResponse> {
    if (!this.hasRunningSubscription(user) || !user.stripeSubscriptionId) {
      const session = await this.planCheckout(user, target, user.payNowDiscount, origin);
      return { mode: 'checkout', id: session.id, action: 'checkout', url: session.url, effectiveAt: null };
    }
    const { provider } = this.require();
    const subscriptionId = user.stripeSubscriptionId;
    const kind = classifyPlanChange({ plan: user.planName, billingCycle: user.billingCycle }, target);
    if (kind === 'current') throw errors.validation('You are already on this plan and billing cycle.');
    const key = this.key(`change:${subscriptionId}:${target.plan}:${target.billingCycle}`, user.id);
    if (kind === 'upgrade') {
      const state = await this.call(() => provider.upgrade(subscriptionId, target, key));
      await this.apply(state);
      return { mode: 'subscription', id: state.id, action: 'upgraded', url: null, effectiveAt: null };
    }
    const state = await this.call(() => provider.scheduleDowngrade(subscriptionId, target, key));
    await this.apply(state);
    const effectiveAt = state.scheduledChange?.effectiveAt ?? state.currentPeriodEnd;
    return {
      mode: 'subscription',
      id: state.id,
      action: 'downgrade_scheduled',
      url: null,
      effectiveAt: effectiveAt.toISOString(),
    };
  }

  async startPackCheckout(user: UserRow, pack: PackId, origin: string): Promise<CheckoutResponse> {
    const { provider } = this.require();
    const customerId = await this.customer(user);
    return this.call(() =>
      provider.createPackCheckout({
        userId: user.id,
        customerId,
        pack,
        ...this.returnUrls(origin),
        idempotencyKey: this.key(`pack:${pack}`, user.id),
      }),
    );
  }

  async cancel(user: UserRow): Promise<UserRow> {
    const { provider } = this.require();
    if (!user.stripeSubscriptionId || user.subscriptionStatus !== 'active' || user.cancelAtPeriodEnd) {
      throw errors.noSubscription('You have no active subscription to cancel.');
    }
    const id = user.stripeSubscriptionId;
    await this.apply(await this.call(() => provider.cancelAtPeriodEnd(id)));
    return this.reload(user.id);
  }

  async reactivate(user: UserRow): Promise<UserRow> {
    const { provider } = this.require();
    const id = user.stripeSubscriptionId;
    if (!id || !user.cancelAtPeriodEnd || !isPaidPlanName(user.planName)) {
      throw errors.noSubscription(
        'There is no cancelled subscription to reactivate. Choose a plan to subscribe again.',
      );
    }
    const state = await provider.reactivate(id).catch((error: unknown) => {
      // The provider says the subscription has ended (409): only a new one can follow.
      if (error instanceof PaymentProviderError && error.status === 409) {
        throw errors.noSubscription('Your subscription has already ended. Choose a plan to subscribe again.');
      }
      throw this.providerError(error);
    });
    await this.apply(state);
    return this.reload(user.id);
  }

  /** Starts the minimum plan now instead of when the trial's day is over. */
  async finishTrial(user: UserRow): Promise<UserRow> {
    if (user.planName !== 'trial') throw errors.notOnTrial();
    await this.startPlanAfterTrial(user);
    await this.activity.record({
      userId: user.id,
      actorId: user.id,
      action: 'trial_finished',
      details: 'Finished the trial early to start the minimum plan',
    });
    return this.reload(user.id);
  }

  /**
   * The scheduled work, run every minute by the billing job on the service clock: trials whose
   * day is over start the minimum plan; the offline provider renews what is due.
   */
  async tick(): Promise<void> {
    if (!this.payments) return;
    const due = await this.billingEvents.trialsStartedBy(new Date(this.clock.now().getTime() - TRIAL_LENGTH_MS));
    for (const user of due) {
      await this.startPlanAfterTrial(user).catch((error: unknown) =>
        this.options.log.error(error, `could not start the minimum plan after the trial of user ${user.id}`),
      );
    }
    await this.payments.renewDue?.();
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
      createdAt: row.createdAt.toISOString(),
    }));
  }

  private async startPlanAfterTrial(user: UserRow): Promise<void> {
    const { provider } = this.require();
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
    await this.apply(state);
  }

  private async planCheckout(
    user: UserRow,
    target: PlanSelection,
    payNow: boolean,
    origin: string,
    source?: string,
  ): Promise<CheckoutResponse> {
    const { provider } = this.require();
    const customerId = await this.customer(user);
    return this.call(() =>
      provider.createPlanCheckout({
        userId: user.id,
        customerId,
        ...target,
        payNow,
        ...this.returnUrls(origin, source),
        idempotencyKey: this.key(`plan:${target.plan}:${target.billingCycle}:${payNow}`, user.id),
      }),
    );
  }

  /** The provider's customer for the user, created once. */
  private async customer(user: UserRow): Promise<string> {
    if (user.stripeCustomerId) return user.stripeCustomerId;
    const { provider } = this.require();
    const id = await this.call(() =>
      provider.createCustomer({ userId: user.id, email: user.email, idempotencyKey: `customer:${user.id}` }),
    );
    await this.users.update(user.id, { stripeCustomerId: id });
    user.stripeCustomerId = id;
    return id;
  }

  private async apply(state: SubscriptionState): Promise<void> {
    const { events } = this.require();
    await this.db.transaction((tx) => events.syncState(tx, state.userId, state));
  }

  private hasRunningSubscription(user: UserRow): boolean {
    return user.stripeSubscriptionId !== null && isPaidPlanName(user.planName);
  }

  /** The pay-now discount belongs to the choice at sign-up: a first plan, not after the trial. */
  private mayHavePayNowDiscount(user: UserRow): boolean {
    return user.grantedPlan === null && user.planName === 'none';
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
    if (!(error instanceof PaymentProviderError)) return error;
    this.options.log.warn(`payment provider: ${error.message}`);
    return errors.paymentProvider(error.message);
  }
}
