// The same service with OWNVOICE_BILLING=stripe: the real SDK against the local Stripe stand-in,
// and Stripe's events signed with the webhook secret and posted to the webhook route. After the
// webhook everything is the code the offline provider's tests exercise.
import { addMonthsUtc, PLANS, type User } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { deliverSigned, expectLedgerExplainsBalances, me } from '../../test/billing.js';
import { startStripeContext } from '../../test/billing-world.js';
import type { StripeStandIn } from '../../test/stripe-stand-in.js';
import type { TestContext } from '../../test/test-app.js';

const WEBHOOK_SECRET = 'whsec_flow_test';
let standIn: StripeStandIn;
let ctx: TestContext;

beforeAll(async () => {
  ({ standIn, ctx } = await startStripeContext(WEBHOOK_SECRET));
});
afterAll(async () => {
  await ctx.close();
  await standIn.close();
});

const deliver = (events: Stripe.Event[]) => deliverSigned(ctx, events, WEBHOOK_SECRET);

describe('billing through Stripe', () => {
  it('sells a pay-now plan through Stripe Checkout and grants it when Stripe reports the payment', async () => {
    const client = ctx.client();
    const { res } = await client.register();
    const userId = res.json<{ user: User }>().user.id;
    const start = await client.post('/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'pro',
      billingCycle: 'annual',
      payNowPromo: true,
    });
    expect(start.statusCode, start.body).toBe(200);
    const session = standIn.requests.findLast((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(session?.params).toMatchObject({
      mode: 'subscription',
      success_url: 'https://ownvoice.example/dashboard/plans/success?session_id={CHECKOUT_SESSION_ID}&source=pay_now',
      cancel_url: 'https://ownvoice.example/dashboard/plans/cancel',
    });
    expect(session?.idempotencyKey).toBeTruthy();
    expect((await me(client)).plan.name).toBe('none');

    standIn.completeCheckout(start.json<{ id: string }>().id);
    const events = standIn.takeEvents();
    // Out of order and twice over: the end state is the same.
    await deliver([...events].reverse());
    await deliver(events);

    const user = await me(client);
    expect(user.plan).toMatchObject({ name: 'pro', billingCycle: 'annual', payNowDiscount: true });
    expect(user.subscription.status).toBe('active');
    expect(user.usageLimits.chunkEdits).toEqual([
      { amount: 12 * PLANS.pro.perMonth.chunkEdits, expiresAt: addMonthsUtc(ctx.clock.now(), 24).toISOString() },
    ]);
    await expectLedgerExplainsBalances(ctx, userId);
  });

  it('schedules a downgrade with Stripe and cancels and reactivates there', async () => {
    const client = ctx.client();
    await client.register();
    const start = await client.post('/api/stripe/change-plan', { plan: 'virtuoso', billingCycle: 'monthly' });
    standIn.completeCheckout(start.json<{ id: string }>().id);
    await deliver(standIn.takeEvents());
    expect((await me(client)).plan.name).toBe('virtuoso');

    const down = await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json()).toMatchObject({ action: 'downgrade_scheduled' });
    expect((await me(client)).subscription.pendingChange).toMatchObject({ plan: 'pro', billingCycle: 'monthly' });

    const cancelled = await client.post('/api/stripe/cancel-subscription');
    expect(cancelled.json<{ user: User }>().user.subscription).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    const back = await client.post('/api/stripe/reactivate-subscription');
    expect(back.json<{ user: User }>().user.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    await deliver(standIn.takeEvents());
    expect((await me(client)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
  });

  it('grants a scheduled downgrade when it begins, whatever the invoice says it was made for', async () => {
    const accounts = [
      { from: 'annual', to: { plan: 'pro', billingCycle: 'monthly' }, reason: 'subscription_update' },
      { from: 'monthly', to: { plan: 'minimum', billingCycle: 'monthly' }, reason: 'subscription_cycle' },
    ] as const;
    const people = [];
    for (const account of accounts) {
      const client = ctx.client();
      const { res } = await client.register();
      const id = res.json<{ user: User }>().user.id;
      const bought = await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: account.from });
      standIn.completeCheckout(bought.json<{ id: string }>().id);
      await deliver(standIn.takeEvents());
      expect((await client.post('/api/stripe/change-plan', account.to)).json()).toMatchObject({
        action: 'downgrade_scheduled',
      });
      people.push({ client, id, ...account });
    }
    // A year and a day on, both periods have ended; the people sign in again.
    ctx.clock.advance(366 * 24 * 60 * 60 * 1000);
    standIn.advanceTo(ctx.clock.now());
    const events = standIn.takeEvents();
    await deliver(events);
    for (const person of people) {
      const invoices = events
        .filter((event) => event.type === 'invoice.paid')
        .map(
          (event) =>
            event.data.object as {
              billing_reason: string;
              parent: { subscription_details: { metadata: Record<string, string> } };
            },
        )
        .filter((invoice) => invoice.parent.subscription_details.metadata.ownvoice_user_id === person.id);
      expect(invoices.map((invoice) => invoice.billing_reason)).toContain(person.reason);
      const login = await person.client.post('/api/auth/login', {
        email: await userEmail(person.id),
        password: 'Passw0rdOk',
      });
      person.client.token = login.json<{ token: string }>().token;
      const user = await me(person.client);
      expect(user.plan).toMatchObject({ name: person.to.plan, billingCycle: 'monthly' });
      // The lower plan's month was granted from its invoice, dated from its period.
      const granted = PLANS[person.to.plan].perMonth.chunkEdits;
      expect(user.usageLimits.chunkEdits.some((tranche) => tranche.amount === granted)).toBe(true);
      await expectLedgerExplainsBalances(ctx, person.id);
    }
  });

  it('tells the person a declined card at the trial’s end, with Stripe’s page to pay it', async () => {
    const client = ctx.client();
    const { res } = await client.register();
    const id = res.json<{ user: User }>().user.id;
    const setup = await client.post('/api/stripe/onboarding/pay-later/setup-session');
    standIn.completeCheckout(setup.json<{ id: string }>().id, 'works', { fingerprint: `flow-trial-${id}` });
    await deliver(standIn.takeEvents());
    expect((await me(client)).plan.name).toBe('trial');
    standIn.setCustomerCard(await customerIdOf(id), 'declines');

    const finish = await client.post('/api/auth/finish-trial');
    expect(finish.statusCode).toBe(402);
    const payUrl = finish.json<{ details: { payUrl: string } }>().details.payUrl;
    expect(payUrl).toMatch(/^http/);
    await deliver(standIn.takeEvents());
    expect((await me(client)).subscription.paymentDue).toMatchObject({ startsPlan: true, payUrl });

    const subscription = await ctx.app.platform.services.payments?.provider.getSubscription(
      (await me(client)).subscription.stripeSubscriptionId ?? '',
    );
    standIn.payInvoice(subscription?.unpaidInvoice?.id ?? '', 'works');
    await deliver(standIn.takeEvents());
    const user = await me(client);
    expect(user.plan.name).toBe('minimum');
    expect(user.subscription.paymentDue).toBeNull();
    await expectLedgerExplainsBalances(ctx, id);
  });
});

async function userEmail(id: string): Promise<string> {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, id));
  return row?.email ?? '';
}

async function customerIdOf(id: string): Promise<string> {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, id));
  return row?.providerCustomerId ?? '';
}
