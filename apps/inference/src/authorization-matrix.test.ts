// The inference server's authorization matrix: every route, however its path is written (plain,
// percent-encoded, with a doubled slash, with a query), called with no key, a wrong key, the key
// under another scheme and the right key, answers 401 without the right key (but /health, open to
// a load balancer's probe) and is served with it; and the refused calls change nothing (no adapter
// loaded or unloaded). A route added without a row here fails the test.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_BODY } from './openai-errors.js';
import { type KeyedApp, startKeyedApp } from './test/keyed-app.js';

const KEY = 'matrix-test-key-0123456789abcdef';
let keyed: KeyedApp;
let app: FastifyInstance;

type Caller = 'none' | 'wrong' | 'basic' | 'right';
const HEADERS: Record<Caller, Record<string, string>> = {
  none: {},
  wrong: { authorization: `Bearer ${KEY.slice(0, -1)}x` },
  basic: { authorization: `Basic ${KEY}` },
  right: { authorization: `bearer ${KEY}` },
};

/** Each route and a body that would do something if it were let through. */
const ROWS: Record<string, { open?: boolean; body?: () => Record<string, unknown> }> = {
  'GET /health': { open: true },
  'HEAD /health': { open: true },
  'GET /metrics': {},
  'HEAD /metrics': {},
  'GET /v1/models': {},
  'HEAD /v1/models': {},
  'POST /v1/completions': { body: () => ({ prompt: 'It was', max_tokens: 2 }) },
  'POST /v1/chat/completions': { body: () => ({ messages: [{ role: 'user', content: 'Hi' }], max_tokens: 2 }) },
  'POST /v1/load_lora_adapter': { body: () => ({ lora_name: 'intruder', lora_path: keyed.adapterPath }) },
  'POST /v1/unload_lora_adapter': { body: () => ({ lora_name: 'owned' }) },
  'POST /tokenize': { body: () => ({ prompt: 'It was' }) },
};

/** The ways one path may be written that route to the same place. */
function spellings(url: string): string[] {
  const first = url.charCodeAt(1).toString(16);
  return [url, `/%${first}${url.slice(2)}`, `/${url}`, `${url}?x=1`];
}

beforeAll(async () => {
  keyed = await startKeyedApp(KEY);
  app = keyed.app;
});
afterAll(async () => {
  await keyed?.close();
});

const served = () => keyed.served();

describe('the inference server’s authorization matrix', () => {
  it('has a row for every route', () => {
    const routes = app.routeList.map((r) => `${r.method} ${r.url}`).sort();
    expect(routes).toEqual(Object.keys(ROWS).sort());
  });

  it('answers 401 to every caller without the right key, on every route but /health, however the path is written', async () => {
    const before = await served();
    let refused = 0;
    for (const [route, row] of Object.entries(ROWS)) {
      const [method, url] = route.split(' ') as ['GET' | 'HEAD' | 'POST', string];
      for (const spelled of spellings(url)) {
        const send = (caller: Caller) =>
          app.inject({ method, url: spelled, headers: HEADERS[caller], ...(row.body ? { payload: row.body() } : {}) });
        // A spelling the router does not take to the route is a 404 for everyone, key or not.
        const routed = (await send('none')).statusCode !== 404;
        for (const caller of ['none', 'wrong', 'basic'] as const) {
          const answer = await send(caller);
          const label = `${method} ${spelled} as ${caller}`;
          if (!routed) expect(answer.statusCode, label).toBe(404);
          else if (row.open) expect(answer.statusCode, label).toBe(200);
          else {
            expect(answer.statusCode, label).toBe(401);
            if (method !== 'HEAD') expect(answer.json(), label).toEqual(UNAUTHORIZED_BODY);
            refused++;
          }
        }
      }
    }
    // Each route under at least its plain and percent-encoded spellings.
    expect(refused).toBeGreaterThanOrEqual((Object.keys(ROWS).length - 2) * 2 * 3);
    // Nothing a refused call asked for happened.
    expect(await served()).toEqual(before);
    expect(before).toContain('owned');
    expect(before).not.toContain('intruder');
  });

  it('serves every route to the right key', async () => {
    for (const [route, row] of Object.entries(ROWS)) {
      if (route === 'POST /v1/unload_lora_adapter') continue;
      const [method, url] = route.split(' ') as ['GET' | 'HEAD' | 'POST', string];
      const answer = await app.inject({
        method,
        url,
        headers: HEADERS.right,
        ...(row.body ? { payload: row.body() } : {}),
      });
      expect(answer.statusCode, route).toBe(200);
    }
    expect(await served()).toContain('intruder');
    const unloaded = await app.inject({
      method: 'POST',
      url: '/v1/unload_lora_adapter',
      headers: HEADERS.right,
      payload: { lora_name: 'intruder' },
    });
    expect(unloaded.statusCode).toBe(200);
  });
});
