// Server-side sessions: one row per issued token, keyed by the token's hash.
import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type SessionRow, sessions, type UserRow, users } from '../db/schema.js';

export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async insert(row: Omit<SessionRow, 'createdAt'> & { createdAt?: Date }): Promise<SessionRow> {
    const [created] = await this.db.insert(sessions).values(row).returning();
    if (!created) throw new Error('insert into sessions returned no row');
    return created;
  }

  async findWithUserByTokenHash(tokenHash: string): Promise<{ session: SessionRow; user: UserRow } | undefined> {
    const [row] = await this.db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.tokenHash, tokenHash))
      .limit(1);
    return row;
  }

  /** Marks a session used; the `before` guard makes concurrent touches write once. */
  async touch(id: string, at: Date, before: Date): Promise<void> {
    await this.db
      .update(sessions)
      .set({ lastUsedAt: at })
      .where(and(eq(sessions.id, id), lt(sessions.lastUsedAt, before)));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, id));
  }

  async deleteAllForUser(userId: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.userId, userId));
  }
}
