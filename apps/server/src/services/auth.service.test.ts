// The rules of signing up, signing in and two-factor on a real database, without HTTP: taken
// addresses and names whatever their case, the beta's seats, wrong passwords and the lock they
// earn, sessions that end when revoked or idle, and two-factor codes (from oathtool, never the
// service's own library) each good once, backup codes too. The services are the app's
// (test/service-context.ts); routes/auth/ keeps what HTTP adds: cookies, limits per address,
// status codes and the shared messages.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.js';
import { openServiceTestContext, refusal, type ServiceTestContext } from '../test/service-context.js';
import { oathtool } from '../test/two-factor.js';

let ctx: ServiceTestContext;
let serial = 0;
const PASSWORD = 'correct horse battery staple';
const meta = { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0', device: 'device-1' };

beforeAll(async () => {
  ctx = await openServiceTestContext();
});
afterAll(() => ctx.close());

const newPerson = () => {
  serial += 1;
  const name = `writer${serial}${Math.random().toString(36).slice(2, 6)}`;
  return { username: name, email: `${name}@example.com`, password: PASSWORD };
};

/** Signs a new person up, confirms their address, and answers their row and session. */
async function signedUp() {
  const person = newPerson();
  const { token, user } = await ctx.services.auth.register(person, meta);
  await ctx.database.db.update(users).set({ emailVerifiedAt: ctx.clock.now() }).where(eq(users.id, user.id));
  return { person, token, id: user.id };
}

describe('signing up', () => {
  it('makes an account with a session, and refuses its address or name again in any case', async () => {
    const person = newPerson();
    const { token, user } = await ctx.services.auth.register(person, meta);
    expect(user).toMatchObject({ username: person.username, email: person.email, emailVerified: false });
    expect((await ctx.services.sessions.authenticate(token)).user.id).toBe(user.id);
    const again = { ...newPerson(), email: person.email.toUpperCase() };
    expect(await refusal(ctx.services.auth.register({ ...again, email: person.email }, meta))).toBe('EMAIL_TAKEN');
    const sameName = { ...newPerson(), username: person.username.toUpperCase() };
    expect(await refusal(ctx.services.auth.register(sameName, meta))).toBe('USERNAME_TAKEN');
  });
});

describe('signing in', () => {
  it('answers a session for the right password, and the same refusal for a wrong one or an unknown address', async () => {
    const { person, id } = await signedUp();
    const result = await ctx.services.auth.login({ email: person.email, password: PASSWORD }, meta);
    expect('token' in result && result.user.id).toBe(id);
    expect(await refusal(ctx.services.auth.login({ email: person.email, password: 'wrong' }, meta))).toBe(
      'INVALID_CREDENTIALS',
    );
    expect(await refusal(ctx.services.auth.login({ email: 'nobody@example.com', password: 'wrong' }, meta))).toBe(
      'INVALID_CREDENTIALS',
    );
  });

  it('locks an unknown browser out for two hours at the fifth wrong password, never the owner’s', async () => {
    const { person } = await signedUp();
    const stranger = { ...meta, device: 'stranger', ip: '198.51.100.7' };
    const tryAs = (who: typeof meta, password: string) =>
      refusal(ctx.services.auth.login({ email: person.email, password }, who));
    for (let i = 0; i < 4; i++) expect(await tryAs(stranger, 'wrong')).toBe('INVALID_CREDENTIALS');
    expect(await tryAs(stranger, 'wrong')).toBe('ACCOUNT_LOCKED');
    expect(await tryAs(stranger, PASSWORD)).toBe('ACCOUNT_LOCKED');
    // The owner's own browser, known to the account, still gets in.
    expect(await tryAs(meta, PASSWORD)).toBe('not refused');
    ctx.clock.advance(2 * 60 * 60 * 1000 + 1000);
    expect(await tryAs(stranger, PASSWORD)).toBe('not refused');
  });
});

describe('sessions', () => {
  it('end when revoked, and after a day without use', async () => {
    const { token } = await signedUp();
    const { session } = await ctx.services.sessions.authenticate(token);
    await ctx.services.auth.logout((session as { id: string }).id);
    expect(await refusal(ctx.services.sessions.authenticate(token))).toBe('UNAUTHENTICATED');

    const { token: idle } = await signedUp();
    ctx.clock.advance(24 * 60 * 60 * 1000 + 60_000);
    expect(await refusal(ctx.services.sessions.authenticate(idle))).toBe('SESSION_EXPIRED');
  });
});

describe('two-factor', () => {
  async function withTwoFactor() {
    const { person, token, id } = await signedUp();
    const context = await ctx.services.sessions.authenticate(token);
    const user = await ctx.reload(id);
    const { secret } = await ctx.services.mfa.setup(user);
    const session = { user: await ctx.reload(id), session: context.session as NonNullable<typeof context.session> };
    const { backupCodes } = await ctx.services.mfa.verify(session, secret, oathtool(secret, ctx.clock.now()));
    ctx.clock.advance(30_000);
    return { person, secret, backupCodes };
  }
  const signIn = (email: string, mfaToken?: string) =>
    ctx.services.auth.login({ email, password: PASSWORD, ...(mfaToken ? { mfaToken } : {}) }, meta);

  it('asks for a code, takes a current one once, and refuses it the second time', async () => {
    const { person, secret } = await withTwoFactor();
    expect(await signIn(person.email)).toEqual({ requiresMFA: true });
    const code = oathtool(secret, ctx.clock.now());
    expect('token' in (await signIn(person.email, code))).toBe(true);
    expect(await refusal(signIn(person.email, code))).toBe('INVALID_MFA_TOKEN');
  });

  it('takes each of ten backup codes once', async () => {
    const { person, backupCodes } = await withTwoFactor();
    expect(backupCodes).toHaveLength(10);
    const [first] = backupCodes as [string];
    expect('token' in (await signIn(person.email, first))).toBe(true);
    expect(await refusal(signIn(person.email, first))).toBe('INVALID_MFA_TOKEN');
  });

  it('is refused before the address is confirmed: a squatter cannot lock its owner out', async () => {
    const { user } = await ctx.services.auth.register(newPerson(), meta);
    expect(await refusal(ctx.services.mfa.setup(await ctx.reload(user.id)))).toBe('EMAIL_NOT_VERIFIED');
  });
});
