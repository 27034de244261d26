// API keys: made, listed and revoked by a signed-in browser only, made with the password again
// (and a code with two-factor on) from a confirmed address and told to it by mail; the secret shown
// once and kept only as a hash; a key reaches the routes its scopes name, as its owner, with its
// own rate limit, no CSRF token, and never account, billing, admin or the keys themselves; wrong
// keys count against the client that sends them, as wrong passwords do.
import { API_KEY_PREFIX, API_KEYS_MAX, apiKeySchema, createdApiKeySchema, EMAIL_MESSAGES } from '@ownvoice/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, mailMessages, users } from '../../db/schema.js';
import { API_KEY_FAILURES, API_KEY_LOCK_MS } from '../../services/login-guard.js';
import { hashToken } from '../../services/tokens.js';
import { createVoice } from '../../test/factories/voices.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from '../../test/test-app.js';
import { withTwoFactor } from '../../test/two-factor.js';

/** Every account here signs up with newAccount's password. */
const PASSWORD = newAccount().password;

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
const withKey = (
  secret: string,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
  remoteAddress = '127.0.0.1',
) =>
  ctx.app.inject({
    method,
    url,
    remoteAddress,
    headers: { authorization: `Bearer ${secret}` },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

/** Makes a key as the account page does: with the password again. */
async function createKey(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post('/api/auth/api-keys', { currentPassword: PASSWORD, ...body });
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
      const res = await owner.post('/api/auth/api-keys', { ...body, currentPassword: PASSWORD });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it(`holds ${API_KEYS_MAX} keys at most, counting only those not revoked`, async () => {
    const client = ctx.client();
    await client.register();
    const made = await Promise.all(
      Array.from({ length: API_KEYS_MAX + 2 }, (_, i) =>
        client.post('/api/auth/api-keys', { name: `Key ${i}`, scopes: ['create'], currentPassword: PASSWORD }),
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
    const again = { name: 'Again', scopes: ['create'], currentPassword: PASSWORD };
    expect((await client.post('/api/auth/api-keys', again)).statusCode).toBe(201);
  });

  it('asks for the password again before making a key, and tells the address', async () => {
    const client = ctx.client();
    const userId: string = (await client.register()).res.json().user.id;
    const body = { name: 'Stolen-session key', scopes: ['convert'] };
    const bare = await client.post('/api/auth/api-keys', body);
    expect([bare.statusCode, bare.json().code]).toEqual([400, 'VALIDATION_ERROR']);
    const wrong = await client.post('/api/auth/api-keys', { ...body, currentPassword: 'Wrong-Passw0rd' });
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, 'INVALID_CREDENTIALS']);
    expect((await client.get('/api/auth/api-keys')).json().keys).toEqual([]);

    const { key } = await createKey(client, body);
    const told = await ctx.database.db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.userId, userId), eq(mailMessages.kind, 'api_key_created')));
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain(`"${key.name}"`);
    expect(told[0]?.text).toContain(key.shown);
  });

  it('asks for a code too with two-factor on, before counting anything', async () => {
    const { client, account, code } = await withTwoFactor(ctx, 'keymfa');
    const body = { name: 'Editor', scopes: ['convert'], currentPassword: account.password };
    const noCode = await client.post('/api/auth/api-keys', body);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toMatchObject({ code: 'MFA_REQUIRED', msg: EMAIL_MESSAGES.codeNeeded });
    const wrongCode = await client.post('/api/auth/api-keys', { ...body, mfaToken: '000000' });
    expect([wrongCode.statusCode, wrongCode.json().code]).toEqual([400, 'INVALID_MFA_TOKEN']);
    const right = await client.post('/api/auth/api-keys', { ...body, mfaToken: code() });
    expect(right.statusCode, right.body).toBe(201);
  });

  it('makes no key for an address nobody confirmed', async () => {
    const client = ctx.client();
    await client.register(newAccount('squatter'), { confirmed: false });
    const res = await client.post('/api/auth/api-keys', {
      name: 'Squat',
      scopes: ['convert'],
      currentPassword: PASSWORD,
    });
    expect([res.statusCode, res.json().code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    expect((await client.get('/api/auth/api-keys')).json().keys).toEqual([]);
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

  it(`counts wrong keys against the client that sends them: ${API_KEY_FAILURES} within a day shut it out for a while`, async () => {
    const [guesser, bystander] = ['198.51.100.7', '198.51.100.8'];
    const good = await createKey(owner, { name: 'Good', scopes: ['voices:read'] });
    const narrow = await createKey(owner, { name: 'Narrow', scopes: ['create'] });
    const revoked = await createKey(owner, { name: 'Gone', scopes: ['voices:read'] });
    expect((await owner.delete(`/api/auth/api-keys/${revoked.key.id}`)).statusCode).toBe(200);
    const wrongTries: [string, number, string][] = [
      [`${API_KEY_PREFIX}guess-one`, 401, 'UNAUTHENTICATED'],
      [`${API_KEY_PREFIX}guess-two`, 401, 'UNAUTHENTICATED'],
      [revoked.secret, 401, 'API_KEY_REVOKED'],
      // A key without the route's scope is a wrong key for it, counted too.
      [narrow.secret, 403, 'API_KEY_SCOPE'],
    ];
    // The last of the allowed tries come as more made-up keys.
    for (let i = wrongTries.length; i < API_KEY_FAILURES - 1; i++) {
      wrongTries.push([`${API_KEY_PREFIX}guess-${i}`, 401, 'UNAUTHENTICATED']);
    }
    for (const [secret, status, code] of wrongTries) {
      const res = await withKey(secret, 'GET', '/api/loras', undefined, guesser);
      expect([res.statusCode, res.json().code], secret).toEqual([status, code]);
    }
    // Below the limit a good key still works from there.
    expect((await withKey(good.secret, 'GET', '/api/loras', undefined, guesser)).statusCode).toBe(200);
    const last = await withKey(`${API_KEY_PREFIX}guess-last`, 'GET', '/api/loras', undefined, guesser);
    expect([last.statusCode, last.json().code]).toEqual([429, 'RATE_LIMITED']);

    // Shut out: even a good key is refused from that client until the lock ends; others go on.
    const locked = await withKey(good.secret, 'GET', '/api/loras', undefined, guesser);
    expect([locked.statusCode, locked.json().code]).toEqual([429, 'RATE_LIMITED']);
    expect(locked.json().details.retryAfterSeconds).toBe(API_KEY_LOCK_MS / 1000);
    expect(Number(locked.headers['retry-after'])).toBe(API_KEY_LOCK_MS / 1000);
    expect((await withKey(good.secret, 'GET', '/api/loras', undefined, bystander)).statusCode).toBe(200);
    ctx.clock.advance(API_KEY_LOCK_MS + 1000);
    expect((await withKey(good.secret, 'GET', '/api/loras', undefined, guesser)).statusCode).toBe(200);
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
