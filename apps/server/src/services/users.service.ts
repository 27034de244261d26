// What a user sees of their own account, and the onboarding ladder they climb.
import {
  BILLING_OWNED_STEPS,
  CLIENT_STEP_SOURCES,
  canAdvance,
  mayBypassOnboarding,
  mayFinishTutorial,
  type OnboardingStep,
  stepsBefore,
  type User,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { UsageRepository } from '../repositories/usage.repository.js';
import type { UserUsage, UserViewRow } from '../repositories/user-usage.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { toUserView } from './user-view.js';

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usage: UsageRepository,
    private readonly clock: Clock,
  ) {}

  /** The user as they see themselves; `usage` when the caller read it already (with the session). */
  async view(user: UserViewRow, usage?: UserUsage): Promise<User> {
    const now = this.clock.now();
    const { tranches, storageSlotsUsed } = usage ?? (await this.usage.ofUser(user.id, now));
    return toUserView(user, tranches, storageSlotsUsed, now);
  }

  /**
   * Moves the user's onboarding step forward, only along the moves a client may make
   * (CLIENT_STEP_SOURCES). Asking for the current or an earlier step changes nothing (two tabs
   * may race); steps that record a payment are not set directly, and the end of the tutorial comes
   * after the Create quickstart on a paid plan, or from any step for an admin (the bypass).
   */
  async advanceOnboarding(user: UserRow, step: OnboardingStep): Promise<User> {
    if (BILLING_OWNED_STEPS.includes(step)) {
      throw errors.forbidden('This onboarding step is reached through checkout, not set directly.');
    }
    const current = user.onboardingStep as OnboardingStep;
    if (!canAdvance(current, step)) return this.view(user);
    if (step === 'tutorial_complete' && mayBypassOnboarding(user.role)) {
      return this.moveAndView(user, stepsBefore('tutorial_complete'), step);
    }
    if (step === 'tutorial_complete' && !mayFinishTutorial(current, user.planName)) {
      throw errors.forbidden(
        'Finish tutorial comes after the Create quickstart, on a paid plan: finish the trial or choose a plan first.',
      );
    }
    const sources: readonly OnboardingStep[] | undefined =
      step === 'tutorial_complete' ? ['create_quickstart_complete'] : CLIENT_STEP_SOURCES[step];
    if (!sources) {
      throw errors.forbidden('The tutorial is finished from the Plans page once a plan is chosen, not set directly.');
    }
    if (!sources.includes(current)) {
      throw errors.forbidden(`Onboarding cannot move from ${current} to ${step}: finish the steps before it first.`);
    }
    return this.moveAndView(user, sources, step);
  }

  private async moveAndView(user: UserRow, sources: readonly OnboardingStep[], step: OnboardingStep): Promise<User> {
    // Conditional on the step still being one it may come from: a racing tab changes nothing.
    await this.users.moveOnboardingStep(user.id, sources, step);
    const updated = await this.users.findById(user.id);
    if (!updated) throw errors.notFound('User');
    return this.view(updated);
  }

  /**
   * A user who gets a Voice (trains one or forks one) has passed "training started": the
   * dashboard then shows it rather than sending them back to the onboarding choice.
   */
  async reachedFirstVoice(user: Pick<UserRow, 'id'>, db?: Database): Promise<void> {
    await this.users.moveOnboardingStep(user.id, stepsBefore('training_started'), 'training_started', db);
  }
}
