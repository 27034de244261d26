// Fuzzing every /api and /v1 route with fast-check. Requests are generated from each route's own zod
// schemas (shared's testing/fuzz-requests.ts: values of the right shape and of the wrong type,
// fields missing and extra, huge strings, NUL characters, and bodies that are not JSON at all);
// sent by a signed-in user, by a visitor and by a program with the user's API key (every scope,
// no CSRF token). Every answer must be a 4xx (or a
// success) with the API's error body (OpenAI's under /v1), never a 5xx, and the service must stay up.
import { apiErrorBodySchema } from '@ownvoice/shared';
import { enc, hex24, nasty, requestFor } from '@ownvoice/shared/testing/fuzz-requests';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageTranches, users, voices } from '../db/schema.js';
import { newId } from '../ids.js';
import { createTestContext, type TestClient, type TestContext } from '../test/test-app.js';
import { openAiErrorBodySchema } from './v1/v1.schemas.js';

let ctx: TestContext;
let user: TestClient;
let userId: string;
let account: { email: string; password: string };
let voiceId: string;
/** The user's API key, with every scope. */
let apiKey: string;

/** Runs per route; with ~60 routes and three callers this is several thousand requests. */
const RUNS = 40;

beforeAll(async () => {
  // Plans sold through the offline provider, so the billing routes are fuzzed too.
  ctx = await createTestContext({
    billing: { provider: 'offline', publicUrl: undefined, prioritySupportUrl: undefined },
    starterAllowance: null,
  });
  // The house model, so routes that use it answer for their input, not "model not ready".
  await ctx.app.platform.baseModel.start({ spec: 'tiny', dataDir: ctx.config.dataDir, log: () => {} });
  user = ctx.client();
  const registered = await user.register();
  userId = registered.res.json().user.id;
  account = registered.account;
  apiKey = (
    await user.createApiKey({
      name: 'Fuzz',
      scopes: ['voices:read', 'convert', 'create'],
      rateLimitPerMinute: 600,
    })
  ).json().secret;
  voiceId = newId();
  await ctx.database.db.insert(voices).values({ id: voiceId, userId, name: 'Fuzzed', status: 'ready', progress: 100 });
  // Nothing to spend: a lucky valid request is refused for its limits, not run on the model.
  await ctx.database.db.delete(usageTranches).where(eq(usageTranches.userId, userId));
  await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 0 }).where(eq(users.id, userId));
}, 120_000);
afterAll(() => ctx.close());

describe('fuzzing every route', () => {
  it('never answers 5xx, always with the API error body, and stays up', async () => {
    const routes = ctx.app.routeList.filter(
      (r) => (r.url.startsWith('/api/') || r.url.startsWith('/v1/')) && r.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThan(25);
    let sent = 0;
    for (const route of routes) {
      for (const caller of ['session', 'visitor', 'key'] as const) {
        const signedIn = caller === 'session';
        await fc.assert(
          fc.asyncProperty(
            requestFor(route, fc.oneof(fc.constant(voiceId), hex24, nasty.map(enc))),
            async (request) => {
              // A generated request may have logged the user out (POST /auth/logout): sign in again.
              if (signedIn && (await user.get('/api/auth/me')).statusCode === 401) {
                user.token = (await user.post('/api/auth/login', account)).json().token;
              }
              const headers =
                caller === 'key'
                  ? { ...request.headers, authorization: `Bearer ${apiKey}` }
                  : {
                      ...request.headers,
                      ...(await user.csrfHeaders()),
                      ...(signedIn && user.token ? { authorization: `Bearer ${user.token}` } : {}),
                    };
              const res = await ctx.app.inject({ ...request, headers });
              sent += 1;
              const label = `${request.method} ${String(request.url).slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
              expect(res.statusCode, label).toBeLessThan(500);
              // /v1 speaks OpenAI's protocol, errors included.
              const errorBody = route.url.startsWith('/v1/') ? openAiErrorBodySchema : apiErrorBodySchema;
              if (res.statusCode >= 400) expect(errorBody.safeParse(res.json()).success, label).toBe(true);
            },
          ),
          { numRuns: RUNS, seed: 20261122 },
        );
      }
    }
    expect(sent).toBeGreaterThan(routes.length * RUNS);
    expect((await ctx.client().get('/api/health')).statusCode).toBe(200);
  }, 600_000);
});
