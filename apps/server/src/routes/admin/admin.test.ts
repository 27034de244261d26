// The admin console's reads, and the gate in front of them: users are refused (403 FORBIDDEN),
// admins and super admins without two-factor are refused with MFA_REQUIRED (the web client shows
// the two-factor warning), and with two-factor they get the overview and the user list.
import { MFA_MESSAGES } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../clock.js';
import { users } from '../../db/schema.js';
import { SuperAdminError, SuperAdminService } from '../../services/super-admin.service.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from '../../test/test-app.js';
import { enableTwoFactor } from '../../test/two-factor.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function member(role: 'user' | 'admin' | 'super_admin', prefix = role.replace('_', '')) {
  const client = ctx.client();
  const { res, account } = await client.register(newAccount(prefix));
  const id: string = res.json().user.id;
  if (role !== 'user') await ctx.database.db.update(users).set({ role }).where(eq(users.id, id));
  return { client, id, account };
}

const ADMIN_GETS = ['/api/admin/overview', '/api/admin/users'];

describe('the admin gate', () => {
  it('refuses anonymous callers (401) and users (403 FORBIDDEN)', async () => {
    const { client } = await member('user');
    for (const url of ADMIN_GETS) {
      expect((await ctx.client().get(url)).statusCode, url).toBe(401);
      const res = await client.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
  });

  it('refuses admins and super admins until they turn two-factor on', async () => {
    for (const role of ['admin', 'super_admin'] as const) {
      const { client } = await member(role);
      for (const url of ADMIN_GETS) {
        const res = await client.get(url);
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.json().code).toBe('MFA_REQUIRED');
        expect(res.json().msg).toContain(MFA_MESSAGES.adminRequired);
      }
      // Even a malformed query is refused for who they are, before what they sent.
      expect((await client.get('/api/admin/users?page=zero')).json().code).toBe('MFA_REQUIRED');
      await enableTwoFactor(ctx, client as TestClient);
      for (const url of ADMIN_GETS) expect((await client.get(url)).statusCode, `${role} ${url}`).toBe(200);
    }
  });
});

describe('GET /api/admin/overview and /api/admin/users', () => {
  let admin: TestClient;
  beforeAll(async () => {
    ({ client: admin } = await member('super_admin', 'boss'));
    await enableTwoFactor(ctx, admin);
  });

  it('counts users, admins, recent sign-ins, two-factor and credits', async () => {
    const before = (await admin.get('/api/admin/overview')).json();
    const { id } = await member('user', 'counted');
    await ctx.database.db.update(users).set({ credits: 25 }).where(eq(users.id, id));
    const after = (await admin.get('/api/admin/overview')).json();
    expect(after.users.total).toBe(before.users.total + 1);
    expect(after.users.regular).toBe(before.users.regular + 1);
    expect(after.users.admins).toBe(before.users.admins);
    expect(after.users.total).toBe(after.users.admins + after.users.regular);
    expect(after.users.mfaEnabled).toBeGreaterThanOrEqual(1);
    expect(after.credits.total).toBe(before.credits.total + 25);
    // Registering does not count as signing in; logging in does.
    expect(after.users.active).toBe(before.users.active);
  });

  it('pages through users, searches usernames and e-mails literally, and filters by role', async () => {
    const tag = `zq${Math.random().toString(36).slice(2, 7)}`;
    for (let i = 0; i < 12; i++) await member('user', `${tag}n`);
    const first = (await admin.get(`/api/admin/users?search=${tag}`)).json().data;
    expect(first.users).toHaveLength(10);
    expect(first.pagination).toEqual({ page: 1, pages: 2, total: 12, limit: 10 });
    const second = (await admin.get(`/api/admin/users?search=${tag.toUpperCase()}&page=2`)).json().data;
    expect(second.users).toHaveLength(2);
    const ids = new Set([...first.users, ...second.users].map((u: { id: string }) => u.id));
    expect(ids.size).toBe(12);
    // Each user carries what the console shows, and nothing secret.
    expect(first.users[0]).toMatchObject({ role: 'user', mfaEnabled: false, usageLimits: expect.any(Object) });
    expect(JSON.stringify(first)).not.toMatch(/passwordHash|password_hash|mfaSecret|\$argon2/);
    // % and _ are literal in a search, not wildcards.
    expect((await admin.get('/api/admin/users?search=%25')).json().data.pagination.total).toBe(0);
    const supers = (await admin.get('/api/admin/users?role=super_admin')).json().data.users;
    expect(supers.every((u: { role: string }) => u.role === 'super_admin')).toBe(true);
    expect(supers.length).toBeGreaterThanOrEqual(1);
  });

  it('answers a bad query with 400', async () => {
    for (const query of ['page=0', 'limit=1000', 'role=owner', `search=${'x'.repeat(101)}`]) {
      const res = await admin.get(`/api/admin/users?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('the first super admin', () => {
  it('is never made by signing up, whatever address a configuration names', async () => {
    // Configurations from before named the first admin by e-mail, and whoever signed up first
    // with it (any case, any spaces) got the console. Such a setting must grant nothing now.
    const legacy = { betaCap: 500, superAdminEmail: 'owner@example.com' };
    const own = await createTestContext(legacy);
    try {
      const first = own.client();
      const { res } = await first.register({
        username: 'squatter',
        email: 'OWNER@example.com ',
        password: 'Passw0rdOk',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json().user.role).toBe('user');
      expect((await first.get('/api/admin/overview')).statusCode).toBe(403);
    } finally {
      await own.close();
    }
  });

  it("is made by the operator's command: a new account, or an existing one only with its password", async () => {
    const admins = new SuperAdminService(ctx.database.db, systemClock, ctx.config.starterAllowance);
    const created = await admins.createOrPromote({ email: ' Owner-New@Example.com', password: 'Passw0rdOk' });
    expect(created).toMatchObject({
      outcome: 'created',
      user: { role: 'super_admin', email: 'owner-new@example.com' },
    });
    const owner = ctx.client();
    const login = await owner.post('/api/auth/login', { email: 'owner-new@example.com', password: 'Passw0rdOk' });
    expect(login.statusCode).toBe(200);
    owner.token = login.json().token;
    expect((await owner.get('/api/admin/overview')).json().code).toBe('MFA_REQUIRED');
    // A new account needs a password that sign-up would take.
    await expect(admins.createOrPromote({ email: 'weak@example.com', password: 'short' })).rejects.toThrow(
      SuperAdminError,
    );

    // An account someone signed up is not promoted by naming its address...
    const member = ctx.client();
    const { account } = await member.register();
    await expect(admins.createOrPromote({ email: account.email, password: 'Guessed1Password' })).rejects.toThrow(
      /exists, and that is not its password/,
    );
    expect((await member.get('/api/auth/me')).json().user.role).toBe('user');
    // ...only by its owner, who knows the password.
    const promoted = await admins.createOrPromote({ email: account.email.toUpperCase(), password: account.password });
    expect(promoted.outcome).toBe('promoted');
    expect((await member.get('/api/auth/me')).json().user.role).toBe('super_admin');
    expect((await admins.createOrPromote({ email: account.email, password: account.password })).outcome).toBe(
      'already',
    );
  });
});
