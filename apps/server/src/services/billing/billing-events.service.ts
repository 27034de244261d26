// Applies what the payment provider reports: the only way a plan, a pack or the trial is granted,
// and the way refunds and disputes take back what they paid for (docs/decisions/0012, 0020).
// An event only names what changed; under the account's lock the facts are read afresh from the
// provider and applied in one transaction, so a late, repeated or reordered event acts on the
// present. Each grant names its payment, which the ledger grants once. The same `settle*` steps
// serve the webhook, the billing service's own calls (holding the lock already) and reconciliation.
import {
  type ActivityAction,
  type DisputeStatus,
  disputeWithdrewMoney,
  formatUsd,
  isPaidPlanName,
  type LedgerResource,
  PACKS,
  PAY_LATER_FIRST_CHARGE_CENTS,
  PLAN_LABELS,
  packsGrant,
  planWithCycle,
  resourceAmount,
  TRIAL_LENGTH_MS,
  trialGrant,
} from '@ownvoice/shared';
import type { Clock } from '../../clock.js';
import type { AccountLock } from '../../db/account-lock.js';
import type { Database } from '../../db/client.js';
import type { PaymentRow, UserRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import type { MailData, MailKind } from '../../mail/messages.js';
import { SITE_PATHS } from '../../mail/site-paths.js';
import {
  type BillingEvent,
  type CheckoutFacts,
  type InvoiceFacts,
  type PaymentFacts,
  type PaymentProvider,
  type SubscriptionState,
  WebhookSignatureError,
} from '../../payments/provider.js';
import type { BillingEventsRepository } from '../../repositories/billing-events.repository.js';
import type { BillingRecordsRepository } from '../../repositories/billing-records.repository.js';
import type { PaymentsRepository } from '../../repositories/payments.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import type { ActivityService } from '../activity.service.js';
import {
  AfterCommit,
  type NoticeRecipient,
  type Notices,
  shownAmountsInWords,
  storedAmountsInWords,
} from '../notices.js';
import type { UsageService } from '../usage.service.js';
import type { BillingActions } from './billing-actions.js';
import { invoiceGrant } from './invoice-grant.js';
import { sentence } from './provider-errors.js';
import { syncSubscription } from './subscription-sync.js';
import { trialKeys } from './trial-keys.js';

export interface BillingEventsDeps {
  db: Database;
  provider: PaymentProvider;
  lock: AccountLock;
  events: BillingEventsRepository;
  payments: PaymentsRepository;
  records: BillingRecordsRepository;
  users: UsersRepository;
  usage: UsageService;
  activity: Pick<ActivityService, 'record'>;
  actions: BillingActions;
  /** The e-mail notices of what an event changed, sent once its transaction has committed. */
  notices: Pick<Notices, 'send' | 'link'>;
  clock: Clock;
  log: { warn(msg: string): void; error(obj: unknown, msg?: string): void };
}

/** Whether settling something granted or started anything new (reconciliation counts these). */
export type Settled = boolean;

type Decision = 'adopted' | 'rejected';

/** The onboarding steps a started trial moves on from: every step before a plan is active. */
const TRIAL_READY_FROM = ['registered', 'choice', 'pay_later_setup_started', 'pay_now_plans', 'plan_checkout_started'];

export class BillingEventsService {
  /** The notices each open transaction will send once it commits (see `transaction`). */
  private readonly afterCommit = new WeakMap<Database, AfterCommit>();

  /** Webhook deliveries seen by this process, for /api/health. */
  readonly deliveries: { lastVerifiedAt: Date | null; lastRefusedAt: Date | null; lastRefusal: string | null } = {
    lastVerifiedAt: null,
    lastRefusedAt: null,
    lastRefusal: null,
  };

  constructor(private readonly d: BillingEventsDeps) {}

  get provider(): PaymentProvider {
    return this.d.provider;
  }

  /** A webhook delivery: verified, then applied once. A bad signature is a 400, logged, and changes nothing. */
  async receive(rawBody: Buffer, signature: string | undefined): Promise<void> {
    let event: BillingEvent;
    try {
      event = this.d.provider.readWebhook(rawBody, signature);
    } catch (error) {
      if (!(error instanceof WebhookSignatureError)) throw error;
      this.deliveries.lastRefusedAt = new Date();
      this.deliveries.lastRefusal = error.message;
      // An operator's wrong STRIPE_WEBHOOK_SECRET shows here first: every payment goes unrecorded.
      this.d.log.error(
        { err: error },
        'billing: a webhook delivery was refused because its signature does not verify; if this repeats, check ' +
          'that STRIPE_WEBHOOK_SECRET is the signing secret of this endpoint (reconciliation picks up what was missed)',
      );
      throw errors.invalidWebhookSignature(error.message);
    }
    this.deliveries.lastVerifiedAt = new Date();
    await this.handle(event);
  }

  /** Applies an event under its account's lock, then does at the provider what it asked for. */
  async handle(event: BillingEvent): Promise<void> {
    if (event.type === 'ignored' || (await this.d.events.seen(event.id))) return;
    const userId = await this.ownerOf(event);
    if (!userId) {
      this.d.log.warn(`billing: event ${event.id} (${event.type}) is about no account of this server; ignored`);
      return;
    }
    await this.withAccount(userId, () => this.apply(userId, event));
    await this.d.actions.run(userId);
  }

  /** Runs `work` holding the account's billing lock (decision 20.4). */
  withAccount<T>(userId: string, work: () => Promise<T>): Promise<T> {
    return this.d.lock.run(`billing:${userId}`, work);
  }

  // --- Settling, with the account's lock held --------------------------------------------------

  /** A checkout: a pack's payment, the trial's saved card, or a plan's first subscription and invoice. */
  async settleCheckout(userId: string, sessionId: string, event?: BillingEvent): Promise<Settled> {
    const { provider } = this.d;
    const checkout = await provider.getCheckout(sessionId);
    if (!checkout || checkout.userId !== userId) return this.claimOnly(event);
    const subscription = checkout.subscriptionId ? await provider.getSubscription(checkout.subscriptionId) : null;
    const invoice = checkout.invoiceId ? await provider.getInvoice(checkout.invoiceId) : null;
    const paymentIntentId = checkout.paymentIntentId ?? invoice?.paymentIntentId ?? null;
    const payment = paymentIntentId ? await provider.getPayment(paymentIntentId) : null;
    const fingerprint =
      checkout.kind === 'trial' && checkout.setupIntentId
        ? await provider.cardFingerprint(checkout.setupIntentId)
        : null;
    const others =
      checkout.kind !== 'pack' && checkout.customerId ? await provider.listOpenCheckouts(checkout.customerId) : [];
    const paidAt = event?.created ?? checkout.createdAt;
    return this.transaction(userId, event, async (tx, user) => {
      if (!user) return this.forDeletedAccount(tx, userId, { subscription, invoice, checkout });
      if (checkout.customerId && !user.providerCustomerId) {
        await this.d.users.update(user.id, { providerCustomerId: checkout.customerId }, tx);
      }
      if (checkout.status !== 'complete' || !checkout.paid) return false;
      if (checkout.kind === 'pack') return this.grantPack(tx, user, checkout, payment, paidAt);
      if (checkout.kind === 'trial') return this.startTrial(tx, user, checkout, fingerprint, others);
      const decision = subscription ? await this.adopt(tx, user, subscription) : null;
      if (decision === 'adopted') await this.closeOtherCheckouts(tx, user.id, others, checkout.id);
      if (invoice?.status !== 'paid') return false;
      return this.settlePaidInvoice(tx, user.id, invoice, payment, decision ?? 'rejected');
    });
  }

  /** An invoice, paid or failed, and the subscription it belongs to. */
  async settleInvoice(userId: string, invoiceId: string, event?: BillingEvent): Promise<Settled> {
    const { provider } = this.d;
    const invoice = await provider.getInvoice(invoiceId);
    if (!invoice) return this.claimOnly(event);
    const subscription = invoice.subscriptionId ? await provider.getSubscription(invoice.subscriptionId) : null;
    const payment = invoice.paymentIntentId ? await provider.getPayment(invoice.paymentIntentId) : null;
    return this.transaction(userId, event, async (tx, user) => {
      if (!user) return this.forDeletedAccount(tx, userId, { subscription, invoice });
      const decision = subscription
        ? await this.adopt(tx, user, subscription)
        : ((await this.d.records.decisionOn(tx, invoice.subscriptionId ?? '')) ?? 'rejected');
      if (invoice.status !== 'paid') return false;
      return this.settlePaidInvoice(tx, user.id, invoice, payment, decision);
    });
  }

  /** A subscription's state: adopted, rejected, or applied to the account it is the subscription of. */
  async syncSubscription(userId: string, subscriptionId: string, event?: BillingEvent): Promise<Settled> {
    const state = await this.d.provider.getSubscription(subscriptionId);
    if (!state || state.userId !== userId) return this.claimOnly(event);
    return this.transaction(userId, event, async (tx, user) => {
      if (!user) return this.forDeletedAccount(tx, userId, { subscription: state });
      await this.adopt(tx, user, state);
      return false;
    });
  }

  /** A payment's refunds and dispute, which take back what it granted. */
  async settlePayment(userId: string, paymentIntentId: string, event?: BillingEvent): Promise<Settled> {
    const facts = await this.d.provider.getPayment(paymentIntentId);
    if (!facts) return this.claimOnly(event);
    return this.transaction(userId, event, async (tx, user) => {
      const row = await this.d.payments.findByPaymentIntent(paymentIntentId, tx);
      if (row) await this.applyPaymentState(tx, user ?? null, row, facts);
      return false;
    });
  }

  // --- The rules -----------------------------------------------------------------------------

  /**
   * Whose a subscription is (decision 20.4): the account's own when it has none running, else a
   * second one, which is ended and whose payments are refunded. Applies the state of the
   * account's own subscription to its row.
   */
  private async adopt(tx: Database, user: UserRow, state: SubscriptionState): Promise<Decision> {
    const { records, actions } = this.d;
    const live = state.status !== 'canceled';
    const known = await records.decisionOn(tx, state.id);
    if (known === 'rejected') {
      if (live)
        await actions.add(tx, {
          userId: user.id,
          kind: 'cancel_subscription',
          target: state.id,
          reason: 'a second subscription',
        });
      return 'rejected';
    }
    if (known === 'adopted') {
      if (user.providerSubscriptionId === state.id) await this.applyState(tx, user, state);
      else if (live) {
        // An unpaid subscription a paid one replaced: it must not be paid later.
        await actions.add(tx, {
          userId: user.id,
          kind: 'cancel_subscription',
          target: state.id,
          reason: 'replaced by a paid subscription',
        });
      }
      return 'adopted';
    }
    const now = this.d.clock.now();
    const running =
      user.providerSubscriptionId !== null && user.providerSubscriptionId !== state.id && isPaidPlanName(user.planName);
    if (!live || running) {
      await records.decide(tx, { id: state.id, userId: user.id, decision: 'rejected', decidedAt: now });
      if (live) {
        await actions.add(tx, {
          userId: user.id,
          kind: 'cancel_subscription',
          target: state.id,
          reason: 'a second subscription',
        });
        await this.log(
          tx,
          user.id,
          'subscription_rejected',
          `A second subscription (${planWithCycle(state.plan, state.billingCycle)}) was started while ${planWithCycle(user.planName, user.billingCycle)} runs: it was ended at once and its payment refunded`,
        );
      }
      return 'rejected';
    }
    if (user.providerSubscriptionId && user.providerSubscriptionId !== state.id) {
      await actions.add(tx, {
        userId: user.id,
        kind: 'cancel_subscription',
        target: user.providerSubscriptionId,
        reason: 'replaced by a paid subscription',
      });
    }
    await records.decide(tx, { id: state.id, userId: user.id, decision: 'adopted', decidedAt: now });
    await this.applyState(tx, user, state);
    return 'adopted';
  }

  /** The account's own subscription's state on its row, with what a person would notice logged. */
  private async applyState(tx: Database, user: UserRow, state: SubscriptionState): Promise<void> {
    const result = syncSubscription(user, state);
    const updated = (await this.d.users.update(user.id, result.patch, tx)) ?? user;
    if (result.planStorageSlots !== null) await this.setPlanStorage(tx, user.id, result.planStorageSlots);
    if (isPaidPlanName(updated.planName)) await this.d.users.moveOnboardingForward(user.id, 'plan_active', tx);
    await this.recordChange(tx, user, updated, result.change);
  }

  private async settlePaidInvoice(
    tx: Database,
    userId: string,
    invoice: InvoiceFacts,
    payment: PaymentFacts | null,
    decision: Decision,
  ): Promise<Settled> {
    const user = await this.d.users.lockById(tx, userId);
    if (!user) return false;
    if (decision === 'rejected') {
      await this.rejectPayment(tx, userId, { id: invoice.id, kind: 'invoice', invoice });
      return false;
    }
    const grant = invoiceGrant(invoice, { oneTimeAlreadyGranted: user.oneTimeGranted });
    const recorded = await this.d.payments.record(tx, {
      id: invoice.id,
      userId,
      kind: 'invoice',
      paymentIntentId: invoice.paymentIntentId,
      subscriptionId: invoice.subscriptionId,
      amountCents: invoice.amountPaidCents,
      outcome: 'granted',
      description: grant.description,
      paidAt: invoice.paidAt ?? this.d.clock.now(),
    });
    if (!recorded) return false;
    for (const anomaly of grant.anomalies) this.d.log.error({ userId, invoiceId: invoice.id }, `billing: ${anomaly}`);
    await this.d.usage.grant(tx, userId, { tranches: grant.tranches }, { reason: 'plan', reference: invoice.id });
    if (grant.plan) {
      await this.d.users.update(
        userId,
        {
          grantedPlan: grant.plan.plan,
          grantedBillingCycle: grant.plan.billingCycle,
          oneTimeGranted: user.oneTimeGranted || grant.includesOneTime,
        },
        tx,
      );
    }
    await this.log(tx, userId, 'plan_paid', `Paid ${formatUsd(invoice.amountPaidCents)} for ${grant.description}`);
    if (invoice.amountPaidCents > 0) {
      this.notify(tx, user, 'payment_receipt', {
        username: user.username,
        description: grant.description,
        amountCents: invoice.amountPaidCents,
        paidAt: invoice.paidAt ?? this.d.clock.now(),
        renewal: invoice.renewal,
        link: this.link(SITE_PATHS.account),
      });
    }
    const row = await this.d.payments.find(invoice.id, tx);
    if (row && payment) await this.applyPaymentState(tx, user, row, payment);
    return true;
  }

  private async grantPack(
    tx: Database,
    user: UserRow,
    checkout: CheckoutFacts,
    payment: PaymentFacts | null,
    paidAt: Date,
  ): Promise<Settled> {
    if (checkout.packs.length === 0) return false;
    // One payment, one grant of every pack in it (several when an action needed them together).
    const bought = checkout.packs.map((pack) => resourceAmount(PACKS[pack].resource, PACKS[pack].amount)).join(' and ');
    const recorded = await this.d.payments.record(tx, {
      id: checkout.id,
      userId: user.id,
      kind: 'checkout',
      paymentIntentId: checkout.paymentIntentId,
      subscriptionId: null,
      amountCents: checkout.amountTotalCents,
      outcome: 'granted',
      description: bought,
      paidAt,
    });
    if (!recorded) return false;
    const grant = packsGrant(checkout.packs, paidAt);
    await this.d.usage.grant(
      tx,
      user.id,
      { tranches: grant.tranches, storageSlots: grant.storageSlotsAdded },
      { reason: 'pack', reference: checkout.id },
    );
    await this.log(tx, user.id, 'pack_bought', `Bought ${bought}`);
    if (checkout.amountTotalCents > 0) {
      const amounts: Partial<Record<LedgerResource, number>> = {};
      for (const pack of checkout.packs) {
        const { resource, amount } = PACKS[pack];
        amounts[resource] = (amounts[resource] ?? 0) + amount;
      }
      this.notify(tx, user, 'payment_receipt', {
        username: user.username,
        description: shownAmountsInWords(amounts),
        amountCents: checkout.amountTotalCents,
        paidAt,
        renewal: false,
        link: this.link(SITE_PATHS.account),
      });
    }
    const row = await this.d.payments.find(checkout.id, tx);
    if (row && payment) await this.applyPaymentState(tx, user, row, payment);
    return true;
  }

  /**
   * Pay later: the card is saved, so the trial starts, once per person (decision 20.1): not for an
   * account that had a plan, nor for an address or card that had a trial before.
   */
  private async startTrial(
    tx: Database,
    user: UserRow,
    checkout: CheckoutFacts,
    fingerprint: string | null,
    others: CheckoutFacts[],
  ): Promise<Settled> {
    if (user.planName !== 'none' || user.grantedPlan !== null || user.providerSubscriptionId !== null) return false;
    const now = this.d.clock.now();
    const keys = trialKeys(user.email, fingerprint);
    if ((await this.d.records.claimedTrialKeys(keys, tx)).length > 0) {
      await this.d.users.update(user.id, { trialRefusedAt: now }, tx);
      await this.log(
        tx,
        user.id,
        'trial_refused',
        'This address or card had a trial before: no second trial; a plan can be chosen',
      );
      return false;
    }
    const grant = trialGrant(now);
    if (
      !(await this.d.usage.grant(tx, user.id, { tranches: grant.tranches }, { reason: 'trial', reference: 'trial' }))
    ) {
      return false;
    }
    await this.d.records.claimTrial(tx, keys, now);
    await this.d.users.update(
      user.id,
      { planName: 'trial', trialStartedAt: now, trialSetupIntentId: checkout.setupIntentId },
      tx,
    );
    await this.setPlanStorage(tx, user.id, grant.storageSlotsTotal);
    // From the pay-now branch too (someone who looked at the plans first, then chose to pay later).
    await this.d.users.moveOnboardingStep(user.id, TRIAL_READY_FROM, 'trial_ready', tx);
    // A pay-now checkout opened before must not be paid on top of the trial.
    await this.closeOtherCheckouts(tx, user.id, others, checkout.id);
    await this.log(tx, user.id, 'trial_started', 'Card saved; the trial started');
    // The trial lasts a day, so "ends tomorrow" is said now: when, and what the first charge is
    // (the Minimum plan's first month and the trial day, never discounted: trial-charge.ts).
    this.notify(tx, user, 'trial_ending', {
      username: user.username,
      endsAt: new Date(now.getTime() + TRIAL_LENGTH_MS),
      amountCents: PAY_LATER_FIRST_CHARGE_CENTS,
      planLabel: PLAN_LABELS.minimum,
      link: this.link(SITE_PATHS.account),
    });
    return true;
  }

  /** A refund or dispute: the payment's row follows the provider, and what it granted is taken back. */
  private async applyPaymentState(
    tx: Database,
    user: UserRow | null,
    row: PaymentRow,
    facts: PaymentFacts,
  ): Promise<void> {
    const dispute = facts.dispute?.status ?? null;
    if (facts.refundedCents === row.refundedCents && dispute === row.disputeStatus) return;
    await this.d.payments.update(tx, row.id, { refundedCents: facts.refundedCents, disputeStatus: dispute });
    if (!user) return;
    const refunded = facts.refundedCents - row.refundedCents;
    if (row.outcome !== 'granted') {
      if (refunded > 0) this.notifyRefund(tx, user, row, refunded, null);
      return;
    }
    // A chargeback withdraws the whole payment: what it granted goes, as for a full refund. A
    // bank's inquiry withdraws nothing, so it takes nothing (decision 35).
    const lost = disputeWithdrewMoney(dispute);
    const fraction = lost ? 1 : row.amountCents > 0 ? facts.refundedCents / row.amountCents : 1;
    const reversed = await this.d.usage.reverseGrant(
      tx,
      user.id,
      row.id,
      fraction,
      `${facts.refundedCents}:${dispute ?? 'none'}`,
    );
    if (refunded > 0) this.notifyRefund(tx, user, row, refunded, reversed);
    if (facts.refundedCents !== row.refundedCents) {
      await this.log(
        tx,
        user.id,
        'payment_refunded',
        `${formatUsd(facts.refundedCents)} of ${formatUsd(row.amountCents)} refunded (${row.description}); that share of what it granted was taken back`,
      );
    }
    if (dispute !== row.disputeStatus && dispute) {
      await this.log(tx, user.id, 'payment_disputed', disputeNote(row, dispute));
    }
    if (
      lost &&
      row.subscriptionId &&
      row.subscriptionId === user.providerSubscriptionId &&
      isPaidPlanName(user.planName)
    ) {
      await this.d.actions.add(tx, {
        userId: user.id,
        kind: 'cancel_subscription',
        target: row.subscriptionId,
        reason: 'its payment is disputed',
      });
    }
  }

  /** Money that must not stay: recorded, and refunded in full. */
  private async rejectPayment(
    tx: Database,
    userId: string,
    paid:
      | { id: string; kind: 'invoice'; invoice: InvoiceFacts }
      | { id: string; kind: 'checkout'; checkout: CheckoutFacts },
  ): Promise<void> {
    const paymentIntentId = paid.kind === 'invoice' ? paid.invoice.paymentIntentId : paid.checkout.paymentIntentId;
    const amountCents = paid.kind === 'invoice' ? paid.invoice.amountPaidCents : paid.checkout.amountTotalCents;
    const recorded = await this.d.payments.record(tx, {
      id: paid.id,
      userId,
      kind: paid.kind,
      paymentIntentId,
      subscriptionId: paid.kind === 'invoice' ? paid.invoice.subscriptionId : null,
      amountCents,
      outcome: 'rejected',
      description: 'refunded: a second subscription, or an account deleted',
      paidAt: (paid.kind === 'invoice' ? paid.invoice.paidAt : paid.checkout.createdAt) ?? this.d.clock.now(),
    });
    if (!recorded || amountCents <= 0) return;
    if (!paymentIntentId) {
      this.d.log.error(
        { userId, payment: paid.id },
        'billing: a payment to refund names no payment intent; refund it by hand',
      );
      return;
    }
    await this.d.actions.add(tx, {
      userId,
      kind: 'refund_payment',
      target: paymentIntentId,
      reason: `nothing granted for ${paid.id}`,
    });
  }

  /** Something about an account deleted meanwhile: a running subscription is ended, money refunded. */
  private async forDeletedAccount(
    tx: Database,
    userId: string,
    about: { subscription?: SubscriptionState | null; invoice?: InvoiceFacts | null; checkout?: CheckoutFacts },
  ): Promise<Settled> {
    if (!(await this.d.records.deleted({ userId }, tx))) return false;
    const { subscription, invoice, checkout } = about;
    if (subscription && subscription.status !== 'canceled') {
      await this.d.actions.add(tx, {
        userId,
        kind: 'cancel_subscription',
        target: subscription.id,
        reason: 'the account was deleted',
      });
    }
    if (invoice?.status === 'paid') await this.rejectPayment(tx, userId, { id: invoice.id, kind: 'invoice', invoice });
    if (checkout?.kind === 'pack' && checkout.paid && checkout.status === 'complete') {
      await this.rejectPayment(tx, userId, { id: checkout.id, kind: 'checkout', checkout });
    }
    return false;
  }

  private async closeOtherCheckouts(tx: Database, userId: string, open: CheckoutFacts[], keep: string): Promise<void> {
    for (const other of open) {
      if (other.id === keep || other.kind === 'pack' || other.status !== 'open') continue;
      await this.d.actions.add(tx, {
        userId,
        kind: 'expire_checkout',
        target: other.id,
        reason: 'the account has its plan or trial',
      });
    }
  }

  // --- Plumbing ------------------------------------------------------------------------------

  /** The account an event is about: its metadata's user, else its customer's, else its payment's. */
  private async ownerOf(event: Exclude<BillingEvent, { type: 'ignored' }>): Promise<string | null> {
    const { users, records, payments } = this.d;
    if ('userId' in event && event.userId) return event.userId;
    if (event.customerId) {
      const owner =
        (await users.findIdByCustomer(event.customerId)) ?? (await records.deleted({ customerId: event.customerId }));
      if (owner) return owner;
    }
    if (event.type === 'payment.changed')
      return (await payments.findByPaymentIntent(event.paymentIntentId))?.userId ?? null;
    return null;
  }

  private apply(userId: string, event: Exclude<BillingEvent, { type: 'ignored' }>): Promise<Settled> {
    switch (event.type) {
      case 'checkout.completed':
        return this.settleCheckout(userId, event.sessionId, event);
      case 'checkout.expired':
        return this.claimOnly(event);
      case 'invoice.paid':
      case 'invoice.payment_failed':
        return this.settleInvoice(userId, event.invoiceId, event);
      case 'subscription.changed':
        return this.syncSubscription(userId, event.subscriptionId, event);
      case 'payment.changed':
        return this.settlePayment(userId, event.paymentIntentId, event);
    }
  }

  /** One transaction: the event claimed (when there is one; a second delivery stops here), the user locked. */
  private async transaction(
    userId: string,
    event: BillingEvent | undefined,
    work: (tx: Database, user: UserRow | undefined) => Promise<Settled>,
  ): Promise<Settled> {
    // Notices wait for the commit: a transaction that rolls back (or a repeat the claim stops)
    // sends nothing, and each effect is recorded, so noticed, once.
    const after = new AfterCommit();
    const settled = await this.d.db.transaction(async (tx) => {
      this.afterCommit.set(tx, after);
      if (event && !(await this.d.events.claim(tx, event))) return false;
      return work(tx, await this.d.users.lockById(tx, userId));
    });
    await after.run();
    return settled;
  }

  private async claimOnly(event: BillingEvent | undefined): Promise<Settled> {
    if (event) await this.d.db.transaction((tx) => this.d.events.claim(tx, event));
    return false;
  }

  /** One row per change of the account's subscription a person would notice. */
  private async recordChange(
    tx: Database,
    before: UserRow,
    after: UserRow,
    change: ReturnType<typeof syncSubscription>['change'],
  ): Promise<void> {
    const due = after.paymentDue;
    if (change === 'payment_failed' && due) {
      const why = due.requiresAction ? 'the bank asks to confirm it' : (due.failure ?? 'the card was declined');
      await this.log(tx, after.id, 'payment_failed', `A payment of ${formatUsd(due.amountCents)} failed: ${why}`);
      this.notify(tx, after, 'card_declined', {
        username: after.username,
        amountCents: due.amountCents,
        reason: due.requiresAction
          ? 'your bank asks you to confirm the payment.'
          : sentence(due.failure ?? 'your card was declined'),
        link: this.payLink(due.payUrl),
      });
    } else if (change === 'payment_fixed') {
      await this.log(tx, after.id, 'payment_fixed', 'The unpaid invoice was paid');
    } else if (change === 'trial_unpaid') {
      await this.log(
        tx,
        after.id,
        'trial_ended_unpaid',
        'The first payment after the trial was not made in time: the trial ended without a plan',
      );
    } else if (change === 'ended') {
      await this.log(
        tx,
        after.id,
        'subscription_ended',
        `${planWithCycle(before.planName, before.billingCycle)} ended`,
      );
      this.notify(tx, after, 'subscription_ended', {
        username: after.username,
        planLabel: planWithCycle(before.planName, before.billingCycle),
        link: this.link(SITE_PATHS.plans),
      });
    }
    if (before.planName !== after.planName || before.billingCycle !== after.billingCycle) {
      if (isPaidPlanName(after.planName) || isPaidPlanName(before.planName)) {
        const from = planWithCycle(before.planName, before.billingCycle);
        await this.log(
          tx,
          after.id,
          'plan_changed',
          `Plan ${from} → ${planWithCycle(after.planName, after.billingCycle)}`,
        );
      }
    } else if (after.cancelAtPeriodEnd && !before.cancelAtPeriodEnd) {
      await this.log(tx, after.id, 'subscription_canceled', 'Set to end at the close of the paid period');
      this.notify(tx, after, 'subscription_ending', {
        username: after.username,
        planLabel: planWithCycle(after.planName, after.billingCycle),
        endsAt: after.currentPeriodEnd,
        link: this.link(SITE_PATHS.account),
      });
    } else if (!after.cancelAtPeriodEnd && before.cancelAtPeriodEnd && isPaidPlanName(after.planName)) {
      await this.log(tx, after.id, 'subscription_reactivated', 'Renews again at the end of the period');
    }
  }

  /** Sends `kind` to `user` once `tx` has committed (see `transaction`); nothing if it rolls back. */
  private notify<K extends MailKind>(tx: Database, user: NoticeRecipient, kind: K, data: MailData<K>): void {
    const after = this.afterCommit.get(tx);
    if (!after) {
      this.d.log.error({ userId: user.id, kind }, 'billing: a notice outside a settling transaction was not sent');
      return;
    }
    after.add(() => this.d.notices.send(user, kind, data));
  }

  /** What a refund took back, in words: what was left of what the payment granted. */
  private notifyRefund(
    tx: Database,
    user: NoticeRecipient,
    row: PaymentRow,
    refundedCents: number,
    reversed: Awaited<ReturnType<UsageService['reverseGrant']>> | null,
  ): void {
    const taken = reversed ? storedAmountsInWords(reversed.taken) : '';
    const spent = reversed ? storedAmountsInWords(reversed.unrecovered) : '';
    const takenBack = !reversed
      ? null
      : taken
        ? `${taken}${spent ? `; ${spent} of it had been used already` : ''}`
        : spent
          ? `nothing, as what it granted (${spent}) had been used already`
          : 'nothing, as nothing was left of what it granted';
    this.notify(tx, user, 'refund', {
      username: user.username,
      // A payment that granted nothing was a second subscription's (an account deleted gets no mail).
      description: reversed ? row.description : 'a second subscription, started while your plan ran',
      amountCents: refundedCents,
      takenBack,
      link: this.link(SITE_PATHS.account),
    });
  }

  private link(path: string): string {
    return this.d.notices.link(path);
  }

  /**
   * Where to pay a failed invoice: the provider's page (the offline provider's is a path on this
   * site), else the account page, which links to it.
   */
  private payLink(payUrl: string | null): string {
    if (!payUrl) return this.link(SITE_PATHS.account);
    return payUrl.startsWith('/') ? this.link(payUrl) : payUrl;
  }

  private log(tx: Database, userId: string, action: ActivityAction, details: string): Promise<void> {
    return this.d.activity.record({ userId, actorId: null, action, details }, tx);
  }

  /** Sets the part of the storage-slot total that comes with the plan, leaving bought and granted slots. */
  private async setPlanStorage(tx: Database, userId: string, slots: number): Promise<void> {
    const current = await this.d.usage.planStorageSlots(tx, userId);
    await this.d.usage.addStorageSlots(tx, userId, slots - current, { reason: 'plan', reference: null });
  }
}

/** A reason as a sentence: a full stop at its end. */
/** What the activity log says of a dispute's new state. */
function disputeNote(row: PaymentRow, status: DisputeStatus): string {
  const payment = `the payment of ${formatUsd(row.amountCents)} (${row.description})`;
  switch (status) {
    case 'inquiry':
      return `The bank asks about ${payment}: an inquiry, no money withdrawn, so nothing was taken back`;
    case 'inquiry_closed':
      return `The bank's inquiry about ${payment} closed without a chargeback`;
    case 'open':
      return `A chargeback of ${payment}: the money is withdrawn while the bank decides, and what is left of its grant was taken back`;
    default:
      return `The chargeback of ${payment} was ${status}`;
  }
}
