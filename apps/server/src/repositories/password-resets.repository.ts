// Password-reset links (db/schema.ts password_resets), found by the hash of their token.
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type PasswordResetRow, passwordResets } from '../db/schema.js';

export class PasswordResetsRepository {
  constructor(private readonly db: Database) {}

  async insert(row: typeof passwordResets.$inferInsert): Promise<void> {
    await this.db.insert(passwordResets).values(row);
  }

  async findByTokenHash(tokenHash: string): Promise<PasswordResetRow | undefined> {
    const [row] = await this.db.select().from(passwordResets).where(eq(passwordResets.tokenHash, tokenHash));
    return row;
  }

  /** Links made for this person since `since` (a cap on how many mails one address receives). */
  async countSince(userId: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(passwordResets)
      .where(and(eq(passwordResets.userId, userId), gt(passwordResets.createdAt, since)));
    return row?.n ?? 0;
  }

  /** Uses the link if it is still unused; false when another request used it first. */
  async use(id: string, at: Date, db: Database = this.db): Promise<boolean> {
    const used = await db
      .update(passwordResets)
      .set({ usedAt: at })
      .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    return used.length === 1;
  }

  /** Every other link of this person stops working (one was used: the password changed). */
  async useAllFor(userId: string, at: Date, db: Database = this.db): Promise<void> {
    await db
      .update(passwordResets)
      .set({ usedAt: at })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  }

  /** Counts a wrong two-factor code sent with the link; answers how many so far. */
  async countWrongCode(id: string): Promise<number> {
    const [row] = await this.db
      .update(passwordResets)
      .set({ wrongCodes: sql`${passwordResets.wrongCodes} + 1` })
      .where(eq(passwordResets.id, id))
      .returning({ wrongCodes: passwordResets.wrongCodes });
    return row?.wrongCodes ?? 0;
  }
}
