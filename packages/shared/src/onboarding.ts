// The onboarding ladder (the steps a user climbs from sign-up to a paid plan) and the route gating
// built on it; which step a client may set is docs/decisions/0010-interactive-sessions-refunds-onboarding.md.
import { isPaidPlanName } from './billing/catalog.js';
import { isAdminRole, type PlanName, type Role } from './constants.js';

export const ONBOARDING_STEPS = [
  'registered',
  'choice',
  'pay_later_setup_started',
  'trial_ready',
  'pay_now_plans',
  'plan_checkout_started',
  'plan_active',
  'training_started',
  'rephrasing_tour_complete',
  'activation_tour_complete',
  'convert_quickstart_complete',
  'create_quickstart_complete',
  'tutorial_complete',
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** The steps before `step` on the ladder. */
export function stepsBefore(step: OnboardingStep): readonly OnboardingStep[] {
  return ONBOARDING_STEPS.slice(0, ONBOARDING_STEPS.indexOf(step));
}

/** Steps that only the billing flow may set; a client asking for them is refused. */
export const BILLING_OWNED_STEPS: readonly OnboardingStep[] = [
  'pay_later_setup_started',
  'trial_ready',
  'plan_checkout_started',
  'plan_active',
];

/**
 * The steps a client may set, each with the steps it may be reached from: each belongs to one
 * action on a screen (Skip this step or a first Voice; the Create tour; a first awake Voice; a
 * first conversion; the Create quickstart). Any other move, and any step not listed (the billing
 * steps, and tutorial_complete, which needs a finished plan choice), is not the client's to make.
 */
export const CLIENT_STEP_SOURCES: Partial<Record<OnboardingStep, readonly OnboardingStep[]>> = {
  choice: ['registered'],
  pay_now_plans: ['registered', 'choice'],
  // Any step before it: a first Voice (or skipping it) comes whatever was chosen about paying.
  training_started: stepsBefore('training_started'),
  rephrasing_tour_complete: ['training_started'],
  activation_tour_complete: ['training_started', 'rephrasing_tour_complete'],
  convert_quickstart_complete: ['activation_tour_complete'],
  create_quickstart_complete: ['convert_quickstart_complete'],
};

/**
 * Finish tutorial (on the plans page) ends onboarding: from the Create quickstart, on a paid plan.
 * A trial user finishes the trial first, which starts the minimum plan.
 */
export const mayFinishTutorial = (step: OnboardingStep, plan: PlanName): boolean =>
  step === 'create_quickstart_complete' && isPaidPlan(plan);

/**
 * Admins skip onboarding (the choice screen's bypass): they may set tutorial_complete from any
 * step, whatever their plan.
 */
export const mayBypassOnboarding = (role: Role): boolean => isAdminRole(role);

/** Whether a client may move a user from `from` to `to`. */
export const clientMayMoveTo = (from: OnboardingStep, to: OnboardingStep): boolean =>
  CLIENT_STEP_SOURCES[to]?.includes(from) ?? false;

export const stepIndex = (step: OnboardingStep): number => ONBOARDING_STEPS.indexOf(step);

/** True when `a` is at or after `b` on the ladder. */
export const isAtLeast = (a: OnboardingStep, b: OnboardingStep): boolean => stepIndex(a) >= stepIndex(b);

/** Steps only move forward: a patch to an earlier or equal step changes nothing. */
export const canAdvance = (from: OnboardingStep, to: OnboardingStep): boolean => stepIndex(to) > stepIndex(from);

export const isOnboardingActive = (step: OnboardingStep): boolean => !isAtLeast(step, 'tutorial_complete');

/** A paid plan is a plan that exists and is not the trial. */
/** A plan someone pays for (not the trial, not none); the list lives in the price table. */
export const isPaidPlan = (plan: PlanName | null | undefined): boolean => plan != null && isPaidPlanName(plan);

export type GatedArea = 'onboarding' | 'account' | 'create' | 'convert' | 'loras' | 'dashboard' | 'plans' | 'other';

/** Which gated area a signed-in path belongs to: the web app's private-route guard decides by it. */
export function areaOfPath(pathname: string): GatedArea {
  if (pathname.startsWith('/onboarding')) return 'onboarding';
  if (pathname.startsWith('/dashboard/account')) return 'account';
  if (pathname.startsWith('/dashboard/create')) return 'create';
  if (pathname.startsWith('/dashboard/convert')) return 'convert';
  if (pathname.startsWith('/dashboard/loras') || pathname.startsWith('/dashboard/public-loras')) return 'loras';
  if (pathname.startsWith('/dashboard/plans')) return 'plans';
  if (pathname === '/dashboard' || pathname === '/dashboard/') return 'dashboard';
  return 'other';
}

/**
 * Whether a user still onboarding may open a path; when false the guard sends them to
 * /onboarding/choice. Users past onboarding or on a paid plan may open everything.
 */
export function mayOpenWhileOnboarding(pathname: string, step: OnboardingStep, plan: PlanName): boolean {
  if (!isOnboardingActive(step) || isPaidPlan(plan)) return true;
  switch (areaOfPath(pathname)) {
    case 'onboarding':
    case 'account':
    case 'create':
    case 'convert':
    case 'loras':
      return true;
    case 'dashboard':
      return isAtLeast(step, 'training_started');
    case 'plans':
      return isAtLeast(step, 'create_quickstart_complete');
    default:
      return false;
  }
}

/** Navbar links to Convert and Create are greyed until this step; Plans until the next. */
export const mayUseConvertAndCreate = (step: OnboardingStep, plan: PlanName): boolean =>
  !isOnboardingActive(step) || isPaidPlan(plan) || isAtLeast(step, 'training_started');
export const mayUsePlans = (step: OnboardingStep, plan: PlanName): boolean =>
  !isOnboardingActive(step) || isPaidPlan(plan) || isAtLeast(step, 'create_quickstart_complete');
