// The provider's events as BillingEventsService applies them, without HTTP: each event's effect
// exactly once, in any order, however many times or however concurrently it is delivered; a
// delivery whose handling failed is delivered again; payments whose events never arrive are found
// by reconciliation; a refused signature shows in billing's health. The webhook route's own
// answers (400 for a bad signature or body, 200 otherwise, nothing changed by a refused delivery)
// are routes/stripe/webhook.test.ts's.
import { addMonthsUtc, PACKS, type PackId, PLANS } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from '../../payments/stripe-events.js';
import { expectLedgerExplainsBalances, total } from '../../test/account-state.js';
import { createHandledEvent } from '../../test/factories/billing.js';
import { DAY_MS } from '../../test/factories/rows.js';
import { createUser } from '../../test/factories/users.js';
import {
  type BillingServiceContext,
  type DeliveredEvent,
  ORIGIN,
  openBillingServiceContext,
} from '../../test/service-context.js';

let ctx: BillingServiceContext;
beforeAll(async () => {
  ctx = await openBillingServiceContext();
});
afterAll(() => ctx.close());

/** A delivery to the handler, signed with the provider's secret unless told otherwise. */
const receive = (payload: string, signature = signPayload(payload, ctx.webhookSecret)) =>
  ctx.payments.events.receive(Buffer.from(payload), signature);

/** The event again, as a later delivery of it (same id) or as another event with the same content. */
const redeliver = (event: Pick<DeliveredEvent, 'id' | 'payload'>, asNewEvent = false) =>
  receive(asNewEvent ? event.payload.replace(event.id, `${event.id}_late`) : event.payload);

const chunkEdits = async (id: string) => total((await ctx.view(id)).usageLimits.chunkEdits);

/** Runs `work` with every event the provider sends held back; answers what it sent. */
async function withEventsLost(work: () => Promise<unknown>) {
  ctx.provider.deliveryMode = 'manual';
  try {
    await work();
    return await ctx.provider.takeEvents();
  } finally {
    ctx.provider.deliveryMode = 'auto';
  }
}

const packCheckout = async (id: string, pack: PackId) =>
  ctx.billing.startPackCheckout(await ctx.reload(id), [pack], ORIGIN);

/** A pack paid, its checkout's completion held back: the event as the provider reports it, not yet delivered. */
async function undeliveredPackPayment(id: string) {
  const session = await packCheckout(id, 'extra_chunk_edits');
  const events = await withEventsLost(() => ctx.provider.pay(session.id));
  const completed = events.find((e) => e.type === 'checkout.session.completed');
  if (!completed) throw new Error('no checkout completed');
  return completed;
}

describe('deliveries that go wrong', () => {
  it('shows billing as degraded after a refused signature, until a delivery verifies again', async () => {
    expect(await ctx.billing.health()).toEqual({ status: 'ok', reason: null });
    const payload = JSON.stringify({
      id: 'evt_x',
      object: 'event',
      type: 'invoice.paid',
      created: 1,
      data: { object: {} },
    });
    await expect(receive(payload, signPayload(payload, 'whsec_wrong'))).rejects.toMatchObject({
      statusCode: 400,
      code: 'INVALID_WEBHOOK_SIGNATURE',
    });
    expect(await ctx.billing.health()).toMatchObject({
      status: 'degraded',
      reason: expect.stringContaining('STRIPE_WEBHOOK_SECRET'),
    });
    await receive(payload);
    expect(await ctx.billing.health()).toEqual({ status: 'ok', reason: null });
  });

  it('delivers again an event whose handling failed, and grants then', async () => {
    const { id } = await createUser(ctx);
    const session = await packCheckout(id, 'extra_chunk_edits');
    const { events } = ctx.payments;
    const handle = events.handle.bind(events);
    events.handle = async () => {
      throw new Error('the database went away');
    };
    try {
      await ctx.pay(session);
    } finally {
      events.handle = handle;
    }
    expect(await chunkEdits(id)).toBe(0);
    await ctx.passTime(10 * 60_000); // the billing job delivers what waits
    expect(await chunkEdits(id)).toBe(100);
  });

  it('ignores an event about a subscription OwnVoice did not make, and changes nothing', async () => {
    const payload = JSON.stringify({
      id: 'evt_foreign',
      object: 'event',
      type: 'customer.subscription.updated',
      created: 1,
      data: { object: { id: 'sub_made_elsewhere', object: 'subscription', customer: 'cus_elsewhere', metadata: {} } },
    });
    await expect(receive(payload)).resolves.toBeUndefined();
  });
});

describe('exactly once', () => {
  it('grants once when the same event is delivered twice', async () => {
    const { id } = await createUser(ctx);
    const event = await undeliveredPackPayment(id);
    await redeliver(event);
    await redeliver(event);
    expect(await chunkEdits(id)).toBe(100);
  });

  it('grants once when deliveries arrive at the same moment', async () => {
    const { id } = await createUser(ctx);
    const event = await undeliveredPackPayment(id);
    await Promise.all(Array.from({ length: 4 }, () => redeliver(event)));
    expect(await chunkEdits(id)).toBe(100);
  });

  it('skips an event recorded as handled', async () => {
    const { id } = await createUser(ctx);
    const event = await undeliveredPackPayment(id);
    await createHandledEvent(ctx, event.id, event.type);
    await redeliver(event);
    expect(await chunkEdits(id)).toBe(0);
  });

  it('grants an invoice once even when another event reports the same payment', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'pro', 'monthly');
    const invoice = ctx.delivered.filter((e) => e.type === 'invoice.paid').at(-1);
    if (!invoice) throw new Error('no invoice delivered');
    const before = await chunkEdits(id);
    expect(before).toBe(PLANS.pro.perMonth.chunkEdits);
    await redeliver(invoice, true);
    expect(await chunkEdits(id)).toBe(before);
    await expectLedgerExplainsBalances(ctx, id);
  });
});

describe('any order', () => {
  const createdEvent = (subscriptionId: string | null) => {
    const created = ctx.delivered.find(
      (e) => e.type === 'customer.subscription.created' && e.data.object.id === subscriptionId,
    );
    if (!created) throw new Error('no subscription event delivered');
    return created;
  };

  it('never lets a late subscription event undo a newer state', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'pro', 'monthly');
    const created = createdEvent((await ctx.reload(id)).providerSubscriptionId);
    await ctx.billing.cancel(await ctx.reload(id));
    const newest = await ctx.view(id);

    // The first event about the subscription arrives again, late, as a different delivery.
    await redeliver(created, true);
    const after = await ctx.view(id);
    expect(after.plan).toEqual(newest.plan);
    expect(after.subscription).toEqual(newest.subscription);
    expect(after.subscription.cancelAtPeriodEnd).toBe(true);
  });

  it('never lets a slow delivery that read an older state overwrite a change made meanwhile', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'pro', 'monthly');
    const subscriptionId = (await ctx.reload(id)).providerSubscriptionId ?? '';
    const created = createdEvent(subscriptionId);
    // The delivery reads the subscription (not cancelled), then stalls before applying it.
    const read = ctx.provider.getSubscription.bind(ctx.provider);
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reads = 0;
    ctx.provider.getSubscription = async (subscription) => {
      const state = await read(subscription);
      if (++reads === 1) await stalled;
      return state;
    };
    try {
      const slow = redeliver(created, true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The person cancels while the slow delivery holds what it read.
      const cancel = ctx.billing.cancel(await ctx.reload(id));
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      await slow;
      await cancel;
    } finally {
      ctx.provider.getSubscription = read;
    }
    expect((await ctx.provider.getSubscription(subscriptionId))?.cancelAtPeriodEnd).toBe(true);
    expect((await ctx.view(id)).subscription).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
  });

  it('handles a checkout completed after its subscription events', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'minimum', 'annual');
    const user = await ctx.view(id);
    const checkout = ctx.delivered.find(
      (e) =>
        e.type === 'checkout.session.completed' &&
        e.data.object.subscription === user.subscription.stripeSubscriptionId,
    );
    if (!checkout) throw new Error('no checkout event delivered');
    await redeliver(checkout, true);
    expect(await ctx.view(id)).toEqual(user);
  });
});

describe('reconciliation', () => {
  it('grants, a day later, payments whose events never arrived, dated from when they were paid', async () => {
    const { id } = await createUser(ctx);
    const plan = await ctx.billing.changePlan(await ctx.reload(id), { plan: 'pro', billingCycle: 'monthly' }, ORIGIN);
    const paidAt = ctx.clock.now();
    expect((await withEventsLost(() => ctx.provider.pay(plan.id))).length).toBeGreaterThan(0);
    const pack = await packCheckout(id, 'extra_short_content');
    await withEventsLost(() => ctx.provider.pay(pack.id));
    expect(await chunkEdits(id)).toBe(0);

    await ctx.passTime(DAY_MS + 60_000); // the daily reconciliation runs on the billing job
    const user = await ctx.view(id);
    expect(user.plan.name).toBe('pro');
    expect(user.usageLimits.chunkEdits).toEqual([
      { amount: PLANS.pro.perMonth.chunkEdits, expiresAt: addMonthsUtc(paidAt, 3).toISOString() },
    ]);
    expect(total(user.usageLimits.shortContent)).toBe(
      PLANS.pro.perMonth.shortContent + PACKS.extra_short_content.amount,
    );
    expect(await ctx.billing.health()).toMatchObject({ status: 'degraded', reason: expect.stringContaining('missed') });
    await expectLedgerExplainsBalances(ctx, id);
  });
});
