// Registration, login and logout: argon2id hashes, wrong tries lock out where they come from
// (services/login-guard.ts), the beta cap closes registration. A sign-up is mailed a link that
// confirms its address (services/email-address.service.ts); a sign-in from a browser the account
// has not used before is told to the account's address.
import type { User } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { StarterAllowance } from '../config.js';
import type { Database } from '../db/client.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import { SITE_PATHS } from '../mail/site-paths.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ActivityService } from './activity.service.js';
import { deviceName } from './device-name.js';
import type { EmailAddressService } from './email-address.service.js';
import type { LoginGuard } from './login-guard.js';
import type { MfaService } from './mfa.service.js';
import type { Notices } from './notices.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';
import type { SessionMeta, SessionsService } from './sessions.service.js';
import type { UsageService } from './usage.service.js';
import type { UsersService } from './users.service.js';

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
}

export interface LoginInput {
  email: string;
  password: string;
  mfaToken?: string | undefined;
}

/** An admin invitation being accepted by signing up. */
export interface Invitation {
  role: 'admin' | 'super_admin';
  /** Uses the invitation up, in the sign-up's transaction; throws when it is no longer good. */
  accept: (tx: Database, userId: string) => Promise<void>;
}

export type LoginResult = { token: string; user: User } | { requiresMFA: true };

export interface AuthServiceDeps {
  db: Database;
  users: UsersRepository;
  usersService: UsersService;
  sessions: SessionsService;
  clock: Clock;
  usage: UsageService;
  mfa: Pick<MfaService, 'checkCode'>;
  /** Counts wrong tries and locks out where they come from; knows the account's browsers. */
  guard: Pick<LoginGuard, 'forLogin' | 'admit' | 'fail' | 'succeed' | 'remember' | 'knowsAnyDevice'>;
  activity: Pick<ActivityService, 'record'>;
  /** Mails a sign-up the link that confirms its address. */
  emailAddress: Pick<EmailAddressService, 'sendConfirmation' | 'assertAddressMailable'>;
  /** Tells the account's address of a sign-in from a new browser. */
  notices: Pick<Notices, 'send' | 'link'>;
  options: {
    betaCap: number;
    starter: StarterAllowance | null;
  };
}

export class AuthService {
  private readonly db: Database;
  private readonly users: UsersRepository;
  private readonly usersService: UsersService;
  private readonly sessions: SessionsService;
  private readonly clock: Clock;
  private readonly usage: UsageService;
  private readonly mfa: Pick<MfaService, 'checkCode'>;
  private readonly guard: Pick<LoginGuard, 'forLogin' | 'admit' | 'fail' | 'succeed' | 'remember' | 'knowsAnyDevice'>;
  private readonly activity: Pick<ActivityService, 'record'>;
  private readonly emailAddress: Pick<EmailAddressService, 'sendConfirmation' | 'assertAddressMailable'>;
  private readonly notices: Pick<Notices, 'send' | 'link'>;
  private readonly options: {
    betaCap: number;
    starter: StarterAllowance | null;
  };

  constructor({
    db,
    users,
    usersService,
    sessions,
    clock,
    usage,
    mfa,
    guard,
    activity,
    emailAddress,
    notices,
    options,
  }: AuthServiceDeps) {
    this.db = db;
    this.users = users;
    this.usersService = usersService;
    this.sessions = sessions;
    this.clock = clock;
    this.usage = usage;
    this.mfa = mfa;
    this.guard = guard;
    this.activity = activity;
    this.emailAddress = emailAddress;
    this.notices = notices;
    this.options = options;
  }

  /**
   * Signs up. An admin invitation gives the account its role and a seat past the beta cap (the
   * operator asked for this person); it is used up in the sign-up's transaction, or nothing is made.
   * Without one, the address is mailed a link that confirms it.
   */
  async register(
    input: RegisterInput,
    meta: SessionMeta,
    invitation?: Invitation,
  ): Promise<{ token: string; user: User }> {
    const cap = invitation === undefined;
    // Cheap checks first so a rejected sign-up costs no hashing.
    await this.assertRegistrable(input, this.db, cap);
    // Its confirmation link would be one too many for the address this hour (sign-up and delete
    // cycles): nothing is made. An invitation's sign-up is mailed nothing.
    if (!invitation) await this.emailAddress.assertAddressMailable(input.email);
    const passwordHash = await hashPassword(input.password);
    const created = await this.db.transaction(async (tx) => {
      // Serialise sign-ups so two at once cannot both take the last beta seat.
      await this.users.lockSeats(tx);
      await this.assertRegistrable(input, tx, cap);
      const now = this.clock.now();
      const user = await this.users.insert(
        {
          id: newId(now),
          username: input.username,
          email: input.email,
          passwordHash,
          // Never an admin by itself: an e-mail address nobody verified proves nothing (see the
          // admin CLI); only an invitation's link, sent by an admin, does.
          role: invitation?.role ?? 'user',
          // An invitation's link was mailed to this address by the service (InvitationsService.invite)
          // and opened: that proves the address as a confirmation link would, so no link is sent and
          // none is logged as confirmed separately (the sign-up's activity says it came by invitation).
          emailVerifiedAt: invitation ? now : null,
          createdAt: now,
          updatedAt: now,
        },
        tx,
      );
      await this.activity.record(
        { userId: user.id, actorId: user.id, action: 'signed_up', details: `Signed up as ${user.username}` },
        tx,
      );
      await invitation?.accept(tx, user.id);
      // With payments on, usage comes from a plan, a pack or the trial; without, from configuration.
      if (!this.options.starter) return user;
      await this.usage.grantStarter(user.id, this.options.starter, tx);
      // The grant set the storage-slot total on the row.
      return (await this.users.findById(user.id, tx)) ?? user;
    });
    await this.guard.remember(created.id, meta.device);
    const token = await this.sessions.create(created.id, meta);
    if (!created.emailVerifiedAt) await this.emailAddress.sendConfirmation(created);
    return { token, user: await this.usersService.view(created) };
  }

  async login(input: LoginInput, meta: SessionMeta): Promise<LoginResult> {
    const user = await this.users.findByEmail(input.email);
    // Counted by the address typed, so a made-up one answers as a real one does, lock included.
    const attempt = await this.guard.forLogin(input.email, user, meta);
    await this.guard.admit(attempt);
    if (!user) {
      await burnPasswordCheck(input.password);
      throw await this.guard.fail(attempt, errors.invalidCredentials(), 'Wrong password');
    }
    if (!(await verifyPassword(user.passwordHash, input.password))) {
      throw await this.guard.fail(attempt, errors.invalidCredentials(), 'Wrong password');
    }
    if (user.mfaEnabled) {
      if (!input.mfaToken) return { requiresMFA: true };
      // A wrong code counts like a wrong password: no guessing codes.
      if (!(await this.mfa.checkCode(user, input.mfaToken)))
        throw await this.guard.fail(attempt, errors.invalidMfaToken(), 'Wrong two-factor code');
    }
    // Asked before this browser is remembered: a browser new to an account that was used before.
    const newBrowser = !attempt.known && (user.lastLoginAt !== null || (await this.guard.knowsAnyDevice(user.id)));
    await this.guard.succeed(attempt, { userId: user.id, device: meta.device });
    const now = this.clock.now();
    const updated = await this.users.update(user.id, { lastLoginAt: now });
    const token = await this.sessions.create(user.id, meta);
    await this.activity.record({
      userId: user.id,
      actorId: user.id,
      action: 'logged_in',
      details: describeDevice(meta, user.mfaEnabled),
    });
    if (newBrowser) {
      // Never fails the sign-in (Notices logs a failure); skipped when the person muted it.
      await this.notices.send(user, 'new_sign_in', {
        username: user.username,
        device: describeBrowser(meta),
        when: now,
        link: this.notices.link(SITE_PATHS.account),
      });
    }
    return { token, user: await this.usersService.view(updated ?? user) };
  }

  logout(sessionId: string): Promise<void> {
    return this.sessions.revoke(sessionId);
  }

  private async assertRegistrable(input: RegisterInput, db: Database, cap: boolean): Promise<void> {
    // Seats are confirmed accounts (decision 34): sign-ups nobody confirms never close the beta.
    if (cap && (await this.users.countSeats(db)) >= this.options.betaCap) {
      throw errors.betaWaitlist();
    }
    if (await this.users.findByEmail(input.email, db)) throw errors.emailTaken();
    if (await this.users.findByUsernameInsensitive(input.username, db)) throw errors.usernameTaken();
  }
}

/** "Firefox on Linux, from 203.0.113.9": the browser of a sign-in, as the new-browser notice names it. */
function describeBrowser(meta: SessionMeta): string {
  const device = deviceName(meta.userAgent) ?? 'an unknown browser';
  return meta.ip ? `${device}, from ${meta.ip}` : device;
}

/** "With two-factor, from 203.0.113.9 (Firefox on Linux)": enough to spot a sign-in that was not you. */
function describeDevice(meta: SessionMeta, withCode: boolean): string {
  const parts = [withCode ? 'With two-factor' : 'With password'];
  if (meta.ip) parts.push(`from ${meta.ip}`);
  const device = deviceName(meta.userAgent);
  return device ? `${parts.join(', ')} (${device})` : parts.join(', ');
}
