// Billing test support: a server with the offline provider, a buyer who goes through its test
// checkout as a browser would, every event the provider delivers, and the ledger check.

import type { User } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { users } from '../db/schema.js';
import { type OfflineProvider, offlineWebhookSecret } from '../payments/offline-provider.js';
import { signPayload } from '../payments/stripe-events.js';
import { loadSecretKey } from '../security/secret-box.js';
import type { Services } from '../services/index.js';
import { userRow } from './account-state.js';
import { freshCard } from './cards.js';
import {
  type DeliveredEvent,
  PRIORITY_SUPPORT_URL,
  recordOfflineDeliveries,
  settleOffline,
} from './service-context.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from './test-app.js';
import { enableTwoFactor } from './two-factor.js';

// One way to read an account, make a card or wait for events, for route and service tests alike.
export { expectLedgerExplainsBalances, total } from './account-state.js';
export { CARD_DECLINED_LATER, freshCard } from './cards.js';
export { type DeliveredEvent, PRIORITY_SUPPORT_URL } from './service-context.js';

export interface BillingTestContext extends TestContext {
  provider: OfflineProvider;
  payments: NonNullable<Services['payments']>;
  /** Every event the offline provider delivered, oldest first. */
  delivered: DeliveredEvent[];
  /** The offline provider's webhook signing secret on this server. */
  webhookSecret: string;
}

/** A server selling plans through the offline provider, recording what it delivers. */
export async function createBillingContext(): Promise<BillingTestContext> {
  const ctx = await createTestContext({
    billing: { provider: 'offline', publicUrl: undefined, prioritySupportUrl: PRIORITY_SUPPORT_URL },
    starterAllowance: null,
  });
  const { payments, provider, delivered } = recordOfflineDeliveries(ctx.app.platform.services);
  const webhookSecret = offlineWebhookSecret(loadSecretKey(ctx.config.secretKey, ctx.config.dataDir));
  return { ...ctx, provider, payments, delivered, webhookSecret };
}

/**
 * Presses a button of the offline checkout page (a plain form post, as the browser sends it), with
 * a test card, and waits for the events it caused to be handled.
 */
export async function pressCheckout(
  ctx: TestContext,
  checkoutUrl: string,
  button: 'pay' | 'cancel',
  card = freshCard(),
) {
  const res = await submitCard(ctx, `${checkoutUrl}/${button}`, card);
  expect(res.statusCode, res.body).toBe(303);
  await settle(ctx);
  return res.headers.location as string;
}

/** Waits until the offline provider's events so far have been delivered and handled. */
async function settle(ctx: TestContext): Promise<void> {
  await settleOffline(ctx.app.platform.services.payments?.offline);
}

/** Starts a checkout through `path` and pays it; answers where the browser lands. */
export async function buy(ctx: TestContext, client: TestClient, path: string, body?: unknown): Promise<string> {
  const res = await client.post(path, body);
  expect(res.statusCode, res.body).toBe(200);
  return pressCheckout(ctx, res.json<{ url: string }>().url, 'pay');
}

/** A new account and its id. */
export async function signUp(ctx: TestContext): Promise<{ client: TestClient; id: string }> {
  const client = ctx.client();
  const { res } = await client.register();
  return { client, id: res.json<{ user: User }>().user.id };
}

export const me = async (client: TestClient): Promise<User> =>
  (await client.get('/api/auth/me')).json<{ user: User }>().user;

/** Starts a checkout through `path` without paying it: its id and page. */
export async function openCheckout(
  client: TestClient,
  path: string,
  body?: unknown,
): Promise<{ id: string; url: string }> {
  const res = await client.post(path, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: string; url: string }>();
}

/** Presses Pay on a checkout page with `card`, whatever the page answers, then waits for its events. */
export async function tryPay(ctx: TestContext, checkoutUrl: string, card = freshCard()) {
  const res = await submitCard(ctx, `${checkoutUrl}/pay`, card);
  await settle(ctx);
  return res;
}

/** Posts an offline payment page's form (a checkout's or an invoice's) with a test card, as the browser sends it. */
export function submitCard(ctx: TestContext, url: string, card: string) {
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `card=${card}`,
  });
}

/** Posts a delivery to the webhook as a provider does, signed with `secret` (unsigned without one). */
export function postWebhook(ctx: TestContext, payload: string, secret?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json',
      ...(secret ? { 'stripe-signature': signPayload(payload, secret) } : {}),
    },
    payload,
  });
}

/** Stripe delivers what happened, signed, to the webhook; each delivery must be taken (200). */
export async function deliverSigned(
  ctx: TestContext,
  events: readonly { id: string }[],
  secret: string,
): Promise<void> {
  for (const event of events) {
    const res = await postWebhook(ctx, JSON.stringify(event), secret);
    expect(res.statusCode, res.body).toBe(200);
  }
}

/** The provider's customer of a user. */
export async function customerOf(ctx: TestContext, userId: string): Promise<string> {
  const customerId = (await userRow(ctx, userId)).providerCustomerId;
  if (!customerId) throw new Error(`user ${userId} has no customer`);
  return customerId;
}

/** An admin with two-factor on, and a fresh code for each action. */
export async function adminWithCode(ctx: TestContext): Promise<{ client: TestClient; id: string; code: () => string }> {
  const client = ctx.client();
  const { res } = await client.register(newAccount('admin'));
  const id: string = res.json().user.id;
  await ctx.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, id));
  const mfa = await enableTwoFactor(ctx, client);
  return {
    client,
    id,
    code: () => {
      ctx.clock.advance(30_000);
      return mfa.code();
    },
  };
}
