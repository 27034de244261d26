// Reads and writes of the users table. No rules live here: services decide, this stores.
import { type OnboardingStep, type Role, stepsBefore } from '@ownvoice/shared';
import { and, count, desc, eq, gte, ilike, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { type UserRow, users } from '../db/schema.js';

/** The advisory lock that serialises taking a beta seat (sign-ups, a late confirmation, a change of address). */
const SEATS_LOCK_KEY = 7_301_943_211;

export type NewUser = Pick<UserRow, 'id' | 'username' | 'email' | 'passwordHash'> & Partial<UserRow>;

export class UsersRepository {
  constructor(
    private readonly db: Database,
    /** The time rows are stamped with: the services' clock, so tests that move it stay consistent. */
    private readonly clock: Clock,
  ) {}

  async findById(id: string, db: Database = this.db): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  async findByEmail(email: string, db: Database = this.db): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
    return row;
  }

  async findByUsernameInsensitive(username: string, db: Database = this.db): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).limit(1);
    return row;
  }

  /** Sets the onboarding step only while it is one of `from`: a step never moves back. */
  async moveOnboardingStep(id: string, from: readonly string[], to: string, db: Database = this.db): Promise<void> {
    await db
      .update(users)
      .set({ onboardingStep: to, updatedAt: this.clock.now() })
      .where(and(eq(users.id, id), inArray(users.onboardingStep, [...from])));
  }

  /** Moves the onboarding step forward to `to` from any earlier step; a later step stays. */
  async moveOnboardingForward(id: string, to: OnboardingStep, db: Database = this.db): Promise<void> {
    await this.moveOnboardingStep(id, stepsBefore(to), to, db);
  }

  /** Locks the user's row for the caller's transaction: serialises spending of per-user totals. */
  async lockById(tx: Database, id: string): Promise<UserRow | undefined> {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    return row;
  }

  /** The user a payment provider's customer belongs to. */
  async findIdByCustomer(customerId: string): Promise<string | undefined> {
    const [row] = await this.db.select({ id: users.id }).from(users).where(eq(users.providerCustomerId, customerId));
    return row?.id;
  }

  /** Locks every super admin's row for the caller's transaction and answers how many there are. */
  async lockSuperAdmins(tx: Database): Promise<number> {
    const rows = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'super_admin')).for('update');
    return rows.length;
  }

  async count(db: Database = this.db): Promise<number> {
    const [row] = await db.select({ n: count() }).from(users);
    return row?.n ?? 0;
  }

  /**
   * Beta seats taken: accounts with a confirmed address. An unconfirmed sign-up holds none, so
   * addresses nobody reads cannot close the beta (decision 34).
   */
  async countSeats(db: Database = this.db): Promise<number> {
    const [row] = await db.select({ n: count() }).from(users).where(isNotNull(users.emailVerifiedAt));
    return row?.n ?? 0;
  }

  /**
   * Holds, until the caller's transaction ends, the lock every step that takes a seat or an address
   * takes first: two at once cannot both take the last seat, nor both take one address.
   */
  async lockSeats(tx: Database): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEATS_LOCK_KEY})`);
  }

  async insert(user: NewUser, db: Database = this.db): Promise<UserRow> {
    const [row] = await db.insert(users).values(user).returning();
    if (!row) throw new Error('insert into users returned no row');
    return row;
  }

  async update(id: string, patch: Partial<Omit<UserRow, 'id'>>, db: Database = this.db): Promise<UserRow | undefined> {
    const [row] = await db
      .update(users)
      .set({ ...patch, updatedAt: this.clock.now() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  /** The admin overview's counts; "active" means logged in since `activeSince`. */
  async overview(activeSince: Date): Promise<{
    total: number;
    admins: number;
    active: number;
    mfaEnabled: number;
    credits: number;
  }> {
    const [row] = await this.db
      .select({
        total: count(),
        admins: sql<number>`count(*) filter (where ${users.role} <> 'user')`.mapWith(Number),
        active: sql<number>`count(*) filter (where ${gte(users.lastLoginAt, activeSince)})`.mapWith(Number),
        mfaEnabled: sql<number>`count(*) filter (where ${users.mfaEnabled})`.mapWith(Number),
        credits: sql<number>`coalesce(sum(${users.credits}), 0)`.mapWith(Number),
      })
      .from(users);
    return row ?? { total: 0, admins: 0, active: 0, mfaEnabled: 0, credits: 0 };
  }

  /** A page of users, newest first, matching part of a username or e-mail and a role. */
  async list(filter: { search?: string | undefined; role?: Role | undefined; offset: number; limit: number }): Promise<{
    rows: UserRow[];
    total: number;
  }> {
    const conditions: SQL[] = [];
    if (filter.search) {
      // The search is literal text: % and _ match themselves, not any character.
      const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const match = or(ilike(users.username, pattern), ilike(users.email, pattern));
      if (match) conditions.push(match);
    }
    if (filter.role) conditions.push(eq(users.role, filter.role));
    const where = conditions.length ? and(...conditions) : undefined;
    const [rows, [totalRow]] = await Promise.all([
      this.db
        .select()
        .from(users)
        .where(where)
        .orderBy(desc(users.createdAt), desc(users.id))
        .offset(filter.offset)
        .limit(filter.limit),
      this.db.select({ n: count() }).from(users).where(where),
    ]);
    return { rows, total: totalRow?.n ?? 0 };
  }

  /** Deletes the user; their sessions, Voices, usage and codes go with them (foreign keys cascade). */
  async delete(id: string, db: Database = this.db): Promise<boolean> {
    const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    return rows.length > 0;
  }
}
