import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageTranches, users } from '../db/schema.js';
import { AppError } from '../errors.js';
import { LedgerRepository } from '../repositories/ledger.repository.js';
import { UsageRepository } from '../repositories/usage.repository.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { UsageService } from './usage.service.js';

let ctx: TestContext;
let usage: UsageService;
const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await createTestContext();
  usage = new UsageService(
    ctx.database.db,
    new UsageRepository(ctx.database.db),
    new LedgerRepository(ctx.database.db),
    ctx.clock,
  );
});
afterAll(() => ctx.close());

async function freshUser(): Promise<string> {
  const client = ctx.client();
  const id = (await client.register()).res.json().user.id as string;
  // Start from nothing: tests grant exactly what they need.
  await ctx.database.db.delete(usageTranches).where(eq(usageTranches.userId, id));
  return id;
}

async function grant(userId: string, amount: number, days: number) {
  const expiresAt = new Date(ctx.clock.now().getTime() + days * DAY);
  await ctx.database.db.transaction((tx) =>
    usage.grant(
      tx,
      userId,
      { tranches: [{ type: 'modelsTrained', amount, expiresAt }] },
      { reason: 'admin', reference: null },
    ),
  );
}

/** Every tranche's amount is the sum of its ledger lines, and the storage total the sum of its. */
async function expectLedgerExplainsBalances(userId: string) {
  const ledger = new LedgerRepository(ctx.database.db);
  const sums = await ledger.sumsByTranche(userId);
  const tranches = await ctx.database.db.select().from(usageTranches).where(eq(usageTranches.userId, userId));
  for (const tranche of tranches) expect(sums.get(tranche.id) ?? 0).toBe(tranche.amount);
  const [user] = await ctx.database.db.select().from(users).where(eq(users.id, userId));
  expect(await ledger.sum(userId, 'storageSlots')).toBe(user?.modelStorageSlotsTotal);
}

const amounts = async (userId: string) =>
  (await ctx.database.db.select().from(usageTranches).where(eq(usageTranches.userId, userId)))
    .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
    .map((t) => t.amount);

describe('UsageService', () => {
  it('spends from the tranche that expires soonest, across tranches', async () => {
    const id = await freshUser();
    await grant(id, 2, 30);
    await grant(id, 5, 10);
    await usage.consume(id, 'modelsTrained', 6);
    expect(await amounts(id)).toEqual([0, 1]);
  });

  it('ignores expired tranches and refuses with the insufficient-resource error', async () => {
    const id = await freshUser();
    await grant(id, 5, -1);
    await grant(id, 1, 10);
    const error = await usage.consume(id, 'modelsTrained', 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).toBody()).toMatchObject({ reason: 'insufficient_limit', limitType: 'modelsTrained' });
    expect(await amounts(id)).toEqual([5, 1]);
  });

  it('lets exactly one of several simultaneous requests spend the last unit', async () => {
    const id = await freshUser();
    await grant(id, 1, 10);
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => usage.consume(id, 'modelsTrained', 1)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await amounts(id)).toEqual([0]);
  });

  it('gives back what failed work spent', async () => {
    const id = await freshUser();
    await usage.refund(id, 'modelsTrained', 1);
    await usage.consume(id, 'modelsTrained', 1);
    expect(await amounts(id)).toEqual([0]);
  });
});

describe('refunds', () => {
  it('return the units to the tranche they came from, with its expiry', async () => {
    const id = await freshUser();
    await grant(id, 1, 5);
    await grant(id, 3, 60);
    const receipt = await usage.consume(id, 'modelsTrained', 2);
    expect(await amounts(id)).toEqual([0, 2]);
    await usage.refund(id, 'modelsTrained', 2, receipt);
    // Back where they were: no fresh 90-day tranche, and the soon-expiring unit still expires soon.
    expect(await amounts(id)).toEqual([1, 3]);
    const rows = await ctx.database.db.select().from(usageTranches).where(eq(usageTranches.userId, id));
    expect(rows.map((r) => r.source)).not.toContain('refund');
  });

  it('without a receipt go back to the latest spends, and never twice', async () => {
    const id = await freshUser();
    await grant(id, 2, 5);
    await usage.consume(id, 'modelsTrained', 1);
    await usage.refund(id, 'modelsTrained', 1);
    expect(await amounts(id)).toEqual([2]);
    // Nothing left to return to: a refund beyond what was spent is a fresh tranche, as before.
    await usage.refund(id, 'modelsTrained', 1);
    expect(await amounts(id)).toEqual([2, 1]);
  });
});

describe('the ledger', () => {
  it('explains every balance: recomputed from its lines, it equals what is stored', async () => {
    const id = await freshUser();
    await grant(id, 3, 5);
    await grant(id, 4, 60);
    const first = await usage.consume(id, 'modelsTrained', 4);
    await usage.consume(id, 'modelsTrained', 1);
    await usage.refund(id, 'modelsTrained', 2, first);
    await usage.refund(id, 'modelsTrained', 5);
    await ctx.database.db.transaction((tx) => usage.addStorageSlots(tx, id, 50, { reason: 'pack', reference: 'cs_1' }));
    await ctx.database.db.transaction((tx) => usage.addStorageSlots(tx, id, -2, { reason: 'admin', reference: null }));
    await expectLedgerExplainsBalances(id);
    const lines = await new LedgerRepository(ctx.database.db).latest(id, 100);
    expect(lines.filter((l) => l.resource === 'modelsTrained').map((l) => [l.reason, l.amount])).toEqual(
      expect.arrayContaining([
        ['admin', 3],
        ['admin', 4],
        ['usage', -3],
        ['usage', -1],
        ['refund', 2],
      ]),
    );
  });

  it('grants the same cause once', async () => {
    const id = await freshUser();
    const expiresAt = new Date(ctx.clock.now().getTime() + DAY);
    const grantPack = () =>
      ctx.database.db.transaction((tx) =>
        usage.grant(
          tx,
          id,
          { tranches: [{ type: 'chunkEdits', amount: 100, expiresAt }] },
          { reason: 'pack', reference: 'cs_9' },
        ),
      );
    expect(await grantPack()).toBe(true);
    expect(await grantPack()).toBe(false);
    expect(await usage.remaining(id, 'chunkEdits')).toBe(100);
  });
});
