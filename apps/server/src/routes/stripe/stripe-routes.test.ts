// What HTTP does for billing, over the real app with the offline provider: the /api/stripe
// routes' answers (a checkout to open, the account as it is now, billing's refusals with their
// status, code and where to pay), their request rules, and the offline provider's checkout and
// invoice pages a browser posts. What each payment grants and every billing rule are the service
// tests' (services/billing/*.service.test.ts).
import { packCheckoutMetadata, type User } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BillingTestContext,
  buy,
  CARD_DECLINED_LATER,
  createBillingContext,
  customerOf,
  me,
  openCheckout,
  pressCheckout,
  signUp,
  submitCard,
  total,
  tryPay,
} from '../../test/billing.js';

let ctx: BillingTestContext;
beforeAll(async () => {
  ctx = await createBillingContext();
});
afterAll(() => ctx.close());

describe('the checkout routes and pages', () => {
  it('answer a checkout whose page shows the price, and whose Pay sends the browser back where it came from', async () => {
    const { client } = await signUp(ctx);
    const start = await client.post('/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'pro',
      billingCycle: 'monthly',
      payNowPromo: true,
    });
    expect(start.statusCode, start.body).toBe(200);
    const { url, id: sessionId } = start.json<{ url: string; id: string }>();

    const page = await ctx.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Test checkout');
    expect(page.body).toContain('nothing is charged');
    expect(page.body).toContain('$31.44');

    const landing = await pressCheckout(ctx, url, 'pay');
    expect(landing).toBe(`http://localhost:80/dashboard/plans/success?session_id=${sessionId}&source=pay_now`);
    expect((await me(client)).plan.name).toBe('pro');
  });

  it('sell a pack on a page with its price', async () => {
    const { client } = await signUp(ctx);
    const start = await client.post('/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_chunk_edits'),
    });
    expect(start.statusCode, start.body).toBe(200);
    const page = await ctx.app.inject({ method: 'GET', url: start.json<{ url: string }>().url });
    expect(page.body).toContain('$4.99');
    await pressCheckout(ctx, start.json<{ url: string }>().url, 'pay');
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(100);
  });

  it('refuse metadata that does not match the pack, unknown packs, and a pack named twice', async () => {
    const { client } = await signUp(ctx);
    for (const metadata of [
      { pack: 'extra_chunk_edits', chunkEdits: '1000' },
      { pack: 'extra_chunk_edits', shortContent: '100' },
      { pack: 'extra_chunk_edits', chunkEdits: '100', shortContent: '100' },
      { pack: 'free_everything', chunkEdits: '100' },
      { pack: 'extra_model' },
    ]) {
      const res = await client.post('/api/stripe/create-checkout-session', { metadata });
      expect(res.statusCode, JSON.stringify(metadata)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const twice = await client.post('/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_model'),
      alsoPacks: ['extra_model'],
    });
    expect(twice.statusCode).toBe(400);
  });

  it('show a declined card’s answer on the checkout page and keep it open to try another', async () => {
    const { client } = await signUp(ctx);
    const { url } = await openCheckout(client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    const declined = await submitCard(ctx, `${url}/pay`, '4000000000000002');
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    await pressCheckout(ctx, url, 'pay');
    expect((await me(client)).plan.name).toBe('pro');
  });

  it('show a closed checkout as closed, and its Pay sends the browser to the plans page', async () => {
    const { client } = await signUp(ctx);
    const older = await openCheckout(client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    ctx.clock.advance(61_000); // another tab, a minute later
    await openCheckout(client, '/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    const paidOld = await tryPay(ctx, older.url);
    expect(paidOld.statusCode).toBe(303);
    expect(paidOld.headers.location).toContain('/dashboard/plans/cancel');
    expect((await ctx.app.inject({ method: 'GET', url: older.url })).body).toContain('This checkout has closed');

    // Cancel on a pack's page closes it and sends the browser back; Pay afterwards does the same.
    const pack = await openCheckout(client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_short_content'),
    });
    expect(await pressCheckout(ctx, pack.url, 'cancel')).toContain('/dashboard/plans/cancel');
    expect(await pressCheckout(ctx, pack.url, 'pay')).toContain('/dashboard/plans/cancel');
    expect(total((await me(client)).usageLimits.shortContent)).toBe(0);
  });
});

describe('the subscription routes', () => {
  it('answer cancel and reactivate with the account as it is now', async () => {
    const { client } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    const cancelled = await client.post('/api/stripe/cancel-subscription');
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<{ user: User }>().user.subscription).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    expect(cancelled.json<{ user: User }>().user.plan.name).toBe('pro');
    const reactivated = await client.post('/api/stripe/reactivate-subscription');
    expect(reactivated.statusCode, reactivated.body).toBe(200);
    expect(reactivated.json<{ user: User }>().user.subscription).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
    });
  });

  it('answer a change of plan: an upgrade made at once, a downgrade with when it takes effect', async () => {
    const { client } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    const up = await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ mode: 'subscription', action: 'upgraded', url: null, effectiveAt: null });
    const down = await client.post('/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json()).toMatchObject({
      mode: 'subscription',
      action: 'downgrade_scheduled',
      effectiveAt: (await me(client)).subscription.currentPeriodEnd,
    });
  });

  it('answer billing’s refusals with their status and code', async () => {
    const { client } = await signUp(ctx);
    const nothing = await client.post('/api/stripe/cancel-subscription');
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json()).toMatchObject({ code: 'NO_SUBSCRIPTION' });
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    const again = await client.post('/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'pro',
      billingCycle: 'monthly',
      payNowPromo: true,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SUBSCRIPTION_EXISTS' });
    const same = await client.post('/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    expect(same.statusCode).toBe(400);
    expect((await client.post('/api/stripe/onboarding/pay-later/setup-session')).statusCode).toBe(409);
  });

  it('answer a declined first charge with 402, its reason and where to pay; the invoice page takes another card', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/onboarding/pay-later/setup-session');
    await ctx.provider.setCard(await customerOf(ctx, id), CARD_DECLINED_LATER);
    const finish = await client.post('/api/auth/finish-trial');
    expect(finish.statusCode).toBe(402);
    const body = finish.json<{ code: string; msg: string; details: { payUrl: string } }>();
    expect(body.code).toBe('PAYMENT_DECLINED');
    expect(body.msg).toContain('$10.00');
    expect(body.details.payUrl).toMatch(/^\/api\/offline-checkout\/invoice\/in_offline_/);

    const page = await ctx.app.inject({ method: 'GET', url: body.details.payUrl });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your card was declined.');
    expect((await submitCard(ctx, `${body.details.payUrl}/pay`, '4000000000000002')).statusCode).toBe(402);
    const paid = await tryPay(ctx, body.details.payUrl);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe('/dashboard/plans');
    expect((await me(client)).plan.name).toBe('minimum');
  });
});
