// API keys (db/schema.ts `apiKeys`): found by the secret's hash on every request a key makes.
import { and, asc, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { preparedQuery } from '../db/prepared.js';
import { type ApiKeyRow, apiKeys, type UserRow, users } from '../db/schema.js';

const withUserBySecretHash = preparedQuery((db) =>
  db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.secretHash, sql.placeholder('secretHash')))
    .limit(1)
    .prepare('ov_api_key_with_user_by_secret_hash'),
);

export class ApiKeysRepository {
  constructor(private readonly db: Database) {}

  async insert(row: typeof apiKeys.$inferInsert, tx: Database = this.db): Promise<ApiKeyRow> {
    const [created] = await tx.insert(apiKeys).values(row).returning();
    if (!created) throw new Error('insert into api_keys returned no row');
    return created;
  }

  async findWithUserBySecretHash(secretHash: string): Promise<{ key: ApiKeyRow; user: UserRow } | undefined> {
    const [row] = await withUserBySecretHash(this.db).execute({ secretHash });
    return row;
  }

  /** The user's keys that are not revoked, oldest first. */
  listActive(userId: string): Promise<ApiKeyRow[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  }

  async countActive(userId: string, tx: Database = this.db): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    return row?.n ?? 0;
  }

  /** Revokes the user's key; false when they have no such key or it is revoked already. */
  async revoke(userId: string, id: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    return rows.length > 0;
  }

  /** Revokes every key of the user that is not revoked yet (a password reset ends them all). */
  async revokeAllFor(userId: string, at: Date, db: Database = this.db): Promise<void> {
    await db
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  }

  /** Marks a key used; the `before` guard makes concurrent touches write once. */
  async touch(id: string, at: Date, before: Date): Promise<void> {
    await this.db
      .update(apiKeys)
      .set({ lastUsedAt: at })
      .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, before))));
  }
}
