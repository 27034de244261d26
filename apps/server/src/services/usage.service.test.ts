// The usage rules on a real database, without HTTP: what is spent first, what has expired, who
// gets the last unit, where refunds go, what a refunded payment takes back, and the ledger that
// explains every balance (test/service-context.ts; accounts and tranches from test/factories).
import type { TrancheType } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageTranches } from '../db/schema.js';
import { AppError } from '../errors.js';
import { LedgerRepository } from '../repositories/ledger.repository.js';
import { expectLedgerExplainsBalances } from '../test/account-state.js';
import { DAY_MS } from '../test/factories/rows.js';
import { createSpend, createStorageSlots, createTranche } from '../test/factories/usage.js';
import { createUser } from '../test/factories/users.js';
import { openServiceTestContext, type ServiceTestContext } from '../test/service-context.js';
import type { UsageService } from './usage.service.js';

let ctx: ServiceTestContext;
let usage: UsageService;

beforeAll(async () => {
  ctx = await openServiceTestContext();
  usage = ctx.services.usage;
});
afterAll(() => ctx.close());

/** A new account with no usage at all: tests grant exactly what they need. */
const freshUser = async () => (await createUser(ctx)).id;

/** A grant through the service, as an admin's would be, of `amount` trainings for `days`. */
async function grant(userId: string, amount: number, days: number, type: TrancheType = 'modelsTrained') {
  const expiresAt = new Date(ctx.clock.now().getTime() + days * DAY_MS);
  await ctx.database.db.transaction((tx) =>
    usage.grant(tx, userId, { tranches: [{ type, amount, expiresAt }] }, { reason: 'admin', reference: null }),
  );
}

const tranchesOf = async (userId: string) =>
  (await ctx.database.db.select().from(usageTranches).where(eq(usageTranches.userId, userId))).sort(
    (a, b) => a.expiresAt.getTime() - b.expiresAt.getTime(),
  );
const amounts = async (userId: string) => (await tranchesOf(userId)).map((t) => t.amount);

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
    expect(error).toMatchObject({ statusCode: 400, code: 'INSUFFICIENT_LIMIT' });
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

  it('keeps waking hours in minutes, so awake time is charged by the minute', async () => {
    const id = await freshUser();
    await grant(id, 2, 30, 'activationHours');
    expect(await usage.remaining(id, 'activationHours')).toBe(120);
    await usage.consume(id, 'activationHours', 45);
    expect(await usage.remaining(id, 'activationHours')).toBe(75);
    expect((await ctx.view(id)).usageLimits.activationHours).toEqual([
      { amount: 1.25, expiresAt: new Date(ctx.clock.now().getTime() + 30 * DAY_MS).toISOString() },
    ]);
  });
});

describe('expiry', () => {
  it('counts a tranche until it expires, then for nothing, and refuses once nothing live is left', async () => {
    const id = await freshUser();
    await createTranche(ctx, id, { type: 'shortContent', amount: 3, days: 10 });
    await createTranche(ctx, id, { type: 'shortContent', amount: 2, days: 40 });
    expect(await usage.remaining(id, 'shortContent')).toBe(5);

    ctx.clock.advance(10 * DAY_MS);
    expect(await usage.remaining(id, 'shortContent')).toBe(2);
    expect((await ctx.view(id)).usageLimits.shortContent.map((t) => t.amount)).toEqual([2]);
    await usage.consume(id, 'shortContent', 2);

    const refused = await usage.consume(id, 'shortContent', 1).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_LIMIT' });
    // The expired units were never spent: they stay in their tranche, counting for nothing.
    expect(await amounts(id)).toEqual([3, 0]);
    await expectLedgerExplainsBalances(ctx, id);
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
    expect((await tranchesOf(id)).map((r) => r.source)).not.toContain('refund');
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

  it('come back as a fresh 90-day tranche for a spend older than 30 days', async () => {
    const id = await freshUser();
    const tranche = await createTranche(ctx, id, { type: 'chunkEdits', amount: 10, days: 200 });
    await createSpend(ctx, tranche, 4, { at: new Date(ctx.clock.now().getTime() - 31 * DAY_MS) });
    await usage.refund(id, 'chunkEdits', 4);
    const after = await tranchesOf(id);
    expect(after.map((t) => [t.amount, t.source, t.expiresAt.getTime()])).toEqual([
      [4, 'refund', ctx.clock.now().getTime() + 90 * DAY_MS],
      [6, 'admin', tranche.expiresAt.getTime()],
    ]);
    await expectLedgerExplainsBalances(ctx, id);
  });
});

describe('taking back a refunded payment’s grant', () => {
  it('takes that share, rounded up, out of what is unspent only, once per payment state', async () => {
    const id = await freshUser();
    const pack = await createTranche(ctx, id, { type: 'chunkEdits', amount: 100, reason: 'pack', reference: 'cs_1' });
    await createStorageSlots(ctx, id, 50, { reason: 'pack', reference: 'cs_1' });
    await createSpend(ctx, pack, 70);
    const reverse = (fraction: number, state: string) =>
      ctx.database.db.transaction((tx) => usage.reverseGrant(tx, id, 'cs_1', fraction, state));

    // Half refunded: 50 proofreads are owed back, but only 30 are left; half the slots go.
    expect(await reverse(0.5, '250:none')).toEqual({
      taken: { chunkEdits: 30, storageSlots: 25 },
      unrecovered: { chunkEdits: 20 },
    });
    expect(await amounts(id)).toEqual([0]);
    expect((await ctx.reload(id)).modelStorageSlotsTotal).toBe(25);
    // The same state read again takes nothing more.
    expect(await reverse(0.5, '250:none')).toEqual({ taken: {}, unrecovered: { chunkEdits: 20 } });
    // Refunded in full: the rest of the slots go; the proofreads were spent.
    expect(await reverse(1, '499:none')).toEqual({ taken: { storageSlots: 25 }, unrecovered: { chunkEdits: 70 } });
    expect((await ctx.reload(id)).modelStorageSlotsTotal).toBe(0);
    await expectLedgerExplainsBalances(ctx, id);
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
    await expectLedgerExplainsBalances(ctx, id);
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
    const expiresAt = new Date(ctx.clock.now().getTime() + DAY_MS);
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

  it('grants the starter allowance of a server without payments once, with its slots', async () => {
    const id = await freshUser();
    const allowance = ctx.config.starterAllowance;
    if (!allowance) throw new Error('expected a starter allowance');
    await usage.grantStarter(id, allowance);
    await usage.grantStarter(id, allowance);
    const user = await ctx.view(id);
    const expiresAt = new Date(ctx.clock.now().getTime() + allowance.days * DAY_MS).toISOString();
    expect(user.usageLimits.modelsTrained).toEqual([{ amount: allowance.modelsTrained, expiresAt }]);
    expect(user.usageLimits.chunkEdits).toEqual([{ amount: allowance.chunkEdits, expiresAt }]);
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(allowance.storageSlots);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('adds credits with their line', async () => {
    const id = await freshUser();
    await ctx.database.db.transaction((tx) =>
      usage.addCredits(tx, id, 25, { reason: 'admin', reference: null, authorId: 'an-admin' }),
    );
    expect((await ctx.reload(id)).credits).toBe(25);
    expect(await new LedgerRepository(ctx.database.db).sum(id, 'credits')).toBe(25);
  });
});
