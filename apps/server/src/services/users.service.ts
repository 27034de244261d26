// What a user sees of their own account, and the onboarding ladder they climb.
import { BILLING_OWNED_STEPS, canAdvance, ONBOARDING_STEPS, type OnboardingStep, type User } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { UsageRepository } from '../repositories/usage.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import { toUserView } from './user-view.js';

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usage: UsageRepository,
    private readonly voices: VoicesRepository,
    private readonly clock: Clock,
  ) {}

  async view(user: UserRow): Promise<User> {
    const [tranches, storageUsed] = await Promise.all([
      this.usage.listForUser(user.id),
      this.voices.countByOwner(user.id),
    ]);
    return toUserView(user, tranches, storageUsed, this.clock.now());
  }

  /**
   * Moves the user's onboarding step forward. Asking for the current or an earlier step changes
   * nothing (two tabs may race), and steps that record a payment are only set by billing.
   */
  async advanceOnboarding(user: UserRow, step: OnboardingStep): Promise<User> {
    if (BILLING_OWNED_STEPS.includes(step)) {
      throw errors.forbidden('This onboarding step is reached through checkout, not set directly.');
    }
    const current = user.onboardingStep as OnboardingStep;
    if (!canAdvance(current, step)) return this.view(user);
    const updated = await this.users.update(user.id, { onboardingStep: step });
    if (!updated) throw errors.notFound('User');
    return this.view(updated);
  }

  /**
   * A user who gets a Voice (trains one or forks one) has passed "training started": the
   * dashboard then shows it rather than sending them back to the onboarding choice.
   */
  async reachedFirstVoice(user: Pick<UserRow, 'id'>, db?: Database): Promise<void> {
    const earlier = ONBOARDING_STEPS.filter((step) => canAdvance(step, 'training_started'));
    await this.users.moveOnboardingStep(user.id, earlier, 'training_started', db);
  }

  /**
   * Makes the configured account super admin (OWNVOICE_SUPER_ADMIN_EMAIL): the way in to the admin
   * console for the first administrator. Returns whether such an account exists yet.
   */
  async promoteSuperAdmin(email: string): Promise<boolean> {
    const user = await this.users.findByEmail(email);
    if (!user) return false;
    if (user.role !== 'super_admin') await this.users.update(user.id, { role: 'super_admin' });
    return true;
  }
}
