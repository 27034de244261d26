// Deleting an account: the password again (and a code with two-factor on), then nothing of the
// account is left — no user, sessions, Voices, usage, backup codes or Voice files — while other
// accounts stay as they were.

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownDevices, mfaBackupCodes, sessions, usageTranches, users, voices } from '../../db/schema.js';
import { voiceFolder } from '../../storage/voice-files.js';
import { isLoaded } from '../../test/inference.js';
import { quickVoice } from '../../test/quick-voice.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { withTwoFactor } from '../../test/two-factor.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
}, 120_000);
afterAll(() => ctx.close());

/** Rows of every table that belong to the user. */
async function rowsOf(userId: string) {
  const { db } = ctx.database;
  return {
    users: (await db.select().from(users).where(eq(users.id, userId))).length,
    sessions: (await db.select().from(sessions).where(eq(sessions.userId, userId))).length,
    voices: (await db.select().from(voices).where(eq(voices.userId, userId))).length,
    usage: (await db.select().from(usageTranches).where(eq(usageTranches.userId, userId))).length,
    backupCodes: (await db.select().from(mfaBackupCodes).where(eq(mfaBackupCodes.userId, userId))).length,
    knownDevices: (await db.select().from(knownDevices).where(eq(knownDevices.userId, userId))).length,
  };
}

describe('DELETE /api/auth/account', () => {
  it('deletes the account, its sessions, its Voices (awake ones too) and their files', async () => {
    const { client, account, userId, code } = await withTwoFactor(ctx, 'leaver');
    const bystander = ctx.client();
    const bystanderId: string = (await bystander.register()).res.json().user.id;
    const kept = await quickVoice(ctx, bystanderId, 'Kept');

    const asleep = await quickVoice(ctx, userId, 'Asleep');
    const awake = await quickVoice(ctx, userId, 'Awake');
    expect((await client.post(`/api/loras/${awake.id}/activate`)).json().status).toBe('active');
    expect(await isLoaded(ctx, awake.id)).toBe(true);
    const before = await rowsOf(userId);
    expect(before).toMatchObject({ users: 1, voices: 2, backupCodes: 10, knownDevices: 1 });
    expect(before.sessions).toBeGreaterThan(0);

    // A wrong password, a missing code, a wrong code: nothing is deleted.
    const wrongPassword = await client.delete('/api/auth/account', { password: 'Wrong-Passw0rd', mfaToken: code() });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().code).toBe('INVALID_CREDENTIALS');
    const noCode = await client.delete('/api/auth/account', { password: account.password });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().code).toBe('INVALID_MFA_TOKEN');
    const wrongCode = await client.delete('/api/auth/account', { password: account.password, mfaToken: '000000' });
    expect(wrongCode.statusCode).toBe(400);
    expect(await rowsOf(userId)).toEqual(before);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);

    const ok = await client.delete('/api/auth/account', { password: account.password, mfaToken: code() });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await rowsOf(userId)).toEqual({
      users: 0,
      sessions: 0,
      voices: 0,
      usage: 0,
      backupCodes: 0,
      knownDevices: 0,
    });
    expect(await isLoaded(ctx, awake.id)).toBe(false);
    for (const voice of [asleep, awake])
      expect(await ctx.app.platform.storage.exists(voiceFolder(voice.id))).toBe(false);
    // The old session is dead and the credentials no longer sign in.
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    const login = await ctx.client().post('/api/auth/login', { email: account.email, password: account.password });
    expect(login.statusCode).toBe(401);
    // Someone else's account and Voice are untouched.
    expect(await rowsOf(bystanderId)).toMatchObject({ users: 1, voices: 1 });
    expect(await ctx.app.platform.storage.exists(voiceFolder(kept.id))).toBe(true);
    expect((await bystander.get(`/api/loras/${kept.id}`)).statusCode).toBe(200);
  });

  it('needs only the password without two-factor, and frees the e-mail for a new sign-up', async () => {
    const client = ctx.client();
    const { account } = await client.register();
    expect((await client.delete('/api/auth/account', {})).statusCode).toBe(400);
    const ok = await client.delete('/api/auth/account', { password: account.password });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = ctx.client();
    expect((await again.post('/api/auth/register', account)).statusCode).toBe(201);
  });

  it('refuses anonymous callers and a missing CSRF token', async () => {
    expect((await ctx.client().delete('/api/auth/account', { password: 'Passw0rdOk' })).statusCode).toBe(401);
    const client = ctx.client();
    const { account } = await client.register();
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/auth/account',
      headers: { authorization: `Bearer ${client.token}` },
      payload: { password: account.password },
    });
    expect(res.statusCode).toBe(403);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
  });
});
