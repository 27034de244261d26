// The account's address and password after sign-up (decision 24):
//   confirm      a sign-up gets a link to its address; opening it confirms the address, which the
//                trial, an admin invitation to an existing account and a beta seat need (the
//                seat is taken then, while one is free: decision 34). A sign-up through an admin invitation is confirmed at once: the
//                invitation's link was mailed to that address (AuthService.register).
//   change       a new address, asked for with the password (and a code with two-factor on), is
//                confirmed from a link mailed there; the old address is told at once, and again
//                when the change happens, which ends every other session. The payment provider's
//                customer, if the account has one, is given the new address through billing's
//                provider actions (written in the change's transaction, retried until done).
//   password     a new password, with the current one (and a code): every other session ends and
//                every "Forgot password?" link stops working.
//   notices      the e-mail notices a person switched off (never the required ones).
// Links carry 256 random bits, of which only the SHA-256 is stored; they work once, for
// EMAIL_LINK_HOURS, and a newer link of the same purpose replaces the older ones. At most
// EMAIL_LINKS_PER_HOUR links an hour per account, so nobody floods an inbox from a signed-in session,
// and as many per address whichever account asks (AddressLinkLimit), so sign-up and delete cycles
// flood nobody's either.
import {
  EMAIL_LINK_HOURS,
  EMAIL_LINKS_PER_HOUR,
  EMAIL_MESSAGES,
  type LinkSentResponse,
  NOTICES,
  type NoticeKey,
  SWITCHABLE_NOTICE_KEYS,
  type User,
  type VerifyEmailResponse,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { EmailLinkRow, UserRow } from '../db/schema.js';
import { AppError, errors } from '../errors.js';
import { newId } from '../ids.js';
import { SITE_PATHS } from '../mail/site-paths.js';
import type { EmailLinkPurpose, EmailLinksRepository } from '../repositories/email-links.repository.js';
import type { PasswordResetsRepository } from '../repositories/password-resets.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ActivityService } from './activity.service.js';
import { type AddressLinkLimit, tooManyLinks } from './address-link-limit.js';
import type { BillingActions } from './billing/billing-actions.js';
import type { MailService } from './mail.service.js';
import type { NoticeRecipient, Notices } from './notices.js';
import { hashPassword } from './passwords.js';
import type { AuthContext, SessionContext, SessionsService } from './sessions.service.js';
import type { Credentials, StepUpService } from './step-up.service.js';
import { hashToken, newSessionToken } from './tokens.js';
import type { UsersService } from './users.service.js';

const HOUR_MS = 60 * 60 * 1000;
const LINK_MS = EMAIL_LINK_HOURS * HOUR_MS;

const linkInvalid = () => new AppError(400, 'EMAIL_LINK_INVALID', EMAIL_MESSAGES.linkInvalid);

export interface EmailAddressServiceDeps {
  db: Database;
  links: EmailLinksRepository;
  users: UsersRepository;
  usersService: Pick<UsersService, 'view'>;
  resets: Pick<PasswordResetsRepository, 'useAllFor'>;
  /** The password again, and a code with two-factor on (wrong ones count against the session). */
  stepUp: Pick<StepUpService, 'confirmPassword'>;
  /** Links to one address an hour, whichever account asks. */
  linkLimit: Pick<AddressLinkLimit, 'assertLeft' | 'count'>;
  sessions: Pick<SessionsService, 'revokeOthers' | 'revokeAllForUser'>;
  /** The links a request asks for: a failure to queue one fails the request, which can be asked again. */
  mail: Pick<MailService, 'send' | 'link'>;
  /** What is told after the fact (the change is made): queued without ever failing it. */
  notices: Pick<Notices, 'send'>;
  activity: Pick<ActivityService, 'record'>;
  /**
   * What gives the payment provider's customer a changed address; null without payments. Its
   * actions wait in `billing_actions`, so a provider that cannot be reached never holds up or
   * undoes a change: the billing job tries again.
   */
  providerActions: Pick<BillingActions, 'updateCustomerEmail' | 'run'> | null;
  clock: Clock;
  options: { betaCap: number };
}

export class EmailAddressService {
  private readonly db: Database;
  private readonly links: EmailLinksRepository;
  private readonly users: UsersRepository;
  private readonly usersService: Pick<UsersService, 'view'>;
  private readonly resets: Pick<PasswordResetsRepository, 'useAllFor'>;
  private readonly stepUp: Pick<StepUpService, 'confirmPassword'>;
  private readonly linkLimit: Pick<AddressLinkLimit, 'assertLeft' | 'count'>;
  private readonly sessions: Pick<SessionsService, 'revokeOthers' | 'revokeAllForUser'>;
  private readonly mail: Pick<MailService, 'send' | 'link'>;
  private readonly notices: Pick<Notices, 'send'>;
  private readonly activity: Pick<ActivityService, 'record'>;
  private readonly providerActions: Pick<BillingActions, 'updateCustomerEmail' | 'run'> | null;
  private readonly clock: Clock;
  private readonly options: { betaCap: number };

  constructor({
    db,
    links,
    users,
    usersService,
    resets,
    stepUp,
    linkLimit,
    sessions,
    mail,
    notices,
    activity,
    providerActions,
    clock,
    options,
  }: EmailAddressServiceDeps) {
    this.db = db;
    this.links = links;
    this.users = users;
    this.usersService = usersService;
    this.resets = resets;
    this.stepUp = stepUp;
    this.linkLimit = linkLimit;
    this.sessions = sessions;
    this.mail = mail;
    this.notices = notices;
    this.activity = activity;
    this.providerActions = providerActions;
    this.clock = clock;
    this.options = options;
  }

  /**
   * Mails a new link that confirms the account's address; earlier ones stop working. With `tx`,
   * the link is written in the caller's transaction; the mail is queued at once either way, so call
   * it once what it confirms is committed. A mail that cannot be queued fails nothing (the sign-up
   * stands; the link can be asked for again).
   */
  async sendConfirmation(user: NoticeRecipient, tx?: Database): Promise<void> {
    const token = await this.newLink(user.id, 'verify', user.email, tx ?? this.db);
    await this.notices.send(user, 'verify_email', {
      username: user.username,
      link: this.verifyLink(token),
      hours: EMAIL_LINK_HOURS,
    });
  }

  /** Throws 429 while the address had its links for the hour (a sign-up asks before anything is made). */
  assertAddressMailable(email: string): Promise<void> {
    return this.linkLimit.assertLeft(email);
  }

  /** Another confirmation link, for a sign-up whose first one was lost or expired. */
  async resend(user: UserRow): Promise<LinkSentResponse> {
    if (user.emailVerifiedAt) throw errors.validation(`Your address ${user.email} is already confirmed.`);
    const token = await this.db.transaction(async (tx) => {
      await this.assertLinksLeft(user.id, tx);
      await this.linkLimit.assertLeft(user.email, tx);
      return this.newLink(user.id, 'verify', user.email, tx);
    });
    await this.mail.send({ email: user.email, userId: user.id }, 'verify_email', {
      username: user.username,
      link: this.verifyLink(token),
      hours: EMAIL_LINK_HOURS,
    });
    return { msg: EMAIL_MESSAGES.verifySent(user.email) };
  }

  /**
   * Asks to move the account to `email`: it moves when the link mailed there is opened. The old
   * address is told now, so a change its owner did not ask for does not go unnoticed.
   */
  async requestChange(auth: SessionContext, input: Credentials & { email: string }): Promise<LinkSentResponse> {
    const { user } = auth;
    await this.stepUp.confirmPassword(auth, input, 'Wrong password or code to change the address');
    if (input.email === user.email) throw errors.validation(EMAIL_MESSAGES.sameEmail);
    // Told only to someone who gave the password: a stolen session cannot probe which addresses have accounts.
    if (await this.users.findByEmail(input.email)) throw addressTaken();
    const token = await this.db.transaction(async (tx) => {
      await this.assertLinksLeft(user.id, tx);
      await this.linkLimit.assertLeft(input.email, tx);
      await this.users.update(user.id, { pendingEmail: input.email }, tx);
      await this.activity.record(
        {
          userId: user.id,
          actorId: user.id,
          action: 'email_change_requested',
          details: `Asked to move the account to ${input.email}; a link was sent there`,
          before: { email: user.email, pendingEmail: user.pendingEmail },
          after: { pendingEmail: input.email },
        },
        tx,
      );
      return this.newLink(user.id, 'change', input.email, tx);
    });
    await this.mail.send({ email: input.email, userId: user.id }, 'email_change_confirm', {
      username: user.username,
      link: this.verifyLink(token),
      hours: EMAIL_LINK_HOURS,
    });
    await this.notices.send(user, 'email_change_requested', {
      username: user.username,
      newEmail: input.email,
      link: this.mail.link(SITE_PATHS.account),
    });
    return { msg: EMAIL_MESSAGES.changeSent(input.email) };
  }

  /**
   * Opens a link: confirms the sign-up's address, or moves the account to its new address. Anyone
   * with the link may open it (it came to the address); `signedIn` is the session opening it, if
   * any, which a change of address keeps when it is the same account's.
   */
  async verify(token: string, signedIn?: Pick<AuthContext, 'user' | 'session'> | null): Promise<VerifyEmailResponse> {
    const now = this.clock.now();
    const link = await this.links.findByTokenHash(hashToken(token));
    if (!link || link.usedAt || link.expiresAt.getTime() <= now.getTime()) throw linkInvalid();
    return link.purpose === 'verify' ? this.confirm(link, now) : this.change(link, now, signedIn ?? null);
  }

  /** A new password, given with the current one (and a code): every other session ends. */
  async changePassword(auth: SessionContext, input: Credentials & { password: string }): Promise<void> {
    const { user, session } = auth;
    await this.stepUp.confirmPassword(auth, input, 'Wrong password or code to change the password');
    if (input.password === input.currentPassword) {
      throw errors.validation('Choose a new password: this one is the password the account has now.');
    }
    const passwordHash = await hashPassword(input.password);
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await this.users.update(user.id, { passwordHash }, tx);
      // A "Forgot password?" link already in a mailbox must not undo the change.
      await this.resets.useAllFor(user.id, now, tx);
      await this.activity.record(
        {
          userId: user.id,
          actorId: user.id,
          action: 'password_changed',
          details: 'Password changed with the current one; every other session ended',
        },
        tx,
      );
    });
    await this.sessions.revokeOthers(user.id, session.id);
    await this.notices.send(user, 'password_changed', {
      username: user.username,
      when: now,
      link: this.mail.link(SITE_PATHS.login),
    });
  }

  /** The notices switched off; required ones cannot be. Answers the user's view. */
  async setMutedNotices(user: UserRow, muted: readonly string[]): Promise<User> {
    const switchable: readonly string[] = SWITCHABLE_NOTICE_KEYS;
    const refused = muted.filter((key) => !switchable.includes(key));
    if (refused.length > 0) throw errors.validation(`These notices cannot be switched off: ${refused.join(', ')}.`);
    // Stored in the order the account screen lists them, once each.
    const next: NoticeKey[] = NOTICES.map((n) => n.key).filter((key) => muted.includes(key));
    const updated = await this.db.transaction(async (tx) => {
      const row = await this.users.update(user.id, { mutedNotices: next }, tx);
      if (!row) throw errors.notFound('User');
      await this.activity.record(
        {
          userId: user.id,
          actorId: user.id,
          action: 'notices_changed',
          details: next.length === 0 ? 'Every e-mail notice on' : `E-mail notices switched off: ${labelsOf(next)}`,
          before: { mutedNotices: user.mutedNotices },
          after: { mutedNotices: next },
        },
        tx,
      );
      return row;
    });
    return this.usersService.view(updated);
  }

  /** A sign-up's link: the address is confirmed while it is still the account's. */
  private async confirm(link: EmailLinkRow, now: Date): Promise<VerifyEmailResponse> {
    await this.db.transaction(async (tx) => {
      // Seats first, then the row: the order sign-up and a change of address take them in.
      await this.users.lockSeats(tx);
      const user = await this.users.lockById(tx, link.userId);
      // The account moved to another address since: this link confirms nothing any more.
      if (!user || user.email !== link.email) throw linkInvalid();
      if (!user.emailVerifiedAt) await this.assertSeat(user, tx);
      if (!(await this.links.use(link.id, now, tx))) throw linkInvalid();
      if (user.emailVerifiedAt) return;
      await this.links.useAllFor(user.id, 'verify', now, tx);
      await this.users.update(user.id, { emailVerifiedAt: now }, tx);
      await this.activity.record(
        {
          userId: user.id,
          actorId: user.id,
          action: 'email_verified',
          details: `Confirmed ${user.email} from the link sent to it`,
        },
        tx,
      );
    });
    return { email: link.email, changed: false };
  }

  /**
   * A sign-up takes its beta seat by confirming its address, while one is free (decision 34: an
   * unconfirmed one holds none). Accounts an admin gave a role (an invitation, a promotion) need none.
   */
  private async assertSeat(user: UserRow, tx: Database): Promise<void> {
    if (user.role !== 'user') return;
    if ((await this.users.countSeats(tx)) < this.options.betaCap) return;
    throw new AppError(
      403,
      'BETA_WAITLIST',
      `The beta filled up while ${user.email} waited to be confirmed (a seat is taken when an address is confirmed). Join the waitlist and we will let you in soon; this link works until it expires if a seat frees up before.`,
    );
  }

  /** A new address's link: the account moves there, and every other session ends. */
  private async change(
    link: EmailLinkRow,
    now: Date,
    signedIn: Pick<AuthContext, 'user' | 'session'> | null,
  ): Promise<VerifyEmailResponse> {
    const outcome = await this.db.transaction(async (tx) => {
      // Serialised with sign-ups and other changes, so nobody takes the address in between.
      await this.users.lockSeats(tx);
      const user = await this.users.lockById(tx, link.userId);
      // A newer request replaced this one (its links were used up), or the account is gone.
      if (!user || user.pendingEmail !== link.email) throw linkInvalid();
      if (!(await this.links.use(link.id, now, tx))) throw linkInvalid();
      const holder = await this.users.findByEmail(link.email, tx);
      if (holder && holder.id !== user.id) {
        // Another account took the address meanwhile: this change can never happen, so it ends here.
        await this.users.update(user.id, { pendingEmail: null }, tx);
        return { taken: true as const, user };
      }
      // Every link sent for the old address, and every reset link in its mailbox, stops working.
      await this.links.useAllFor(user.id, 'change', now, tx);
      await this.links.useAllFor(user.id, 'verify', now, tx);
      await this.resets.useAllFor(user.id, now, tx);
      await this.users.update(user.id, { email: link.email, emailVerifiedAt: now, pendingEmail: null }, tx);
      await this.activity.record(
        {
          userId: user.id,
          actorId: user.id,
          action: 'email_changed',
          details: `Address changed from ${user.email} to ${link.email}; every other session ended`,
          before: { email: user.email },
          after: { email: link.email },
        },
        tx,
      );
      // The provider's customer keeps the address it was created with until told (decision 24).
      if (user.providerCustomerId && this.providerActions) {
        await this.providerActions.updateCustomerEmail(tx, {
          userId: user.id,
          customerId: user.providerCustomerId,
          linkId: link.id,
        });
      }
      return { taken: false as const, user };
    });
    const { user } = outcome;
    if (outcome.taken) throw addressTaken(`It stays ${user.email}.`);
    const keep = signedIn?.user.id === user.id ? signedIn.session?.id : undefined;
    if (keep) await this.sessions.revokeOthers(user.id, keep);
    else await this.sessions.revokeAllForUser(user.id);
    // To the address it left (`user` is the row from before the change).
    await this.notices.send(user, 'email_changed', {
      username: user.username,
      newEmail: link.email,
      link: this.mail.link('/'),
    });
    // Now rather than at the next tick, so the provider's next mail or checkout has it; a failure
    // is logged and left for the billing job, and the change stands either way.
    if (user.providerCustomerId) await this.providerActions?.run(user.id);
    return { email: link.email, changed: true };
  }

  /** Refuses another link while EMAIL_LINKS_PER_HOUR were made in the last hour (the user's row is locked). */
  private async assertLinksLeft(userId: string, tx: Database): Promise<void> {
    // Locked, so two requests at once cannot both send the last link of the hour.
    await this.users.lockById(tx, userId);
    const now = this.clock.now();
    const since = new Date(now.getTime() - HOUR_MS);
    if ((await this.links.countSince(userId, since, tx)) < EMAIL_LINKS_PER_HOUR) return;
    throw tooManyLinks('this account', (await this.links.oldestSince(userId, since, tx)) ?? now, now);
  }

  /** Stores a new link (earlier ones of the same purpose stop working), counts it for its address, and answers its token. */
  private async newLink(userId: string, purpose: EmailLinkPurpose, email: string, db: Database): Promise<string> {
    const now = this.clock.now();
    const token = newSessionToken();
    await this.links.useAllFor(userId, purpose, now, db);
    await this.links.insert(
      {
        id: newId(now),
        userId,
        purpose,
        email,
        tokenHash: hashToken(token),
        expiresAt: new Date(now.getTime() + LINK_MS),
        createdAt: now,
      },
      db,
    );
    await this.linkLimit.count(email, db);
    return token;
  }

  private verifyLink(token: string): string {
    return this.mail.link(SITE_PATHS.verifyEmail(token));
  }
}

const addressTaken = (more?: string) =>
  new AppError(
    409,
    'EMAIL_TAKEN',
    `Another account uses that address, so yours cannot move there.${more ? ` ${more}` : ''} Choose another address.`,
  );

const labelsOf = (keys: readonly NoticeKey[]) =>
  keys.map((key) => NOTICES.find((n) => n.key === key)?.label ?? key).join(', ');
