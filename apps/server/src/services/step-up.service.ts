// A fresh second factor for sensitive admin actions (roles, deletion, grants, invitations,
// limits, refunds): the request carries a current authenticator code or a backup code in
// `x-mfa-token`, used up by this check. A right one opens a short confirmed window for the session
// (ADMIN_CONFIRMED_WINDOW_MS, like GitHub's sudo mode) in which the next actions need none; outside
// it the answer says a code is needed (requiresMFAToken) and nothing changes. A code sent inside the
// window is still checked. Wrong codes count against the session (services/login-guard.ts): five in
// a row end it.
import { ADMIN_CONFIRMED_WINDOW_MS } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type { LoginGuard } from './login-guard.js';
import type { MfaService } from './mfa.service.js';
import type { SessionContext, SessionsService } from './sessions.service.js';

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
