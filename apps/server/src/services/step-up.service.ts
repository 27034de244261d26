// A fresh second factor for sensitive admin actions (roles, deletion, grants, invitations,
// limits): the request carries a current authenticator code or a backup code in `x-mfa-token`,
// used up by this check. Without one the answer says so (requiresMFAToken) and nothing changes.
import { ACCOUNT_LOCK_MS } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { FailedAttempts } from './failed-attempts.js';
import type { MfaService } from './mfa.service.js';
import type { SessionsService } from './sessions.service.js';

export class StepUpService {
  constructor(
    private readonly mfa: Pick<MfaService, 'checkCode'>,
    private readonly failures: FailedAttempts,
    private readonly sessions: Pick<SessionsService, 'revokeAllForUser'>,
    private readonly clock: Clock,
  ) {}

  async confirm(user: UserRow, code: string | undefined): Promise<void> {
    if (!code) throw errors.mfaTokenRequired();
    if (await this.mfa.checkCode(user, code)) {
      await this.failures.reset(user);
      return;
    }
    const now = this.clock.now();
    if (await this.failures.count(user, now, 'Wrong code to confirm an admin action')) {
      // Locked: every session ends, so the lock holds for whoever holds this one too.
      await this.sessions.revokeAllForUser(user.id);
      throw errors.accountLocked(ACCOUNT_LOCK_MS / 1000);
    }
    throw errors.mfaTokenRejected();
  }
}
