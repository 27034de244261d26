// "Forgot password?" end to end through a real SMTP server (test/mail-server.ts): the same answer
// for any address, a link by mail that works once for an hour, the new password ending every
// session, the second factor asked for when it is on, and at most three links an hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESETS_PER_HOUR } from '../../services/password-reset.service.js';
import { recipientOf, startTestMailServer, type TestMailServer } from '../../test/mail-server.js';
import { createTestContext, newAccount, type TestContext } from '../../test/test-app.js';
import { withTwoFactor } from '../../test/two-factor.js';

const PUBLIC_URL = 'https://ownvoice.example';
let smtp: TestMailServer;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startTestMailServer();
  ctx = await createTestContext({
    publicUrl: PUBLIC_URL,
    mail: {
      smtpUrl: smtp.url,
      from: 'OwnVoice <no-reply@ownvoice.test>',
      outboxDir: '/nonexistent',
      siteUrl: PUBLIC_URL,
    },
  });
  await ctx.app.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const forgot = (email: string) => ctx.client().post('/api/auth/password/forgot', { email });
const reset = (body: Record<string, unknown>) => ctx.client().post('/api/auth/password/reset', body);

/** The reset mails `email` received (sign-up also mails it, a link to confirm the address). */
const resetMails = (email: string) =>
  smtp.received.filter((m) => recipientOf(m) === email && m.subject === 'Reset your OwnVoice password');

/** The token of the reset link the nth reset mail to `email` carried. */
async function tokenFor(email: string, nth = 1): Promise<string> {
  await expect.poll(() => resetMails(email).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(nth);
  const mail = resetMails(email)[nth - 1];
  const link = /https:\/\/ownvoice\.example\/auth\/reset\?token=([\w-]+)/.exec(mail?.text ?? '');
  expect(link, mail?.text).not.toBeNull();
  expect(mail?.html).toContain(`${PUBLIC_URL}/auth/reset?token=${link?.[1]}`);
  return link?.[1] ?? '';
}

describe('forgot password', () => {
  it('mails a link that sets a new password once, and ends every session', async () => {
    const owner = ctx.client();
    const { account } = await owner.register(newAccount('forgot'));
    const asked = await forgot(account.email);
    expect(asked.statusCode).toBe(202);
    const token = await tokenFor(account.email);

    const done = await reset({ token, password: 'N3w-Passw0rd-ok' });
    expect(done.statusCode, done.body).toBe(200);
    // Whoever was signed in with the old password is out.
    expect((await owner.get('/api/auth/me')).statusCode).toBe(401);
    const old = await ctx.client().post('/api/auth/login', { email: account.email, password: account.password });
    expect(old.statusCode).toBe(401);
    const fresh = await ctx.client().post('/api/auth/login', { email: account.email, password: 'N3w-Passw0rd-ok' });
    expect(fresh.statusCode).toBe(200);
    // Once only.
    const again = await reset({ token, password: 'An0ther-Passw0rd' });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('RESET_LINK_INVALID');
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const known = ctx.client();
    const { account } = await known.register(newAccount('known'));
    const [real, madeUp] = [await forgot(account.email), await forgot('nobody-here@example.com')];
    expect(madeUp.statusCode).toBe(real.statusCode);
    expect(madeUp.json()).toEqual(real.json());
    await tokenFor(account.email);
    expect(smtp.received.some((m) => recipientOf(m) === 'nobody-here@example.com')).toBe(false);
  });

  it('refuses a link after an hour, and a made-up one', async () => {
    const { account } = await ctx.client().register(newAccount('late'));
    await forgot(account.email);
    const token = await tokenFor(account.email);
    ctx.clock.advance(61 * 60_000);
    const late = await reset({ token, password: 'N3w-Passw0rd-ok' });
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('RESET_LINK_INVALID');
    expect((await reset({ token: 'x'.repeat(43), password: 'N3w-Passw0rd-ok' })).json().code).toBe(
      'RESET_LINK_INVALID',
    );
  });

  it('asks for the second factor when it is on, and counts wrong codes against the link', async () => {
    const { account, code } = await withTwoFactor(ctx, 'resetmfa');
    await forgot(account.email);
    const token = await tokenFor(account.email);
    const noCode = await reset({ token, password: 'N3w-Passw0rd-ok' });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().code).toBe('MFA_REQUIRED');
    const wrong = await reset({ token, password: 'N3w-Passw0rd-ok', mfaToken: '000000' });
    expect(wrong.json().code).toBe('INVALID_MFA_TOKEN');
    const right = await reset({ token, password: 'N3w-Passw0rd-ok', mfaToken: code() });
    expect(right.statusCode, right.body).toBe(200);
  });

  it('sends at most three links an hour to one account', async () => {
    const { account } = await ctx.client().register(newAccount('flood'));
    for (let i = 0; i < RESETS_PER_HOUR + 2; i++) expect((await forgot(account.email)).statusCode).toBe(202);
    await tokenFor(account.email, RESETS_PER_HOUR);
    await new Promise((r) => setTimeout(r, 1500));
    expect(resetMails(account.email)).toHaveLength(RESETS_PER_HOUR);
  });
});
