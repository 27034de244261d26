// Billing's e-mail notices through a real SMTP server (test/mail-server.ts), driven through the
// offline provider's checkout and its webhook: the trial's start (when it ends, what it charges),
// the receipt of the first charge and of a pack, a renewal, a declined card with where to pay,
// a cancellation and the plan's end, a refund with what it took back. Each arrives once, with
// its link; replayed events and settling the same payment again send nothing more, a transaction
// that rolls back sends nothing; a muted notice is not sent while a required one (the declined
// card) is.
import { NOTICES, PAY_LATER_FIRST_CHARGE_CENTS, PLANS, packCheckoutMetadata } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages, users } from '../../db/schema.js';
import { formatWhen } from '../../mail/layout.js';
import { OfflineProvider, offlineWebhookSecret } from '../../payments/offline-provider.js';
import { PaymentsRepository } from '../../repositories/payments.repository.js';
import { loadSecretKey } from '../../security/secret-box.js';
import {
  buy,
  CARD_DECLINED_LATER,
  customerOf,
  DAY_MS,
  type DeliveredEvent,
  me,
  passTime,
  postWebhook,
  settle,
  userRow,
} from '../../test/billing.js';
import { deliveredTo } from '../../test/mail-inbox.js';
import { startTestMailServer, type TestMailServer } from '../../test/mail-server.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from '../../test/test-app.js';

const SITE = 'https://ownvoice.example';
const ACCOUNT = `${SITE}/dashboard/account`;

let smtp: TestMailServer;
let ctx: TestContext;
let provider: OfflineProvider;
let webhookSecret: string;
const delivered: DeliveredEvent[] = [];

beforeAll(async () => {
  smtp = await startTestMailServer();
  ctx = await createTestContext({
    billing: { provider: 'offline', publicUrl: undefined, prioritySupportUrl: undefined },
    starterAllowance: null,
    publicUrl: SITE,
    mail: { smtpUrl: smtp.url, from: 'OwnVoice <no-reply@ownvoice.test>', outboxDir: '/nonexistent', siteUrl: SITE },
  });
  // As test/billing.ts's createBillingContext: every event the provider delivers is kept, so it
  // can be delivered again.
  const { payments } = ctx.app.platform.services;
  if (!payments || !(payments.provider instanceof OfflineProvider)) throw new Error('expected the offline provider');
  provider = payments.provider;
  provider.connect(async (payload, signature) => {
    delivered.push({ ...(JSON.parse(payload) as Omit<DeliveredEvent, 'payload' | 'signature'>), payload, signature });
    await payments.events.receive(Buffer.from(payload), signature);
  });
  webhookSecret = offlineWebhookSecret(loadSecretKey(ctx.config.secretKey, ctx.config.dataDir));
  await ctx.app.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** A buyer with a confirmed address, and the notices they switched off. */
async function buyer(muted: string[] = []): Promise<{ client: TestClient; id: string; email: string }> {
  const client = ctx.client();
  const account = newAccount('notice');
  const id: string = (await client.register(account)).res.json().user.id;
  await ctx.database.db
    .update(users)
    .set({ emailVerifiedAt: ctx.clock.now(), mutedNotices: muted })
    .where(eq(users.id, id));
  return { client, id, email: account.email };
}

/** What `email` received, once everything queued for it has been delivered. */
const inbox = (email: string): Promise<ParsedMail[]> => deliveredTo(smtp, ctx.database.db, email);

/** The one message of `mails` with `subject`, with `link` in its text and, escaped, in its HTML. */
function one(mails: ParsedMail[], subject: string, link: string): ParsedMail {
  const matching = mails.filter((m) => m.subject === subject);
  expect(matching.map((m) => m.subject)).toEqual([subject]);
  const [mail] = matching as [ParsedMail];
  expect(mail.text).toContain(`: ${link}`);
  expect(mail.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
  return mail;
}

const subjects = (mails: ParsedMail[]) => mails.map((m) => m.subject);

describe('a plan’s life, told by e-mail', () => {
  let client: TestClient;
  let id: string;
  let email: string;

  it('says at the trial’s start when it ends and what the first charge will be', async () => {
    ({ client, id, email } = await buyer());
    const startedAt = ctx.clock.now();
    await buy(ctx, client, '/api/stripe/onboarding/pay-later/setup-session');
    expect((await me(client)).plan.name).toBe('trial');
    const mail = one(await inbox(email), 'Your OwnVoice trial ends tomorrow', ACCOUNT);
    expect(mail.text).toContain(
      `Your trial ends on ${formatWhen(new Date(startedAt.getTime() + DAY_MS))}. Then the Minimum plan starts and your saved card is charged $10.00.`,
    );
    expect(PAY_LATER_FIRST_CHARGE_CENTS).toBe(1000);
  });

  it('sends a receipt for the first charge when the plan starts', async () => {
    await passTime(ctx, client, DAY_MS + 60_000);
    expect((await me(client)).plan.name).toBe('minimum');
    const mail = one(await inbox(email), 'Receipt: $10.00 to OwnVoice', ACCOUNT);
    expect(mail.text).toContain('Minimum (monthly) and the trial day, $10.00.');
  });

  it('says the plan renewed when the next period is paid', async () => {
    await passTime(ctx, client, 31 * DAY_MS);
    const price = `$${(PLANS.minimum.monthlyCents / 100).toFixed(2)}`;
    const mail = one(await inbox(email), `Your OwnVoice plan renewed: ${price}`, ACCOUNT);
    expect(mail.text).toContain(`Minimum (monthly), ${price}. Thank you.`);
    // The first charge's receipt was not sent again.
    expect(subjects(await inbox(email)).filter((s) => s?.startsWith('Receipt:'))).toHaveLength(1);
  });

  it('says when a cancelled plan ends, and then that it ended', async () => {
    const cancel = await client.post('/api/stripe/cancel-subscription');
    expect(cancel.statusCode, cancel.body).toBe(200);
    await settle(ctx);
    const endsAt = (await userRow(ctx, id)).currentPeriodEnd;
    const ending = one(await inbox(email), 'Your OwnVoice plan is cancelled', ACCOUNT);
    expect(ending.text).toContain(`Your Minimum (monthly) plan is cancelled and ends on ${formatWhen(endsAt as Date)}`);

    await passTime(ctx, client, 31 * DAY_MS);
    expect((await me(client)).plan.name).toBe('none');
    const ended = one(await inbox(email), 'Your OwnVoice plan has ended', `${SITE}/dashboard/plans`);
    expect(ended.text).toContain('Your Minimum (monthly) plan has ended.');
  });
});

describe('a pack and its refund', () => {
  it('sends a receipt naming what was bought, and a refund saying what it took back', async () => {
    const { client, id, email } = await buyer();
    await buy(ctx, client, '/api/stripe/create-checkout-session', { metadata: packCheckoutMetadata('extra_model') });
    const receipt = one(await inbox(email), 'Receipt: $8.99 to OwnVoice', ACCOUNT);
    expect(receipt.text).toContain(': 1 Voice training, $8.99.');

    const [payment] = await new PaymentsRepository(ctx.database.db).listForUser(id, 5);
    await provider.refund({
      paymentIntentId: payment?.paymentIntentId ?? '',
      amountCents: null,
      idempotencyKey: 'notice-test-refund',
    });
    await settle(ctx);
    const refund = one(await inbox(email), 'Refund: $8.99 from OwnVoice', ACCOUNT);
    expect(refund.text).toContain('We refunded $8.99 for 1 trainable Voice.');
    expect(refund.text).toContain('What it paid for was taken back: 1 Voice training.');
  });
});

describe('a declined card', () => {
  it('is told with where to pay, even with every notice muted, which stay unsent', async () => {
    const switchable = NOTICES.filter((n) => !n.required).map((n) => n.key);
    const { client, id, email } = await buyer(switchable);
    await buy(ctx, client, '/api/stripe/onboarding/pay-later/setup-session');
    await provider.setCard(await customerOf(ctx, id), CARD_DECLINED_LATER);
    await passTime(ctx, client, DAY_MS + 60_000);
    const due = (await me(client)).subscription.paymentDue;
    expect(due?.payUrl).toMatch(/^\/api\/offline-checkout\/invoice\/in_offline_/);

    const mails = await inbox(email);
    const declined = one(mails, 'Your OwnVoice payment did not go through', `${SITE}${due?.payUrl}`);
    expect(declined.text).toContain('We could not take $10.00 for your OwnVoice plan: Your card was declined.');
    // The trial's start was muted: only what is required went out.
    expect(subjects(mails)).not.toContain('Your OwnVoice trial ends tomorrow');
    const kinds = await ctx.database.db
      .select({ kind: mailMessages.kind })
      .from(mailMessages)
      .where(eq(mailMessages.userId, id));
    expect(kinds.map((k) => k.kind).filter((k) => k !== 'verify_email')).toEqual(['card_declined']);

    // Retried by the job meanwhile: still one message for the one failed payment.
    await passTime(ctx, client, 2 * 60 * 60 * 1000);
    expect(subjects(await inbox(email)).filter((s) => s === 'Your OwnVoice payment did not go through')).toHaveLength(
      1,
    );
  });
});

describe('a transaction that rolls back', () => {
  it('sends nothing; the delivery that then succeeds sends once', async () => {
    const { client, email } = await buyer();
    const { activity } = ctx.app.platform.services;
    const record = activity.record.bind(activity);
    let failures = 0;
    // The trial's start fails at its last step, after its notice was asked for.
    activity.record = async (entry, db) => {
      if (entry.action === 'trial_started' && failures === 0) {
        failures += 1;
        throw new Error('the database went away');
      }
      return record(entry, db);
    };
    try {
      await buy(ctx, client, '/api/stripe/onboarding/pay-later/setup-session');
    } finally {
      activity.record = record;
    }
    expect(failures).toBe(1);
    expect((await me(client)).plan.name).toBe('none');
    expect(subjects(await inbox(email))).not.toContain('Your OwnVoice trial ends tomorrow');

    // The provider delivers the event again later, and this time it holds.
    ctx.clock.advance(5 * 60_000);
    await settle(ctx);
    expect((await me(client)).plan.name).toBe('trial');
    one(await inbox(email), 'Your OwnVoice trial ends tomorrow', ACCOUNT);
  });
});

describe('events again', () => {
  it('send nothing more when replayed, or when the same payments are settled again', async () => {
    await settle(ctx);
    const before = smtp.received.length;
    const rowsBefore = (await ctx.database.db.select().from(mailMessages)).length;
    expect(delivered.length).toBeGreaterThan(10);
    for (const event of delivered) {
      const res = await postWebhook(ctx, event.payload, webhookSecret);
      expect(res.statusCode, res.body).toBe(200);
    }
    // Reconciliation's way: the same facts settled again, without an event.
    const events = ctx.app.platform.services.payments?.events;
    let settled = 0;
    for (const event of delivered.filter((e) => e.type === 'invoice.paid')) {
      const invoice = event.data.object as {
        id: string;
        parent: { subscription_details: { metadata: Record<string, string> } };
      };
      const userId = invoice.parent.subscription_details.metadata.ownvoice_user_id;
      if (!userId) continue;
      expect(await events?.settleInvoice(userId, invoice.id)).toBe(false);
      settled += 1;
    }
    for (const event of delivered.filter((e) => e.type === 'checkout.session.completed')) {
      const checkout = event.data.object as { id: string; metadata?: Record<string, string> };
      const userId = checkout.metadata?.ownvoice_user_id;
      if (!userId) continue;
      expect(await events?.settleCheckout(userId, checkout.id)).toBe(false);
      settled += 1;
    }
    // The first charge and the renewal, the trials' saved cards and the pack.
    expect(settled).toBeGreaterThanOrEqual(5);
    await settle(ctx);
    expect((await ctx.database.db.select().from(mailMessages)).length).toBe(rowsBefore);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.received.length).toBe(before);
  });
});
