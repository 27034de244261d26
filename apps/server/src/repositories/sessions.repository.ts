// Server-side sessions: one row per issued token, keyed by the token's hash.
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { LookupBatch } from '../db/lookup-batch.js';
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

/** The sessions whose token hashes are in the list (`tokenHashes`), each with its hash. */
const sessionsByTokenHashes = sql`${sessions.tokenHash} = any(${sql.placeholder('tokenHashes')}::text[])`;

/** Every signed-in request runs this one (batched: db/lookup-batch.ts). */
const withUserByTokenHashes = preparedQuery((db) =>
  db
    .select({ tokenHash: sessions.tokenHash, session: requestSession, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(sessionsByTokenHashes)
    .prepare('ov_sessions_with_user_by_token_hashes'),
);

/** The same, for the request that shows the user their own view: its columns and their usage (user-usage.ts). */
const withUserViewByTokenHashes = preparedQuery((db) =>
  db
    .select({ tokenHash: sessions.tokenHash, session: requestSession, user: userViewObject, ...usageColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(sessionsByTokenHashes)
    .prepare('ov_sessions_with_user_view_by_token_hashes'),
);

/** Each row's answer (`answerOf`), by its token hash: what a LookupBatch asks of its lookup. */
const byTokenHash = <R extends { tokenHash: string }, V>(rows: R[], answerOf: (row: R) => V): Map<string, V> =>
  new Map(rows.map((row) => [row.tokenHash, answerOf(row)]));

type WithUser = { session: RequestSession; user: UserRow };
type WithUserView = { session: RequestSession; user: UserViewRow; usage: UserUsage };

export class SessionsRepository {
  /** The lookups of every signed-in request, those asked in one turn in one query each. */
  private readonly withUser = new LookupBatch<string, WithUser>(async (tokenHashes) =>
    byTokenHash(await withUserByTokenHashes(this.db).execute({ tokenHashes }), ({ session, user }) => ({
      session,
      user,
    })),
  );
  private readonly withUserView = new LookupBatch<string, WithUserView>(async (tokenHashes) =>
    byTokenHash(
      await withUserViewByTokenHashes(this.db).execute({ tokenHashes, now: this.clock.now().toISOString() }),
      (row) => ({ session: row.session, user: row.user, usage: usageOf(row) }),
    ),
  );

  constructor(
    private readonly db: Database,
    /** The time of the view's usage: the services' clock, so tests that move it stay consistent. */
    private readonly clock: Clock,
  ) {}

  async insert(row: typeof sessions.$inferInsert): Promise<SessionRow> {
    const [created] = await this.db.insert(sessions).values(row).returning();
    if (!created) throw new Error('insert into sessions returned no row');
    return created;
  }

  /** The session with this token hash and its user; undefined when there is none. */
  findWithUserByTokenHash(tokenHash: string): Promise<WithUser | undefined> {
    return this.withUser.find(tokenHash);
  }

  /** As findWithUserByTokenHash, with only the view's columns, the live tranches now and the Voice count. */
  findWithUserViewByTokenHash(tokenHash: string): Promise<WithUserView | undefined> {
    return this.withUserView.find(tokenHash);
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
