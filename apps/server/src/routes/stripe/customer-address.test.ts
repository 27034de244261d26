// A change of address reaches the payment provider (decision 24): once the link mailed to the new
// address (through a real SMTP server) is opened, the account's Stripe customer gets the address,
// through the real SDK against the Stripe stand-in. It goes through billing's provider actions,
// so a Stripe that cannot be reached holds up nothing: the change is made, the action waits, and
// the billing job gives the customer the account's latest address once Stripe answers again.
import type { User } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingActions } from '../../db/schema.js';
import { createStripeClient } from '../../payments/stripe-provider.js';
import { customerOf, me } from '../../test/billing.js';
import { startStripeContext } from '../../test/billing-world.js';
import { startTestMailServer, type TestMailServer } from '../../test/mail-server.js';
import type { StripeStandIn } from '../../test/stripe-stand-in.js';
import { newAccount, type TestClient, type TestContext } from '../../test/test-app.js';

const PUBLIC_URL = 'https://ownvoice.example';
const CONFIRM_SUBJECT = 'Confirm your new OwnVoice address';

let smtp: TestMailServer;
let standIn: StripeStandIn;
let stripe: Stripe;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startTestMailServer();
  ({ standIn, ctx } = await startStripeContext('whsec_customer_address', {
    publicUrl: PUBLIC_URL,
    mail: {
      smtpUrl: smtp.url,
      from: 'OwnVoice <no-reply@ownvoice.test>',
      outboxDir: '/nonexistent',
      siteUrl: PUBLIC_URL,
    },
  }));
  stripe = createStripeClient(standIn.secretKey, standIn.apiBase);
  await ctx.app.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
}, 120_000);
afterAll(async () => {
  await ctx.close();
  await standIn.close();
  await smtp.close();
});

const mailTo = (mail: ParsedMail): string => (mail.to as { text?: string } | undefined)?.text ?? '';
const newAddress = (prefix: string) => `${newAccount(prefix).username}@example.com`;

/** A signed-in account, and its password. */
async function account() {
  const client = ctx.client();
  const { account, res } = await client.register();
  return { client, id: res.json<{ user: User }>().user.id, ...account };
}

/** A signed-in account with a Stripe customer, made by opening a checkout. */
async function customerAccount() {
  const who = await account();
  const started = await who.client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
  expect(started.statusCode, started.body).toBe(200);
  return { ...who, customerId: await customerOf(ctx, who.id) };
}

/** Asks for `email` with the password, then opens the link mailed there. */
async function changeAddress({ client, password }: { client: TestClient; password: string }, email: string) {
  const asked = await client.post('/api/auth/email/change', { email, currentPassword: password });
  expect(asked.statusCode, asked.body).toBe(202);
  const mail = await smtp.waitFor((m) => mailTo(m) === email && m.subject === CONFIRM_SUBJECT, 20_000);
  const token = /\/auth\/verify\?token=([\w-]+)/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  return client.post('/api/auth/email/verify', { token });
}

const emailAtStripe = async (customerId: string) =>
  ((await stripe.customers.retrieve(customerId)) as Stripe.Customer).email;
const actionsOf = (userId: string) =>
  ctx.database.db.select().from(billingActions).where(eq(billingActions.userId, userId));
const updatesOf = (customerId: string) =>
  standIn.requests.filter((r) => r.method === 'POST' && r.path === `/v1/customers/${customerId}`);

describe('a change of address at the payment provider', () => {
  it('gives the Stripe customer the new address once the mailed link is opened', async () => {
    const who = await customerAccount();
    const { id, customerId } = who;
    expect(await emailAtStripe(customerId)).toBe(who.email);
    const moved = newAddress('moved');

    const opened = await changeAddress(who, moved);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ email: moved, changed: true });

    expect(await emailAtStripe(customerId)).toBe(moved);
    const [action] = await actionsOf(id);
    expect(action).toMatchObject({
      kind: 'update_customer_email',
      target: expect.stringMatching(new RegExp(`^${customerId}:[0-9a-f]{24}$`)),
      status: 'done',
      attempts: 0,
    });
    expect(updatesOf(customerId)).toEqual([
      expect.objectContaining({ params: { email: moved }, idempotencyKey: expect.stringContaining(action?.id ?? '') }),
    ]);
  });

  it('asks nothing of Stripe for an account without a customer', async () => {
    const who = await account();
    const before = standIn.requests.length;
    const opened = await changeAddress(who, newAddress('nocustomer'));
    expect(opened.statusCode, opened.body).toBe(200);
    expect(await actionsOf(who.id)).toEqual([]);
    expect(standIn.requests.length).toBe(before);
  });

  it('makes the change while Stripe is down, and the billing job sends the latest address once it is back', async () => {
    const who = await customerAccount();
    const { client, id, customerId } = who;
    const [first, second] = [newAddress('first'), newAddress('second')];
    standIn.outage(true);
    try {
      expect((await changeAddress(who, first)).statusCode).toBe(200);
      expect((await me(client)).email).toBe(first);
      // A second change while the first one's action still waits: each change has its own.
      expect((await changeAddress(who, second)).statusCode).toBe(200);
      expect(await me(client)).toMatchObject({ email: second, pendingEmail: null, emailVerified: true });
      const waiting = await actionsOf(id);
      expect(waiting).toHaveLength(2);
      for (const action of waiting) {
        expect(action).toMatchObject({ kind: 'update_customer_email', status: 'pending' });
        expect(action.attempts).toBeGreaterThanOrEqual(1);
        expect(action.lastError).toMatch(/Stripe is busy/);
      }
    } finally {
      standIn.outage(false);
    }
    expect(await emailAtStripe(customerId)).toBe(who.email);

    const since = standIn.requests.length;
    await ctx.app.platform.services.billing.tick();
    expect((await actionsOf(id)).map((action) => action.status)).toEqual(['done', 'done']);
    expect(await emailAtStripe(customerId)).toBe(second);
    // The first change's action, done late, sent the latest address too, never the older one.
    const sent = updatesOf(customerId).filter((r) => standIn.requests.indexOf(r) >= since);
    expect(sent.map((r) => r.params)).toEqual([{ email: second }, { email: second }]);
  });
});
