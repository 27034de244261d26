// Two-factor authentication: setup hands out a pending secret and its QR code; verifying a code
// from it turns two-factor on and returns ten one-time backup codes (stored hashed); a current
// code or a backup code turns it off and signs in. Each TOTP code is accepted once. Turning it on
// ends the account's other sessions (they were made without a code); wrong codes to turn it off
// count against the session (services/login-guard.ts). It needs a confirmed address: on an address
// someone else signed up with, it would ask its owner for the squatter's code (decision 33).
import { createHash, randomInt } from 'node:crypto';
import { normalizeLoginCode } from '@ownvoice/shared';
import QRCode from 'qrcode';
import type { Clock } from '../clock.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import { SITE_PATHS } from '../mail/site-paths.js';
import type { MfaRepository } from '../repositories/mfa.repository.js';
import type { SecretBox } from '../security/secret-box.js';
import { matchTotp, newTotpSecret, totpUri } from '../security/totp.js';
import type { ActivityService } from './activity.service.js';
import type { LoginGuard } from './login-guard.js';
import type { Notices } from './notices.js';
import type { SessionContext, SessionsService } from './sessions.service.js';

export const BACKUP_CODE_COUNT = 10;
/** No 0/o, 1/l/i: codes people copy by hand. */
const BACKUP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Backup codes are compared as normalizeLoginCode leaves them: "ABCD-efgh" is "abcdefgh". */
const hashBackupCode = (code: string): string => createHash('sha256').update(normalizeLoginCode(code)).digest('hex');

function newBackupCode(): string {
  const chars = Array.from({ length: 8 }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

export class MfaService {
  constructor(
    private readonly mfa: MfaRepository,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly activity: Pick<ActivityService, 'record'>,
    private readonly sessions: Pick<SessionsService, 'revokeOthers'>,
    private readonly guard: Pick<LoginGuard, 'check'>,
    /** Tells the account's address when two-factor is turned on or off (a required notice). */
    private readonly notices?: Pick<Notices, 'send' | 'link'>,
  ) {}

  async setup(user: UserRow): Promise<{ secret: string; qrCode: string }> {
    if (user.mfaEnabled) throw errors.mfaAlreadyEnabled();
    if (!user.emailVerifiedAt) throw errors.emailNotVerified(user.email);
    const secret = newTotpSecret();
    await this.mfa.setPending(user.id, this.box.seal(secret));
    const qrCode = await QRCode.toDataURL(totpUri(secret, user.email), { margin: 1, width: 240 });
    return { secret, qrCode };
  }

  async verify({ user, session }: SessionContext, secret: string, token: string): Promise<{ backupCodes: string[] }> {
    if (user.mfaEnabled) throw errors.mfaAlreadyEnabled();
    if (!user.emailVerifiedAt) throw errors.emailNotVerified(user.email);
    const pending = user.mfaPendingSecret ? this.box.open(user.mfaPendingSecret) : null;
    if (!pending || pending !== secret) {
      throw errors.validation('This two-factor setup has expired. Start the setup again.');
    }
    const step = matchTotp(pending, token, this.clock.now());
    if (step === null) throw errors.wrongCode();
    const backupCodes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
    const now = this.clock.now();
    const turnedOn = await this.mfa.enable(
      user.id,
      this.box.seal(pending),
      step,
      backupCodes.map(hashBackupCode),
      backupCodes.map(() => newId(now)),
    );
    // Another request turned it on a moment ago, with its own backup codes.
    if (!turnedOn) throw errors.mfaAlreadyEnabled();
    await this.sessions.revokeOthers(user.id, session.id);
    await this.activity.record({
      userId: user.id,
      actorId: user.id,
      action: 'mfa_enabled',
      details: `Two-factor turned on with ${BACKUP_CODE_COUNT} new backup codes; other sessions were signed out`,
    });
    await this.notifyChange(user, true, now);
    return { backupCodes };
  }

  async disable({ user, session }: SessionContext, code: string): Promise<void> {
    if (!user.mfaEnabled) throw errors.mfaNotEnabled();
    await this.guard.check(user, session.id, 'Wrong code to turn two-factor off', async () =>
      (await this.checkCode(user, code)) ? undefined : errors.wrongCode(),
    );
    if (!(await this.mfa.disable(user.id))) return;
    await this.activity.record({
      userId: user.id,
      actorId: user.id,
      action: 'mfa_disabled',
      details: 'Two-factor turned off with a current code',
    });
    await this.notifyChange(user, false, this.clock.now());
  }

  /** The two-factor notice, once the change is stored (the repository's own transaction has committed). */
  private async notifyChange(user: UserRow, on: boolean, when: Date): Promise<void> {
    await this.notices?.send(user, 'two_factor_changed', {
      username: user.username,
      on,
      when,
      link: this.notices.link(SITE_PATHS.account),
    });
  }

  /**
   * Whether `code` is the user's current TOTP code (not used before) or an unused backup code;
   * either is used up by a true answer.
   */
  async checkCode(user: UserRow, code: string): Promise<boolean> {
    if (!user.mfaEnabled || !user.mfaSecret) return false;
    const normalized = normalizeLoginCode(code);
    if (/^\d{6}$/.test(normalized)) {
      const step = matchTotp(this.box.open(user.mfaSecret), normalized, this.clock.now());
      return step !== null && (await this.mfa.claimStep(user.id, step));
    }
    if (!/^[a-z0-9]{8}$/.test(normalized)) return false;
    return this.mfa.useBackupCode(user.id, hashBackupCode(normalized), this.clock.now());
  }
}
