// Usage tranches: amounts of a resource granted to a user, each with its own expiry. Every change
// to an amount has its line in the ledger (ledger.repository.ts), written in the same transaction.

import type { TrancheType } from '@ownvoice/shared';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { preparedQuery } from '../db/prepared.js';
import { type UsageTrancheRow, usageTranches, users } from '../db/schema.js';
import { type UserUsage, usageColumns, usageOf } from './user-usage.js';

/** Tranches of a user's resource that still hold something and have not expired. */
const live = (userId: string, type: TrancheType, now: Date) =>
  and(
    eq(usageTranches.userId, userId),
    eq(usageTranches.type, type),
    gt(usageTranches.amount, 0),
    gt(usageTranches.expiresAt, now),
  );

/** What a user has used, for their view; with the session of a request: sessions.repository.ts. */
const usageOfUser = preparedQuery((db) =>
  db
    .select(usageColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('ov_usage_of_user'),
);

export class UsageRepository {
  constructor(private readonly db: Database) {}

  /** A user's live tranches at `now`, and the storage slots their Voices take. */
  async ofUser(userId: string, now: Date): Promise<UserUsage> {
    const [row] = await usageOfUser(this.db).execute({ userId, now: now.toISOString() });
    return row ? usageOf(row) : { tranches: [], storageSlotsUsed: 0 };
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

  /** Inside a transaction pass it as `db`: the embedded database serves one connection. */
  async sumLive(userId: string, type: TrancheType, now: Date, db: Database = this.db): Promise<number> {
    const [row] = await db
      .select({ total: sql<string | null>`sum(${usageTranches.amount})` })
      .from(usageTranches)
      .where(live(userId, type, now));
    return Number(row?.total ?? 0);
  }

  /** What a tranche holds now, locked for the caller's transaction (0 when it is gone). */
  async lockAmount(tx: Database, id: string): Promise<number> {
    const [row] = await tx
      .select({ amount: usageTranches.amount })
      .from(usageTranches)
      .where(eq(usageTranches.id, id))
      .for('update');
    return row?.amount ?? 0;
  }

  async take(tx: Database, id: string, amount: number): Promise<void> {
    await tx
      .update(usageTranches)
      .set({ amount: sql`${usageTranches.amount} - ${amount}` })
      .where(eq(usageTranches.id, id));
  }

  /** Puts `amount` back into a tranche (a refund to where a spend came from). */
  async giveBack(tx: Database, trancheId: string, amount: number): Promise<void> {
    await tx
      .update(usageTranches)
      .set({ amount: sql`${usageTranches.amount} + ${amount}` })
      .where(eq(usageTranches.id, trancheId));
  }
}
