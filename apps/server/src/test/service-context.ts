// Service tests: the money rules (usage and its ledger, plans, packs, the trial, refunds, the
// provider's events) checked on a real database, PGlite or PostgreSQL as OWNVOICE_TEST_DB says,
// through the services exactly as the app composes them (createPlatform), with the test clock and
// the offline payment provider, and no Fastify or HTTP in between; accounts come from row
// factories (test/factories/), as immich tests its services. Route tests (test/test-app.ts) keep
// what is HTTP's: status codes, sign-in, schemas, CSRF, pages. docs/testing.md has the layers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BillingCycle, ErrorCode, PaidPlanName, User } from '@ownvoice/shared';
import { type Config, loadConfig } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import type { UserRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import { OfflineProvider, offlineWebhookSecret } from '../payments/offline-provider.js';
import { createPlatform, type Log, type Platform } from '../platform.js';
import { loadSecretKey } from '../security/secret-box.js';
import type { BillingService, Payments } from '../services/billing/billing.service.js';
import type { Services } from '../services/index.js';
import { userRow } from './account-state.js';
import { freshCard } from './cards.js';
import { TestClock } from './test-clock.js';
import { openTestDatabase } from './test-database.js';

export interface ServiceTestContext {
  config: Config;
  database: DatabaseHandle;
  clock: TestClock;
  platform: Platform;
  services: Services;
  /** The account's row as it is now. */
  reload(userId: string): Promise<UserRow>;
  /** The account as its owner sees it (what /api/auth/me answers). */
  view(userId: string): Promise<User>;
  close(): Promise<void>;
}

const quiet: Log = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * The services over a fresh test database, with the configuration a test names (a server without
 * payments, whose accounts start with the configured allowance, unless it says otherwise).
 */
export async function openServiceTestContext(overrides: Partial<Config> = {}): Promise<ServiceTestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-service-test-'));
  const config: Config = { ...loadConfig({ OWNVOICE_DATA_DIR: dataDir, OWNVOICE_BILLING: 'none' }), ...overrides };
  const database = await openTestDatabase();
  const clock = new TestClock();
  const platform = createPlatform({ config, database, clock, log: quiet });
  const { services } = platform;
  const reload = (userId: string) => userRow({ database }, userId);
  return {
    config,
    database,
    clock,
    platform,
    services,
    reload,
    view: async (userId) => services.users.view(await reload(userId)),
    close: async () => {
      await platform.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An event the provider delivered to the webhook handler, as it was signed and sent. */
export interface DeliveredEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
  payload: string;
  signature: string;
}

/** Where the buyer's browser came from: checkouts send it back here. */
export const ORIGIN = 'https://ownvoice.example';
export const PRIORITY_SUPPORT_URL = 'https://book.example/ownvoice-priority';

export interface BillingServiceContext extends ServiceTestContext {
  billing: BillingService;
  payments: Payments;
  provider: OfflineProvider;
  /** Every event the offline provider delivered, oldest first. */
  delivered: DeliveredEvent[];
  /** The offline provider's webhook signing secret on this server. */
  webhookSecret: string;
  /** Waits until the provider's events so far (and what they caused) have been handled. */
  settle(): Promise<void>;
  /** The buyer presses Pay on a checkout with `card` (a fresh working one unless told); answers where they land. */
  pay(checkout: { id: string }, card?: string): Promise<string>;
  /** A first plan bought through its checkout and paid. */
  subscribe(userId: string, plan: PaidPlanName, billingCycle: BillingCycle): Promise<UserRow>;
  /** The pay-later trial started by saving a card (a fresh one unless told). */
  startTrial(userId: string, card?: string): Promise<UserRow>;
  /** Time passes on the service clock, then billing's scheduled work runs as the job would. */
  passTime(ms: number): Promise<void>;
  /** What each invoice the provider reported paid for a user charged, in cents, oldest first. */
  invoicesPaid(userId: string): Promise<number[]>;
  /** The provider's customer of a user. */
  customerOf(userId: string): Promise<string>;
}

/**
 * Connects the offline provider to the event handler as its webhook delivery would, keeping every
 * event it delivers, in order.
 */
export function recordOfflineDeliveries(services: Services): {
  payments: Payments;
  provider: OfflineProvider;
  delivered: DeliveredEvent[];
} {
  const { payments } = services;
  if (!payments || !(payments.provider instanceof OfflineProvider)) throw new Error('expected the offline provider');
  const provider = payments.provider;
  const delivered: DeliveredEvent[] = [];
  provider.connect(async (payload, signature) => {
    delivered.push({ ...(JSON.parse(payload) as Omit<DeliveredEvent, 'payload' | 'signature'>), payload, signature });
    await payments.events.receive(Buffer.from(payload), signature);
  });
  return { payments, provider, delivered };
}

/** Services selling plans through the offline provider, recording every event it delivers. */
export async function openBillingServiceContext(overrides: Partial<Config> = {}): Promise<BillingServiceContext> {
  const ctx = await openServiceTestContext({
    billing: { provider: 'offline', publicUrl: undefined, prioritySupportUrl: PRIORITY_SUPPORT_URL },
    starterAllowance: null,
    ...overrides,
  });
  const { billing } = ctx.services;
  const { payments, provider, delivered } = recordOfflineDeliveries(ctx.services);
  const settle = () => settleOffline(provider);
  const pay = async (checkout: { id: string }, card = freshCard()) => {
    try {
      return await provider.pay(checkout.id, card);
    } finally {
      await settle();
    }
  };
  return {
    ...ctx,
    billing,
    payments,
    provider,
    delivered,
    webhookSecret: offlineWebhookSecret(loadSecretKey(ctx.config.secretKey, ctx.config.dataDir)),
    settle,
    pay,
    subscribe: async (userId, plan, billingCycle) => {
      const session = await billing.changePlan(await ctx.reload(userId), { plan, billingCycle }, ORIGIN);
      if (session.mode !== 'checkout') throw new Error(`expected a checkout, got ${session.action}`);
      await pay(session);
      return ctx.reload(userId);
    },
    startTrial: async (userId, card) => {
      await pay(await billing.startTrialSetup(await ctx.reload(userId), ORIGIN), card);
      return ctx.reload(userId);
    },
    passTime: async (ms) => {
      ctx.clock.advance(ms);
      await billing.tick();
      await settle();
    },
    invoicesPaid: async (userId) => {
      await settle();
      return invoicesPaidIn(delivered, userId);
    },
    customerOf: async (userId) => {
      const customerId = (await ctx.reload(userId)).providerCustomerId;
      if (!customerId) throw new Error(`user ${userId} has no customer`);
      return customerId;
    },
  };
}

/** Waits until the offline provider's events so far have been delivered and handled. */
export async function settleOffline(offline: OfflineProvider | null | undefined): Promise<void> {
  // Held back on purpose: the test delivers them itself.
  if (!offline || offline.deliveryMode === 'manual') return;
  await offline.settled();
  await offline.deliverPending();
  // What those deliveries caused (a refund, a cancellation) is delivered in a round of its own.
  await offline.settled();
}

/** What each `invoice.paid` event delivered about `userId` says was paid, in cents, oldest first. */
function invoicesPaidIn(delivered: readonly DeliveredEvent[], userId: string): number[] {
  return delivered
    .filter((e) => e.type === 'invoice.paid')
    .filter(
      (e) =>
        (e.data.object.parent as { subscription_details: { metadata: Record<string, string> } }).subscription_details
          .metadata.ownvoice_user_id === userId,
    )
    .map((e) => e.data.object.amount_paid as number);
}

/** The error code a call was refused with ('not refused' when it was not): a service's answer, without HTTP. */
export async function refusal(call: Promise<unknown>): Promise<ErrorCode | string> {
  try {
    await call;
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
  return 'not refused';
}
