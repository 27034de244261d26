// The admin console's billing routes over HTTP, on a server that sells plans: a person's payments,
// a refund, a rehearsed dispute and a reconciliation (each with a fresh second factor), billing's
// state, and a plan edit refused with its status. What a refund or a dispute takes back,
// reconciliation's finds and the plan-edit rules (decision 20.6) are the billing services' tests'.
import { PACKS, packCheckoutMetadata, type User } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminWithCode,
  type BillingTestContext,
  buy,
  createBillingContext,
  signUp,
  total,
} from '../../test/billing.js';

let ctx: BillingTestContext;
let admin: Awaited<ReturnType<typeof adminWithCode>>;
beforeAll(async () => {
  ctx = await createBillingContext();
  admin = await adminWithCode(ctx);
});
afterAll(() => ctx.close());

const confirmed = (method: 'POST' | 'PATCH', url: string, body?: unknown) =>
  admin.client.request(method, url, body, { 'x-mfa-token': admin.code() });

describe('admin billing routes', () => {
  it('list a person’s payments and refund one, answering the payment and the person as they are now', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_chunk_edits'),
    });
    const listed = await admin.client.get(`/api/admin/users/${id}/payments`);
    expect(listed.statusCode, listed.body).toBe(200);
    const [pack] = listed.json<{ data: { payments: { id: string; outcome: string }[] } }>().data.payments;
    expect(pack).toMatchObject({ outcome: 'granted' });

    const res = await confirmed('POST', `/api/admin/users/${id}/payments/${pack?.id}/refund`, {});
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json<{ data: { payment: { refundedCents: number }; user: User } }>();
    expect(data.payment.refundedCents).toBe(PACKS.extra_chunk_edits.priceCents);
    expect(total(data.user.usageLimits.chunkEdits)).toBe(0);
    const again = await confirmed('POST', `/api/admin/users/${id}/payments/${pack?.id}/refund`, {});
    expect(again.statusCode).toBe(400);
    const unknown = await confirmed('POST', `/api/admin/users/${id}/payments/in_offline_nothing/refund`, {});
    expect(unknown.statusCode).toBe(404);
  });

  it('rehearse a dispute with a fresh code, answering the payment and the person as they are now', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_chunk_edits'),
    });
    const [pack] = (await admin.client.get(`/api/admin/users/${id}/payments`)).json<{
      data: { payments: { id: string }[] };
    }>().data.payments;
    const url = `/api/admin/users/${id}/payments/${pack?.id}/rehearse-dispute`;
    const inquiry = await confirmed('POST', url, { step: 'inquiry' });
    expect(inquiry.statusCode, inquiry.body).toBe(200);
    const asked = inquiry.json<{ data: { payment: { disputeStatus: string }; user: User } }>().data;
    expect(asked.payment.disputeStatus).toBe('inquiry');
    expect(total(asked.user.usageLimits.chunkEdits)).toBe(PACKS.extra_chunk_edits.amount);

    const escalated = await confirmed('POST', url, { step: 'escalate' });
    expect(escalated.statusCode, escalated.body).toBe(200);
    expect(total(escalated.json<{ data: { user: User } }>().data.user.usageLimits.chunkEdits)).toBe(0);
    expect((await confirmed('POST', url, { step: 'escalate' })).statusCode).toBe(409);
    expect((await confirmed('POST', url, { step: 'appeal' })).statusCode).toBe(400);
  });

  it('run a reconciliation and show billing’s state', async () => {
    const res = await confirmed('POST', '/api/admin/billing/reconcile');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { repaired: 0, error: null } });
    const status = await admin.client.get('/api/admin/billing');
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toMatchObject({ data: { lastReconciliation: { repaired: 0 }, pendingActions: 0 } });
  });

  it('answer a plan edit that payments own with 409', async () => {
    const { id } = await signUp(ctx);
    const res = await confirmed('PATCH', `/api/admin/users/${id}/limits`, { plan: { name: 'virtuoso' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PLAN_MANAGED_BY_PROVIDER' });
  });
});
