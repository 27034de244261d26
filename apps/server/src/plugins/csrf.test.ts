import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, newAccount, type TestContext } from '../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  // With the offline provider, so its checkout buttons and the webhook are among the routes.
  ctx = await createTestContext({
    billing: { provider: 'offline', publicUrl: undefined, prioritySupportUrl: undefined },
  });
});
afterAll(() => ctx.close());

async function csrfPair() {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/csrf-token' });
  const cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
  return { cookie, token: res.json<{ csrfToken: string }>().csrfToken, setCookie: String(res.headers['set-cookie']) };
}

const register = (headers: Record<string, string>) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/register', headers, payload: newAccount('csrf') });

describe('CSRF protection', () => {
  it('hands out a token bound to an httpOnly, SameSite=Strict cookie', async () => {
    const { setCookie, token } = await csrfPair();
    expect(token.length).toBeGreaterThan(20);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
  });

  it('accepts a state-changing request with the cookie and its token', async () => {
    const { cookie, token } = await csrfPair();
    expect((await register({ cookie, 'x-csrf-token': token })).statusCode).toBe(201);
  });

  it('refuses a request without the cookie', async () => {
    const { token } = await csrfPair();
    const res = await register({ 'x-csrf-token': token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('CSRF_MISSING_SECRET');
  });

  it('refuses a request without the header', async () => {
    const { cookie } = await csrfPair();
    const res = await register({ cookie });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('CSRF_MISSING_TOKEN');
  });

  it("refuses a token minted for another browser's cookie, or a forged one", async () => {
    const mine = await csrfPair();
    const theirs = await csrfPair();
    for (const token of [theirs.token, 'forged-token', `${mine.token}x`]) {
      const res = await register({ cookie: mine.cookie, 'x-csrf-token': token });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_INVALID_TOKEN');
    }
  });

  it('guards every non-GET route, including ones that need no login', async () => {
    const nonGet = ctx.app.routeList.filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && r.csrf);
    expect(nonGet.length).toBeGreaterThan(3);
    for (const route of nonGet) {
      const res = await ctx.app.inject({ method: route.method as 'POST', url: route.url, payload: {} });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().code, `${route.method} ${route.url}`).toMatch(/^CSRF_/);
    }
  });

  it('exempts only what no page of ours calls: the payment webhook, the test payment pages and /v1', () => {
    const exempt = ctx.app.routeList.filter((r) => !r.csrf).map((r) => `${r.method} ${r.url}`);
    expect(exempt.sort()).toEqual([
      'POST /api/offline-checkout/:id/cancel',
      'POST /api/offline-checkout/:id/pay',
      'POST /api/offline-checkout/invoice/:id/pay',
      'POST /api/stripe/webhook',
      // OpenAI's protocol for people's tools: API keys only (routes/v1).
      'POST /v1/chat/completions',
    ]);
  });

  it('lets GET, HEAD and OPTIONS through without a token', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/public/stats' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'HEAD', url: '/api/public/stats' })).statusCode).toBe(200);
  });
});
