// The admin console's actions over HTTP: who may act on whom (the policy matrix with two-factor
// on), the fresh second factor each action needs, and what each action leaves behind — exactly
// one activity row, ledger lines with the admin as author, ended sessions, nothing of a deleted user.
import { ADMIN_CONFIRMED_WINDOW_MS } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, invitations, ledgerEntries, users } from '../../db/schema.js';
import { voiceFolder } from '../../storage/voice-files.js';
import { rowsOfUser } from '../../test/factories/users.js';
import { quickVoice } from '../../test/quick-voice.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from '../../test/test-app.js';
import { enableTwoFactor } from '../../test/two-factor.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
}, 120_000);
afterAll(() => ctx.close());

type Role = 'user' | 'admin' | 'super_admin';
interface Member {
  client: TestClient;
  id: string;
  username: string;
  /** A fresh authenticator code (the clock moves a step first, so none is ever replayed). */
  code: () => string;
  backupCodes: string[];
}

async function member(role: Role, prefix: string = role.replace('_', ''), context = ctx): Promise<Member> {
  const client = context.client();
  const { res, account } = await client.register(newAccount(prefix));
  const id: string = res.json().user.id;
  if (role !== 'user') await context.database.db.update(users).set({ role }).where(eq(users.id, id));
  const mfa = await enableTwoFactor(context, client);
  return {
    client,
    id,
    username: account.username,
    backupCodes: mfa.backupCodes,
    code: () => {
      context.clock.advance(30_000);
      return mfa.code();
    },
  };
}

type Action = { method: 'PATCH' | 'POST' | 'DELETE'; url: string; body?: unknown };
/** Sends an action with a fresh code, a given one, or (null) none. */
const send = (actor: Member, action: Action, code: string | null = actor.code()) =>
  actor.client.request(action.method, action.url, action.body, code === null ? {} : { 'x-mfa-token': code });

const roleOf = async (id: string) => (await ctx.database.db.select().from(users).where(eq(users.id, id)))[0]?.role;
const activitiesOf = (id: string) =>
  ctx.database.db.select().from(activities).where(eq(activities.userId, id)).orderBy(activities.seq);

const ACTIONS = {
  promote: (target: string): Action => ({
    method: 'PATCH',
    url: `/api/admin/users/${target}/role`,
    body: { role: 'admin' },
  }),
  makeSuper: (target: string): Action => ({
    method: 'PATCH',
    url: `/api/admin/users/${target}/role`,
    body: { role: 'super_admin' },
  }),
  demote: (target: string): Action => ({
    method: 'PATCH',
    url: `/api/admin/users/${target}/role`,
    body: { role: 'user' },
  }),
  remove: (target: string): Action => ({ method: 'DELETE', url: `/api/admin/users/${target}` }),
  grant: (target: string): Action => ({
    method: 'POST',
    url: '/api/admin/plans/grant',
    body: { userId: target, amount: 25, reason: 'Support goodwill' },
  }),
  limits: (target: string): Action => ({
    method: 'PATCH',
    url: `/api/admin/users/${target}/limits`,
    body: { onboarding: { step: 'tutorial_complete' } },
  }),
  usage: (target: string, amount = 50): Action => ({
    method: 'PATCH',
    url: `/api/admin/users/${target}/limits`,
    body: { usageGrant: { type: 'chunkEdits', amount, expiresAt: '2099-01-01T00:00:00Z' } },
  }),
  plan: (target: string): Action => ({
    method: 'PATCH',
    url: `/api/admin/users/${target}/limits`,
    body: { plan: { name: 'virtuoso' } },
  }),
};

describe('who may act on whom (two-factor on)', () => {
  it('answers each actor and target as the policy says, and a refusal changes nothing', async () => {
    const sup = await member('super_admin', 'chief');
    const admin = await member('admin', 'helper');
    const user = await member('user', 'plain');
    const other = await member('super_admin', 'deputy');
    const cases: [string, Member, Action, number][] = [
      ['a user is refused any action', user, ACTIONS.grant(admin.id), 403],
      ['an admin may not change a super admin', admin, ACTIONS.demote(sup.id), 403],
      ['an admin may not delete a super admin', admin, ACTIONS.remove(sup.id), 403],
      ['an admin may not grant to a super admin', admin, ACTIONS.grant(sup.id), 403],
      ['an admin may not edit the limits of a super admin', admin, ACTIONS.limits(sup.id), 403],
      ['an admin may not make a super admin', admin, ACTIONS.makeSuper(user.id), 403],
      ['an admin may not demote themself', admin, ACTIONS.demote(admin.id), 403],
      ['an admin may not delete themself', admin, ACTIONS.remove(admin.id), 403],
      ['a super admin may not demote themself', sup, ACTIONS.demote(sup.id), 403],
      ['an admin may not grant to themself', admin, ACTIONS.grant(admin.id), 403],
      ['an admin may not edit their own limits', admin, ACTIONS.limits(admin.id), 403],
      ['an admin may not grant themself usage', admin, ACTIONS.usage(admin.id), 403],
      ['an admin may not set their own plan', admin, ACTIONS.plan(admin.id), 403],
      ['an admin may not set their own role, even to the same', admin, ACTIONS.promote(admin.id), 403],
      ['a super admin may not grant to themself', sup, ACTIONS.grant(sup.id), 403],
      ['a super admin may not grant themself usage', sup, ACTIONS.usage(sup.id), 403],
      ['a super admin is never deleted', sup, ACTIONS.remove(other.id), 403],
      ['an unknown user is a 404', sup, ACTIONS.grant('f'.repeat(24)), 404],
      ['an admin may grant to a user', admin, ACTIONS.grant(user.id), 200],
      ['an admin may edit the limits of a user', admin, ACTIONS.limits(user.id), 200],
      ['an admin may promote a user to admin', admin, ACTIONS.promote(user.id), 200],
      ['a super admin may demote another super admin', sup, ACTIONS.demote(other.id), 200],
    ];
    // Everything about the accounts but the last code step (the action's code is used up either way).
    const accounts = async () =>
      (await ctx.database.db.select().from(users).orderBy(users.id)).map(({ mfaLastStep: _, ...rest }) => rest);
    for (const [what, actor, action, status] of cases) {
      const before = await accounts();
      const res = await send(actor, action);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      if (status !== 200) expect(await accounts(), what).toEqual(before);
    }
  });

  it('refuses a usage grant too large to hold with a 400, before the code is used', async () => {
    const admin = await member('admin', 'bounded');
    const user = await member('user', 'bounded');
    const code = admin.code();
    for (const amount of [2 ** 31, 100_001, 0, 1.5]) {
      const res = await send(admin, ACTIONS.usage(user.id, amount), code);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toBe('The amount to grant must be a whole number from 1 to 100,000');
    }
    // The same code still works: nothing was checked before the body was.
    expect((await send(admin, ACTIONS.usage(user.id, 100_000), code)).statusCode).toBe(200);
  });

  it('never demotes or deletes the last super admin', async () => {
    const own = await createTestContext();
    try {
      const only = await member('super_admin', 'sole', own);
      for (const action of [ACTIONS.demote(only.id), ACTIONS.remove(only.id)]) {
        const res = await send(only, action);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().code).toBe('FORBIDDEN');
      }
      const [row] = await own.database.db.select().from(users).where(eq(users.id, only.id));
      expect(row?.role).toBe('super_admin');
    } finally {
      await own.close();
    }
  });

  it('lets only a super admin invite a super admin', async () => {
    const admin = await member('admin', 'inviter');
    const invite = (role: string): Action => ({
      method: 'POST',
      url: '/api/admin/invite',
      body: { email: 'x@example.com', role },
    });
    expect((await send(admin, invite('super_admin'))).statusCode).toBe(403);
    expect((await send(admin, invite('admin'))).statusCode).toBe(201);
  });
});

describe('the fresh second factor', () => {
  it('asks for a code, refuses a wrong or replayed one, and takes backup codes as issued or without the hyphen', async () => {
    const sup = await member('super_admin', 'reauth');
    const target = await member('user', 'subject');
    const grant = ACTIONS.grant(target.id);
    const credits = async () => (await ctx.database.db.select().from(users).where(eq(users.id, target.id)))[0]?.credits;

    const none = await send(sup, grant, null);
    expect(none.statusCode).toBe(403);
    expect(none.json()).toMatchObject({ code: 'MFA_TOKEN_REQUIRED', requiresMFAToken: true });
    const wrong = await send(sup, grant, '000000');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_MFA_TOKEN', requiresMFAToken: true });
    expect(await credits()).toBe(0);

    const code = sup.code();
    expect((await send(sup, grant, code)).statusCode).toBe(200);
    const replay = await send(sup, grant, code);
    expect(replay.statusCode).toBe(403);
    expect(replay.json().code).toBe('INVALID_MFA_TOKEN');
    expect(await credits()).toBe(25);

    const [withHyphen, withoutHyphen] = sup.backupCodes;
    if (!withHyphen || !withoutHyphen) throw new Error('no backup codes');
    expect(withHyphen).toContain('-');
    expect((await send(sup, grant, withHyphen)).statusCode).toBe(200);
    expect((await send(sup, grant, withoutHyphen.replace('-', '').toUpperCase())).statusCode).toBe(200);
    expect((await send(sup, grant, withHyphen)).json().code).toBe('INVALID_MFA_TOKEN');
    expect(await credits()).toBe(75);
  });

  it('opens a five-minute window after a right code, shown to the console, ended early or by signing out', async () => {
    const sup = await member('super_admin', 'sudo');
    const target = await member('user', 'sudoed');
    const grant = ACTIONS.grant(target.id);
    const confirmation = async (who = sup) =>
      (await who.client.get('/api/admin/confirmation')).json().data.confirmedUntil as string | null;
    expect(await confirmation()).toBeNull();
    expect((await send(sup, grant, null)).json().code).toBe('MFA_TOKEN_REQUIRED');

    expect((await send(sup, grant)).statusCode).toBe(200);
    const until = await confirmation();
    expect(until).toBe(new Date(ctx.clock.now().getTime() + ADMIN_CONFIRMED_WINDOW_MS).toISOString());
    // Back-to-back changes need no new code inside the window; a wrong one sent anyway is still refused.
    for (let i = 0; i < 3; i++) expect((await send(sup, grant, null)).statusCode).toBe(200);
    expect((await send(sup, grant, '000000')).statusCode).toBe(403);
    ctx.clock.advance(ADMIN_CONFIRMED_WINDOW_MS - 1000);
    expect((await send(sup, grant, null)).statusCode).toBe(200);
    ctx.clock.advance(2000);
    expect((await send(sup, grant, null)).json().code).toBe('MFA_TOKEN_REQUIRED');
    expect(await confirmation()).toBeNull();

    // Ended from the console: the next action needs a code again.
    expect((await send(sup, grant)).statusCode).toBe(200);
    expect((await sup.client.delete('/api/admin/confirmation')).json().data.confirmedUntil).toBeNull();
    expect((await send(sup, grant, null)).json().code).toBe('MFA_TOKEN_REQUIRED');

    // A window is the session's: another session of the same admin has none, and signing out ends it.
    expect((await send(sup, grant)).statusCode).toBe(200);
    expect(await confirmation()).not.toBeNull();
    const again = ctx.client();
    const login = await again.post('/api/auth/login', {
      email: `${sup.username}@example.com`,
      password: 'Passw0rdOk',
      mfaToken: sup.code(),
    });
    again.token = login.json().token;
    expect((await again.get('/api/admin/confirmation')).json().data.confirmedUntil).toBeNull();
    expect((await sup.client.post('/api/auth/logout')).statusCode).toBe(200);
    expect((await send(sup, grant, null)).statusCode).toBe(401);
  });

  it('ends the guessing session after five wrong codes in a row, and locks nobody out', async () => {
    const admin = await member('admin', 'guesser');
    const target = await member('user', 'guessed');
    // A right code in between starts the count again.
    for (let i = 0; i < 4; i++) expect((await send(admin, ACTIONS.grant(target.id), '111111')).statusCode).toBe(403);
    expect((await send(admin, ACTIONS.grant(target.id))).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await send(admin, ACTIONS.grant(target.id), '111111')).statusCode).toBe(403);
    const ended = await send(admin, ACTIONS.grant(target.id), '111111');
    expect(ended.statusCode).toBe(401);
    expect(ended.json().msg).toMatch(/you were signed out/);
    expect((await admin.client.get('/api/auth/me')).statusCode).toBe(401);
    const actions = (await activitiesOf(admin.id)).map((a) => a.action);
    expect(actions.filter((a) => a === 'login_failed')).toHaveLength(9);
    expect(actions).toContain('account_locked');
  });
});

describe('what each action does', () => {
  let sup: Member;
  beforeAll(async () => {
    sup = await member('super_admin', 'actor');
  });

  it('changes a role, ends the target’s sessions, and logs one row with before and after', async () => {
    const target = await member('user', 'promoted');
    const before = (await activitiesOf(target.id)).length;
    const res = await send(sup, ACTIONS.promote(target.id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.user.role).toBe('admin');
    expect(await roleOf(target.id)).toBe('admin');
    expect((await target.client.get('/api/auth/me')).statusCode).toBe(401);
    const rows = await activitiesOf(target.id);
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      action: 'role_changed',
      kind: 'admin',
      actorId: sup.id,
      before: { role: 'user' },
      after: { role: 'admin' },
    });
  });

  it('grants credits, clamped to 10,000, into the ledger with the admin as author', async () => {
    const target = await member('user', 'credited');
    const res = await send(sup, {
      method: 'POST',
      url: '/api/admin/plans/grant',
      body: { userId: target.id, amount: 25_000, reason: '<b>Launch</b> "thanks" & more' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.user.credits).toBe(10_000);
    const lines = await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, target.id));
    const credit = lines.filter((l) => l.resource === 'credits');
    expect(credit).toEqual([expect.objectContaining({ amount: 10_000, reason: 'admin', authorId: sup.id })]);
    const rows = await activitiesOf(target.id);
    expect(rows.filter((r) => r.action === 'credits_granted')).toHaveLength(1);
    expect(rows.at(-1)?.details).toBe('Granted 10000 credits: bLaunch/b thanks  more');
    // The user sees the line in their own ledger.
    const ledger = (await target.client.get('/api/plans/ledger')).json().entries;
    expect(ledger[0]).toMatchObject({ resource: 'credits', amount: 10_000, reason: 'admin' });

    for (const body of [
      { userId: target.id, amount: 5, reason: 'abc' },
      { userId: target.id, amount: 1.5, reason: 'A fine reason' },
      { userId: 'nope', amount: 5, reason: 'A fine reason' },
    ]) {
      const bad = await send(sup, { method: 'POST', url: '/api/admin/plans/grant', body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('edits limits: a usage tranche, storage slots, plan, step and status, each in the ledger or the log', async () => {
    const target = await member('user', 'limited');
    const slotsBefore = (await ctx.database.db.select().from(users).where(eq(users.id, target.id)))[0]
      ?.modelStorageSlotsTotal;
    const expiresAt = new Date(ctx.clock.now().getTime() + 30 * 24 * 3600_000).toISOString();
    const res = await send(sup, {
      method: 'PATCH',
      url: `/api/admin/users/${target.id}/limits`,
      body: {
        usageGrant: { type: 'chunkEdits', amount: 40, expiresAt },
        usageLimits: { modelStorageSlotsTotal: 7 },
        plan: { name: 'pro', billingCycle: 'annual' },
        onboarding: { step: 'tutorial_complete' },
        subscription: { status: 'active' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const user = res.json().data.user;
    expect(user.usageLimits.chunkEdits).toContainEqual({ amount: 40, expiresAt });
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(7);
    expect(user.plan).toMatchObject({ name: 'pro', billingCycle: 'annual' });
    expect(user.onboarding.step).toBe('tutorial_complete');
    expect(user.subscription.status).toBe('active');
    const adminLines = (
      await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, target.id))
    ).filter((l) => l.reason === 'admin');
    expect(adminLines.map((l) => [l.resource, l.amount, l.authorId]).sort()).toEqual(
      [
        ['chunkEdits', 40, sup.id],
        ['storageSlots', 7 - (slotsBefore ?? 0), sup.id],
      ].sort(),
    );
    const rows = (await activitiesOf(target.id)).filter((r) => r.action === 'limits_changed');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.before).toMatchObject({
      plan: 'none',
      onboardingStep: 'registered',
      modelStorageSlotsTotal: slotsBefore,
    });
    expect(rows[0]?.after).toMatchObject({
      plan: 'pro',
      onboardingStep: 'tutorial_complete',
      subscriptionStatus: 'active',
    });

    const past = new Date(ctx.clock.now().getTime() - 1000).toISOString();
    for (const body of [
      {},
      { usageGrant: { type: 'chunkEdits', amount: 1, expiresAt: past } },
      { plan: { name: 'gold' } },
    ]) {
      const bad = await send(sup, { method: 'PATCH', url: `/api/admin/users/${target.id}/limits`, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('deletes a user with everything they owned, and leaves everyone else as they were', async () => {
    const target = await member('user', 'leaving');
    const bystander = await member('user', 'staying');
    const theirs = await quickVoice(ctx, target.id, 'Gone');
    const kept = await quickVoice(ctx, bystander.id, 'Kept');
    await send(sup, ACTIONS.grant(target.id));
    const invite = await send(sup, {
      method: 'POST',
      url: '/api/admin/invite',
      body: { email: `${target.username}@example.com`, role: 'admin' },
    });
    expect(invite.statusCode).toBe(201);
    const bystanderBefore = await rowsOfUser(ctx, bystander.id);
    const before = await rowsOfUser(ctx, target.id);
    expect(before).toMatchObject({
      users: 1,
      voices: 1,
      ledger_entries: expect.any(Number),
      activities: expect.any(Number),
    });

    const res = await send(sup, ACTIONS.remove(target.id));
    expect(res.statusCode, res.body).toBe(200);
    const after = await rowsOfUser(ctx, target.id);
    // Only the record of the deletion remains: which id, by whom, when.
    expect(after).toEqual(Object.fromEntries(Object.keys(before).map((t) => [t, t === 'activities' ? 1 : 0])));
    const [record] = await activitiesOf(target.id);
    expect(record).toMatchObject({ action: 'user_deleted', actorId: sup.id });
    expect(JSON.stringify(record)).not.toContain('@example.com');
    expect(await ctx.app.platform.storage.exists(voiceFolder(theirs.id))).toBe(false);
    expect((await target.client.get('/api/auth/me')).statusCode).toBe(401);
    // The invitation sent to their address named them: it is gone too.
    const sent = await ctx.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.email, `${target.username}@example.com`));
    expect(sent).toEqual([]);

    expect(await rowsOfUser(ctx, bystander.id)).toEqual(bystanderBefore);
    expect(await ctx.app.platform.storage.exists(voiceFolder(kept.id))).toBe(true);
    expect((await send(sup, ACTIONS.remove(target.id))).statusCode).toBe(404);
  });
});

describe('invitations', () => {
  let sup: Member;
  beforeAll(async () => {
    sup = await member('super_admin', 'host');
  });
  const invite = async (email: string, role = 'admin') => {
    const res = await send(sup, { method: 'POST', url: '/api/admin/invite', body: { email, role } });
    expect(res.statusCode, res.body).toBe(201);
    const url: string = res.json().data.invitationUrl;
    return url.slice(url.lastIndexOf('/') + 1);
  };

  it('signs up a new admin once, past the beta cap, and logs both sides', async () => {
    const email = `${newAccount('newadmin').username}@Example.com`.toLowerCase();
    const token = await invite(` ${email.toUpperCase()} `);
    const info = await ctx.client().get(`/api/invitations/${token}`);
    expect(info.json()).toMatchObject({ email, role: 'admin', accountExists: false });

    const guest = ctx.client();
    const missing = await guest.post(`/api/invitations/${token}/accept`, {});
    expect(missing.statusCode).toBe(400);
    const accepted = await guest.post(`/api/invitations/${token}/accept`, {
      username: 'invited_one',
      password: 'Passw0rdOk',
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json().user).toMatchObject({ email, role: 'admin', mfaEnabled: false });
    const userId: string = accepted.json().user.id;
    expect((await activitiesOf(userId)).map((a) => a.action)).toEqual(['signed_up', 'invitation_accepted']);
    expect((await activitiesOf(sup.id)).some((a) => a.action === 'admin_invited' && a.details.includes(email))).toBe(
      true,
    );

    const again = await ctx
      .client()
      .post(`/api/invitations/${token}/accept`, { username: 'invited_two', password: 'Passw0rdOk' });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe('INVITATION_INVALID');
    expect((await ctx.client().get(`/api/invitations/${token}`)).statusCode).toBe(410);
  });

  it('raises an existing account only when that account accepts, and never lowers a role', async () => {
    const existing = await member('user', 'upgraded');
    const email = `${existing.username}@example.com`;
    const token = await invite(email, 'super_admin');
    expect((await ctx.client().get(`/api/invitations/${token}`)).json().accountExists).toBe(true);
    expect((await ctx.client().post(`/api/invitations/${token}/accept`, {})).statusCode).toBe(403);
    const stranger = await member('user', 'stranger');
    expect((await stranger.client.post(`/api/invitations/${token}/accept`, {})).statusCode).toBe(403);
    const ok = await existing.client.post(`/api/invitations/${token}/accept`, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().user.role).toBe('super_admin');

    const lower = await invite(email, 'admin');
    expect((await existing.client.post(`/api/invitations/${lower}/accept`, {})).json().user.role).toBe('super_admin');
  });

  const linkOf = (token: string) => ({
    info: () => ctx.client().get(`/api/invitations/${token}`),
    signUp: () =>
      ctx
        .client()
        .post(`/api/invitations/${token}/accept`, { username: newAccount('late').username, password: 'Passw0rdOk' }),
  });
  const pendingEmails = async (who: Member) =>
    (await who.client.get('/api/admin/invitations')).json().data.invitations.map((i: { email: string }) => i.email);

  it('lists the waiting invitations and lets an admin revoke one, which ends its link', async () => {
    const email = `${newAccount('revoked').username}@example.com`;
    const token = await invite(email);
    const listed = (await sup.client.get('/api/admin/invitations')).json().data.invitations;
    const row = listed.find((i: { email: string }) => i.email === email);
    expect(row).toMatchObject({ role: 'admin', invitedBy: { id: sup.id, username: sup.username } });
    const admin = await member('admin', 'revoker');
    const revoke = (who: Member, id: string) => send(who, { method: 'DELETE', url: `/api/admin/invitations/${id}` });
    expect((await revoke(admin, row.id)).statusCode).toBe(200);
    expect(await pendingEmails(sup)).not.toContain(email);
    const dead = await linkOf(token).signUp();
    expect(dead.statusCode).toBe(410);
    expect(dead.json().msg).toMatch(/withdrawn/);
    expect((await revoke(admin, row.id)).statusCode).toBe(404);
    expect((await activitiesOf(admin.id)).map((a) => a.action)).toContain('invitation_revoked');
    // An admin cannot withdraw what only a super admin could send.
    const superToken = await invite(`${newAccount('chief').username}@example.com`, 'super_admin');
    const superRow = (await sup.client.get('/api/admin/invitations'))
      .json()
      .data.invitations.find((i: { role: string }) => i.role === 'super_admin');
    expect((await revoke(admin, superRow.id)).statusCode).toBe(403);
    expect((await linkOf(superToken).info()).statusCode).toBe(200);
  });

  it('die with the inviter’s rights: demoted, or deleted', async () => {
    const chief = await member('super_admin', 'leaving');
    const sendInvite = async (role: string) => {
      const res = await send(chief, {
        method: 'POST',
        url: '/api/admin/invite',
        body: { email: `${newAccount('x').username}@example.com`, role },
      });
      const url: string = res.json().data.invitationUrl;
      return url.slice(url.lastIndexOf('/') + 1);
    };
    const asAdmin = await sendInvite('admin');
    const asSuper = await sendInvite('super_admin');
    // Down to admin: the super admin invitation dies, the admin one stands.
    expect((await send(sup, ACTIONS.promote(chief.id))).statusCode).toBe(200);
    expect((await linkOf(asSuper).info()).statusCode).toBe(410);
    expect((await linkOf(asSuper).signUp()).statusCode).toBe(410);
    expect((await linkOf(asAdmin).info()).statusCode).toBe(200);
    // Deleted: the rest dies too.
    expect((await send(sup, ACTIONS.remove(chief.id))).statusCode).toBe(200);
    expect((await linkOf(asAdmin).signUp()).statusCode).toBe(404);

    const helper = await member('admin', 'demoted');
    const res = await send(helper, {
      method: 'POST',
      url: '/api/admin/invite',
      body: { email: `${newAccount('y').username}@example.com`, role: 'admin' },
    });
    const url: string = res.json().data.invitationUrl;
    const token = url.slice(url.lastIndexOf('/') + 1);
    expect((await send(sup, ACTIONS.demote(helper.id))).statusCode).toBe(200);
    expect((await linkOf(token).signUp()).statusCode).toBe(410);
  });

  // Last here: the clock jumps a day, past every session of this describe.
  it('expires after 24 hours on the service clock', async () => {
    const token = await invite(`${newAccount('late').username}@example.com`);
    ctx.clock.advance(24 * 3600_000 + 1000);
    expect((await ctx.client().get(`/api/invitations/${token}`)).statusCode).toBe(410);
    const res = await ctx
      .client()
      .post(`/api/invitations/${token}/accept`, { username: 'too_late', password: 'Passw0rdOk' });
    expect(res.statusCode).toBe(410);
    expect(res.json().msg).toMatch(/expired/);
  });
});

describe('reading the log and the list', () => {
  it('pages a user’s activity newest first and filters it by kind', async () => {
    const sup = await member('super_admin', 'reader');
    const target = await member('user', 'busy');
    for (let i = 0; i < 22; i++) expect((await send(sup, ACTIONS.grant(target.id))).statusCode).toBe(200);
    const page1 = (await sup.client.get(`/api/admin/users/${target.id}/activities`)).json().data;
    expect(page1.activities).toHaveLength(20);
    // signed_up, mfa_enabled and 22 grants.
    expect(page1.pagination).toEqual({ page: 1, pages: 2, total: 24, limit: 20 });
    const times = page1.activities.map((a: { createdAt: string }) => a.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(page1.activities[0]).toMatchObject({
      action: 'credits_granted',
      actor: { id: sup.id, username: sup.username },
    });
    const last = (await sup.client.get(`/api/admin/users/${target.id}/activities?page=2`)).json().data;
    expect(last.activities.map((a: { action: string }) => a.action)).toEqual([
      'credits_granted',
      'credits_granted',
      'mfa_enabled',
      'signed_up',
    ]);
    const beyond = (await sup.client.get(`/api/admin/users/${target.id}/activities?page=3`)).json().data;
    expect(beyond.activities).toEqual([]);
    const security = (await sup.client.get(`/api/admin/users/${target.id}/activities?kind=security`)).json().data;
    expect(security.activities.map((a: { action: string }) => a.action)).toEqual(['mfa_enabled', 'signed_up']);
    expect((await sup.client.get(`/api/admin/users/${target.id}/activities?kind=nope`)).statusCode).toBe(400);
    expect((await sup.client.get(`/api/admin/users/${'f'.repeat(24)}/activities`)).statusCode).toBe(404);
  });

  it('keeps the log append-only: a written row cannot be changed', async () => {
    const [row] = await ctx.database.db.select().from(activities).limit(1);
    if (!row) throw new Error('no activity yet');
    await expect(
      ctx.database.db.update(activities).set({ details: 'rewritten' }).where(eq(activities.id, row.id)),
    ).rejects.toThrow();
  });

  it('searches literally (% and _), and answers the last and an empty page', async () => {
    const sup = await member('super_admin', 'lister');
    const tag = `q${Math.random().toString(36).slice(2, 6)}`;
    await ctx.client().register({ username: `${tag}a_b`, email: `${tag}ab1@example.com`, password: 'Passw0rdOk' });
    await ctx.client().register({ username: `${tag}axb`, email: `${tag}ab2@example.com`, password: 'Passw0rdOk' });
    const search = async (q: string, page = 1) =>
      (await sup.client.get(`/api/admin/users?search=${encodeURIComponent(q)}&page=${page}`)).json().data;
    expect((await search(`${tag}a_b`)).users.map((u: { username: string }) => u.username)).toEqual([`${tag}a_b`]);
    expect((await search(`${tag}a%b`)).pagination.total).toBe(0);
    expect((await search(tag)).pagination).toEqual({ page: 1, pages: 1, total: 2, limit: 10 });
    const empty = await search(tag, 5);
    expect(empty.users).toEqual([]);
    expect(empty.pagination.total).toBe(2);
  });

  it('charts 30 days of sign-ups, Voices trained and waking hours', async () => {
    const sup = await member('super_admin', 'charts');
    const overview = (await sup.client.get('/api/admin/overview')).json();
    expect(overview.daily).toHaveLength(30);
    const today = ctx.clock.now().toISOString().slice(0, 10);
    expect(overview.daily.at(-1)).toMatchObject({ date: today });
    expect(overview.daily.at(-1).signUps).toBeGreaterThanOrEqual(1);
    for (const day of overview.daily)
      expect(day).toEqual(expect.objectContaining({ voicesTrained: expect.any(Number) }));
  });
});

describe('a user’s own security events', () => {
  it('records sign-up, logins, failures, a lock and two-factor on and off, and shows the user theirs', async () => {
    const client = ctx.client();
    const account = newAccount('secure');
    const id: string = (await client.register(account)).res.json().user.id;
    await client.post('/api/auth/login', { email: account.email, password: 'Wrong-Passw0rd' });
    const login = await client.post('/api/auth/login', { email: account.email, password: account.password });
    client.token = login.json().token;
    const mfa = await enableTwoFactor(ctx, client);
    ctx.clock.advance(30_000);
    expect((await client.post('/api/auth/mfa/disable', { mfaToken: mfa.code() })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      await ctx.client().post('/api/auth/login', { email: account.email, password: 'Wrong-Passw0rd' });

    const mine = (await client.get('/api/auth/activities'))
      .json()
      .data.activities.map((a: { action: string }) => a.action);
    expect(mine).toEqual([
      'account_locked',
      'login_failed',
      'login_failed',
      'login_failed',
      'login_failed',
      'login_failed',
      'mfa_disabled',
      'mfa_enabled',
      'logged_in',
      'login_failed',
    ]);
    expect((await activitiesOf(id)).map((a) => a.action)[0]).toBe('signed_up');
  });
});
