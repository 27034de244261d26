// Disputes through Stripe (docs/decisions/0035): the real SDK against the stand-in, Stripe's events
// signed and posted to the webhook. A bank's inquiry withdraws no money, so it takes nothing back
// and the plan runs on, and its close changes nothing; the chargeback it may become takes back
// what is left and ends the plan, whichever of its events arrives first. Stripe's disputes come
// from banks, so an admin rehearses them only on the offline provider.
import { PLANS, type User } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../db/schema.js';
import { adminWithCode, deliverSigned, expectLedgerExplainsBalances, me, total } from '../../test/billing.js';
import { startStripeContext } from '../../test/billing-world.js';
import type { StripeStandIn } from '../../test/stripe-stand-in.js';
import type { TestClient, TestContext } from '../../test/test-app.js';

const WEBHOOK_SECRET = 'whsec_disputes_test';
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

/** A person on Pro monthly, bought through Checkout: their client, id and the payment that paid it. */
async function onPro(): Promise<{ client: TestClient; id: string; paymentIntentId: string }> {
  const client = ctx.client();
  const { res } = await client.register();
  const id = res.json<{ user: User }>().user.id;
  const start = await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
  standIn.completeCheckout(start.json<{ id: string }>().id);
  await deliver(standIn.takeEvents());
  const [paid] = await paymentRows(id);
  return { client, id, paymentIntentId: paid?.paymentIntentId ?? '' };
}

const paymentRows = (userId: string) => ctx.database.db.select().from(payments).where(eq(payments.userId, userId));
const subscriptionCancels = () => standIn.requests.filter((r) => r.method === 'DELETE').length;

describe('disputes through Stripe', () => {
  it('takes nothing back for an inquiry, keeps the plan, and changes nothing when it closes', async () => {
    const { client, id, paymentIntentId } = await onPro();
    const before = await me(client);
    const cancels = subscriptionCancels();

    standIn.dispute(paymentIntentId, 'inquiry');
    const opened = standIn.takeEvents();
    expect(opened.map((event) => event.type)).toEqual(['charge.dispute.created']);
    await deliver(opened);
    await ctx.app.platform.services.payments?.actions.run();

    const during = await me(client);
    expect(during.plan.name).toBe('pro');
    expect(total(during.usageLimits.chunkEdits)).toBe(PLANS.pro.perMonth.chunkEdits);
    expect(during.usageLimits).toEqual(before.usageLimits);
    expect(subscriptionCancels()).toBe(cancels);
    expect((await paymentRows(id))[0]?.disputeStatus).toBe('inquiry');

    standIn.closeDispute(paymentIntentId, 'warning_closed');
    await deliver(standIn.takeEvents());
    const after = await me(client);
    expect(after.plan.name).toBe('pro');
    expect(after.usageLimits).toEqual(before.usageLimits);
    expect((await paymentRows(id))[0]?.disputeStatus).toBe('inquiry_closed');
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('takes back what is left and ends the plan when an inquiry becomes a chargeback', async () => {
    const { client, id, paymentIntentId } = await onPro();
    standIn.dispute(paymentIntentId, 'inquiry');
    await deliver(standIn.takeEvents());
    await ctx.app.platform.services.payments?.actions.run();
    const during = await me(client);
    expect(during.plan.name).toBe('pro');
    expect(total(during.usageLimits.chunkEdits)).toBe(PLANS.pro.perMonth.chunkEdits);

    standIn.escalateDispute(paymentIntentId);
    const withdrawn = standIn.takeEvents();
    // The money withdrawn is the only news of the escalation, and enough.
    expect(withdrawn.map((event) => event.type)).toEqual(['charge.dispute.funds_withdrawn']);
    await deliver(withdrawn);
    await ctx.app.platform.services.payments?.actions.run();
    await deliver(standIn.takeEvents());

    const after = await me(client);
    expect(after.plan.name).toBe('none');
    expect(total(after.usageLimits.chunkEdits)).toBe(0);
    expect((await paymentRows(id))[0]?.disputeStatus).toBe('open');
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('reads the escalated chargeback whichever event arrives first', async () => {
    const { client, id, paymentIntentId } = await onPro();
    standIn.dispute(paymentIntentId, 'inquiry');
    const opened = standIn.takeEvents();
    standIn.escalateDispute(paymentIntentId);
    // The chargeback's event first, the inquiry's late, and again: the present is read each time.
    const events = [...standIn.takeEvents(), ...opened];
    await deliver(events);
    await deliver(events);
    await ctx.app.platform.services.payments?.actions.run();
    await deliver(standIn.takeEvents());

    const after = await me(client);
    expect(after.plan.name).toBe('none');
    expect(total(after.usageLimits.chunkEdits)).toBe(0);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('leaves rehearsing disputes to Stripe’s test mode: an admin’s rehearsal is refused', async () => {
    const { id } = await onPro();
    const [paid] = await paymentRows(id);
    const admin = await adminWithCode(ctx);
    const res = await admin.client.request(
      'POST',
      `/api/admin/users/${id}/payments/${paid?.id}/rehearse-dispute`,
      { step: 'inquiry' },
      { 'x-mfa-token': admin.code() },
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PAYMENT_PROVIDER_ERROR' });
    expect((await paymentRows(id))[0]?.disputeStatus).toBeNull();
  });
});
