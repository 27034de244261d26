// Wrong passwords and wrong second-factor codes count against the account: five in a row lock it
// for two hours. Sign-in and the admin console's fresh-code check share this count, so a stolen
// admin session cannot guess codes where a stolen password could not.
import { ACCOUNT_LOCK_MS, MAX_FAILED_LOGINS } from '@ownvoice/shared';
import type { UserRow } from '../db/schema.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ActivityService } from './activity.service.js';

export class FailedAttempts {
  constructor(
    private readonly users: UsersRepository,
    private readonly activity: Pick<ActivityService, 'record'>,
  ) {}

  /** Counts one failure and logs it; true when it locked the account. */
  async count(user: UserRow, now: Date, what: string): Promise<boolean> {
    // A lock that has run out starts a fresh count.
    let failures: number;
    if (user.lockedUntil && user.lockedUntil <= now) {
      await this.users.update(user.id, { failedLoginCount: 1, lockedUntil: null });
      failures = 1;
    } else {
      failures = await this.users.incrementFailedLogins(user.id);
    }
    await this.activity.record({ userId: user.id, actorId: user.id, action: 'login_failed', details: what });
    if (failures < MAX_FAILED_LOGINS) return false;
    await this.users.update(user.id, { failedLoginCount: 0, lockedUntil: new Date(now.getTime() + ACCOUNT_LOCK_MS) });
    await this.activity.record({
      userId: user.id,
      actorId: null,
      action: 'account_locked',
      details: `Locked for ${ACCOUNT_LOCK_MS / 3_600_000} hours after ${MAX_FAILED_LOGINS} failed attempts in a row`,
    });
    return true;
  }

  /** A right code or password: the count starts again. */
  async reset(user: UserRow): Promise<void> {
    if (user.failedLoginCount > 0) await this.users.update(user.id, { failedLoginCount: 0 });
  }
}
