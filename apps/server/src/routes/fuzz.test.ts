// Fuzzing every /api route with fast-check. Requests are generated from each route's own zod
// schemas (body, query, params, via their JSON Schema): values of the right shape and of the
// wrong type, fields missing and extra, huge strings, NUL characters, and bodies that are not
// JSON at all; sent by a signed-in user and by a visitor. Every answer must be a 4xx (or a
// success) with the API's error body, never a 5xx, and the service must stay up.
import { apiErrorBodySchema } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RouteEntry } from '../app.js';
import { usageTranches, users, voices } from '../db/schema.js';
import { newId } from '../ids.js';
import { createTestContext, type TestClient, type TestContext } from '../test/test-app.js';

let ctx: TestContext;
let user: TestClient;
let userId: string;
let account: { email: string; password: string };
let voiceId: string;

/** Runs per route; with ~30 routes and two callers this is a few thousand requests. */
const RUNS = 40;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  maxLength?: number;
};

/** Looks like an id (24 hex digits) but names nothing. */
const hex24 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 });

const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', '<script>alert(1)</script>', '%00', '\ud800', '{"a":'),
);
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.anything({ maxDepth: 1 }), { maxKeys: 3 }),
  nasty,
);

/** A value for `schema`: usually the right shape with hostile contents, sometimes the wrong type. */
function valueFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return wrongType;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valueFor(s, depth + 1)));
  let right: fc.Arbitrary<unknown>;
  if (schema.enum?.length) right = fc.constantFrom(...schema.enum);
  else if (schema.const !== undefined) right = fc.constant(schema.const);
  else {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === 'object') right = objectFor(schema, depth);
    else if (type === 'array') right = fc.array(valueFor(schema.items, depth + 1), { maxLength: 4 });
    else if (type === 'integer')
      right = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 2 ** 31, Number.MAX_SAFE_INTEGER));
    else if (type === 'number') right = fc.double();
    else if (type === 'boolean') right = fc.boolean();
    else if (type === 'string') right = fc.oneof(nasty, fc.string({ maxLength: 30 }), hex24);
    else right = wrongType;
  }
  return fc.oneof({ arbitrary: right, weight: 3 }, { arbitrary: wrongType, weight: 1 });
}

/** An object with the schema's fields, some left out, some extra. */
function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = schema.properties ?? {};
  const keys = Object.keys(props);
  const fields = fc.record(Object.fromEntries(keys.map((k) => [k, valueFor(props[k], depth + 1)])), {
    requiredKeys: [],
  });
  const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), wrongType, { maxKeys: 2 });
  return fc.tuple(fields, extra).map(([f, e]) => ({ ...e, ...f }));
}

/** A route's zod schema part as JSON Schema, or none. */
function jsonSchemaOf(part: unknown): JsonSchema | undefined {
  if (!(part instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(part, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** Percent-encodes every byte (lone surrogates become U+FFFD, as a browser sends them). */
const enc = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const toQuery = (value: unknown): string => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `q=${enc(String(value))}`;
  return Object.entries(value)
    .map(([k, v]) => `${enc(k)}=${enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`)
    .join('&');
};

/** A whole request for the route: path, query and a body (JSON, not-JSON or multipart garbage). */
type FuzzRequest = Omit<InjectOptions, 'headers'> & { headers: Record<string, string> };

function requestFor(route: RouteEntry): fc.Arbitrary<FuzzRequest> {
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown };
  const idArb = fc.oneof(fc.constant(voiceId), hex24, nasty.map(enc));
  const bodySchema = jsonSchemaOf(schema.body);
  const querySchema = jsonSchemaOf(schema.querystring);
  const body = fc.oneof(
    { weight: 4, arbitrary: valueFor(bodySchema ?? { type: 'object' }).map((v) => ({ json: v })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((raw) => ({ raw, type: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded'),
          nasty,
        )
        .map(([type, raw]) => ({ raw, type })),
    },
  );
  return fc
    .record({ id: idArb, query: querySchema ? valueFor(querySchema) : fc.constant(undefined), body })
    .map(({ id, query, body }): FuzzRequest => {
      const url = route.url.replace(':id', id) + (query === undefined ? '' : `?${toQuery(query)}`);
      if (route.method === 'GET') return { method: route.method as 'GET', url, headers: {} };
      if ('json' in body) {
        return {
          method: route.method as 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body.json ?? null),
        };
      }
      return { method: route.method as 'POST', url, headers: { 'content-type': body.type }, payload: body.raw };
    });
}

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
  voiceId = newId();
  await ctx.database.db.insert(voices).values({ id: voiceId, userId, name: 'Fuzzed', status: 'ready', progress: 100 });
  // Nothing to spend: a lucky valid request is refused for its limits, not run on the model.
  await ctx.database.db.delete(usageTranches).where(eq(usageTranches.userId, userId));
  await ctx.database.db.update(users).set({ modelStorageSlotsTotal: 0 }).where(eq(users.id, userId));
}, 120_000);
afterAll(() => ctx.close());

describe('fuzzing every route', () => {
  it('never answers 5xx, always with the API error body, and stays up', async () => {
    const routes = ctx.app.routeList.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(25);
    let sent = 0;
    for (const route of routes) {
      for (const signedIn of [true, false]) {
        await fc.assert(
          fc.asyncProperty(requestFor(route), async (request) => {
            // A generated request may have logged the user out (POST /auth/logout): sign in again.
            if (signedIn && (await user.get('/api/auth/me')).statusCode === 401) {
              user.token = (await user.post('/api/auth/login', account)).json().token;
            }
            const headers = {
              ...request.headers,
              ...(await user.csrfHeaders()),
              ...(signedIn && user.token ? { authorization: `Bearer ${user.token}` } : {}),
            };
            const res = await ctx.app.inject({ ...request, headers });
            sent += 1;
            const label = `${request.method} ${String(request.url).slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
            expect(res.statusCode, label).toBeLessThan(500);
            if (res.statusCode >= 400) expect(apiErrorBodySchema.safeParse(res.json()).success, label).toBe(true);
          }),
          { numRuns: RUNS, seed: 20261122 },
        );
      }
    }
    expect(sent).toBeGreaterThan(routes.length * RUNS);
    expect((await ctx.client().get('/api/health')).statusCode).toBe(200);
  }, 600_000);
});
