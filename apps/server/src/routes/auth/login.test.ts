import { ACCOUNT_LOCK_MS } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, newAccount, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const login = (email: string, password: string) => ctx.client().post('/api/auth/login', { email, password });

describe('POST /api/auth/login', () => {
  it('answers a fresh token and the user for the right password', async () => {
    const { account } = await ctx.client().register();
    const res = await login(` ${account.email.toUpperCase()} `, account.password);
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toBeTypeOf('string');
    expect(res.json().user.username).toBe(account.username);
  });

  it('answers 401 Invalid credentials for a wrong password and for an unknown e-mail alike', async () => {
    const { account } = await ctx.client().register();
    const wrong = await login(account.email, 'Wrong-pass1');
    const unknown = await login('nobody@example.com', account.password);
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ msg: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
    }
  });

  it('locks the account for 2 hours after five failures in a row, then lets the owner back in', async () => {
    const { account } = await ctx.client().register();
    for (let i = 1; i <= 4; i++) {
      expect((await login(account.email, `Wrong-pass${i}`)).statusCode).toBe(401);
    }
    const fifth = await login(account.email, 'Wrong-pass5');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json().code).toBe('ACCOUNT_LOCKED');
    expect(fifth.json().msg).toMatch(/^Account is temporarily locked.*2 hours/);

    // Even the right password is refused while locked, and the answer says how long is left.
    ctx.clock.advance(30 * 60 * 1000);
    const locked = await login(account.email, account.password);
    expect(locked.statusCode).toBe(423);
    expect(locked.json().msg).toContain('1 hour 30 minutes');
    expect(locked.json().details.retryAfterSeconds).toBe(90 * 60);
    expect(locked.headers['retry-after']).toBe(String(90 * 60));

    ctx.clock.advance(ACCOUNT_LOCK_MS - 30 * 60 * 1000 + 1000);
    const after = await login(account.email, account.password);
    expect(after.statusCode).toBe(200);
  });

  it('counts failures in a row only: a success resets the count', async () => {
    const { account } = await ctx.client().register();
    for (let i = 0; i < 4; i++) await login(account.email, 'Wrong-pass1');
    expect((await login(account.email, account.password)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(account.email, 'Wrong-pass1')).statusCode).toBe(401);
    expect((await login(account.email, account.password)).statusCode).toBe(200);
  });

  it('starts a fresh count once a lock has run out', async () => {
    const { account } = await ctx.client().register();
    for (let i = 0; i < 5; i++) await login(account.email, 'Wrong-pass1');
    ctx.clock.advance(ACCOUNT_LOCK_MS + 1000);
    expect((await login(account.email, 'Wrong-pass1')).statusCode).toBe(401);
    expect((await login(account.email, account.password)).statusCode).toBe(200);
  });

  it('validates e-mail and password length with the shared messages', async () => {
    const res = await login('a@b.co', 'short');
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Password must be 8-128 characters long');
    const long = await login(`${'a'.repeat(100)}@example.com`, 'Passw0rdOk');
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toBe('Email must be at most 100 characters long');
  });

  it('accepts a well-formed second-factor code field and rejects a malformed one', async () => {
    const { account } = await ctx.client().register(newAccount('mfa'));
    const ok = await ctx.client().post('/api/auth/login', { ...account, mfaToken: 'abc123' });
    expect(ok.statusCode).toBe(200);
    const bad = await ctx.client().post('/api/auth/login', { ...account, mfaToken: '12-45' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('rate limits on the auth routes', () => {
  it('limits attempts per IP, including loopback', async () => {
    const limited = await createTestContext({ authRateLimit: { perIp: 3, windowMs: 60_000 } });
    try {
      const client = limited.client({ ip: '127.0.0.1' });
      for (let i = 0; i < 3; i++) {
        const res = await client.post('/api/auth/login', { email: `x${i}@example.com`, password: 'Passw0rdOk' });
        expect(res.statusCode).toBe(401);
      }
      const res = await client.post('/api/auth/login', { email: 'x9@example.com', password: 'Passw0rdOk' });
      expect(res.statusCode).toBe(429);
      expect(res.json().code).toBe('RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // Another address still has its own budget.
      const other = await limited
        .client({ ip: '10.0.0.7' })
        .post('/api/auth/login', { email: 'x1@example.com', password: 'Passw0rdOk' });
      expect(other.statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('limits attempts per account across addresses', async () => {
    const limited = await createTestContext({ authRateLimit: { perAccount: 2, windowMs: 60_000 } });
    try {
      const body = { email: 'target@example.com', password: 'Passw0rdOk' };
      expect((await limited.client({ ip: '10.0.0.1' }).post('/api/auth/login', body)).statusCode).toBe(401);
      expect((await limited.client({ ip: '10.0.0.2' }).post('/api/auth/login', body)).statusCode).toBe(401);
      const third = await limited.client({ ip: '10.0.0.3' }).post('/api/auth/login', body);
      expect(third.statusCode).toBe(429);
      const otherAccount = await limited
        .client({ ip: '10.0.0.3' })
        .post('/api/auth/login', { ...body, email: 'other@example.com' });
      expect(otherAccount.statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});
