// Two-factor for tests, with codes from an independent TOTP implementation (Debian's oathtool,
// RFC 6238) at the test clock's time, never from the service's own library.
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import type { TestClient, TestContext } from './test-app.js';
import { newAccount } from './test-app.js';

/** The code oathtool computes for `secret` at `at`. */
export function oathtool(secret: string, at: Date): string {
  const when = at
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  return execFileSync('oathtool', ['--totp', '-b', '--now', when, secret], { encoding: 'utf8' }).trim();
}

/** Turns two-factor on for a signed-in client; the clock then moves a step, so a fresh code is due. */
export async function enableTwoFactor(ctx: TestContext, client: TestClient) {
  const setup = await client.post('/api/auth/mfa/setup');
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const verify = await client.post('/api/auth/mfa/verify', { secret, token: oathtool(secret, ctx.clock.now()) });
  expect(verify.statusCode, verify.body).toBe(200);
  const backupCodes: string[] = verify.json().backupCodes;
  // The next code must come from a later time step: a code is good once.
  ctx.clock.advance(30_000);
  return { secret, backupCodes, code: () => oathtool(secret, ctx.clock.now()) };
}

/** A new account with two-factor on. */
export async function withTwoFactor(ctx: TestContext, prefix = 'mfa') {
  const client = ctx.client();
  const account = newAccount(prefix);
  const { res } = await client.register(account);
  const userId: string = res.json().user.id;
  return { client, account, userId, ...(await enableTwoFactor(ctx, client)) };
}
