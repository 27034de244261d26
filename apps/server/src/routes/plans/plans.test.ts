// /api/plans over HTTP: whether plans are sold here, the priority-support link, and the ledger, as
// the plans page reads them (each answer checked against its schema). The rules behind them are
// services/billing/billing.service.test.ts's.
import { addMonthsUtc } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { type BillingTestContext, createBillingContext, PRIORITY_SUPPORT_URL, signUp } from '../../test/billing.js';
import { createTranche } from '../../test/factories/usage.js';
import { onPlan } from '../../test/factories/users.js';

let ctx: BillingTestContext;
beforeAll(async () => {
  ctx = await createBillingContext();
});
afterAll(() => ctx.close());

describe('/api/plans', () => {
  it('says which provider sells plans here, to anyone', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/plans/billing' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ provider: 'offline', testMode: true });
  });

  it('gives the booking link to virtuoso subscribers only', async () => {
    const { client, id } = await signUp(ctx);
    const refused = await client.get('/api/plans/priority-support-link');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN' });
    await ctx.database.db
      .update(users)
      .set(onPlan('virtuoso', 'monthly', addMonthsUtc(ctx.clock.now(), 1)))
      .where(eq(users.id, id));
    const res = await client.get('/api/plans/priority-support-link');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: PRIORITY_SUPPORT_URL });
  });

  it('lists the ledger in shown units', async () => {
    const { client, id } = await signUp(ctx);
    const tranche = await createTranche(ctx, id, { type: 'activationHours', amount: 90, days: 30 });
    const res = await client.get('/api/plans/ledger');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ entries: unknown[] }>().entries).toEqual([
      expect.objectContaining({
        resource: 'activationHours',
        amount: 1.5,
        reason: 'admin',
        expiresAt: tranche.expiresAt.toISOString(),
      }),
    ]);
  });
});
