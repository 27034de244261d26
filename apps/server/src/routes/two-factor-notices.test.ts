// Two-factor turned on and off tells the account's address, through a real SMTP server
// (test/mail-server.ts), once each, with a link to the account page: a required notice, sent even
// with every notice muted.
import { NOTICES } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { formatWhen } from '../mail/layout.js';
import { deliveredTo } from '../test/mail-inbox.js';
import { startTestMailServer, type TestMailServer } from '../test/mail-server.js';
import { createTestContext, newAccount, type TestContext } from '../test/test-app.js';
import { enableTwoFactor } from '../test/two-factor.js';

const SITE = 'https://ownvoice.example';
let smtp: TestMailServer;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startTestMailServer();
  ctx = await createTestContext({
    publicUrl: SITE,
    mail: { smtpUrl: smtp.url, from: 'OwnVoice <no-reply@ownvoice.test>', outboxDir: '/nonexistent', siteUrl: SITE },
  });
  await ctx.app.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** What `email` received, once everything queued for it has been delivered. */
const inbox = (email: string): Promise<ParsedMail[]> => deliveredTo(smtp, ctx.database.db, email);

describe('two-factor notices', () => {
  it('tells the address when two-factor is turned on, and when it is turned off, once each', async () => {
    const client = ctx.client();
    const account = newAccount('twofactor');
    const id: string = (await client.register(account)).res.json().user.id;
    // Muting everything switchable changes nothing: security notices are always sent.
    await ctx.database.db
      .update(users)
      .set({ mutedNotices: NOTICES.filter((n) => !n.required).map((n) => n.key) })
      .where(eq(users.id, id));

    const onAt = ctx.clock.now();
    const mfa = await enableTwoFactor(ctx, client);
    const on = (await inbox(account.email)).filter((m) => m.subject === 'Two-factor is on for your OwnVoice account');
    expect(on).toHaveLength(1);
    expect(on[0]?.text).toContain(`turned on on ${formatWhen(onAt)}`);
    expect(on[0]?.text).toContain(`Open my account: ${SITE}/dashboard/account`);
    expect(on[0]?.html).toContain(`href="${SITE}/dashboard/account"`);

    // A second setup while it is on is refused, and tells nobody anything.
    expect((await client.post('/api/auth/mfa/setup')).statusCode).toBe(409);

    const offAt = ctx.clock.now();
    const disabled = await client.post('/api/auth/mfa/disable', { mfaToken: mfa.code() });
    expect(disabled.statusCode, disabled.body).toBe(200);
    // Turning it off again: it is off already, so nothing is sent.
    expect((await client.post('/api/auth/mfa/disable', { mfaToken: mfa.code() })).statusCode).toBe(400);

    const mails = await inbox(account.email);
    const off = mails.filter((m) => m.subject === 'Two-factor was turned off for your OwnVoice account');
    expect(off).toHaveLength(1);
    expect(off[0]?.text).toContain(`turned off on ${formatWhen(offAt)}`);
    expect(off[0]?.text).toContain(`Open my account: ${SITE}/dashboard/account`);
    expect(mails.filter((m) => m.subject?.startsWith('Two-factor'))).toHaveLength(2);
  });
});
