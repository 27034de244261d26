// The Edit limits form: its starting values from the user, and the request body it sends: only
// what the admin changed, checked against the shared limitsBodySchema.
import {
  type BillingCycle,
  firstIssueMessage,
  type LimitsBody,
  limitsBodySchema,
  type OnboardingStep,
  type PlanName,
  type SubscriptionStatus,
  type TrancheType,
  type User,
} from '@ownvoice/shared';

export interface LimitsFormValues {
  /** A usage grant: all three or none. */
  grantType: TrancheType | null;
  grantAmount: number | '';
  /** `YYYY-MM-DD`, from a date input; the grant lasts to the end of that day (UTC). */
  grantExpiry: string;
  storageSlotsTotal: number | '';
  planName: PlanName;
  billingCycle: BillingCycle | null;
  onboardingStep: OnboardingStep;
  subscriptionStatus: SubscriptionStatus | null;
}

export const LIMITS_FORM_MESSAGES = {
  grantIncomplete: 'A usage grant needs a resource, an amount and an expiry date',
  grantAmount: 'Grant at least 1',
  expiryInvalid: 'Pick a valid expiry date',
  expiryPast: 'The expiry date must be in the future',
} as const;

export function limitsFormFrom(user: User): LimitsFormValues {
  return {
    grantType: null,
    grantAmount: '',
    grantExpiry: '',
    storageSlotsTotal: user.usageLimits.modelStorageSlotsTotal,
    planName: user.plan.name,
    billingCycle: user.plan.billingCycle,
    onboardingStep: user.onboarding.step,
    subscriptionStatus: user.subscription.status,
  };
}

/** The end of a `YYYY-MM-DD` day in UTC as an ISO time; null when it is no date. */
export function expiryIso(date: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const end = new Date(`${date}T23:59:59.000Z`);
  // "2026-02-30" parses as March 2: refuse dates the calendar lacks.
  return Number.isNaN(end.getTime()) || end.toISOString().slice(0, 10) !== date ? null : end.toISOString();
}

export type LimitsBodyResult = { ok: true; body: LimitsBody } | { ok: false; message: string };

type UsageGrantResult = { ok: true; grant: LimitsBody['usageGrant'] } | { ok: false; message: string };

function usageGrant(values: LimitsFormValues, now: Date): UsageGrantResult {
  const { grantType, grantAmount, grantExpiry } = values;
  const given = [grantType !== null, grantAmount !== '', grantExpiry !== ''];
  if (given.every((g) => !g)) return { ok: true, grant: undefined };
  if (grantType === null || grantAmount === '' || grantExpiry === '') {
    return { ok: false, message: LIMITS_FORM_MESSAGES.grantIncomplete };
  }
  if (grantAmount < 1) return { ok: false, message: LIMITS_FORM_MESSAGES.grantAmount };
  const expiresAt = expiryIso(grantExpiry);
  if (expiresAt === null) return { ok: false, message: LIMITS_FORM_MESSAGES.expiryInvalid };
  if (new Date(expiresAt).getTime() <= now.getTime()) return { ok: false, message: LIMITS_FORM_MESSAGES.expiryPast };
  return { ok: true, grant: { type: grantType, amount: grantAmount, expiresAt } };
}

/** The request body for what changed; an unchanged form fails with the schema's own message. */
export function limitsRequestBody(values: LimitsFormValues, user: User, now: Date = new Date()): LimitsBodyResult {
  const grant = usageGrant(values, now);
  if (!grant.ok) return grant;

  const slots = values.storageSlotsTotal;
  const planChanged =
    values.planName !== user.plan.name || (values.billingCycle ?? null) !== (user.plan.billingCycle ?? null);
  const body: LimitsBody = {
    ...(grant.grant ? { usageGrant: grant.grant } : {}),
    ...(slots !== '' && slots !== user.usageLimits.modelStorageSlotsTotal
      ? { usageLimits: { modelStorageSlotsTotal: slots } }
      : {}),
    ...(planChanged
      ? { plan: { name: values.planName, ...(values.billingCycle ? { billingCycle: values.billingCycle } : {}) } }
      : {}),
    ...(values.onboardingStep !== user.onboarding.step ? { onboarding: { step: values.onboardingStep } } : {}),
    ...(values.subscriptionStatus !== null && values.subscriptionStatus !== user.subscription.status
      ? { subscription: { status: values.subscriptionStatus } }
      : {}),
  };

  const parsed = limitsBodySchema.safeParse(body);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, message: firstIssueMessage(parsed.error) };
}

/** "training_started" reads "Training started". */
export const stepLabel = (step: string): string => {
  const words = step.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
