// The prepared reads every signed-in request makes (db/prepared.ts), on the real database: the
// session with its user, the same with the user's own view and usage in one round trip, the usage alone, and
// the Voice list. Each is prepared per database, so two databases in one process keep theirs.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageTranches, users, voices } from '../db/schema.js';
import { newId } from '../ids.js';
import { hashToken } from '../services/tokens.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { openTestDatabase } from '../test/test-database.js';
import { SessionsRepository } from './sessions.repository.js';
import { UsageRepository } from './usage.repository.js';
import { userViewColumns } from './user-usage.js';
import { VoicesRepository } from './voices.repository.js';

const DAY = 86_400_000;
let ctx: TestContext;
let now: Date;

beforeAll(async () => {
  ctx = await createTestContext();
  now = ctx.clock.now();
});
afterAll(() => ctx.close());

/** A registered user without the starter tranches, and their session token. */
async function user() {
  const client = ctx.client();
  const id: string = (await client.register()).res.json().user.id;
  await ctx.database.db.delete(usageTranches).where(eq(usageTranches.userId, id));
  return { id, token: client.token as string };
}

async function tranche(userId: string, type: 'modelsTrained' | 'chunkEdits', amount: number, days: number) {
  await ctx.database.db.insert(usageTranches).values({
    id: newId(),
    userId,
    type,
    amount,
    expiresAt: new Date(now.getTime() + days * DAY),
    source: 'admin',
  });
}

async function voice(userId: string, name: string, createdAt: Date) {
  await ctx.database.db.insert(voices).values({ id: newId(), userId, name, status: 'ready', progress: 100, createdAt });
}

describe('the per-request reads', () => {
  it("find a session's user and, in the same read, only that user's live tranches and Voices", async () => {
    const me = await user();
    const other = await user();
    await tranche(me.id, 'modelsTrained', 3, 30);
    await tranche(me.id, 'chunkEdits', 50, 10);
    await tranche(me.id, 'chunkEdits', 0, 10); // used up
    await tranche(me.id, 'modelsTrained', 5, -1); // expired
    await tranche(other.id, 'modelsTrained', 7, 30);
    await voice(me.id, 'Mine', now);
    await voice(other.id, 'Theirs', now);
    // Every column of the view holds a value, of each kind the view reads back from JSON: times to
    // the millisecond, a text array, a JSON object, numbers and flags.
    const at = (days: number) => new Date(now.getTime() + days * DAY + 123);
    await ctx.database.db
      .update(users)
      .set({
        emailVerifiedAt: at(-3),
        pendingEmail: 'next@example.com',
        mutedNotices: ['usage', 'training'],
        planName: 'pro',
        billingCycle: 'annual',
        payNowDiscount: true,
        trialStartedAt: at(-2),
        trialRefusedAt: at(-1),
        subscriptionStatus: 'active',
        cancelAtPeriodEnd: true,
        providerSubscriptionId: 'sub_1',
        currentPeriodEnd: at(20),
        pendingPlan: 'minimum',
        pendingBillingCycle: 'monthly',
        pendingEffectiveAt: at(20),
        pendingForSubscriptionId: 'sub_1',
        paymentDue: {
          invoiceId: 'in_1',
          amountCents: 1200,
          payUrl: null,
          failure: 'card declined',
          requiresAction: false,
          blocksPlan: true,
        },
        grantedPlan: 'virtuoso',
        modelStorageSlotsTotal: 4,
        credits: 7,
      })
      .where(eq(users.id, me.id));
    await voice(other.id, 'Theirs too', now);

    const sessions = new SessionsRepository(ctx.database.db, ctx.clock);
    const found = await sessions.findWithUserViewByTokenHash(hashToken(me.token));
    expect(found?.user.id).toBe(me.id);
    expect(found?.session.userId).toBe(me.id);
    expect(found?.usage.storageSlotsUsed).toBe(1);
    expect(found?.usage.tranches.map((t) => [t.type, t.amount, t.expiresAt.getTime()]).sort()).toEqual(
      [
        ['chunkEdits', 50, now.getTime() + 10 * DAY],
        ['modelsTrained', 3, now.getTime() + 30 * DAY],
      ].sort(),
    );
    // The view carries no secrets; the plain lookup finds the same session and the same user in
    // every column the view reads, and the usage alone is the same usage.
    expect(found?.user).not.toHaveProperty('passwordHash');
    expect(found?.user).not.toHaveProperty('mfaSecret');
    const plain = await sessions.findWithUserByTokenHash(hashToken(me.token));
    expect(plain?.session).toEqual(found?.session);
    expect(found?.user).toEqual(
      Object.fromEntries(Object.keys(userViewColumns).map((k) => [k, plain?.user[k as keyof typeof userViewColumns]])),
    );
    expect(found?.user.currentPeriodEnd).toEqual(at(20));
    expect(found?.user.mutedNotices).toEqual(['usage', 'training']);
    expect(await new UsageRepository(ctx.database.db).ofUser(me.id, now)).toEqual(found?.usage);
  });

  it('find nothing for an unknown token, and an empty usage for a user with none', async () => {
    const sessions = new SessionsRepository(ctx.database.db, ctx.clock);
    expect(await sessions.findWithUserByTokenHash(hashToken('no such token'))).toBeUndefined();
    expect(await sessions.findWithUserViewByTokenHash(hashToken('no such token'))).toBeUndefined();
    const empty = await user();
    expect(await new UsageRepository(ctx.database.db).ofUser(empty.id, now)).toEqual({
      tranches: [],
      storageSlotsUsed: 0,
    });
  });

  it('answer lookups asked at once (one query: db/lookup-batch.ts) each with its own session', async () => {
    const [ada, bo] = [await user(), await user()];
    await voice(bo.id, 'Bo’s', now);
    const sessions = new SessionsRepository(ctx.database.db, ctx.clock);
    const tokens = [ada.token, bo.token, 'no such token', ada.token];
    const [plain, views] = await Promise.all([
      Promise.all(tokens.map((t) => sessions.findWithUserByTokenHash(hashToken(t)))),
      Promise.all(tokens.map((t) => sessions.findWithUserViewByTokenHash(hashToken(t)))),
    ]);
    expect(plain.map((found) => found?.user.id)).toEqual([ada.id, bo.id, undefined, ada.id]);
    expect(views.map((found) => found?.session.userId)).toEqual([ada.id, bo.id, undefined, ada.id]);
    expect(views.map((found) => found?.usage.storageSlotsUsed)).toEqual([0, 1, undefined, 0]);
  });

  it("list a user's own Voices, newest first", async () => {
    const me = await user();
    await voice(me.id, 'Older', new Date(now.getTime() - DAY));
    await voice(me.id, 'Newer', now);
    const list = await new VoicesRepository(ctx.database.db, ctx.clock).listByOwner(me.id);
    expect(list.map((v) => v.name)).toEqual(['Newer', 'Older']);
  });

  it('are prepared per database: a second one in the same process reads its own rows', async () => {
    const second = await openTestDatabase();
    try {
      const me = await user();
      await voice(me.id, 'Here', now);
      expect(await new VoicesRepository(second.db, ctx.clock).listByOwner(me.id)).toEqual([]);
      expect(
        await new SessionsRepository(second.db, ctx.clock).findWithUserByTokenHash(hashToken(me.token)),
      ).toBeUndefined();
      expect((await new VoicesRepository(ctx.database.db, ctx.clock).listByOwner(me.id)).map((v) => v.name)).toEqual([
        'Here',
      ]);
    } finally {
      await second.close();
    }
  });
});
