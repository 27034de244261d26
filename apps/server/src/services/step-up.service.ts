// Giving a credential again, signed in, before something sensitive. Wrong ones count against the
// session (services/login-guard.ts): five in a row end it, so a stolen session cannot guess for ever.
//
// confirm            a fresh second factor for sensitive admin actions (roles, deletion, grants,
//                    invitations, limits, refunds): the request carries a current authenticator code
//                    or a backup code in `x-mfa-token`, used up by this check. A right one opens a short
//                    confirmed window for the session (ADMIN_CONFIRMED_WINDOW_MS, like GitHub's sudo
//                    mode) in which the next actions need none; outside it the answer says a code is
//                    needed (requiresMFAToken) and nothing changes. A code sent inside the window is
//                    still checked.
// confirmPassword    the current password, and a code when two-factor is on: changing the password or
//                    the address, making an API key (a key outlives the session that made it).
import { ADMIN_CONFIRMED_WINDOW_MS, EMAIL_MESSAGES } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import { AppError, errors } from '../errors.js';
import type { LoginGuard } from './login-guard.js';
import type { MfaService } from './mfa.service.js';
import { verifyPassword } from './passwords.js';
import type { SessionContext, SessionsService } from './sessions.service.js';

/** What a signed-in action gives again: the current password, and a code when two-factor is on. */
export interface Credentials {
  currentPassword: string;
  mfaToken?: string | undefined;
}

export class StepUpService {
  constructor(
    private readonly mfa: Pick<MfaService, 'checkCode'>,
    private readonly guard: Pick<LoginGuard, 'check'>,
    private readonly sessions: Pick<SessionsService, 'setConfirmedUntil'>,
    private readonly clock: Clock,
  ) {}

  async confirm({ user, session }: SessionContext, code: string | undefined): Promise<void> {
    const now = this.clock.now();
    if (!code) {
      if (this.confirmedUntil({ user, session }) !== null) return;
      throw errors.mfaTokenRequired();
    }
    await this.guard.check(user, session.id, 'Wrong code to confirm an admin action', async () =>
      (await this.mfa.checkCode(user, code)) ? undefined : errors.mfaTokenRejected(),
    );
    await this.sessions.setConfirmedUntil(session.id, new Date(now.getTime() + ADMIN_CONFIRMED_WINDOW_MS));
  }

  /**
   * The current password again, and a code with two-factor on; `what` names a wrong try in the
   * security log. 400, not 401, as the caller is signed in.
   */
  async confirmPassword({ user, session }: SessionContext, input: Credentials, what: string): Promise<void> {
    // No code is no guess: asked for before anything is checked or counted.
    if (user.mfaEnabled && !input.mfaToken) throw new AppError(400, 'MFA_REQUIRED', EMAIL_MESSAGES.codeNeeded);
    await this.guard.check(user, session.id, what, async () => {
      if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
        return new AppError(400, 'INVALID_CREDENTIALS', EMAIL_MESSAGES.wrongPassword);
      }
      if (!user.mfaEnabled || !input.mfaToken) return undefined;
      return (await this.mfa.checkCode(user, input.mfaToken)) ? undefined : errors.wrongCode();
    });
  }

  /** Until when this session's actions need no code, or null when the next one needs one. */
  confirmedUntil({ session }: SessionContext): Date | null {
    const until = session.confirmedUntil;
    return until && until > this.clock.now() ? until : null;
  }

  /** Ends the window now: the next action needs a code again. */
  async endConfirmation({ session }: SessionContext): Promise<void> {
    await this.sessions.setConfirmedUntil(session.id, null);
  }
}
