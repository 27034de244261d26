import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiErrorBodySchema } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './test/test-app.js';
import { testDatabaseKind } from './test/test-database.js';

let ctx: TestContext;
let webDir: string;
beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-web-'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>OwnVoice</title>');
  ctx = await createTestContext({ webDir });
});
afterAll(async () => {
  await ctx.close();
  rmSync(webDir, { recursive: true, force: true });
});

// Bodies a careless or hostile client might send; none may produce a 5xx.
const BAD_BODIES: { name: string; payload: string; contentType: string }[] = [
  { name: 'malformed JSON', payload: '{"email": ', contentType: 'application/json' },
  { name: 'a JSON array', payload: '[1,2,3]', contentType: 'application/json' },
  { name: 'a JSON string', payload: '"hello"', contentType: 'application/json' },
  { name: 'null', payload: 'null', contentType: 'application/json' },
  {
    name: 'wrong types',
    payload: '{"email":5,"password":[],"username":{},"step":true}',
    contentType: 'application/json',
  },
  {
    name: 'NUL characters',
    payload: '{"email":"\\u0000","password":"\\u0000\\u0000"}',
    contentType: 'application/json',
  },
  { name: 'a huge string', payload: JSON.stringify({ email: 'x'.repeat(200_000) }), contentType: 'application/json' },
  { name: 'form encoding', payload: 'email=a&password=b', contentType: 'application/x-www-form-urlencoded' },
  { name: 'plain text', payload: 'hello', contentType: 'text/plain' },
];

describe('every API route', () => {
  it('answers bad bodies with a 4xx JSON error, never a 5xx, for signed-in and anonymous callers', async () => {
    const signedIn = ctx.client();
    await signedIn.register();
    const csrfHeaders = await signedIn.csrfHeaders();
    const routes = ctx.app.routeList.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThanOrEqual(7);
    for (const route of routes) {
      for (const bad of BAD_BODIES) {
        for (const token of [signedIn.token, undefined]) {
          const res = await ctx.app.inject({
            method: route.method as 'POST',
            url: route.url,
            payload: bad.payload,
            headers: {
              'content-type': bad.contentType,
              ...csrfHeaders,
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
          });
          const label = `${route.method} ${route.url} with ${bad.name}`;
          expect(res.statusCode, label).toBeLessThan(500);
          if (res.statusCode >= 400) expect(apiErrorBodySchema.safeParse(res.json()).success, label).toBe(true);
        }
      }
    }
    // And the service is still up.
    expect((await ctx.client().get('/api/health')).statusCode).toBe(200);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await ctx.client().get('/api/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('ROUTE_NOT_FOUND');
  });
});

describe('the web app', () => {
  it('serves index.html for client-side routes so deep links and reloads work', async () => {
    for (const url of ['/', '/dashboard', '/auth?tab=login', '/no/such/page']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<title>OwnVoice</title>');
    }
  });
});

describe('GET /api/health', () => {
  it('reports the database in use', async () => {
    const res = await ctx.client().get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: testDatabaseKind() });
  });
});

describe('x-request-id', () => {
  const idOf = (res: { headers: Record<string, unknown> }) => String(res.headers['x-request-id']);

  it('names every answer’s request: pages, API, refusals, the router’s own, and /v1', async () => {
    const answers = await Promise.all([
      ctx.app.inject({ url: '/' }),
      ctx.app.inject({ url: '/api/health' }),
      ctx.app.inject({ url: '/api/nothing-here' }),
      ctx.app.inject({ url: '/api/auth/me' }),
      ctx.app.inject({ url: '/api/%zz' }),
      // Refused by the CSRF check, a hook.
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      ctx.app.inject({ url: '/v1/models' }),
      ctx.app.inject({ url: '/v1/%zz' }),
    ]);
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 404, 401, 400, 403, 401, 400]);
    const ids = answers.map(idOf);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps a sane id the caller sent and replaces any other', async () => {
    for (const sent of ['3f2c9c1e-6f1d-4c7e-9a57-0e1b2c3d4e5f', 'req_abc123', 'trace:42.7']) {
      expect(idOf(await ctx.app.inject({ url: '/api/health', headers: { 'x-request-id': sent } }))).toBe(sent);
    }
    for (const sent of ['two words', 'x'.repeat(129), '<script>', 'a\u00e9']) {
      const res = await ctx.app.inject({ url: '/api/health', headers: { 'x-request-id': sent } });
      expect(idOf(res), sent).toMatch(/^req_[0-9a-f]{24}$/);
    }
  });

  it('is the reqId of the request’s log lines', async () => {
    const lines: { reqId?: string; msg?: string }[] = [];
    const logged = await createTestContext(
      {},
      { logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } },
    );
    try {
      const res = await logged.app.inject({ url: '/api/health', headers: { 'x-request-id': 'trace-from-client' } });
      expect(idOf(res)).toBe('trace-from-client');
      const own = lines.filter((line) => line.reqId === 'trace-from-client').map((line) => line.msg);
      expect(own).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    } finally {
      await logged.close();
    }
  });
});
