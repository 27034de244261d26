// Billing test support: a server with the offline provider, a buyer who goes through its test
// checkout as a browser would, every event the provider delivers, and the ledger check.

import type { User } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { activities, type UserRow, usageTranches, users } from '../db/schema.js';
import { OfflineProvider, offlineWebhookSecret } from '../payments/offline-provider.js';
import { signPayload } from '../payments/stripe-events.js';
import { withCheckDigit } from '../payments/test-cards.js';
import { LedgerRepository } from '../repositories/ledger.repository.js';
import { loadSecretKey } from '../security/secret-box.js';
import type { Services } from '../services/index.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from './test-app.js';
import { enableTwoFactor } from './two-factor.js';

export interface DeliveredEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
  payload: string;
  signature: string;
}

export interface BillingTestContext extends TestContext {
  provider: OfflineProvider;
  payments: NonNullable<Services['payments']>;
  /** Every event the offline provider delivered, oldest first. */
  delivered: DeliveredEvent[];
  /** The offline provider's webhook signing secret on this server. */
  webhookSecret: string;
}

export const PRIORITY_SUPPORT_URL = 'https://book.example/ownvoice-priority';

/** A server selling plans through the offline provider, recording what it delivers. */
export async function createBillingContext(): Promise<BillingTestContext> {
  const ctx = await createTestContext({
    billing: { provider: 'offline', publicUrl: undefined, prioritySupportUrl: PRIORITY_SUPPORT_URL },
    starterAllowance: null,
  });
  const { payments } = ctx.app.platform.services;
  if (!payments || !(payments.provider instanceof OfflineProvider)) throw new Error('expected the offline provider');
  const provider = payments.provider;
  const delivered: DeliveredEvent[] = [];
  provider.connect(async (payload, signature) => {
    delivered.push({ ...(JSON.parse(payload) as Omit<DeliveredEvent, 'payload' | 'signature'>), payload, signature });
    await payments.events.receive(Buffer.from(payload), signature);
  });
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

let cardSerial = 0;

/**
 * A card number nobody used before in this process (a valid check digit, so the offline
 * checkout takes it as a working card): each buyer's card has its own fingerprint, as people's do.
 */
export function freshCard(): string {
  return withCheckDigit(`4${String(Date.now() % 1e9).padStart(9, '0')}${String(++cardSerial).padStart(5, '0')}`);
}

/** Waits until the offline provider's events so far have been delivered and handled. */
export async function settle(ctx: TestContext): Promise<void> {
  const offline = ctx.app.platform.services.payments?.offline;
  // Held back on purpose: the test delivers them itself.
  if (!offline || offline.deliveryMode === 'manual') return;
  await offline.settled();
  await offline.deliverPending();
  // What those deliveries caused (a refund, a cancellation) is delivered in a round of its own.
  await offline.settled();
}

/** Starts a checkout through `path` and pays it; answers where the browser lands. */
export async function buy(ctx: TestContext, client: TestClient, path: string, body?: unknown): Promise<string> {
  const res = await client.post(path, body);
  expect(res.statusCode, res.body).toBe(200);
  return pressCheckout(ctx, res.json<{ url: string }>().url, 'pay');
}

export async function userRow(ctx: TestContext, id: string): Promise<UserRow> {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

/** Every tranche holds the sum of its ledger lines, and the storage total the sum of its lines. */
export async function expectLedgerExplainsBalances(ctx: TestContext, userId: string): Promise<void> {
  const ledger = new LedgerRepository(ctx.database.db);
  const sums = await ledger.sumsByTranche(userId);
  const tranches = await ctx.database.db.select().from(usageTranches).where(eq(usageTranches.userId, userId));
  expect(tranches.length).toBeGreaterThan(0);
  for (const tranche of tranches) expect(sums.get(tranche.id) ?? 0, `tranche ${tranche.id}`).toBe(tranche.amount);
  expect(await ledger.sum(userId, 'storageSlots')).toBe((await userRow(ctx, userId)).modelStorageSlotsTotal);
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** A new account and its id. */
export async function signUp(ctx: TestContext): Promise<{ client: TestClient; id: string }> {
  const client = ctx.client();
  const { res } = await client.register();
  return { client, id: res.json<{ user: User }>().user.id };
}

export const me = async (client: TestClient): Promise<User> =>
  (await client.get('/api/auth/me')).json<{ user: User }>().user;

/** What a list of tranches adds up to. */
export const total = (tranches: readonly { amount: number }[]): number =>
  tranches.reduce((sum, t) => sum + t.amount, 0);

/** What each invoice the provider reported paid for a user charged, in cents, oldest first. */
export async function invoicesPaid(ctx: BillingTestContext, userId: string): Promise<unknown[]> {
  await settle(ctx);
  return ctx.delivered
    .filter((e) => e.type === 'invoice.paid')
    .filter(
      (e) =>
        (e.data.object.parent as { subscription_details: { metadata: Record<string, string> } }).subscription_details
          .metadata.ownvoice_user_id === userId,
    )
    .map((e) => e.data.object.amount_paid);
}

/** Stripe's test cards (payments/test-cards.ts): saved but declined when charged, and one whose bank asks to confirm. */
export const CARD_DECLINED_LATER = '4000000000000341';
export const CARD_NEEDS_CONFIRMING = '4000002760003184';

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

/** The provider's customer of a user. */
export async function customerOf(ctx: TestContext, userId: string): Promise<string> {
  const customerId = (await userRow(ctx, userId)).stripeCustomerId;
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

/**
 * Moves the service clock on by `ms`, an hour at a time with the person using the site (so the
 * session stays alive), then runs billing's scheduled work as the job would and waits for its events.
 */
export async function passTime(ctx: TestContext, client: TestClient, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= HOUR_MS) {
    ctx.clock.advance(Math.min(HOUR_MS, left));
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
  }
  await ctx.app.platform.services.billing.tick();
  await settle(ctx);
}

const HOUR_MS = 60 * 60 * 1000;

/** The actions in a user's activity log, oldest first. */
export async function actionsOf(ctx: TestContext, userId: string): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ action: activities.action })
    .from(activities)
    .where(eq(activities.userId, userId))
    .orderBy(activities.seq);
  return rows.map((row) => row.action);
}
