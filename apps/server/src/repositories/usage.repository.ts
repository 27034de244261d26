// Usage tranches: amounts of a resource granted to a user, each with its own expiry.

import type { TrancheType } from '@ownvoice/shared';
import { and, asc, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type UsageSpendRow, type UsageTrancheRow, usageSpends, usageTranches } from '../db/schema.js';

/** Tranches of a user's resource that still hold something and have not expired. */
const live = (userId: string, type: TrancheType, now: Date) =>
  and(
    eq(usageTranches.userId, userId),
    eq(usageTranches.type, type),
    gt(usageTranches.amount, 0),
    gt(usageTranches.expiresAt, now),
  );

export class UsageRepository {
  constructor(private readonly db: Database) {}

  async listForUser(userId: string): Promise<UsageTrancheRow[]> {
    return this.db.select().from(usageTranches).where(eq(usageTranches.userId, userId));
  }

  async insert(rows: (typeof usageTranches.$inferInsert)[], db: Database = this.db): Promise<void> {
    if (rows.length) await db.insert(usageTranches).values(rows);
  }

  /** Live tranches of one type, soonest to expire first, locked for the caller's transaction. */
  lockLive(tx: Database, userId: string, type: TrancheType, now: Date): Promise<UsageTrancheRow[]> {
    return tx
      .select()
      .from(usageTranches)
      .where(live(userId, type, now))
      .orderBy(asc(usageTranches.expiresAt), asc(usageTranches.createdAt))
      .for('update');
  }

  async sumLive(userId: string, type: TrancheType, now: Date): Promise<number> {
    const [row] = await this.db
      .select({ total: sql<string | null>`sum(${usageTranches.amount})` })
      .from(usageTranches)
      .where(live(userId, type, now));
    return Number(row?.total ?? 0);
  }

  async take(tx: Database, id: string, amount: number): Promise<void> {
    await tx
      .update(usageTranches)
      .set({ amount: sql`${usageTranches.amount} - ${amount}` })
      .where(eq(usageTranches.id, id));
  }

  async recordSpends(tx: Database, rows: (typeof usageSpends.$inferInsert)[]): Promise<void> {
    if (rows.length) await tx.insert(usageSpends).values(rows);
  }

  /** Spends older than `before` are no longer refunded to their tranche; their records go. */
  async pruneSpends(tx: Database, userId: string, before: Date): Promise<void> {
    await tx.delete(usageSpends).where(and(eq(usageSpends.userId, userId), lt(usageSpends.createdAt, before)));
  }

  /**
   * Spends of one type not yet fully refunded, newest first, locked for the caller's transaction;
   * only those named in `ids` when given.
   */
  lockRefundable(tx: Database, userId: string, type: TrancheType, ids?: readonly string[]): Promise<UsageSpendRow[]> {
    return tx
      .select()
      .from(usageSpends)
      .where(
        and(
          eq(usageSpends.userId, userId),
          eq(usageSpends.type, type),
          gt(usageSpends.amount, usageSpends.refunded),
          ...(ids ? [inArray(usageSpends.id, [...ids])] : []),
        ),
      )
      .orderBy(desc(usageSpends.createdAt), desc(usageSpends.id))
      .for('update');
  }

  /** Puts `amount` back into the tranche a spend took it from and notes it on the spend. */
  async giveBack(tx: Database, spend: Pick<UsageSpendRow, 'id' | 'trancheId'>, amount: number): Promise<void> {
    await tx
      .update(usageTranches)
      .set({ amount: sql`${usageTranches.amount} + ${amount}` })
      .where(eq(usageTranches.id, spend.trancheId));
    await tx
      .update(usageSpends)
      .set({ refunded: sql`${usageSpends.refunded} + ${amount}` })
      .where(eq(usageSpends.id, spend.id));
  }
}
