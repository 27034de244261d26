// Repositories stamp rows with the services' clock, not the machine's: the idle sleep reads a
// Voice's updatedAt beside times the clock gave, so the two must be one time.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, voices } from '../db/schema.js';
import { newId } from '../ids.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { MfaRepository } from './mfa.repository.js';
import { UsersRepository } from './users.repository.js';
import { VoicesRepository } from './voices.repository.js';

const YEAR = 365 * 86_400_000;
let ctx: TestContext;
let userId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  userId = (await ctx.client().register()).res.json().user.id;
  // A year ahead of the machine: a stamp from the machine's clock would show.
  ctx.clock.advance(YEAR);
});
afterAll(() => ctx.close());

const userUpdatedAt = async () =>
  (await ctx.database.db.select().from(users).where(eq(users.id, userId)))[0]?.updatedAt;

describe('what repositories write as updatedAt', () => {
  it("is the injected clock's time for users, two-factor and Voices", async () => {
    const { db } = ctx.database;
    await new UsersRepository(db, ctx.clock).update(userId, { username: 'stamped' });
    expect(await userUpdatedAt()).toEqual(ctx.clock.now());

    ctx.clock.advance(60_000);
    await new MfaRepository(db, ctx.clock).setPending(userId, 'sealed');
    expect(await userUpdatedAt()).toEqual(ctx.clock.now());

    const id = newId();
    await db.insert(voices).values({ id, userId, name: 'Stamped', status: 'ready' });
    ctx.clock.advance(60_000);
    const row = await new VoicesRepository(db, ctx.clock).transition(id, ['ready'], { statusMessage: 'moved' });
    expect(row?.updatedAt).toEqual(ctx.clock.now());
  });
});
