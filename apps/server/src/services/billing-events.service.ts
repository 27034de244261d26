// Applies the payment provider's events: the only way a plan, a pack or the trial is granted.
// Each event is handled once — its id is recorded in the same transaction as its effect — and in
// any order: subscription state is read afresh from the provider (subscription-sync.ts), and
// each grant names its cause (an invoice, a checkout session), which the ledger grants once.
import {
  type ActivityAction,
  PACKS,
  PLANS,
  packGrant,
  planGrant,
  planWithCycle,
  RESOURCE_LABELS,
  TRANCHE_TYPES,
  type TrancheGrant,
  trialGrant,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { PaymentProvider, SubscriptionState } from '../payments/provider.js';
import { WebhookSignatureError } from '../payments/provider.js';
import type { BillingEvent } from '../payments/stripe-events.js';
import type { BillingEventsRepository } from '../repositories/billing-events.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ActivityService } from './activity.service.js';
import { type SubscriptionPatch, syncSubscription } from './subscription-sync.js';
import type { UsageService } from './usage.service.js';

type Event<T extends BillingEvent['type']> = Extract<BillingEvent, { type: T }>;

export class BillingEventsService {
  constructor(
    private readonly db: Database,
    private readonly provider: PaymentProvider,
    private readonly events: BillingEventsRepository,
    private readonly users: UsersRepository,
    private readonly usage: UsageService,
    private readonly activity: Pick<ActivityService, 'record'>,
    private readonly clock: Clock,
  ) {}

  /** A webhook delivery: verified, then applied once. A bad signature is a 400 and changes nothing. */
  async receive(rawBody: Buffer, signature: string | undefined): Promise<void> {
    let event: BillingEvent;
    try {
      event = this.provider.readWebhook(rawBody, signature);
    } catch (error) {
      if (error instanceof WebhookSignatureError) throw errors.invalidWebhookSignature(error.message);
      throw error;
    }
    await this.apply(event);
  }

  async apply(event: BillingEvent): Promise<void> {
    if (event.type === 'ignored') return;
    const { subscriptionId } = event;
    // Read before the transaction: a provider call must not hold row locks.
    const state = subscriptionId ? await this.provider.getSubscription(subscriptionId) : null;
    const userId = event.type === 'subscription.changed' ? state?.userId : event.userId;
    await this.db.transaction(async (tx) => {
      if (!(await this.events.claim(tx, event))) return;
      const user = userId ? await this.users.lockById(tx, userId) : undefined;
      // An account deleted meanwhile: the event is recorded and nothing else happens.
      if (!user) return;
      if (event.type === 'checkout.completed') await this.checkoutCompleted(tx, user, event);
      if (event.type === 'invoice.paid') await this.invoicePaid(tx, user, event);
      if (state) await this.syncState(tx, user.id, state);
    });
  }

  /** Applies a subscription's current state to its user (also after a change made through the API). */
  async syncState(tx: Database, userId: string, state: SubscriptionState): Promise<void> {
    const user = await this.users.lockById(tx, userId);
    if (!user) return;
    const result = syncSubscription(user, state);
    if (!result) return;
    await this.users.update(user.id, result.patch, tx);
    await this.recordChange(tx, user, result.patch);
    await this.setPlanStorage(tx, user.id, result.planStorageSlots);
    if (result.patch.planName && result.patch.planName !== 'none')
      await this.users.moveOnboardingForward(user.id, 'plan_active', tx);
  }

  private async checkoutCompleted(tx: Database, user: UserRow, event: Event<'checkout.completed'>): Promise<void> {
    if (event.customerId && !user.stripeCustomerId) {
      await this.users.update(user.id, { stripeCustomerId: event.customerId }, tx);
    }
    if (!event.paid) return;
    if (event.kind === 'pack' && event.pack) {
      const grant = packGrant(event.pack, this.clock.now());
      const granted = await this.usage.grant(
        tx,
        user.id,
        { tranches: grant.tranches, storageSlots: grant.storageSlotsAdded },
        { reason: 'pack', reference: event.sessionId },
      );
      if (granted) {
        const { amount, resource } = PACKS[event.pack];
        await this.log(tx, user.id, 'pack_bought', `Bought ${amount} ${RESOURCE_LABELS[resource].toLowerCase()}`);
      }
    }
    if (event.kind === 'trial') await this.startTrial(tx, user, event.setupIntentId);
  }

  /** Pay later: the card is saved, so the trial starts, once per account and only before any plan. */
  private async startTrial(tx: Database, user: UserRow, setupIntentId: string | null): Promise<void> {
    if (user.planName !== 'none' || user.grantedPlan !== null) return;
    const now = this.clock.now();
    const grant = trialGrant(now);
    if (!(await this.usage.grant(tx, user.id, { tranches: grant.tranches }, { reason: 'trial', reference: 'trial' })))
      return;
    await this.users.update(user.id, { planName: 'trial', trialStartedAt: now, trialSetupIntentId: setupIntentId }, tx);
    await this.setPlanStorage(tx, user.id, grant.storageSlotsTotal);
    await this.users.moveOnboardingForward(user.id, 'trial_ready', tx);
    await this.log(tx, user.id, 'trial_started', 'Card saved; the trial started');
  }

  /**
   * A paid invoice grants its period: a first payment or a renewal grants the plan's period in
   * full; a change of plan part-way through grants what the new plan gives beyond the old one.
   */
  private async invoicePaid(tx: Database, user: UserRow, event: Event<'invoice.paid'>): Promise<void> {
    const now = this.clock.now();
    const full = planGrant(event.plan, event.billingCycle, now, { oneTimeAlreadyGranted: user.oneTimeGranted });
    const previous =
      event.billingReason === 'update' && user.grantedPlan && user.grantedBillingCycle
        ? planGrant(user.grantedPlan, user.grantedBillingCycle, now, { oneTimeAlreadyGranted: true })
        : null;
    const tranches = previous ? difference(full.tranches, previous.tranches) : full.tranches;
    const granted = await this.usage.grant(
      tx,
      user.id,
      { tranches },
      { reason: previous ? 'plan_upgrade' : 'plan', reference: event.invoiceId },
    );
    if (!granted) return;
    await this.log(
      tx,
      user.id,
      'plan_paid',
      `${previous ? 'Upgrade to' : 'Paid for'} ${planWithCycle(event.plan, event.billingCycle)}`,
    );
    await this.users.update(
      user.id,
      {
        grantedPlan: event.plan,
        grantedBillingCycle: event.billingCycle,
        oneTimeGranted: user.oneTimeGranted || Object.keys(PLANS[event.plan].once).length > 0,
      },
      tx,
    );
  }

  /** One row per change a subscription's state made: a new plan, a cancellation, a reactivation, an end. */
  private async recordChange(tx: Database, user: UserRow, patch: SubscriptionPatch): Promise<void> {
    const plan = patch.planName ?? user.planName;
    const cycle = patch.billingCycle !== undefined ? patch.billingCycle : user.billingCycle;
    if (plan !== user.planName || cycle !== user.billingCycle) {
      const from = planWithCycle(user.planName, user.billingCycle);
      await this.log(tx, user.id, 'plan_changed', `Plan ${from} → ${planWithCycle(plan, cycle)}`);
    } else if (patch.cancelAtPeriodEnd === true && !user.cancelAtPeriodEnd) {
      await this.log(tx, user.id, 'subscription_canceled', 'Set to end at the close of the paid period');
    } else if (patch.cancelAtPeriodEnd === false && user.cancelAtPeriodEnd) {
      await this.log(tx, user.id, 'subscription_reactivated', 'Renews again at the end of the period');
    }
  }

  private log(tx: Database, userId: string, action: ActivityAction, details: string): Promise<void> {
    return this.activity.record({ userId, actorId: null, action, details }, tx);
  }

  /** Sets the part of the storage-slot total that comes with the plan, leaving bought and granted slots. */
  private async setPlanStorage(tx: Database, userId: string, slots: number): Promise<void> {
    const current = await this.usage.planStorageSlots(tx, userId);
    await this.usage.addStorageSlots(tx, userId, slots - current, { reason: 'plan', reference: null });
  }
}

/** Per resource, what `more` grants beyond `less` (never negative), with `more`'s expiry. */
function difference(more: readonly TrancheGrant[], less: readonly TrancheGrant[]): TrancheGrant[] {
  return TRANCHE_TYPES.flatMap((type) => {
    const a = more.find((t) => t.type === type);
    const b = less.find((t) => t.type === type)?.amount ?? 0;
    return a && a.amount > b ? [{ ...a, amount: a.amount - b }] : [];
  });
}
