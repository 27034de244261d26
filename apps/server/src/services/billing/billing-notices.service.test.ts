// Billing's e-mail notices, as BillingEventsService sends them through the mail queue to a real
// SMTP server (test/mail-server.ts), driven through the services and the offline provider without
// HTTP: the trial's start (when it ends, what it charges), the receipt of the first charge and of
// a pack, a renewal, a declined card with where to pay, a cancellation and the plan's end, a
// refund with what it took back. Each arrives once, with its link; replayed events and settling
// the same payment again send nothing more, a transaction that rolls back after a notice was
// asked for sends nothing; a muted notice is not sent while a required one (the declined card) is.
import { NOTICES, PAY_LATER_FIRST_CHARGE_CENTS, PLANS } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages } from '../../db/schema.js';
import { formatWhen } from '../../mail/layout.js';
import { PaymentsRepository } from '../../repositories/payments.repository.js';
import { total } from '../../test/account-state.js';
import { CARD_DECLINED_LATER } from '../../test/cards.js';
import { DAY_MS } from '../../test/factories/rows.js';
import { createUser } from '../../test/factories/users.js';
import { deliveredTo } from '../../test/mail-inbox.js';
import { startTestMailServer, type TestMailServer } from '../../test/mail-server.js';
import { type BillingServiceContext, ORIGIN, openBillingServiceContext } from '../../test/service-context.js';

const SITE = 'https://ownvoice.example';
const ACCOUNT = `${SITE}/dashboard/account`;

let smtp: TestMailServer;
let ctx: BillingServiceContext;

beforeAll(async () => {
  smtp = await startTestMailServer();
  ctx = await openBillingServiceContext({
    publicUrl: SITE,
    mail: { smtpUrl: smtp.url, from: 'OwnVoice <no-reply@ownvoice.test>', outboxDir: '/nonexistent', siteUrl: SITE },
  });
  await ctx.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** A buyer with a confirmed address, and the notices they switched off. */
async function buyer(muted: string[] = []): Promise<{ id: string; email: string }> {
  const { id, email } = await createUser(ctx, { mutedNotices: muted });
  return { id, email };
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
  let id: string;
  let email: string;

  it('says at the trial’s start when it ends and what the first charge will be', async () => {
    ({ id, email } = await buyer());
    const startedAt = ctx.clock.now();
    expect((await ctx.startTrial(id)).planName).toBe('trial');
    const mail = one(await inbox(email), 'Your OwnVoice trial ends tomorrow', ACCOUNT);
    expect(mail.text).toContain(
      `Your trial ends on ${formatWhen(new Date(startedAt.getTime() + DAY_MS))}. Then the Minimum plan starts and your saved card is charged $10.00.`,
    );
    expect(PAY_LATER_FIRST_CHARGE_CENTS).toBe(1000);
  });

  it('sends a receipt for the first charge when the plan starts', async () => {
    await ctx.passTime(DAY_MS + 60_000);
    expect((await ctx.view(id)).plan.name).toBe('minimum');
    const mail = one(await inbox(email), 'Receipt: $10.00 to OwnVoice', ACCOUNT);
    expect(mail.text).toContain('Minimum (monthly) and the trial day, $10.00.');
  });

  it('says the plan renewed when the next period is paid', async () => {
    await ctx.passTime(31 * DAY_MS);
    const price = `$${(PLANS.minimum.monthlyCents / 100).toFixed(2)}`;
    const mail = one(await inbox(email), `Your OwnVoice plan renewed: ${price}`, ACCOUNT);
    expect(mail.text).toContain(`Minimum (monthly), ${price}. Thank you.`);
    // The first charge's receipt was not sent again.
    expect(subjects(await inbox(email)).filter((s) => s?.startsWith('Receipt:'))).toHaveLength(1);
  });

  it('says when a cancelled plan ends, and then that it ended', async () => {
    await ctx.billing.cancel(await ctx.reload(id));
    await ctx.settle();
    const endsAt = (await ctx.reload(id)).currentPeriodEnd;
    const ending = one(await inbox(email), 'Your OwnVoice plan is cancelled', ACCOUNT);
    expect(ending.text).toContain(`Your Minimum (monthly) plan is cancelled and ends on ${formatWhen(endsAt as Date)}`);

    await ctx.passTime(31 * DAY_MS);
    expect((await ctx.view(id)).plan.name).toBe('none');
    const ended = one(await inbox(email), 'Your OwnVoice plan has ended', `${SITE}/dashboard/plans`);
    expect(ended.text).toContain('Your Minimum (monthly) plan has ended.');
  });
});

describe('a pack and its refund', () => {
  it('sends a receipt naming what was bought, and a refund saying what it took back', async () => {
    const { id, email } = await buyer();
    await ctx.pay(await ctx.billing.startPackCheckout(await ctx.reload(id), ['extra_model'], ORIGIN));
    const receipt = one(await inbox(email), 'Receipt: $8.99 to OwnVoice', ACCOUNT);
    expect(receipt.text).toContain(': 1 Voice training, $8.99.');

    const [payment] = await new PaymentsRepository(ctx.database.db).listForUser(id, 5);
    await ctx.provider.refund({
      paymentIntentId: payment?.paymentIntentId ?? '',
      amountCents: null,
      idempotencyKey: 'notice-test-refund',
    });
    await ctx.settle();
    const refund = one(await inbox(email), 'Refund: $8.99 from OwnVoice', ACCOUNT);
    expect(refund.text).toContain('We refunded $8.99 for 1 trainable Voice.');
    expect(refund.text).toContain('What it paid for was taken back: 1 Voice training.');
  });
});

describe('a declined card', () => {
  it('is told with where to pay, even with every notice muted, which stay unsent', async () => {
    const switchable = NOTICES.filter((n) => !n.required).map((n) => n.key);
    const { id, email } = await buyer(switchable);
    await ctx.startTrial(id);
    await ctx.provider.setCard(await ctx.customerOf(id), CARD_DECLINED_LATER);
    await ctx.passTime(DAY_MS + 60_000);
    const due = (await ctx.view(id)).subscription.paymentDue;
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
    expect(kinds.map((k) => k.kind)).toEqual(['card_declined']);

    // Retried by the job meanwhile: still one message for the one failed payment.
    await ctx.passTime(2 * 60 * 60 * 1000);
    expect(subjects(await inbox(email)).filter((s) => s === 'Your OwnVoice payment did not go through')).toHaveLength(
      1,
    );
  });
});

describe('a transaction that rolls back', () => {
  it('sends nothing for a notice asked for before the rollback; the delivery that then succeeds sends once', async () => {
    const { id, email } = await buyer();
    // The pack's grant fails at its last step, a read after its receipt was asked for.
    const find = PaymentsRepository.prototype.find;
    let failures = 0;
    PaymentsRepository.prototype.find = async function (this: PaymentsRepository, ...args) {
      if (failures === 0) {
        failures += 1;
        throw new Error('the database went away');
      }
      return find.apply(this, args);
    };
    try {
      await ctx.pay(await ctx.billing.startPackCheckout(await ctx.reload(id), ['extra_model'], ORIGIN));
    } finally {
      PaymentsRepository.prototype.find = find;
    }
    expect(failures).toBe(1);
    expect(total((await ctx.view(id)).usageLimits.modelsTrained)).toBe(0);
    expect(subjects(await inbox(email))).not.toContain('Receipt: $8.99 to OwnVoice');

    // The provider delivers the event again later, and this time it holds.
    ctx.clock.advance(5 * 60_000);
    await ctx.settle();
    expect(total((await ctx.view(id)).usageLimits.modelsTrained)).toBe(1);
    one(await inbox(email), 'Receipt: $8.99 to OwnVoice', ACCOUNT);
  });

  it('sends nothing for a delivery that failed; the delivery that then succeeds sends once', async () => {
    const { id, email } = await buyer();
    const { activity } = ctx.services;
    const record = activity.record.bind(activity);
    let failures = 0;
    // The trial's start fails at its activity row, just before its notice would be asked for.
    activity.record = async (entry, db) => {
      if (entry.action === 'trial_started' && failures === 0) {
        failures += 1;
        throw new Error('the database went away');
      }
      return record(entry, db);
    };
    try {
      await ctx.startTrial(id);
    } finally {
      activity.record = record;
    }
    expect(failures).toBe(1);
    expect((await ctx.view(id)).plan.name).toBe('none');
    expect(subjects(await inbox(email))).not.toContain('Your OwnVoice trial ends tomorrow');

    // The provider delivers the event again later, and this time it holds.
    ctx.clock.advance(5 * 60_000);
    await ctx.settle();
    expect((await ctx.view(id)).plan.name).toBe('trial');
    one(await inbox(email), 'Your OwnVoice trial ends tomorrow', ACCOUNT);
  });
});

describe('events again', () => {
  it('send nothing more when replayed, or when the same payments are settled again', async () => {
    await ctx.settle();
    const before = smtp.received.length;
    const rowsBefore = (await ctx.database.db.select().from(mailMessages)).length;
    const { delivered } = ctx;
    const { events } = ctx.payments;
    expect(delivered.length).toBeGreaterThan(10);
    // Every delivery again, signed as it was sent, as the webhook hands it on.
    for (const event of delivered) await events.receive(Buffer.from(event.payload), event.signature);
    // Reconciliation's way: the same facts settled again, without an event.
    let settled = 0;
    for (const event of delivered.filter((e) => e.type === 'invoice.paid')) {
      const invoice = event.data.object as {
        id: string;
        parent: { subscription_details: { metadata: Record<string, string> } };
      };
      const userId = invoice.parent.subscription_details.metadata.ownvoice_user_id;
      if (!userId) continue;
      expect(await events.settleInvoice(userId, invoice.id)).toBe(false);
      settled += 1;
    }
    for (const event of delivered.filter((e) => e.type === 'checkout.session.completed')) {
      const checkout = event.data.object as { id: string; metadata?: Record<string, string> };
      const userId = checkout.metadata?.ownvoice_user_id;
      if (!userId) continue;
      expect(await events.settleCheckout(userId, checkout.id)).toBe(false);
      settled += 1;
    }
    // The first charge and the renewal, the trials' saved cards and the pack.
    expect(settled).toBeGreaterThanOrEqual(5);
    await ctx.settle();
    expect((await ctx.database.db.select().from(mailMessages)).length).toBe(rowsBefore);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.received.length).toBe(before);
  });
});
