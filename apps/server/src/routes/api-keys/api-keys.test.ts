// API keys: made, listed and revoked by a signed-in browser only; the secret shown once and kept
// only as a hash; a key reaches the routes its scopes name, as its owner, with its own rate limit,
// no CSRF token, and never account, billing, admin or the keys themselves.
import { API_KEY_PREFIX, API_KEYS_MAX, apiKeySchema, createdApiKeySchema } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, users } from '../../db/schema.js';
import { hashToken } from '../../services/tokens.js';
import { createVoice } from '../../test/factories/voices.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = ctx.client();
  ownerId = (await owner.register()).res.json().user.id;
});
afterAll(() => ctx.close());

/** A request as a program sends it: the key and nothing else (no cookies, no CSRF token). */
const withKey = (secret: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  ctx.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${secret}` },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

async function createKey(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post('/api/auth/api-keys', body);
  expect(res.statusCode, res.body).toBe(201);
  return createdApiKeySchema.parse(res.json());
}

const addVoice = (userId: string, name: string) => createVoice(ctx, userId, { name });

describe('/api/auth/api-keys', () => {
  it('shows the secret once, keeps only its hash, and lists the key without it', async () => {
    const { key, secret } = await createKey(owner, { name: 'My editor', scopes: ['voices:read', 'convert'] });
    expect(secret.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(secret.length).toBeGreaterThan(40);
    expect(key).toMatchObject({ name: 'My editor', scopes: ['voices:read', 'convert'], rateLimitPerMinute: 60 });
    expect(key.lastUsedAt).toBeNull();
    expect(secret.startsWith(key.shown.replace('…', ''))).toBe(true);

    const [row] = await ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.secretHash).toBe(hashToken(secret));
    expect(JSON.stringify(row)).not.toContain(secret);

    const list = await owner.get('/api/auth/api-keys');
    expect(list.statusCode).toBe(200);
    const listed = list.json().keys.map((k: unknown) => apiKeySchema.parse(k));
    expect(listed.map((k: { id: string }) => k.id)).toContain(key.id);
    expect(list.body).not.toContain(secret);
  });

  it('refuses a key without a name or scope, an unknown scope, and a rate limit out of range', async () => {
    for (const body of [
      { name: ' ', scopes: ['convert'] },
      { name: 'No scope', scopes: [] },
      { name: 'Odd', scopes: ['billing'] },
      { name: 'Twice', scopes: ['convert', 'convert'] },
      { name: 'Greedy', scopes: ['convert'], rateLimitPerMinute: 100_000 },
      { name: 'Stingy', scopes: ['convert'], rateLimitPerMinute: 0 },
    ]) {
      const res = await owner.post('/api/auth/api-keys', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it(`holds ${API_KEYS_MAX} keys at most, counting only those not revoked`, async () => {
    const client = ctx.client();
    await client.register();
    const made = await Promise.all(
      Array.from({ length: API_KEYS_MAX + 2 }, (_, i) =>
        client.post('/api/auth/api-keys', { name: `Key ${i}`, scopes: ['create'] }),
      ),
    );
    expect(made.filter((res) => res.statusCode === 201)).toHaveLength(API_KEYS_MAX);
    const refused = made.filter((res) => res.statusCode !== 201);
    expect(refused.map((res) => [res.statusCode, res.json().code])).toEqual([
      [409, 'API_KEYS_FULL'],
      [409, 'API_KEYS_FULL'],
    ]);
    const first = made.find((res) => res.statusCode === 201)?.json().key.id;
    expect((await client.delete(`/api/auth/api-keys/${first}`)).json()).toEqual({ ok: true });
    expect((await client.post('/api/auth/api-keys', { name: 'Again', scopes: ['create'] })).statusCode).toBe(201);
  });

  it("revokes at once, and never another user's key", async () => {
    const { key, secret } = await createKey(owner, { name: 'Short-lived', scopes: ['voices:read'] });
    expect((await withKey(secret, 'GET', '/api/loras')).statusCode).toBe(200);

    const stranger = ctx.client();
    await stranger.register();
    expect((await stranger.delete(`/api/auth/api-keys/${key.id}`)).statusCode).toBe(404);
    expect((await withKey(secret, 'GET', '/api/loras')).statusCode).toBe(200);

    expect((await owner.delete(`/api/auth/api-keys/${key.id}`)).statusCode).toBe(200);
    const revoked = await withKey(secret, 'GET', '/api/loras');
    expect([revoked.statusCode, revoked.json().code]).toEqual([401, 'API_KEY_REVOKED']);
    expect((await owner.delete(`/api/auth/api-keys/${key.id}`)).statusCode).toBe(404);
    const listed = (await owner.get('/api/auth/api-keys')).json().keys as { id: string }[];
    expect(listed.map((k) => k.id)).not.toContain(key.id);

    const unknown = await withKey(`${API_KEY_PREFIX}not-a-key`, 'GET', '/api/loras');
    expect([unknown.statusCode, unknown.json().code]).toEqual([401, 'UNAUTHENTICATED']);
  });
});

describe('a request made with an API key', () => {
  it("reads its owner's Voices only, and only with the voices:read scope", async () => {
    const mine = await addVoice(ownerId, 'Mine');
    const stranger = ctx.client();
    const strangerId: string = (await stranger.register()).res.json().user.id;
    const theirs = await addVoice(strangerId, 'Theirs');

    const reader = await createKey(owner, { name: 'Reader', scopes: ['voices:read'] });
    const list = await withKey(reader.secret, 'GET', '/api/loras');
    expect(list.statusCode).toBe(200);
    const ids = (list.json() as { _id: string }[]).map((v) => v._id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect((await withKey(reader.secret, 'GET', `/api/loras/${mine.id}`)).statusCode).toBe(200);
    expect((await withKey(reader.secret, 'GET', `/api/loras/${theirs.id}`)).statusCode).toBe(404);

    const writer = await createKey(owner, { name: 'Writer', scopes: ['create'] });
    const refused = await withKey(writer.secret, 'GET', '/api/loras');
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'API_KEY_SCOPE']);
    expect(refused.json().msg).toContain('voices:read');
  });

  it('never reaches account, billing, admin or the keys, with or without a CSRF token', async () => {
    const { secret } = await createKey(owner, { name: 'Everything', scopes: ['voices:read', 'convert', 'create'] });
    const admin = ctx.client();
    const adminId: string = (await admin.register()).res.json().user.id;
    // Even an admin's key is no admin: the console takes sessions only.
    await ctx.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, adminId));
    const adminKey = await createKey(admin, { name: 'Admin tools', scopes: ['voices:read'] });
    const cases: [string, 'GET' | 'POST' | 'DELETE', string, unknown?][] = [
      [secret, 'GET', '/api/auth/me'],
      [secret, 'GET', '/api/auth/activities'],
      [secret, 'POST', '/api/auth/logout', {}],
      [secret, 'GET', '/api/auth/api-keys'],
      [secret, 'POST', '/api/auth/api-keys', { name: 'Child', scopes: ['convert'] }],
      [secret, 'DELETE', '/api/auth/api-keys/anything'],
      [secret, 'POST', '/api/auth/email/change', { email: 'new@example.com', currentPassword: 'x' }],
      [secret, 'POST', '/api/stripe/create-checkout-session', { packs: ['extra_model'] }],
      [secret, 'POST', '/api/stripe/cancel-subscription', {}],
      [secret, 'POST', '/api/loras/some-voice/activate', {}],
      [secret, 'DELETE', '/api/loras/some-voice'],
      [adminKey.secret, 'GET', '/api/admin/overview'],
      [adminKey.secret, 'GET', '/api/admin/users'],
    ];
    for (const [key, method, url, body] of cases) {
      const res = await withKey(key, method, url, body);
      expect([res.statusCode, res.json().code], `${method} ${url}`).toEqual([403, 'API_KEY_NOT_ALLOWED']);
    }
  });

  it('has its own budget of requests a minute, and shows when it was last used', async () => {
    const tight = await createKey(owner, { name: 'Tight', scopes: ['voices:read'], rateLimitPerMinute: 2 });
    const other = await createKey(owner, { name: 'Other', scopes: ['voices:read'] });
    expect((await withKey(tight.secret, 'GET', '/api/loras')).statusCode).toBe(200);
    expect((await withKey(tight.secret, 'GET', '/api/loras')).statusCode).toBe(200);
    const third = await withKey(tight.secret, 'GET', '/api/loras');
    expect([third.statusCode, third.json().code]).toEqual([429, 'RATE_LIMITED']);
    expect(third.json().details.retryAfterSeconds).toBeGreaterThan(0);
    // Another key of the same owner, and the owner's own session, are not held back.
    expect((await withKey(other.secret, 'GET', '/api/loras')).statusCode).toBe(200);
    expect((await owner.get('/api/loras')).statusCode).toBe(200);

    const listed = (await owner.get('/api/auth/api-keys')).json().keys as { id: string; lastUsedAt: string | null }[];
    expect(listed.find((k) => k.id === tight.key.id)?.lastUsedAt).toBe(ctx.clock.now().toISOString());
  });
});
