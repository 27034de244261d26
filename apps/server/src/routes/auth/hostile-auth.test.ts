// Anonymous requests made to hurt: a pattern that takes quadratic time, a flood of malformed
// bodies, and addresses that look like someone else's.
import { MESSAGES } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, newAccount, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ authRateLimit: { perIp: 3, windowMs: 60_000 } });
});

// Each client comes from its own address, so only the rate-limit test meets the limit of 3.
let addresses = 0;
const client = () => {
  addresses += 1;
  return ctx.client({ ip: `10.20.${addresses >> 8}.${addresses & 255}` });
};
afterAll(() => ctx.close());

describe('e-mail validation under hostile input', () => {
  it('refuses a huge address at once and keeps other requests fast', async () => {
    // Took 12 s in the e-mail pattern, holding every other request.
    const email = `a@${'.'.repeat(100_000)}@`;
    const anonymous = client();
    await anonymous.csrf();
    const started = Date.now();
    const timings: number[] = [];
    const [login, health] = await Promise.all([
      anonymous.post('/api/auth/login', { email, password: 'Passw0rdOk' }).then((res) => {
        timings.push(Date.now() - started);
        return res;
      }),
      ctx.app.inject({ method: 'GET', url: '/api/health' }).then((res) => {
        timings.push(Date.now() - started);
        return res;
      }),
    ]);
    expect(login.statusCode).toBe(400);
    expect(login.json()).toMatchObject({ code: 'VALIDATION_ERROR', msg: MESSAGES.emailLength });
    expect(health.statusCode).toBe(200);
    expect(Math.max(...timings)).toBeLessThan(2000);
  });

  it('refuses an address of many dots under 100 characters as invalid, quickly', async () => {
    const res = await client().post('/api/auth/register', { ...newAccount(), email: `a@${'.'.repeat(90)}@` });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(MESSAGES.emailInvalid);
  });

  it('counts malformed requests towards the rate limit', async () => {
    const attacker = client();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await attacker.post('/api/auth/login', { email: `a@${'.'.repeat(500)}@`, password: 'x' })).statusCode,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    // Sign-up shares the address's budget.
    const register = await attacker.post('/api/auth/register', { ...newAccount(), email: 12 });
    expect(register.statusCode).toBe(429);
  });
});

describe('look-alike accounts', () => {
  it('refuses invisible and mixed-script addresses, and folds compatibility forms onto the real one', async () => {
    const victim = newAccount('victim');
    await client().register(victim);
    const [local, domain] = victim.email.split('@') as [string, string];
    const lookAlikes = [
      `${local}\u200b@${domain}`, // zero-width space
      `${victim.email}\u200b`, // trailing zero-width space (trim leaves it)
      `\u202e${victim.email}`, // right-to-left override
      `${local}\u00ad@${domain}`, // soft hyphen
      `${local.replace('i', '\u0456')}@${domain}`, // Cyrillic і
      `${local}@ex\u0430mple.com`, // Cyrillic а in the domain
    ];
    for (const email of lookAlikes) {
      const res = await client().post('/api/auth/register', { ...newAccount(), email });
      expect(res.statusCode, JSON.stringify(email)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', msg: MESSAGES.emailLookAlike });
    }
    // Fullwidth letters are the same address, so the account exists already.
    const fullwidth = `\uff56${victim.email.slice(1)}`;
    const taken = await client().post('/api/auth/register', { ...newAccount(), email: fullwidth });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_TAKEN');
    const login = await client().post('/api/auth/login', { email: fullwidth, password: victim.password });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.email).toBe(victim.email);
  });

  it('folds a fullwidth username onto the plain one and refuses invisible or foreign letters', async () => {
    const victim = newAccount('victim');
    await client().register(victim);
    const fullwidth = [...victim.username].map((c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0)).join('');
    const taken = await client().post('/api/auth/register', { ...newAccount(), username: fullwidth });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('USERNAME_TAKEN');
    for (const username of [`${victim.username}\u200b`, victim.username.replace('i', '\u0456')]) {
      const res = await client().post('/api/auth/register', { ...newAccount(), username });
      expect(res.statusCode).toBe(400);
      expect(res.json().msg).toBe(MESSAGES.usernameChars);
    }
  });

  it('keeps addresses in one script, or in scripts written together, valid', async () => {
    for (const email of [
      'müller@bücher.de',
      'иван@пример.рф',
      'たなか太郎@例え.jp',
      'o\u0027brien+tag@sub.example.co.uk',
    ]) {
      const res = await client().post('/api/auth/register', { ...newAccount(), email });
      expect(res.statusCode, `${email}: ${res.body}`).toBe(201);
    }
  });
});
