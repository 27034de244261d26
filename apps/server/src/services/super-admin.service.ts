// The first super admin is made by the operator on the server's machine (`npm run admin --
// create-super-admin`), never by signing up: with no e-mail verification, an address proves
// nothing. An existing account is promoted only with its own password, so whoever registered the
// address first gains nothing by it.
import {
  emailSchema,
  filterUsernameInput,
  firstIssueMessage,
  newPasswordSchema,
  usernameSchema,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { StarterAllowance } from '../config.js';
import type { Database } from '../db/client.js';
import type { UserRow } from '../db/schema.js';
import { newId } from '../ids.js';
import { LedgerRepository } from '../repositories/ledger.repository.js';
import { UsageRepository } from '../repositories/usage.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { UsageService } from './usage.service.js';

/** A refusal to show the operator as it is. */
export class SuperAdminError extends Error {
  override name = 'SuperAdminError';
}

export interface SuperAdminInput {
  email: string;
  /** For a new account; derived from the e-mail when absent. */
  username?: string | undefined;
  password: string;
}

export type SuperAdminOutcome = 'created' | 'promoted' | 'already';

export class SuperAdminService {
  private readonly users: UsersRepository;
  private readonly usage: UsageService;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly starter: StarterAllowance | null,
  ) {
    this.users = new UsersRepository(db, clock);
    this.usage = new UsageService(db, new UsageRepository(db), new LedgerRepository(db), clock);
  }

  /** Whether an account with this e-mail (normalised as at sign-up) exists. */
  async exists(email: string): Promise<boolean> {
    return (await this.users.findByEmail(parseEmail(email))) !== undefined;
  }

  /** Creates the account as super admin, or promotes the existing one whose password this is. */
  async createOrPromote(input: SuperAdminInput): Promise<{ outcome: SuperAdminOutcome; user: UserRow }> {
    const email = parseEmail(input.email);
    const existing = await this.users.findByEmail(email);
    if (existing) {
      if (!(await verifyPassword(existing.passwordHash, input.password))) {
        throw new SuperAdminError(
          `An account with ${email} exists, and that is not its password. Only its owner may make it super admin: ` +
            'run the command again with its password, or choose another e-mail address.',
        );
      }
      if (existing.role === 'super_admin') return { outcome: 'already', user: existing };
      const user = await this.users.update(existing.id, { role: 'super_admin' });
      if (!user) throw new SuperAdminError(`The account with ${email} was deleted meanwhile: run the command again.`);
      return { outcome: 'promoted', user };
    }

    const password = newPasswordSchema.safeParse(input.password);
    if (!password.success) throw new SuperAdminError(firstIssueMessage(password.error));
    const username = usernameSchema.safeParse(input.username ?? usernameFrom(email));
    if (!username.success) {
      throw new SuperAdminError(
        `${firstIssueMessage(username.error)}: choose one with --username${input.username === undefined ? ` (none could be made from ${email})` : ''}.`,
      );
    }
    if (await this.users.findByUsernameInsensitive(username.data)) {
      throw new SuperAdminError(`The username ${username.data} is taken: choose another with --username.`);
    }
    const passwordHash = await hashPassword(password.data);
    try {
      const user = await this.db.transaction(async (tx) => {
        const now = this.clock.now();
        const created = await this.users.insert(
          {
            id: newId(now),
            username: username.data,
            email,
            passwordHash,
            role: 'super_admin',
            // Whoever runs this command on the server's machine vouches for the address: the first
            // super admin may have no mail server to confirm it through.
            emailVerifiedAt: now,
            createdAt: now,
            updatedAt: now,
          },
          tx,
        );
        if (!this.starter) return created;
        await this.usage.grantStarter(created.id, this.starter, tx);
        return (await this.users.findById(created.id, tx)) ?? created;
      });
      return { outcome: 'created', user };
    } catch (error) {
      // A sign-up took the e-mail or username between the checks and the insert (PostgreSQL).
      if ((error as { code?: string }).code === '23505' || /unique/i.test(String((error as Error).message))) {
        throw new SuperAdminError('That e-mail or username was taken meanwhile: run the command again.');
      }
      throw error;
    }
  }
}

function parseEmail(value: string): string {
  const email = emailSchema.safeParse(value);
  if (!email.success) throw new SuperAdminError(`${firstIssueMessage(email.error)}: ${JSON.stringify(value)}`);
  return email.data;
}

/** The part before the @, in the characters a username allows. */
const usernameFrom = (email: string): string => filterUsernameInput(email.split('@')[0] ?? '');
