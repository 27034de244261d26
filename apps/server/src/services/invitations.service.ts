// Admin invitations: an admin names an e-mail and a role and gets a link, good once for 24 hours
// (service clock), which is also mailed to the address. Opening it shows who is invited; accepting
// signs up a new account with that e-mail and role (its address counts as confirmed: the link came
// to it), or raises the role of the existing account with that e-mail, which must be the one signed
// in and have confirmed its address. The web then asks for two-factor setup, which the console
// requires. An invitation dies with its inviter's right to send it (deleted, demoted:
// adminPolicy.invitationStands), and any admin who could have sent it may revoke it from the
// console's list.
import {
  INVITATION_TTL_MS,
  INVITE_ROLES,
  type InvitationInfo,
  type InviteBody,
  type InviteResponse,
  type PendingInvitation,
  ROLE_LABELS,
  ROLE_RANK,
  type Role,
  type User,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { InvitationRow, UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import { adminPolicy } from '../policies/index.js';
import type { InvitationsRepository } from '../repositories/invitations.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ActivityService } from './activity.service.js';
import type { AuthService } from './auth.service.js';
import type { MailService } from './mail.service.js';
import type { SessionMeta } from './sessions.service.js';
import { hashToken, newSessionToken } from './tokens.js';
import type { UsersService } from './users.service.js';

export interface InvitationsServiceDeps {
  db: Database;
  invitations: InvitationsRepository;
  users: UsersRepository;
  /** Signs up the invited person when they have no account. */
  auth: Pick<AuthService, 'register'>;
  usersService: Pick<UsersService, 'view'>;
  activity: Pick<ActivityService, 'record'>;
  mail: Pick<MailService, 'send'>;
  clock: Clock;
  /** The site's address for invitation links; without it, the request's origin. */
  publicUrl: string | undefined;
  /** Where a mail that could not be queued is reported (the invitation stands). */
  log: { error(obj: unknown, msg?: string): void };
}

export class InvitationsService {
  private readonly db: Database;
  private readonly invitations: InvitationsRepository;
  private readonly users: UsersRepository;
  private readonly auth: Pick<AuthService, 'register'>;
  private readonly usersService: Pick<UsersService, 'view'>;
  private readonly activity: Pick<ActivityService, 'record'>;
  private readonly mail: Pick<MailService, 'send'>;
  private readonly clock: Clock;
  private readonly publicUrl: string | undefined;
  private readonly log: { error(obj: unknown, msg?: string): void };

  constructor({
    db,
    invitations,
    users,
    auth,
    usersService,
    activity,
    mail,
    clock,
    publicUrl,
    log,
  }: InvitationsServiceDeps) {
    this.db = db;
    this.invitations = invitations;
    this.users = users;
    this.auth = auth;
    this.usersService = usersService;
    this.activity = activity;
    this.mail = mail;
    this.clock = clock;
    this.publicUrl = publicUrl;
    this.log = log;
  }

  async invite(actor: UserRow, body: InviteBody, origin: string): Promise<InviteResponse['data']> {
    const refusal = adminPolicy.refusalToInvite(actor, body.role);
    if (refusal) throw errors.forbidden(refusal);
    const now = this.clock.now();
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    await this.db.transaction(async (tx) => {
      await this.invitations.insert(
        {
          id: newId(now),
          tokenHash: hashToken(token),
          email: body.email,
          role: body.role,
          invitedBy: actor.id,
          expiresAt,
          createdAt: now,
        },
        tx,
      );
      await this.activity.record(
        {
          userId: actor.id,
          actorId: actor.id,
          action: 'admin_invited',
          details: `Invited ${body.email} as ${ROLE_LABELS[body.role]}`,
          after: { email: body.email, role: body.role, expiresAt: expiresAt.toISOString() },
        },
        tx,
      );
    });
    const base = (this.publicUrl ?? origin).replace(/\/+$/, '');
    const invitationUrl = `${base}/invite/${token}`;
    // The admin still gets the link to pass on; the mail is how the invitee usually finds it. The
    // invitation stands even when its mail cannot be queued: the admin has the link (and is told).
    const mailed = await this.mail
      .send({ email: body.email, userId: null }, 'admin_invitation', {
        inviterName: actor.username,
        roleLabel: ROLE_LABELS[body.role],
        link: invitationUrl,
        expiresAt,
      })
      .then(
        () => true,
        (error: unknown) => {
          this.log.error(error, `the invitation of ${body.email} is saved but its mail could not be queued`);
          return false;
        },
      );
    return { invitationUrl, expiresAt: expiresAt.toISOString(), mailed };
  }

  /** The invitations still waiting, newest first (the console's list). */
  async listPending(): Promise<PendingInvitation[]> {
    const rows = await this.invitations.listPending(this.clock.now());
    return rows.map(({ invitation, inviter }) => ({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      invitedBy: inviter,
      createdAt: invitation.createdAt.toISOString(),
      expiresAt: invitation.expiresAt.toISOString(),
    }));
  }

  /** Withdraws a waiting invitation: its link stops working at once. */
  async revoke(actor: UserRow, id: string): Promise<void> {
    const invitation = await this.invitations.findById(id);
    if (!invitation || invitation.acceptedAt || invitation.revokedAt) throw errors.notFound('Invitation');
    // Whoever could not send it may not withdraw it either.
    const refusal = adminPolicy.refusalToInvite(actor, invitation.role);
    if (refusal) throw errors.forbidden(refusal);
    await this.db.transaction(async (tx) => {
      if (!(await this.invitations.revoke(tx, id, this.clock.now()))) throw errors.notFound('Invitation');
      await this.activity.record(
        {
          userId: actor.id,
          actorId: actor.id,
          action: 'invitation_revoked',
          details: `Revoked the invitation of ${invitation.email} as ${ROLE_LABELS[invitation.role]}`,
          before: { email: invitation.email, role: invitation.role, invitedBy: invitation.invitedBy },
        },
        tx,
      );
    });
  }

  /** After `inviter`'s role became `role`, in that change's transaction: what they may no longer send dies. */
  async revokeLostRights(tx: Database, inviter: Pick<UserRow, 'id'>, role: Role): Promise<void> {
    const lost = INVITE_ROLES.filter((invited) => !adminPolicy.invitationStands({ role }, invited));
    await this.invitations.revokeSentBy(tx, inviter.id, lost, this.clock.now());
  }

  async info(token: string): Promise<InvitationInfo> {
    const invitation = await this.usable(token);
    return {
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt.toISOString(),
      accountExists: (await this.users.findByEmail(invitation.email)) !== undefined,
    };
  }

  async accept(
    token: string,
    body: { username?: string; password?: string },
    signedIn: UserRow | null,
    meta: SessionMeta,
  ): Promise<{ token?: string; user: User }> {
    const invitation = await this.usable(token);
    const existing = await this.users.findByEmail(invitation.email);
    if (!existing) {
      if (!body.username || !body.password) {
        throw errors.validation('Choose a username and a password to create your account.');
      }
      return this.auth.register({ username: body.username, email: invitation.email, password: body.password }, meta, {
        role: invitation.role,
        accept: async (tx, userId) => {
          await this.assertStands(tx, invitation);
          await this.claim(tx, invitation, userId, `Joined as ${ROLE_LABELS[invitation.role]}`);
        },
      });
    }
    if (signedIn?.id !== existing.id) {
      throw errors.forbidden(`Log in as ${invitation.email} to accept this invitation.`);
    }
    // The account may be a stranger's sign-up with this address: only its confirmed owner takes the role.
    if (!existing.emailVerifiedAt) throw errors.emailNotVerified(existing.email);
    const updated = await this.db.transaction(async (tx) => {
      // The inviter first, as role changes lock super admins before their target.
      await this.assertStands(tx, invitation);
      const user = await this.users.lockById(tx, existing.id);
      if (!user) throw errors.notFound('User');
      // An invitation never lowers a role.
      const role = ROLE_RANK[invitation.role] > ROLE_RANK[user.role] ? invitation.role : user.role;
      await this.claim(tx, invitation, user.id, `Role ${ROLE_LABELS[user.role]} → ${ROLE_LABELS[role]}`);
      return (await this.users.update(user.id, { role }, tx)) ?? user;
    });
    return { user: await this.usersService.view(updated) };
  }

  private async claim(tx: Database, invitation: InvitationRow, userId: string, how: string): Promise<void> {
    if (!(await this.invitations.claim(tx, invitation.id, userId, this.clock.now()))) throw usedUp();
    await this.activity.record(
      {
        userId,
        actorId: userId,
        action: 'invitation_accepted',
        details: `${how} by invitation`,
        after: { role: invitation.role, invitedBy: invitation.invitedBy },
      },
      tx,
    );
  }

  /** The inviter's row is locked, so a demotion cannot slip in between this check and the claim. */
  private async assertStands(tx: Database, invitation: InvitationRow): Promise<void> {
    const inviter = invitation.invitedBy ? await this.users.lockById(tx, invitation.invitedBy) : undefined;
    if (!adminPolicy.invitationStands(inviter, invitation.role)) throw withdrawn();
  }

  /** The invitation behind a link, while it is good: 404 unknown, 410 used or expired. */
  private async usable(token: string): Promise<InvitationRow> {
    const invitation = await this.invitations.findByTokenHash(hashToken(token));
    if (!invitation) throw errors.notFound('Invitation');
    if (invitation.acceptedAt) throw usedUp();
    if (invitation.revokedAt) throw withdrawn();
    const inviter = invitation.invitedBy ? await this.users.findById(invitation.invitedBy) : undefined;
    if (!adminPolicy.invitationStands(inviter, invitation.role)) throw withdrawn();
    if (invitation.expiresAt.getTime() <= this.clock.now().getTime()) {
      throw errors.invitationInvalid('This invitation has expired (they last 24 hours). Ask an admin for a new one.');
    }
    return invitation;
  }
}

const withdrawn = () => errors.invitationInvalid('This invitation was withdrawn. Ask an admin for a new one.');
const usedUp = () => errors.invitationInvalid('This invitation was already used. Ask an admin for a new one.');
