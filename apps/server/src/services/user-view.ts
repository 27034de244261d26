// Turns stored rows into the User the API answers with (the shared userSchema). Only this shape
// leaves the server; the response schema strips anything else.
import {
  ONBOARDING_STEPS,
  type OnboardingStep,
  payNowDiscountAvailable,
  TRANCHE_TYPES,
  TRIAL_LENGTH_MS,
  type Tranche,
  type TrancheType,
  type User,
} from '@ownvoice/shared';
import type { TrancheAmount, UserViewRow } from '../repositories/user-usage.js';
import { STORED_UNITS } from './usage.service.js';

const asStep = (value: string): OnboardingStep =>
  (ONBOARDING_STEPS as readonly string[]).includes(value) ? (value as OnboardingStep) : 'registered';

/** Only tranches that have not expired and still hold something count towards usage limits. */
export function liveTranches(rows: TrancheAmount[], type: TrancheType, now: Date): Tranche[] {
  return rows
    .filter((r) => r.type === type && r.amount > 0 && r.expiresAt.getTime() > now.getTime())
    .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
    .map((r) => ({ amount: r.amount / STORED_UNITS[type], expiresAt: r.expiresAt.toISOString() }));
}

export function toUserView(user: UserViewRow, tranches: TrancheAmount[], storageSlotsUsed: number, now: Date): User {
  const lists = Object.fromEntries(TRANCHE_TYPES.map((t) => [t, liveTranches(tranches, t, now)])) as Record<
    TrancheType,
    Tranche[]
  >;
  return {
    id: user.id,
    _id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    mfaEnabled: user.mfaEnabled,
    emailVerified: user.emailVerifiedAt !== null,
    pendingEmail: user.pendingEmail,
    mutedNotices: user.mutedNotices,
    plan: {
      name: user.planName,
      billingCycle: user.billingCycle ?? null,
      payNowDiscount: user.payNowDiscount,
      trialEndsAt:
        user.planName === 'trial' && user.trialStartedAt
          ? new Date(user.trialStartedAt.getTime() + TRIAL_LENGTH_MS).toISOString()
          : null,
      payNowAvailable: payNowDiscountAvailable({
        planName: user.planName,
        hadPlan: user.grantedPlan !== null,
        hasSubscription: user.providerSubscriptionId !== null,
      }),
      trialRefused: user.trialRefusedAt !== null && user.planName === 'none',
    },
    subscription: {
      status: user.subscriptionStatus ?? null,
      cancelAtPeriodEnd: user.cancelAtPeriodEnd,
      stripeSubscriptionId: user.providerSubscriptionId ?? null,
      currentPeriodEnd: user.currentPeriodEnd?.toISOString() ?? null,
      pendingChange: user.pendingPlan
        ? {
            plan: user.pendingPlan,
            billingCycle: user.pendingBillingCycle ?? null,
            effectiveAt: user.pendingEffectiveAt?.toISOString() ?? null,
            applyForSubscriptionId: user.pendingForSubscriptionId ?? null,
          }
        : null,
      paymentDue: user.paymentDue
        ? {
            amountCents: user.paymentDue.amountCents,
            payUrl: user.paymentDue.payUrl,
            failure: user.paymentDue.failure,
            requiresAction: user.paymentDue.requiresAction,
            startsPlan: user.paymentDue.blocksPlan,
          }
        : null,
    },
    onboarding: { step: asStep(user.onboardingStep) },
    usageLimits: {
      modelStorageSlotsTotal: user.modelStorageSlotsTotal,
      modelStorageSlotsUsed: storageSlotsUsed,
      ...lists,
    },
    credits: user.credits,
    createdAt: user.createdAt.toISOString(),
  };
}
