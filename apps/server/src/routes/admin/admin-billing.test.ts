// Admin edits on a server that sells plans (decision 20.6): a plan comes only with its payment, so
// an admin cannot give one or take a paying person's away by hand; a subscription status edit is
// the person's own Cancel or Reactivate, done through the payment provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminWithCode,
  type BillingTestContext,
  buy,
  createBillingContext,
  customerOf,
  me,
  signUp,
} from '../../test/billing.js';

let ctx: BillingTestContext;
let admin: Awaited<ReturnType<typeof adminWithCode>>;
beforeAll(async () => {
  ctx = await createBillingContext();
  admin = await adminWithCode(ctx);
});
afterAll(() => ctx.close());

const editLimits = (userId: string, body: unknown) =>
  admin.client.request('PATCH', `/api/admin/users/${userId}/limits`, body, { 'x-mfa-token': admin.code() });

describe('admin edits with payments on', () => {
  it('refuses to give a paid plan for nothing, which would unlock priority support', async () => {
    const { client, id } = await signUp(ctx);
    const res = await editLimits(id, { plan: { name: 'virtuoso' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PLAN_MANAGED_BY_PROVIDER' });
    expect((await me(client)).plan.name).toBe('none');
    expect((await client.get('/api/plans/priority-support-link')).statusCode).toBe(403);
  });

  it('refuses to set a paying person’s plan by hand, which would leave their card charged', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    const res = await editLimits(id, { plan: { name: 'none' } });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ msg: string }>().msg).toContain('grant usage instead');
    expect((await me(client)).plan.name).toBe('pro');
  });

  it('cancels and reactivates through the provider, with the admin in the log', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'annual' });
    const subscriptionId = (await me(client)).subscription.stripeSubscriptionId ?? '';

    const cancelled = await editLimits(id, { subscription: { status: 'canceled' } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await me(client)).subscription).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
    expect((await ctx.provider.getSubscription(subscriptionId))?.cancelAtPeriodEnd).toBe(true);

    const reactivated = await editLimits(id, { subscription: { status: 'active' } });
    expect(reactivated.statusCode, reactivated.body).toBe(200);
    expect((await ctx.provider.getSubscription(subscriptionId))?.cancelAtPeriodEnd).toBe(false);
    expect((await me(client)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(await ctx.provider.listSubscriptions(await customerOf(ctx, id))).toHaveLength(1);

    const log = await admin.client.get(`/api/admin/users/${id}/activities`);
    const details = log.json<{ data: { activities: { action: string; details: string }[] } }>().data.activities;
    expect(details.filter((a) => a.action === 'limits_changed').map((a) => a.details)).toEqual([
      'Subscription status canceled → active',
      'Subscription status active → canceled',
    ]);
  });

  it('refuses a status edit for someone who pays nothing, instead of pretending', async () => {
    const { id } = await signUp(ctx);
    const res = await editLimits(id, { subscription: { status: 'canceled' } });
    expect(res.statusCode).toBe(409);
  });
});
