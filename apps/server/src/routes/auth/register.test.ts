import { MESSAGES, userSchema } from '@ownvoice/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages, users } from '../../db/schema.js';
import { createTestContext, newAccount, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('POST /api/auth/register', () => {
  it('creates an account, answers a token and the full user, and never the hash', async () => {
    const account = newAccount();
    const res = await ctx.client().post('/api/auth/register', account);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const user = userSchema.parse(body.user);
    expect(user).toMatchObject({
      username: account.username,
      email: account.email,
      role: 'user',
      mfaEnabled: false,
      // Confirmed from the link mailed to it (routes/auth/email.test.ts).
      emailVerified: false,
      pendingEmail: null,
      mutedNotices: [],
      plan: { name: 'none', billingCycle: null },
      onboarding: { step: 'registered' },
      credits: 0,
      // The starter allowance of the configuration (defaults), lasting 90 days.
      usageLimits: { modelStorageSlotsTotal: 3, modelStorageSlotsUsed: 0 },
    });
    expect(user.usageLimits.modelsTrained).toEqual([{ amount: 3, expiresAt: expect.any(String) }]);
    expect(user.usageLimits.activationHours[0]?.amount).toBe(10);
    expect(user.usageLimits.chunkEdits[0]?.amount).toBe(200);
    expect(user.usageLimits.shortContent[0]?.amount).toBe(100);
    const days =
      (Date.parse(user.usageLimits.modelsTrained[0]?.expiresAt ?? '') - Date.parse(user.createdAt)) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    expect(user.id).toMatch(/^[0-9a-f]{24}$/);
    expect(user._id).toBe(user.id);
    expect(res.body).not.toMatch(/argon2|password/i);
  });

  it('lower-cases and trims the e-mail, trims the username and strips NUL characters', async () => {
    const account = newAccount('trim');
    const res = await ctx.client().post('/api/auth/register', {
      username: `  ${account.username}\u0000 `,
      email: `  ${account.email.toUpperCase()}\u0000  `,
      password: `${account.password}\u0000`,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.username).toBe(account.username);
    expect(res.json().user.email).toBe(account.email);
    const login = await ctx.client().post('/api/auth/login', { email: account.email, password: account.password });
    expect(login.statusCode).toBe(200);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['a too short username', { username: 'ab' }, MESSAGES.usernameLength],
    ['a too long username', { username: 'a'.repeat(31) }, MESSAGES.usernameLength],
    ['a username with spaces', { username: 'ann smith' }, MESSAGES.usernameChars],
    ['a username with symbols', { username: 'ann!' }, MESSAGES.usernameChars],
    ['an invalid e-mail', { email: 'not-an-email' }, MESSAGES.emailInvalid],
    // Addresses a mailer reads as another one: each would be a new account on one mailbox.
    ['an e-mail in group syntax', { email: 'g:victim@example.com;' }, MESSAGES.emailInvalid],
    ['an e-mail with a quoted local part', { email: '"victim"@example.com' }, MESSAGES.emailInvalid],
    ['an e-mail over 100 characters', { email: `${'a'.repeat(95)}@x.com` }, MESSAGES.emailLength],
    ['a short password', { password: 'Ab1' }, MESSAGES.passwordLength],
    ['a password over 128 characters', { password: `Ab1${'x'.repeat(126)}` }, MESSAGES.passwordLength],
    ['a password without a digit', { password: 'Password' }, MESSAGES.passwordStrength],
    ['a password without upper case', { password: 'password1' }, MESSAGES.passwordStrength],
    ['a password without lower case', { password: 'PASSWORD1' }, MESSAGES.passwordStrength],
    ['a missing username', { username: undefined }, MESSAGES.usernameLength],
  ];
  it.each(invalid)('rejects %s with the shared message', async (_name, patch, message) => {
    const res = await ctx.client().post('/api/auth/register', { ...newAccount(), ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ msg: message, code: 'VALIDATION_ERROR' });
    expect(res.json().errors[0]).toMatchObject({ msg: message });
  });

  it('answers 409 for an e-mail that is taken, whatever its case', async () => {
    const { account } = await ctx.client().register();
    const res = await ctx.client().post('/api/auth/register', {
      ...newAccount(),
      email: account.email.toUpperCase(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('EMAIL_TAKEN');
    expect(res.json().msg).toMatch(/already exists/);
  });

  it('answers 409 for a username that is taken, whatever its case', async () => {
    const { account } = await ctx.client().register();
    const res = await ctx.client().post('/api/auth/register', {
      ...newAccount(),
      username: account.username.toUpperCase(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('USERNAME_TAKEN');
  });
});

describe('beta cap', () => {
  /** The token of the newest confirmation link mailed to the account (read from the stored message). */
  const newestLink = async (context: TestContext, userId: string) => {
    const [mail] = await context.database.db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.userId, userId), eq(mailMessages.kind, 'verify_email')))
      .orderBy(desc(mailMessages.createdAt))
      .limit(1);
    return /\/auth\/verify\?token=([\w-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
  };

  it('reports the head count and closes registration at the cap with BETA_WAITLIST', async () => {
    const capped = await createTestContext({ betaCap: 2 });
    try {
      const stats0 = await capped.client().get('/api/public/stats');
      expect(stats0.json()).toEqual({ userCount: 0, cap: 2 });
      await capped.client().register();
      await capped.client().register();
      const res = await capped.client().post('/api/auth/register', newAccount());
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('BETA_WAITLIST');
      const stats = await capped.client().get('/api/public/stats');
      expect(stats.json()).toEqual({ userCount: 2, cap: 2 });
    } finally {
      await capped.close();
    }
  });

  it('never lets unconfirmed sign-ups hold the beta shut: a seat is taken by confirming the address', async () => {
    const capped = await createTestContext({ betaCap: 2 });
    try {
      // Throwaway addresses nobody reads, as many as the cap and more.
      for (let i = 0; i < 3; i++) await capped.client().register(newAccount('throwaway'), { confirmed: false });
      expect((await capped.client().get('/api/public/stats')).json()).toEqual({ userCount: 0, cap: 2 });
      // A real person still signs up, at once and not 48 hours later.
      const person = capped.client();
      const { res } = await person.register(newAccount('person'), { confirmed: false });
      expect(res.statusCode).toBe(201);
      const confirmed = await capped
        .client()
        .post('/api/auth/email/verify', { token: await newestLink(capped, res.json().user.id) });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect((await capped.client().get('/api/public/stats')).json()).toEqual({ userCount: 1, cap: 2 });
    } finally {
      await capped.close();
    }
  });

  it('lets an unconfirmed sign-up confirm only into a free seat, and keeps its link for when one frees', async () => {
    const capped = await createTestContext({ betaCap: 2 });
    try {
      const { res } = await capped.client().register(newAccount('slow'), { confirmed: false });
      const slowId: string = res.json().user.id;
      const token = await newestLink(capped, slowId);
      await capped.client().register(newAccount('kept'));
      const { res: late } = await capped.client().register(newAccount('late'));
      expect((await capped.client().post('/api/auth/register', newAccount())).json().code).toBe('BETA_WAITLIST');

      // Confirming now finds the beta full: the address stays unconfirmed.
      const full = await capped.client().post('/api/auth/email/verify', { token });
      expect(full.statusCode).toBe(403);
      expect(full.json().code).toBe('BETA_WAITLIST');
      expect(full.json().msg).toContain('filled up');
      const [slow] = await capped.database.db.select().from(users).where(eq(users.id, slowId));
      expect(slow?.emailVerifiedAt).toBeNull();

      // A seat frees up (a confirmed account leaves): the same link now confirms.
      await capped.database.db.delete(users).where(eq(users.id, late.json().user.id));
      const confirmed = await capped.client().post('/api/auth/email/verify', { token });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect((await capped.client().get('/api/public/stats')).json()).toEqual({ userCount: 2, cap: 2 });
    } finally {
      await capped.close();
    }
  });

  it('lets exactly one of several simultaneous confirmations take the last seat', async () => {
    const capped = await createTestContext({ betaCap: 1 });
    try {
      const tokens = [];
      for (let i = 0; i < 4; i++) {
        const { res } = await capped.client().register(newAccount('race'), { confirmed: false });
        tokens.push(await newestLink(capped, res.json().user.id));
      }
      const results = await Promise.all(
        tokens.map((token) => capped.client().post('/api/auth/email/verify', { token })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 403, 403, 403]);
      expect((await capped.client().get('/api/public/stats')).json().userCount).toBe(1);
    } finally {
      await capped.close();
    }
  });
});
