// "Forgot password?": a link by e-mail that works once, for an hour, then a new password.
//   ask     the same answer whether or not an account uses the address; for an account, a
//           256-bit token (only its SHA-256 stored) in a link built from OWNVOICE_PUBLIC_URL,
//           queued as mail; at most RESETS_PER_HOUR links an hour per account, so nobody floods an
//           inbox (the route's rate limit counts every ask, per address and per client, too)
//   reset   the link's token, unused and unexpired; with two-factor on, a right code too (wrong
//           codes burn the link after WRONG_CODES_PER_LINK); then the new password, every link of
//           the account used up, every session ended and every API key revoked, and a change of
//           address it asked for dropped: whoever had the old password is out, and nothing they
//           made outlives it; the address counts as confirmed (the link reached it)
//           An address never confirmed before may have been signed up with by someone else: its
//           reset asks for no code (it would be theirs) and turns their two-factor off (decision 33).
import { randomUUID } from 'node:crypto';
import { AUTH_RESET_MESSAGES, PASSWORD_RESET_MINUTES } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { AppError, errors } from '../errors.js';
import { SITE_PATHS } from '../mail/site-paths.js';
import type { ApiKeysRepository } from '../repositories/api-keys.repository.js';
import type { MfaRepository } from '../repositories/mfa.repository.js';
import type { PasswordResetsRepository } from '../repositories/password-resets.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ActivityService } from './activity.service.js';
import type { MailService } from './mail.service.js';
import type { MfaService } from './mfa.service.js';
import { hashPassword } from './passwords.js';
import type { SessionsService } from './sessions.service.js';
import { hashToken, newSessionToken } from './tokens.js';

export const RESETS_PER_HOUR = 3;
export const WRONG_CODES_PER_LINK = 5;
const HOUR_MS = 60 * 60 * 1000;

const linkInvalid = () => new AppError(400, 'RESET_LINK_INVALID', AUTH_RESET_MESSAGES.linkInvalid);

export interface PasswordResetServiceDeps {
  db: Database;
  resets: PasswordResetsRepository;
  users: UsersRepository;
  mfa: Pick<MfaService, 'checkCode'>;
  /** Two-factor turned off in the reset's transaction, on an address nobody had confirmed. */
  mfaState: Pick<MfaRepository, 'clear'>;
  /** Every API key of the account, revoked by a reset. */
  keys: Pick<ApiKeysRepository, 'revokeAllFor'>;
  sessions: Pick<SessionsService, 'revokeAllForUser'>;
  mail: Pick<MailService, 'send'>;
  activity: ActivityService;
  clock: Clock;
}

export class PasswordResetService {
  private readonly db: Database;
  private readonly resets: PasswordResetsRepository;
  private readonly users: UsersRepository;
  private readonly mfa: Pick<MfaService, 'checkCode'>;
  private readonly mfaState: Pick<MfaRepository, 'clear'>;
  private readonly keys: Pick<ApiKeysRepository, 'revokeAllFor'>;
  private readonly sessions: Pick<SessionsService, 'revokeAllForUser'>;
  private readonly mail: Pick<MailService, 'send'>;
  private readonly activity: ActivityService;
  private readonly clock: Clock;

  constructor({ db, resets, users, mfa, mfaState, keys, sessions, mail, activity, clock }: PasswordResetServiceDeps) {
    this.db = db;
    this.resets = resets;
    this.users = users;
    this.mfa = mfa;
    this.mfaState = mfaState;
    this.keys = keys;
    this.sessions = sessions;
    this.mail = mail;
    this.activity = activity;
    this.clock = clock;
  }

  /** Sends a link when an account uses `email`; answers nothing either way. `base` is the site's address. */
  async ask(email: string, base: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    // Neither path hashes anything and the mail goes out later from the queue, so a real address
    // answers about as fast as a made-up one. (Hashing only for a made-up address, as sign-in
    // does, would make the made-up one the slow one here.)
    if (!user) return;
    const now = this.clock.now();
    if ((await this.resets.countSince(user.id, new Date(now.getTime() - HOUR_MS))) >= RESETS_PER_HOUR) return;
    const token = newSessionToken();
    await this.resets.insert({
      id: randomUUID(),
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_MINUTES * 60_000),
      createdAt: now,
    });
    const link = `${base.replace(/\/+$/, '')}${SITE_PATHS.resetPassword(token)}`;
    await this.mail.send({ email: user.email, userId: user.id }, 'password_reset', {
      username: user.username,
      link,
      minutes: PASSWORD_RESET_MINUTES,
    });
    await this.activity.record({
      userId: user.id,
      actorId: null,
      action: 'password_reset_requested',
      details: 'A reset link was sent by e-mail',
    });
  }

  /** Sets the new password from a link; throws when the link or the code does not do. */
  async reset(input: { token: string; password: string; mfaToken?: string | undefined }): Promise<void> {
    const now = this.clock.now();
    const link = await this.resets.findByTokenHash(hashToken(input.token));
    if (!link || link.usedAt || link.expiresAt <= now) throw linkInvalid();
    const user = await this.users.findById(link.userId);
    if (!user) throw linkInvalid();
    // The link proves the address; before it was ever confirmed, a code would be a squatter's.
    const squattable = user.emailVerifiedAt === null;
    if (user.mfaEnabled && !squattable) {
      if (!input.mfaToken) throw new AppError(400, 'MFA_REQUIRED', AUTH_RESET_MESSAGES.codeNeeded);
      if (!(await this.mfa.checkCode(user, input.mfaToken))) {
        if ((await this.resets.countWrongCode(link.id)) >= WRONG_CODES_PER_LINK) await this.resets.use(link.id, now);
        throw errors.wrongCode();
      }
    }
    const passwordHash = await hashPassword(input.password);
    await this.db.transaction(async (tx) => {
      // One use: two requests with the same link, and only the first changes anything.
      if (!(await this.resets.use(link.id, now, tx))) throw linkInvalid();
      await this.resets.useAllFor(user.id, now, tx);
      // The link came to the address, so the address is theirs: it counts as confirmed. This is also
      // how the owner of an address takes back an account someone else signed up with it. A change
      // of address asked for with the old password would take it away again: it is dropped.
      await this.users.update(
        user.id,
        { passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now, pendingEmail: null },
        tx,
      );
      await this.keys.revokeAllFor(user.id, now, tx);
      if (squattable) await this.mfaState.clear(user.id, tx);
    });
    await this.sessions.revokeAllForUser(user.id);
    await this.activity.record({
      userId: user.id,
      actorId: user.id,
      action: 'password_reset',
      details: `New password set from an e-mailed link${squattable ? ' to an address confirmed only now' : ''}; every session ended and every API key revoked${squattable && user.mfaEnabled ? ', and the two-factor set up before was turned off' : ''}`,
    });
  }
}
