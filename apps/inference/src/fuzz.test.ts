// Fuzzing every route of the inference server with fast-check, with the generator the API's fuzz
// test uses (shared's testing/fuzz-requests.ts): bodies of each route's zod schema with hostile
// contents and wrong types, not-JSON, garbage under other content types; sent with the key and
// without. Every answer must be a 4xx or a success in vLLM's shape, never a 5xx; no request
// without the key changes what is served; and the server answers afterwards.
import { nasty, requestFor } from '@ownvoice/shared/testing/fuzz-requests';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_BODY } from './openai-errors.js';
import { type KeyedApp, startKeyedApp } from './test/keyed-app.js';

const KEY = 'fuzz-test-key-0123456789abcdef';
const RUNS = 150;
let keyed: KeyedApp;
let app: FastifyInstance;

beforeAll(async () => {
  keyed = await startKeyedApp(KEY);
  app = keyed.app;
});
afterAll(async () => {
  await keyed?.close();
});

const served = () => keyed.served();

/** vLLM's ErrorResponse: `{error: {message, type, param, code}}`, code the status. */
function isErrorBody(body: unknown, status: number): boolean {
  const error = (body as { error?: { message?: unknown; type?: unknown; code?: unknown } }).error;
  return typeof error?.message === 'string' && typeof error.type === 'string' && error.code === status;
}

describe('fuzzing every inference route', () => {
  it('never answers 5xx, refuses in vLLM’s shape, and changes nothing without the key', async () => {
    const routes = app.routeList.filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThanOrEqual(8);
    const before = await served();
    let sent = 0;
    for (const route of routes) {
      for (const withKey of [true, false]) {
        await fc.assert(
          fc.asyncProperty(requestFor(route, nasty), async (request) => {
            const headers = { ...request.headers, ...(withKey ? { authorization: `Bearer ${KEY}` } : {}) };
            const res = await app.inject({ ...request, headers });
            sent += 1;
            const label = `${request.method} ${request.url.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
            expect(res.statusCode, label).toBeLessThan(500);
            if (!withKey && route.url !== '/health') expect(res.statusCode, label).toBe(401);
            if (res.statusCode === 401) expect(res.json(), label).toEqual(UNAUTHORIZED_BODY);
            else if (res.statusCode >= 400) expect(isErrorBody(res.json(), res.statusCode), label).toBe(true);
          }),
          { numRuns: RUNS, seed: 20261126 },
        );
      }
      // A lucky load or unload with the key is undone, so each route starts from the same state.
      for (const name of (await served()).filter((id: string) => !before.includes(id))) {
        await app.inject({
          method: 'POST',
          url: '/v1/unload_lora_adapter',
          headers: { authorization: `Bearer ${KEY}` },
          payload: { lora_name: name },
        });
      }
    }
    expect(sent).toBe(routes.length * 2 * RUNS);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect(await served()).toContain('owned');
  }, 600_000);
});
