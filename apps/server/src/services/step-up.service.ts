// A fresh second factor for sensitive admin actions (roles, deletion, grants, invitations,
// limits): the request carries a current authenticator code or a backup code in `x-mfa-token`,
// used up by this check. Without one the answer says so (requiresMFAToken) and nothing changes.
// Wrong codes count against the session (services/login-guard.ts): five in a row end it.
import { errors } from '../errors.js';
import type { LoginGuard } from './login-guard.js';
import type { MfaService } from './mfa.service.js';
import type { AuthContext } from './sessions.service.js';

export class StepUpService {
  constructor(
    private readonly mfa: Pick<MfaService, 'checkCode'>,
    private readonly guard: Pick<LoginGuard, 'check'>,
  ) {}

  async confirm({ user, session }: AuthContext, code: string | undefined): Promise<void> {
    if (!code) throw errors.mfaTokenRequired();
    await this.guard.check(user, session.id, 'Wrong code to confirm an admin action', async () =>
      (await this.mfa.checkCode(user, code)) ? undefined : errors.mfaTokenRejected(),
    );
  }
}
