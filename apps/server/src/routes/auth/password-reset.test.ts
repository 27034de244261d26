// "Forgot password?" end to end through a real SMTP server (test/mail-server.ts): the same answer
// for any address, a link by mail that works once for an hour, the new password ending every
// session and every API key, the second factor asked for when it is on (never a squatter's, on an
// address nobody confirmed), and at most three links an hour.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { RESETS_PER_HOUR } from '../../services/password-reset.service.js';
import { recipientOf, startTestMailServer, type TestMailServer } from '../../test/mail-server.js';
import { createTestContext, newAccount, type TestContext } from '../../test/test-app.js';
import { enableTwoFactor, withTwoFactor } from '../../test/two-factor.js';

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
/** A program's call with an API key: the key and nothing else. */
const withKey = (secret: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/loras', headers: { authorization: `Bearer ${secret}` } });
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

  it('revokes every API key: a key made from a stolen session ends with the theft', async () => {
    const owner = ctx.client();
    const { account } = await owner.register(newAccount('keyreset'));
    const made = await owner.post('/api/auth/api-keys', {
      name: 'Made by a thief',
      scopes: ['voices:read'],
      currentPassword: account.password,
    });
    expect(made.statusCode, made.body).toBe(201);
    const secret: string = made.json().secret;
    expect((await withKey(secret)).statusCode).toBe(200);

    await forgot(account.email);
    const done = await reset({ token: await tokenFor(account.email), password: 'N3w-Passw0rd-ok' });
    expect(done.statusCode, done.body).toBe(200);
    const after = await withKey(secret);
    expect([after.statusCode, after.json().code]).toEqual([401, 'API_KEY_REVOKED']);
    expect((await owner.get('/api/auth/api-keys')).statusCode).toBe(401);
  });

  it("gives the address's owner back an account a squatter made with it: no code of theirs, their two-factor, keys, sessions and change of address gone", async () => {
    const squatter = ctx.client();
    const account = newAccount('squat');
    const userId: string = (await squatter.register(account, { confirmed: false })).res.json().user.id;
    // Two-factor, a key and a change of address, as an account could hold them before they needed
    // a confirmed address: made while it counted as confirmed for a moment.
    await ctx.database.db.update(users).set({ emailVerifiedAt: ctx.clock.now() }).where(eq(users.id, userId));
    const { code } = await enableTwoFactor(ctx, squatter);
    const key = await squatter.post('/api/auth/api-keys', {
      name: 'Squat',
      scopes: ['voices:read'],
      currentPassword: account.password,
      mfaToken: code(),
    });
    expect(key.statusCode, key.body).toBe(201);
    ctx.clock.advance(30_000);
    const away = `${newAccount('squatmail').username}@example.com`;
    const move = await squatter.post('/api/auth/email/change', {
      email: away,
      currentPassword: account.password,
      mfaToken: code(),
    });
    expect(move.statusCode, move.body).toBe(202);
    const moveMail = await smtp.waitFor(
      (m) => recipientOf(m) === away && m.subject === 'Confirm your new OwnVoice address',
    );
    const moveToken = /\/auth\/verify\?token=([\w-]+)/.exec(moveMail.text ?? '')?.[1] ?? '';
    await ctx.database.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, userId));

    // The address's owner: "Forgot password?", and no code asked for (it would be the squatter's).
    await forgot(account.email);
    const done = await reset({ token: await tokenFor(account.email), password: 'N3w-Passw0rd-ok' });
    expect(done.statusCode, done.body).toBe(200);

    expect((await squatter.get('/api/auth/me')).statusCode).toBe(401);
    const squatKey = await withKey(key.json().secret);
    expect([squatKey.statusCode, squatKey.json().code]).toEqual([401, 'API_KEY_REVOKED']);
    const moved = await ctx.client().post('/api/auth/email/verify', { token: moveToken });
    expect([moved.statusCode, moved.json().code]).toEqual([400, 'EMAIL_LINK_INVALID']);
    const owner = ctx.client();
    const login = await owner.post('/api/auth/login', { email: account.email, password: 'N3w-Passw0rd-ok' });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json().requiresMFA).toBeUndefined();
    owner.token = login.json().token;
    expect((await owner.get('/api/auth/me')).json().user).toMatchObject({
      email: account.email,
      emailVerified: true,
      mfaEnabled: false,
      pendingEmail: null,
    });
  });

  it('sends at most three links an hour to one account', async () => {
    const { account } = await ctx.client().register(newAccount('flood'));
    for (let i = 0; i < RESETS_PER_HOUR + 2; i++) expect((await forgot(account.email)).statusCode).toBe(202);
    await tokenFor(account.email, RESETS_PER_HOUR);
    await new Promise((r) => setTimeout(r, 1500));
    expect(resetMails(account.email)).toHaveLength(RESETS_PER_HOUR);
  });
});
