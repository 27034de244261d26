// What an admin can do to an account: change its role, delete it, grant credits, edit its limits.
// Each runs in one transaction with its activity row (actor, target, before and after), after
// the policy (policies/adminPolicy) said yes under a lock of the rows it reads. Role changes and
// deletion end the target's sessions at once. The route checked a fresh second factor first.
import {
  type GrantCreditsBody,
  isPaidPlanName,
  type LimitsBody,
  PLAN_LABELS,
  ROLE_LABELS,
  type Role,
  resourceAmount,
  type User,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import { adminPolicy } from '../policies/index.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { AccountService } from './account.service.js';
import type { ActivityService } from './activity.service.js';
import type { BillingService } from './billing/billing.service.js';
import type { InvitationsService } from './invitations.service.js';
import type { SessionsService } from './sessions.service.js';
import type { UsageService } from './usage.service.js';
import type { UsersService } from './users.service.js';

type Change = Parameters<typeof adminPolicy.refusalToActOn>[2];

export interface AdminActionsServiceDeps {
  db: Database;
  users: UsersRepository;
  usersService: Pick<UsersService, 'view'>;
  usage: Pick<UsageService, 'grant' | 'addStorageSlots' | 'addCredits'>;
  /** Deletes an account as its owner's deletion does. */
  account: Pick<AccountService, 'erase'>;
  billing: Pick<BillingService, 'info' | 'setStatusForAdmin'>;
  activity: Pick<ActivityService, 'record'>;
  sessions: Pick<SessionsService, 'revokeAllForUser'>;
  /** Revokes the invitations a demoted admin could no longer send. */
  invitations: Pick<InvitationsService, 'revokeLostRights'>;
  clock: Clock;
}

export class AdminActionsService {
  private readonly db: Database;
  private readonly users: UsersRepository;
  private readonly usersService: Pick<UsersService, 'view'>;
  private readonly usage: Pick<UsageService, 'grant' | 'addStorageSlots' | 'addCredits'>;
  private readonly account: Pick<AccountService, 'erase'>;
  private readonly billing: Pick<BillingService, 'info' | 'setStatusForAdmin'>;
  private readonly activity: Pick<ActivityService, 'record'>;
  private readonly sessions: Pick<SessionsService, 'revokeAllForUser'>;
  private readonly invitations: Pick<InvitationsService, 'revokeLostRights'>;
  private readonly clock: Clock;

  constructor({
    db,
    users,
    usersService,
    usage,
    account,
    billing,
    activity,
    sessions,
    invitations,
    clock,
  }: AdminActionsServiceDeps) {
    this.db = db;
    this.users = users;
    this.usersService = usersService;
    this.usage = usage;
    this.account = account;
    this.billing = billing;
    this.activity = activity;
    this.sessions = sessions;
    this.invitations = invitations;
    this.clock = clock;
  }

  async changeRole(actor: UserRow, targetId: string, role: Role): Promise<User> {
    const updated = await this.db.transaction(async (tx) => {
      const target = await this.allowed(tx, actor, targetId, { kind: 'role', role });
      const row = (await this.users.update(target.id, { role }, tx)) ?? target;
      // Invitations they could send before and cannot now die with the change.
      await this.invitations.revokeLostRights(tx, target, role);
      await this.activity.record(
        {
          userId: target.id,
          actorId: actor.id,
          action: 'role_changed',
          details:
            target.role === role
              ? `Role left as ${ROLE_LABELS[role]}`
              : `Role changed from ${ROLE_LABELS[target.role]} to ${ROLE_LABELS[role]}`,
          before: { role: target.role },
          after: { role },
        },
        tx,
      );
      return row;
    });
    // Every device signs in again, under the new role's rules.
    await this.sessions.revokeAllForUser(targetId);
    return this.usersService.view(updated);
  }

  async deleteUser(actor: UserRow, targetId: string): Promise<void> {
    const target = await this.users.findById(targetId);
    if (!target) throw errors.notFound('User');
    await this.account.erase(
      target,
      {
        userId: target.id,
        actorId: actor.id,
        action: 'user_deleted',
        details: `Deleted the account ${target.username} and everything it owned`,
        before: { role: target.role, plan: target.planName },
      },
      // Asked again inside the deletion's transaction, so the answer holds when the rows go.
      async (tx) => {
        await this.allowed(tx, actor, targetId, { kind: 'delete' });
      },
    );
  }

  async grantCredits(actor: UserRow, body: GrantCreditsBody): Promise<User> {
    const updated = await this.db.transaction(async (tx) => {
      const target = await this.allowed(tx, actor, body.userId, { kind: 'grant' });
      await this.usage.addCredits(tx, target.id, body.amount, { reason: 'admin', reference: null, authorId: actor.id });
      await this.activity.record(
        {
          userId: target.id,
          actorId: actor.id,
          action: 'credits_granted',
          details: `Granted ${body.amount} credits: ${body.reason}`,
          before: { credits: target.credits },
          after: { credits: target.credits + body.amount, reason: body.reason },
        },
        tx,
      );
      return (await this.users.findById(target.id, tx)) ?? target;
    });
    return this.usersService.view(updated);
  }

  async updateLimits(actor: UserRow, targetId: string, body: LimitsBody): Promise<User> {
    const now = this.clock.now();
    const grant = body.usageGrant;
    if (grant && new Date(grant.expiresAt).getTime() <= now.getTime()) {
      throw errors.validation('The usage grant must expire in the future.');
    }
    // With payments on, the plan and the subscription are the provider's (decision 20.6).
    const status = body.subscription?.status;
    const statusBefore = status ? await this.applyStatusThroughProvider(actor, targetId, body) : undefined;
    const updated = await this.db.transaction(async (tx) => {
      const target = await this.allowed(tx, actor, targetId, { kind: 'limits' });
      if (body.plan && this.billing.info().provider !== 'none') this.refusePlanEdit(target, body.plan.name);
      const cause = { reason: 'admin', reference: null, authorId: actor.id } as const;
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      const said: string[] = [];
      if (grant) {
        const expiresAt = new Date(grant.expiresAt);
        await this.usage.grant(
          tx,
          target.id,
          { tranches: [{ type: grant.type, amount: grant.amount, expiresAt }] },
          cause,
        );
        after.usageGrant = grant;
        said.push(`granted ${resourceAmount(grant.type, grant.amount)} until ${grant.expiresAt.slice(0, 10)}`);
      }
      const patch: Partial<UserRow> = {};
      const slots = body.usageLimits?.modelStorageSlotsTotal;
      if (slots !== undefined) {
        await this.usage.addStorageSlots(tx, target.id, slots - target.modelStorageSlotsTotal, cause);
        note('modelStorageSlotsTotal', target.modelStorageSlotsTotal, slots, 'storage slots');
      }
      if (body.plan) {
        const cycle = body.plan.name === 'none' ? null : (body.plan.billingCycle ?? target.billingCycle);
        patch.planName = body.plan.name;
        patch.billingCycle = cycle;
        note('plan', target.planName, body.plan.name, 'plan', PLAN_LABELS);
        if (cycle !== target.billingCycle) note('billingCycle', target.billingCycle, cycle, 'billing cycle');
      }
      if (body.onboarding) {
        patch.onboardingStep = body.onboarding.step;
        note('onboardingStep', target.onboardingStep, body.onboarding.step, 'onboarding step');
      }
      if (body.subscription) {
        if (statusBefore === undefined) patch.subscriptionStatus = body.subscription.status;
        note(
          'subscriptionStatus',
          statusBefore ?? target.subscriptionStatus,
          body.subscription.status,
          'subscription status',
        );
      }
      if (Object.keys(patch).length) await this.users.update(target.id, { ...patch, updatedAt: now }, tx);
      await this.activity.record(
        {
          userId: target.id,
          actorId: actor.id,
          action: 'limits_changed',
          details: capitalise(said.join('; ')),
          before,
          after,
        },
        tx,
      );
      return (await this.users.findById(target.id, tx)) ?? target;

      function note(key: string, from: unknown, to: unknown, label: string, names?: Record<string, string>): void {
        before[key] = from;
        after[key] = to;
        const say = (value: unknown) => (value === null ? 'none' : (names?.[String(value)] ?? String(value)));
        said.push(`${label} ${say(from)} → ${say(to)}`);
      }
    });
    return this.usersService.view(updated);
  }

  /**
   * With payments on, a subscription status edit is the person's own Cancel or Reactivate, done
   * through the provider; answers the status before it. Undefined on a server without payments,
   * where the edit is only the row's.
   */
  private async applyStatusThroughProvider(
    actor: UserRow,
    targetId: string,
    body: LimitsBody,
  ): Promise<UserRow['subscriptionStatus'] | undefined> {
    const status = body.subscription?.status;
    if (!status || this.billing.info().provider === 'none') return undefined;
    const target = await this.db.transaction((tx) => this.allowed(tx, actor, targetId, { kind: 'limits' }));
    if (body.plan) this.refusePlanEdit(target, body.plan.name);
    if (!(await this.billing.setStatusForAdmin(target, status))) {
      throw errors.planManagedByProvider(
        `${target.username} has no paid subscription, so there is nothing to cancel or reactivate.`,
      );
    }
    return target.subscriptionStatus;
  }

  /** A plan that payments manage is not edited by hand: it would charge one thing and give another. */
  private refusePlanEdit(target: UserRow, plan: UserRow['planName']): void {
    if (target.providerSubscriptionId && isPaidPlanName(target.planName)) {
      throw errors.planManagedByProvider(
        `${target.username} pays for ${PLAN_LABELS[target.planName]} through a subscription, so their plan changes only when they change or cancel it. To give them more, grant usage instead.`,
      );
    }
    if (plan !== 'none') {
      throw errors.planManagedByProvider(
        'On this server plans come with their payment, so an admin cannot set one (a plan given for nothing would unlock what it includes, such as priority support). Grant usage instead.',
      );
    }
  }

  /** The target, locked for this transaction, once the policy allows the change; else 404 or 403. */
  private async allowed(tx: Database, actor: UserRow, targetId: string, change: Change): Promise<UserRow> {
    // Super admins are locked first (always in this order), so two demotions cannot both pass.
    const superAdmins = await this.users.lockSuperAdmins(tx);
    const target = await this.users.lockById(tx, targetId);
    if (!target) throw errors.notFound('User');
    const refusal = adminPolicy.refusalToActOn(actor, target, change, superAdmins);
    if (refusal) throw errors.forbidden(refusal);
    return target;
  }
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
