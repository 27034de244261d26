// Reads and writes of interactive writing sessions (one row per session, owned by one user).
import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type InteractiveSessionRow, interactiveSessions } from '../db/schema.js';

export class InteractiveSessionsRepository {
  constructor(private readonly db: Database) {}

  async insert(row: typeof interactiveSessions.$inferInsert, db: Database = this.db): Promise<void> {
    await db.insert(interactiveSessions).values(row);
  }

  /** The user's session, locked for the caller's transaction; another user's is not there. */
  async lockOwned(tx: Database, id: string, userId: string): Promise<InteractiveSessionRow | undefined> {
    const [row] = await tx
      .select()
      .from(interactiveSessions)
      .where(and(eq(interactiveSessions.id, id), eq(interactiveSessions.userId, userId)))
      .for('update');
    return row;
  }

  async update(
    id: string,
    patch: Partial<Pick<InteractiveSessionRow, 'state' | 'version' | 'paid' | 'drafts' | 'updatedAt'>>,
    db: Database = this.db,
  ): Promise<void> {
    await db.update(interactiveSessions).set(patch).where(eq(interactiveSessions.id, id));
  }

  async delete(id: string, db: Database = this.db): Promise<void> {
    await db.delete(interactiveSessions).where(eq(interactiveSessions.id, id));
  }

  /** Sessions of a user left untouched since `before`. */
  async pruneIdle(userId: string, before: Date, db: Database = this.db): Promise<void> {
    await db
      .delete(interactiveSessions)
      .where(and(eq(interactiveSessions.userId, userId), lt(interactiveSessions.updatedAt, before)));
  }
}
