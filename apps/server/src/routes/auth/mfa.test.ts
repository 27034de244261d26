// Two-factor authentication, checked with codes from an independent TOTP implementation
// (Debian's oathtool, RFC 6238): setup, verify, login with a code and with backup codes, a
// replayed code, an expired code, a used backup code, brute force into the lockout, disable,
// and secrets that never leave the server or sit in the database in the clear.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaBackupCodes, users } from '../../db/schema.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { oathtool, withTwoFactor } from '../../test/two-factor.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const login = (body: Record<string, string>) => ctx.client().post('/api/auth/login', body);

describe('two-factor setup', () => {
  it('hands out a secret and a QR code, and keeps the secret encrypted until verified', async () => {
    const client = ctx.client();
    const { res } = await client.register();
    const userId = res.json().user.id;
    const setup = await client.post('/api/auth/mfa/setup');
    const { secret, qrCode } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, userId));
    expect(row?.mfaPendingSecret).toBeTruthy();
    expect(row?.mfaPendingSecret).not.toContain(secret);
    expect(row?.mfaEnabled).toBe(false);
    // The key lives in the data folder, readable by the service alone.
    const keyFile = path.join(ctx.config.dataDir, 'secret.key');
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(statSync(keyFile).mode & 0o077).toBe(0);
  });

  it('turns on only with a current code for the pending secret, and returns ten one-time backup codes', async () => {
    const client = ctx.client();
    await client.register();
    const { secret } = (await client.post('/api/auth/mfa/setup')).json();
    const wrong = await client.post('/api/auth/mfa/verify', { secret, token: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('INVALID_MFA_TOKEN');
    const other = await client.post('/api/auth/mfa/verify', {
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      token: oathtool('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', ctx.clock.now()),
    });
    expect(other.statusCode).toBe(400);
    const blank = await client.post('/api/auth/mfa/verify', { secret, token: '' });
    expect(blank.json().msg).toBe('Please enter the 6-digit code from your authenticator app');

    const ok = await client.post('/api/auth/mfa/verify', { secret, token: oathtool(secret, ctx.clock.now()) });
    expect(ok.statusCode, ok.body).toBe(200);
    const codes: string[] = ok.json().backupCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const me = (await client.get('/api/auth/me')).json().user;
    expect(me.mfaEnabled).toBe(true);
    expect(JSON.stringify(me)).not.toContain(secret);
    const stored = await ctx.database.db.select().from(mfaBackupCodes).where(eq(mfaBackupCodes.userId, me.id));
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(codes[0]?.replace('-', '') ?? 'x');
    expect((await client.post('/api/auth/mfa/setup')).statusCode).toBe(409);
  });

  it('is refused before the address is confirmed: a squatter cannot lock its owner out', async () => {
    const client = ctx.client();
    const userId: string = (await client.register(undefined, { confirmed: false })).res.json().user.id;
    const setup = await client.post('/api/auth/mfa/setup');
    expect([setup.statusCode, setup.json().code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    const verify = await client.post('/api/auth/mfa/verify', {
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      token: oathtool('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', ctx.clock.now()),
    });
    expect([verify.statusCode, verify.json().code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, userId));
    expect(row?.mfaPendingSecret).toBeNull();
    expect(row?.mfaEnabled).toBe(false);
  });
});

describe('signing in with two-factor', () => {
  it('asks for a code, then signs in with a current one and never with the same one again', async () => {
    const { account, secret } = await withTwoFactor(ctx);
    const first = await login({ email: account.email, password: account.password });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ requiresMFA: true });

    const code = oathtool(secret, ctx.clock.now());
    const ok = await login({ email: account.email, password: account.password, mfaToken: code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().token).toBeTruthy();
    // Replayed within its window: refused.
    const replay = await login({ email: account.email, password: account.password, mfaToken: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'INVALID_MFA_TOKEN', msg: 'Invalid MFA token' });
  });

  it('refuses an expired code and accepts one a step either side', async () => {
    const { account, secret } = await withTwoFactor(ctx);
    ctx.clock.advance(5 * 60_000);
    const expired = oathtool(secret, new Date(ctx.clock.now().getTime() - 2 * 60_000));
    expect((await login({ email: account.email, password: account.password, mfaToken: expired })).statusCode).toBe(401);
    const previousStep = oathtool(secret, new Date(ctx.clock.now().getTime() - 30_000));
    expect((await login({ email: account.email, password: account.password, mfaToken: previousStep })).statusCode).toBe(
      200,
    );
  });

  it('takes each backup code once, typed with or without its dash', async () => {
    const { account, backupCodes } = await withTwoFactor(ctx);
    const [code] = backupCodes as [string];
    const ok = await login({ email: account.email, password: account.password, mfaToken: code.replace('-', '') });
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await login({ email: account.email, password: account.password, mfaToken: code.replace('-', '') });
    expect(again.statusCode).toBe(401);
  });

  it('takes a backup code as issued, in any case, wherever a code is taken', async () => {
    const { client, account, backupCodes } = await withTwoFactor(ctx);
    const [first, second, third] = backupCodes as [string, string, string];
    expect(first).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}$/);
    const ok = await login({ email: account.email, password: account.password, mfaToken: first.toUpperCase() });
    expect(ok.statusCode, ok.body).toBe(200);
    const deleteRefused = await client.delete('/api/auth/account', { password: 'Wrong-pass1', mfaToken: second });
    // The code passes the body's rules; the wrong password is what refuses it.
    expect(deleteRefused.json().code, deleteRefused.body).toBe('INVALID_CREDENTIALS');
    const off = await client.post('/api/auth/mfa/disable', { mfaToken: ` ${third} ` });
    expect(off.statusCode, off.body).toBe(200);
  });

  it('counts wrong codes towards the lockout', async () => {
    const { account, secret } = await withTwoFactor(ctx);
    const attempts = [];
    for (let i = 0; i < 5; i++) {
      attempts.push(
        (await login({ email: account.email, password: account.password, mfaToken: `1234${i}9` })).statusCode,
      );
    }
    expect(attempts).toEqual([401, 401, 401, 401, 423]);
    // Locked: even the right code does not get in.
    const locked = await login({
      email: account.email,
      password: account.password,
      mfaToken: oathtool(secret, ctx.clock.now()),
    });
    expect(locked.statusCode).toBe(423);
  });
});

describe('turning two-factor off', () => {
  it('needs a current code or a backup code', async () => {
    const { client, account, secret, userId } = await withTwoFactor(ctx);
    const wrong = await client.post('/api/auth/mfa/disable', { mfaToken: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('INVALID_MFA_TOKEN');
    // Said in the product's words, not the protocol's.
    expect(wrong.json().msg).toBe(
      'That code is not right. Enter the current code from your authenticator app, or one of your backup codes.',
    );
    const ok = await client.post('/api/auth/mfa/disable', { mfaToken: oathtool(secret, ctx.clock.now()) });
    expect(ok.statusCode, ok.body).toBe(200);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, userId));
    expect(row).toMatchObject({ mfaEnabled: false, mfaSecret: null });
    expect(await ctx.database.db.select().from(mfaBackupCodes).where(eq(mfaBackupCodes.userId, userId))).toHaveLength(
      0,
    );
    const plain = await login({ email: account.email, password: account.password });
    expect(plain.json().token).toBeTruthy();
    expect((await client.post('/api/auth/mfa/disable', { mfaToken: '123456' })).json().code).toBe('MFA_NOT_ENABLED');
  });

  it('refuses anonymous callers', async () => {
    const anon = ctx.client();
    const bodies: Record<string, unknown> = {
      '/api/auth/mfa/setup': {},
      '/api/auth/mfa/verify': { secret: 'JBSWY3DPEHPK3PXP', token: '123456' },
      '/api/auth/mfa/disable': { mfaToken: '123456' },
    };
    for (const [url, body] of Object.entries(bodies)) {
      expect((await anon.post(url, body)).statusCode, url).toBe(401);
    }
  });
});
