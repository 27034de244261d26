// Reads and writes of the users table. No rules live here: services decide, this stores.
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type UserRow, users } from '../db/schema.js';

export type NewUser = Pick<UserRow, 'id' | 'username' | 'email' | 'passwordHash'> & Partial<UserRow>;

export class UsersRepository {
  constructor(private readonly db: Database) {}

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
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
      .set({ onboardingStep: to, updatedAt: new Date() })
      .where(and(eq(users.id, id), inArray(users.onboardingStep, [...from])));
  }

  /** Locks the user's row for the caller's transaction: serialises spending of per-user totals. */
  async lockById(tx: Database, id: string): Promise<UserRow | undefined> {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    return row;
  }

  async count(db: Database = this.db): Promise<number> {
    const [row] = await db.select({ n: count() }).from(users);
    return row?.n ?? 0;
  }

  async insert(user: NewUser, db: Database = this.db): Promise<UserRow> {
    const [row] = await db.insert(users).values(user).returning();
    if (!row) throw new Error('insert into users returned no row');
    return row;
  }

  async update(id: string, patch: Partial<Omit<UserRow, 'id'>>, db: Database = this.db): Promise<UserRow | undefined> {
    const [row] = await db
      .update(users)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  /** Adds one failed login atomically, so concurrent guesses cannot each read the old count. */
  async incrementFailedLogins(id: string): Promise<number> {
    const [row] = await this.db
      .update(users)
      .set({ failedLoginCount: sql`${users.failedLoginCount} + 1` })
      .where(eq(users.id, id))
      .returning({ n: users.failedLoginCount });
    return row?.n ?? 0;
  }
}
