// What tests read of an account, whichever layer they drive: its row, the ledger check and its
// activity log straight from the database, and its short content left as the API reports it.
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../db/client.js';
import { activities, type UserRow, usageTranches, users } from '../db/schema.js';
import { LedgerRepository } from '../repositories/ledger.repository.js';
import type { TestClient } from './test-app.js';

type WithDatabase = { database: { db: Database } };

export async function userRow(ctx: WithDatabase, id: string): Promise<UserRow> {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

/** Every tranche holds the sum of its ledger lines, and the storage total the sum of its lines. */
export async function expectLedgerExplainsBalances(ctx: WithDatabase, userId: string): Promise<void> {
  const ledger = new LedgerRepository(ctx.database.db);
  const sums = await ledger.sumsByTranche(userId);
  const tranches = await ctx.database.db.select().from(usageTranches).where(eq(usageTranches.userId, userId));
  expect(tranches.length).toBeGreaterThan(0);
  for (const tranche of tranches) expect(sums.get(tranche.id) ?? 0, `tranche ${tranche.id}`).toBe(tranche.amount);
  expect(await ledger.sum(userId, 'storageSlots')).toBe((await userRow(ctx, userId)).modelStorageSlotsTotal);
}

/** The actions in a user's activity log, oldest first. */
export async function actionsOf(ctx: WithDatabase, userId: string): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ action: activities.action })
    .from(activities)
    .where(eq(activities.userId, userId))
    .orderBy(activities.seq);
  return rows.map((row) => row.action);
}

/** What a list of tranches adds up to. */
export const total = (tranches: readonly { amount: number }[]): number =>
  tranches.reduce((sum, t) => sum + t.amount, 0);

/** The short content `client`'s account has left, as GET /api/auth/me reports it. */
export async function shortContentLeft(client: TestClient): Promise<number> {
  const { user } = (await client.get('/api/auth/me')).json() as {
    user: { usageLimits: { shortContent: { amount: number }[] } };
  };
  return user.usageLimits.shortContent.reduce((sum, tranche) => sum + tranche.amount, 0);
}
