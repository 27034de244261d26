// Wrong passwords and codes lock out where they come from, never the account's owner: an attacker
// cannot lock anyone out or tell a real address from a made-up one, and a stolen session cannot
// guess the password or a code for ever.
import { ACCOUNT_LOCK_MS, MAX_FAILED_LOGINS } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_DEVICE_FIRST_WAIT_MS, MAX_FAILED_LOGINS_UNKNOWN_SOURCES } from '../../services/login-guard.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from '../../test/test-app.js';
import { enableTwoFactor, oathtool, withTwoFactor } from '../../test/two-factor.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

let lastIp = 0;
/** A client from an address no other test uses. */
const stranger = () => {
  lastIp += 1;
  return ctx.client({ ip: `198.51.100.${lastIp % 250}` });
};
const login = (client: TestClient, email: string, password: string) =>
  client.post('/api/auth/login', { email, password });

/** The owner: signed up from this browser, so it is known to the account. */
async function owner() {
  const client = ctx.client({ ip: '203.0.113.10' });
  const account = newAccount('owner');
  await client.register(account);
  return { client, account };
}

describe('an attacker guessing a password', () => {
  it('locks out their own address, while the owner’s browser and other addresses go on', async () => {
    const { client, account } = await owner();
    const attacker = stranger();
    const answers = [];
    for (let i = 0; i < MAX_FAILED_LOGINS; i++)
      answers.push((await login(attacker, account.email, `Wrong-pass${i}`)).statusCode);
    expect(answers).toEqual([401, 401, 401, 401, 423]);
    // The right password from the attacker's address is refused too: they learn nothing.
    expect((await login(attacker, account.email, account.password)).statusCode).toBe(423);
    // The owner signs in from their browser at once.
    expect((await login(client, account.email, account.password)).statusCode).toBe(200);
    // Another address starts its own count.
    expect((await login(stranger(), account.email, 'Wrong-pass9')).statusCode).toBe(401);
    ctx.clock.advance(ACCOUNT_LOCK_MS + 1000);
    expect((await login(attacker, account.email, account.password)).statusCode).toBe(200);
  });

  it('answers the same for a made-up address as for a real one, lock included', async () => {
    const { account } = await owner();
    const answer = async (email: string) => {
      const client = stranger();
      const seen = [];
      for (let i = 0; i < MAX_FAILED_LOGINS + 1; i++) {
        const res = await login(client, email, 'Wrong-pass1');
        seen.push({ status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] });
      }
      return seen;
    };
    const real = await answer(account.email);
    const madeUp = await answer(newAccount('nobody').email);
    expect(madeUp).toEqual(real);
    expect(real.at(-1)?.status).toBe(423);
  });

  it('spread over many addresses, locks every unknown browser out and still lets the owner in', async () => {
    const { client, account } = await owner();
    const perAddress = MAX_FAILED_LOGINS - 1;
    let sent = 0;
    while (sent < MAX_FAILED_LOGINS_UNKNOWN_SOURCES) {
      const attacker = stranger();
      for (let i = 0; i < perAddress && sent < MAX_FAILED_LOGINS_UNKNOWN_SOURCES; i++, sent++) {
        const res = await login(attacker, account.email, 'Wrong-pass1');
        expect(res.statusCode).toBe(sent === MAX_FAILED_LOGINS_UNKNOWN_SOURCES - 1 ? 423 : 401);
      }
    }
    expect((await login(stranger(), account.email, account.password)).statusCode).toBe(423);
    expect((await login(client, account.email, account.password)).statusCode).toBe(200);
  });
});

describe('the owner mistyping on their own browser', () => {
  it('slows down rather than locks: 30 seconds after five wrong tries, doubling', async () => {
    const { client, account } = await owner();
    for (let i = 0; i < MAX_FAILED_LOGINS; i++)
      expect((await login(client, account.email, 'Wrong-pass1')).statusCode).toBe(401);
    const wait = await login(client, account.email, account.password);
    expect(wait.statusCode).toBe(429);
    expect(wait.json().code).toBe('RATE_LIMITED');
    expect(Number(wait.headers['retry-after'])).toBe(KNOWN_DEVICE_FIRST_WAIT_MS / 1000);
    ctx.clock.advance(KNOWN_DEVICE_FIRST_WAIT_MS);
    expect((await login(client, account.email, 'Wrong-pass1')).statusCode).toBe(401);
    const longer = await login(client, account.email, account.password);
    expect(Number(longer.headers['retry-after'])).toBe((2 * KNOWN_DEVICE_FIRST_WAIT_MS) / 1000);
    ctx.clock.advance(2 * KNOWN_DEVICE_FIRST_WAIT_MS);
    expect((await login(client, account.email, account.password)).statusCode).toBe(200);
    // Signed in: the count starts again.
    expect((await login(client, account.email, 'Wrong-pass1')).statusCode).toBe(401);
    expect((await login(client, account.email, account.password)).statusCode).toBe(200);
  });

  it('does not trust a device cookie the account has never signed in with', async () => {
    const { account } = await owner();
    const other = await owner();
    // A browser known to another account is a stranger to this one.
    const answers = [];
    for (let i = 0; i < MAX_FAILED_LOGINS; i++)
      answers.push((await login(other.client, account.email, 'Wrong-pass1')).statusCode);
    expect(answers.at(-1)).toBe(423);
  });
});

describe('the per-account rate limit', () => {
  it('keys on the signed-in user, whatever e-mail the body names', async () => {
    const limited = await createTestContext({ authRateLimit: { perAccount: 3, perIp: 1000, windowMs: 60_000 } });
    try {
      const client = limited.client();
      await client.register();
      const answers = [];
      for (let i = 0; i < 4; i++) {
        const res = await client.delete('/api/auth/account', {
          password: 'Wrong-pass1',
          email: `junk${i}@example.com`,
        });
        answers.push(res.statusCode);
      }
      expect(answers.slice(0, 3).every((s) => s === 400)).toBe(true);
      expect(answers[3]).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('gives the owner’s known browser a budget of its own', async () => {
    const limited = await createTestContext({ authRateLimit: { perAccount: 2, perIp: 1000, windowMs: 60_000 } });
    try {
      const client = limited.client();
      const { account } = await client.register();
      for (let i = 0; i < 3; i++)
        await limited
          .client({ ip: `10.1.0.${i}` })
          .post('/api/auth/login', { email: account.email, password: 'Wrong-pass1' });
      const stranger = await limited.client({ ip: '10.1.0.9' }).post('/api/auth/login', account);
      expect(stranger.statusCode).toBe(429);
      expect((await client.post('/api/auth/login', account)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('a stolen session', () => {
  it('is signed out after five wrong passwords to delete the account, which stays', async () => {
    const { client, account } = await owner();
    const answers = [];
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      answers.push((await client.delete('/api/auth/account', { password: `Wrong-pass${i}` })).statusCode);
    }
    expect(answers).toEqual([400, 400, 400, 400, 401]);
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    // Nothing was deleted, and the owner signs in again.
    const again = await login(client, account.email, account.password);
    expect(again.statusCode).toBe(200);
  });

  it('is signed out after five wrong codes to turn two-factor off, which stays on', async () => {
    const { client, account, secret } = await withTwoFactor(ctx);
    const answers = [];
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) {
      answers.push((await client.post('/api/auth/mfa/disable', { mfaToken: `00000${i}` })).statusCode);
    }
    expect(answers).toEqual([400, 400, 400, 400, 401]);
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    const needsCode = await login(ctx.client(), account.email, account.password);
    expect(needsCode.json()).toEqual({ requiresMFA: true });
    const withCode = await ctx
      .client()
      .post('/api/auth/login', { ...account, mfaToken: oathtool(secret, ctx.clock.now()) });
    expect(withCode.statusCode).toBe(200);
  });

  it('is not counted as guessing when it asks to delete the account without a code', async () => {
    const { client } = await withTwoFactor(ctx);
    const account = { password: 'Passw0rdOk' };
    for (let i = 0; i < MAX_FAILED_LOGINS + 2; i++) {
      expect((await client.delete('/api/auth/account', account)).json().code).toBe('INVALID_MFA_TOKEN');
    }
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
  });
});

describe('turning two-factor on', () => {
  it('signs out every other session, made without a code', async () => {
    const { client, account } = await owner();
    const elsewhere = ctx.client();
    elsewhere.token = (await login(elsewhere, account.email, account.password)).json().token;
    expect((await elsewhere.get('/api/auth/me')).statusCode).toBe(200);
    await enableTwoFactor(ctx, client);
    expect((await elsewhere.get('/api/auth/me')).statusCode).toBe(401);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
  });
});
