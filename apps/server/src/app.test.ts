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
