// Server-side sessions: one row per issued token, keyed by the token's hash.
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { preparedQuery } from '../db/prepared.js';
import { type SessionRow, sessions, type UserRow, users } from '../db/schema.js';
import { type UserUsage, type UserViewRow, usageColumns, usageOf, userViewObject } from './user-usage.js';

/** What a request needs of its session: which one it is, when it was last used, until when an admin is confirmed. */
export type RequestSession = Pick<SessionRow, 'id' | 'userId' | 'lastUsedAt' | 'confirmedUntil'>;
const requestSession = {
  id: sessions.id,
  userId: sessions.userId,
  lastUsedAt: sessions.lastUsedAt,
  confirmedUntil: sessions.confirmedUntil,
};

/** Every signed-in request runs this one. */
const withUserByTokenHash = preparedQuery((db) =>
  db
    .select({ session: requestSession, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('ov_session_with_user_by_token_hash'),
);

/** The same, for the request that shows the user their own view: its columns and their usage (user-usage.ts). */
const withUserViewByTokenHash = preparedQuery((db) =>
  db
    .select({ session: requestSession, user: userViewObject, ...usageColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('ov_session_with_user_view_by_token_hash'),
);

export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async insert(row: typeof sessions.$inferInsert): Promise<SessionRow> {
    const [created] = await this.db.insert(sessions).values(row).returning();
    if (!created) throw new Error('insert into sessions returned no row');
    return created;
  }

  async findWithUserByTokenHash(tokenHash: string): Promise<{ session: RequestSession; user: UserRow } | undefined> {
    const [row] = await withUserByTokenHash(this.db).execute({ tokenHash });
    return row;
  }

  /** As findWithUserByTokenHash, with only the view's columns, the live tranches at `now` and the Voice count. */
  async findWithUserViewByTokenHash(
    tokenHash: string,
    now: Date,
  ): Promise<{ session: RequestSession; user: UserViewRow; usage: UserUsage } | undefined> {
    const [row] = await withUserViewByTokenHash(this.db).execute({ tokenHash, now: now.toISOString() });
    return row && { session: row.session, user: row.user, usage: usageOf(row) };
  }

  /** Marks a session used; the `before` guard makes concurrent touches write once. */
  async touch(id: string, at: Date, before: Date): Promise<void> {
    await this.db
      .update(sessions)
      .set({ lastUsedAt: at })
      .where(and(eq(sessions.id, id), lt(sessions.lastUsedAt, before)));
  }

  /** Sets (or, with null, ends) the session's confirmed window. */
  async setConfirmedUntil(id: string, until: Date | null): Promise<void> {
    await this.db.update(sessions).set({ confirmedUntil: until }).where(eq(sessions.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.id, id));
  }

  async deleteAllForUser(userId: string, except?: string): Promise<void> {
    await this.db
      .delete(sessions)
      .where(except ? and(eq(sessions.userId, userId), ne(sessions.id, except)) : eq(sessions.userId, userId));
  }
}
