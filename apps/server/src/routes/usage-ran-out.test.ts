// What a person out of usage is told to do: where the server sells usage, to buy more; where it
// sells none (billing off), to ask its administrator, who sets each account's limits. The same
// refusal (a fork with every Voice storage slot taken) on a server of each kind.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { users, voices } from '../db/schema.js';
import { newId } from '../ids.js';
import { createTestContext, type TestContext } from '../test/test-app.js';

const SERVERS: [string, Config['billing'], string][] = [
  [
    'billing off',
    { provider: 'none' },
    'You have no Voice storage slots left in your usage limits. This server does not sell usage: ask its administrator to raise your limits.',
  ],
  [
    'billing on',
    { provider: 'offline', publicUrl: undefined, prioritySupportUrl: undefined },
    'You have no Voice storage slots left in your usage limits. Buy more usage to continue.',
  ],
];

describe.each(SERVERS)('a server with %s', (_name, billing, said) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ billing });
  });
  afterAll(() => ctx.close());

  it('says what to do when usage runs out', async () => {
    const owner = ctx.client();
    const ownerId: string = (await owner.register()).res.json().user.id;
    const source = newId();
    await ctx.database.db
      .insert(voices)
      .values({ id: source, userId: ownerId, name: 'Public', status: 'ready', progress: 100, isPublic: true });
    const other = ctx.client();
    const otherId: string = (await other.register()).res.json().user.id;
    await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 0 }).where(eq(users.id, otherId));

    const refused = await other.post(`/api/loras/${source}/fork`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'INSUFFICIENT_LIMIT', limitType: 'storageSlots', msg: said });
  });
});
