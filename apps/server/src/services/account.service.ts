// Deleting an account, for good, by its owner (password again, and a code when two-factor is on)
// or by an admin (services/admin-actions.service.ts) through the same `erase`: every Voice is put
// to sleep, the user's rows go (sessions, Voices, usage, codes and activity), the record of the
// deletion is written, and the Voices' files are removed. Before any row goes, billing ends the
// subscription and closes open checkouts at the provider (or nothing is deleted): decision 20.
// docs/decisions/0009 and 0015.
import { DELETE_ACCOUNT_MESSAGES } from '@ownvoice/shared';
import type { Database } from '../db/client.js';
import type { UserRow } from '../db/schema.js';
import { AppError, errors } from '../errors.js';
import type { InvitationsRepository } from '../repositories/invitations.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import { voiceFolder } from '../storage/voice-files.js';
import type { ActivationService } from './activation.service.js';
import type { ActivityEntry, ActivityService } from './activity.service.js';
import type { BillingService } from './billing/billing.service.js';
import type { LoginGuard } from './login-guard.js';
import type { MfaService } from './mfa.service.js';
import { verifyPassword } from './passwords.js';
import type { SessionContext } from './sessions.service.js';

export interface AccountServiceDeps {
  db: Database;
  users: UsersRepository;
  voices: VoicesRepository;
  /** Puts each of the account's Voices to sleep before its rows go. */
  activation: Pick<ActivationService, 'release'>;
  mfa: Pick<MfaService, 'checkCode'>;
  activity: Pick<ActivityService, 'eraseFor'>;
  /** The admin invitations the account sent, deleted with it. */
  invitations: Pick<InvitationsRepository, 'deleteFor'>;
  storage: ArtifactStorage;
  /** Ends the subscription and open checkouts at the provider before any row goes. */
  billing: Pick<BillingService, 'closeAccount'>;
  /** Counts wrong passwords or codes for the deletion, and forgets the account's browsers. */
  guard: Pick<LoginGuard, 'check' | 'forget'>;
}

export class AccountService {
  private readonly db: Database;
  private readonly users: UsersRepository;
  private readonly voices: VoicesRepository;
  private readonly activation: Pick<ActivationService, 'release'>;
  private readonly mfa: Pick<MfaService, 'checkCode'>;
  private readonly activity: Pick<ActivityService, 'eraseFor'>;
  private readonly invitations: Pick<InvitationsRepository, 'deleteFor'>;
  private readonly storage: ArtifactStorage;
  private readonly billing: Pick<BillingService, 'closeAccount'>;
  private readonly guard: Pick<LoginGuard, 'check' | 'forget'>;

  constructor({
    db,
    users,
    voices,
    activation,
    mfa,
    activity,
    invitations,
    storage,
    billing,
    guard,
  }: AccountServiceDeps) {
    this.db = db;
    this.users = users;
    this.voices = voices;
    this.activation = activation;
    this.mfa = mfa;
    this.activity = activity;
    this.invitations = invitations;
    this.storage = storage;
    this.billing = billing;
    this.guard = guard;
  }

  async delete(
    { user, session }: SessionContext,
    input: { password: string; mfaToken?: string | undefined },
  ): Promise<void> {
    // No code is no guess: asked for before anything is checked or counted.
    if (user.mfaEnabled && !input.mfaToken) {
      throw new AppError(400, 'INVALID_MFA_TOKEN', DELETE_ACCOUNT_MESSAGES.codeRequired);
    }
    // Wrong answers count against the session: five in a row end it (services/login-guard.ts).
    await this.guard.check(user, session.id, 'Wrong password or code to delete the account', async () => {
      // 400, not 401: the caller is signed in, and a 401 would sign them out of the page.
      if (!(await verifyPassword(user.passwordHash, input.password))) {
        return new AppError(400, 'INVALID_CREDENTIALS', 'That password is not right. Nothing was deleted.');
      }
      if (!user.mfaEnabled || !input.mfaToken) return undefined;
      return (await this.mfa.checkCode(user, input.mfaToken)) ? undefined : errors.wrongCode();
    });
    await this.erase(user, {
      userId: user.id,
      actorId: user.id,
      action: 'account_deleted',
      details: user.mfaEnabled ? 'Deleted by its owner with password and code' : 'Deleted by its owner with password',
    });
  }

  /**
   * Removes the account and everything it owned; `record` is the one row that stays: who deleted
   * which account id, and when. It names no one and quotes nothing the user wrote.
   */
  async erase(user: UserRow, record: ActivityEntry, guard?: (tx: Database) => Promise<void>): Promise<void> {
    // The policy says yes before anything is ended or deleted, and again as the rows go.
    if (guard) await this.db.transaction(guard);
    const owned = await this.voices.listByOwner(user.id);
    await this.billing.closeAccount(
      user,
      // Awake Voices leave the engine (and their time is charged) before their rows go.
      async () => {
        for (const voice of owned) await this.activation.release(voice);
      },
      async (tx) => {
        await guard?.(tx);
        if (!(await this.users.delete(user.id, tx))) throw errors.notFound('User');
        await this.invitations.deleteFor(user, tx);
        await this.activity.eraseFor(user.id, record, tx);
      },
    );
    // Rows first: a failure below leaves orphan folders, never a Voice without its files. A
    // training in progress notices its Voice is gone and stops (workers/training-worker.ts).
    for (const voice of owned) await this.storage.remove(voiceFolder(voice.id));
    await this.guard.forget(user);
  }
}
