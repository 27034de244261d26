// No response of any route gives away a secret: every response the API sends during a tour of
// all routes (as owner, another user, an admin with two-factor, and a visitor) is recorded and
// searched for password hashes, session tokens other than the one the response itself issues,
// stored token hashes, and MFA secrets after the setup response that hands them out.

import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users, voices } from '../db/schema.js';
import { newId } from '../ids.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { enableTwoFactor, oathtool } from '../test/two-factor.js';

let ctx: TestContext;
const seen: { label: string; body: string }[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  // Record every response the app sends.
  const inject = ctx.app.inject.bind(ctx.app) as (o: InjectOptions) => Promise<LightMyRequestResponse>;
  (ctx.app as unknown as { inject: typeof inject }).inject = async (options: InjectOptions) => {
    const res = await inject(options);
    seen.push({
      label: `${options.method} ${options.url} → ${res.statusCode}`,
      body: `${JSON.stringify(res.headers)}\n${res.body}`,
    });
    return res;
  };
});
afterAll(() => ctx.close());

describe('responses', () => {
  it('never carry a password hash, someone else’s token, a token hash or an MFA secret', async () => {
    const owner = ctx.client();
    const { account, res: registered } = await owner.register();
    const ownerId: string = registered.json().user.id;
    const other = ctx.client();
    await other.register();
    const admin = ctx.client();
    const adminId: string = (await admin.register()).res.json().user.id;
    await ctx.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, adminId));

    // Two-factor for the owner: the secret appears once, in the setup answer.
    const setup = await owner.post('/api/auth/mfa/setup');
    const ownerSecret: string = setup.json().secret;
    const setupIndex = seen.length - 1;
    const verify = await owner.post('/api/auth/mfa/verify', {
      secret: ownerSecret,
      token: oathtool(ownerSecret, ctx.clock.now()),
    });
    const backupCodes: string[] = verify.json().backupCodes;
    const verifyIndex = seen.length - 1;
    ctx.clock.advance(30_000);
    const { secret: adminSecret } = await enableTwoFactor(ctx, admin);

    // A login that needs a code, then one with it: a new token, issued once.
    const visitor = ctx.client();
    await visitor.post('/api/auth/login', { email: account.email, password: account.password });
    const login = await visitor.post('/api/auth/login', {
      ...account,
      mfaToken: oathtool(ownerSecret, ctx.clock.now()),
    });
    expect(login.statusCode, login.body).toBe(200);

    // A tour of every route as each caller.
    const voiceId = newId();
    await ctx.database.db
      .insert(voices)
      .values({ id: voiceId, userId: ownerId, name: 'Mine', status: 'ready', progress: 100, isPublic: true });
    for (const client of [owner, other, admin, ctx.client()]) {
      await client.get('/api/health');
      await client.get('/api/public/stats');
      await client.get('/api/public/engine');
      await client.get('/api/auth/me');
      await client.patch('/api/auth/onboarding', { step: 'choice' });
      await client.get('/api/loras');
      await client.get('/api/loras/public');
      await client.get(`/api/loras/${voiceId}`);
      await client.patch(`/api/loras/${voiceId}`, { name: 'Renamed' });
      await client.post(`/api/loras/${voiceId}/fork`);
      await client.post(`/api/loras/${voiceId}/activate`);
      await client.post(`/api/loras/${voiceId}/convert-stream`, { text: 'Hello there.' });
      await client.post('/api/loras/edit-chunk', { originalChunk: 'a', rephrasedChunk: 'b', chunkIndex: 0 });
      await client.upload('/api/loras/count-characters', { files: [{ name: 'a.txt', data: 'hello' }] });
      await client.upload('/api/loras', { fields: { name: 'Nope', text: 'too short' } });
      await client.get('/api/admin/overview');
      await client.get('/api/admin/users?limit=100');
      await client.post('/api/auth/mfa/setup');
      await client.post('/api/auth/mfa/disable', { mfaToken: '000000' });
      await client.delete('/api/auth/account', { password: 'Wrong-Passw0rd' });
      await client.post('/api/auth/login', { email: account.email, password: 'Wrong-Passw0rd' });
    }
    await other.post('/api/auth/logout');

    // What must never show up.
    const hashes = (await ctx.database.db.select({ h: users.passwordHash }).from(users)).map((r) => r.h);
    const stored = await ctx.database.db.select().from(users);
    const encryptedSecrets = stored.flatMap((u) => [u.mfaSecret, u.mfaPendingSecret]).filter((s): s is string => !!s);
    const tokenHashes = (await ctx.database.db.select({ h: sessions.tokenHash }).from(sessions)).map((r) => r.h);
    const tokens = [owner.token, other.token, admin.token, login.json().token].filter((t): t is string => !!t);
    expect(hashes.length).toBeGreaterThanOrEqual(3);
    expect(encryptedSecrets.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeGreaterThan(80);

    for (const [i, { label, body }] of seen.entries()) {
      expect(body, label).not.toMatch(/\$argon2|passwordHash|password_hash|mfaSecret|mfa_secret|tokenHash/);
      for (const h of [...hashes, ...encryptedSecrets, ...tokenHashes]) expect(body.includes(h), label).toBe(false);
      if (i !== setupIndex) expect(body.includes(ownerSecret), label).toBe(false);
      if (i !== verifyIndex) for (const code of backupCodes) expect(body.includes(code), label).toBe(false);
      // A token appears only in the response that issued it (register or login).
      if (tokens.some((t) => body.includes(t))) expect(label).toMatch(/^POST \/api\/auth\/(register|login) → 20[01]$/);
    }
    // Each secret and token was handed out exactly once.
    expect(seen.filter((s) => s.body.includes(adminSecret))).toHaveLength(1);
    for (const token of tokens) expect(seen.filter((s) => s.body.includes(token))).toHaveLength(1);
  });
});
