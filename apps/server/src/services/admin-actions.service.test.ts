// What an admin may do to an account, on a real database and without HTTP: the policy's answers
// (nobody acts on themself, admins leave super admins alone, the last super admin stays, two
// super admins demoting each other at once leave one), a role change ending the target's
// sessions with one activity row, credits granted into the ledger under the admin's name, and a
// deletion taking everything the account owned and nothing of anyone else's. The second factor
// the console asks first, and the status codes, are routes/admin/admin-actions.test.ts's.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, ledgerEntries, type UserRow } from '../db/schema.js';
import { createUser, rowsOfUser } from '../test/factories/users.js';
import { createVoice } from '../test/factories/voices.js';
import { openServiceTestContext, refusal, type ServiceTestContext } from '../test/service-context.js';
import type { AdminActionsService } from './admin-actions.service.js';

let ctx: ServiceTestContext;
let admin: AdminActionsService;
let chief: UserRow;

beforeAll(async () => {
  ctx = await openServiceTestContext();
  admin = ctx.services.adminActions;
  chief = await createUser(ctx, { role: 'super_admin', mfaEnabled: true });
});
afterAll(() => ctx.close());

const activitiesOf = (userId: string, action: string) =>
  ctx.database.db
    .select()
    .from(activities)
    .where(and(eq(activities.userId, userId), eq(activities.action, action)));

describe('the admin policy, as the service applies it', () => {
  it('refuses acting on oneself and an admin acting on a super admin, changing nothing', async () => {
    const moderator = await createUser(ctx, { role: 'admin', mfaEnabled: true });
    expect(await refusal(admin.changeRole(moderator, moderator.id, 'super_admin'))).toBe('FORBIDDEN');
    expect(await refusal(admin.changeRole(moderator, chief.id, 'user'))).toBe('FORBIDDEN');
    expect(await refusal(admin.deleteUser(moderator, chief.id))).toBe('FORBIDDEN');
    expect((await ctx.reload(chief.id)).role).toBe('super_admin');
    expect(await activitiesOf(chief.id, 'role_changed')).toEqual([]);
  });

  it('never demotes the last super admin, even when two demote each other at once', async () => {
    expect(await refusal(admin.changeRole(chief, chief.id, 'user'))).toBe('FORBIDDEN');
    const second = await createUser(ctx, { role: 'super_admin', mfaEnabled: true });
    const results = await Promise.allSettled([
      admin.changeRole(chief, second.id, 'admin'),
      admin.changeRole(second, chief.id, 'admin'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const roles = [(await ctx.reload(chief.id)).role, (await ctx.reload(second.id)).role].sort();
    expect(roles).toEqual(['admin', 'super_admin']);
    // Whoever kept the role is the chief from here on.
    if ((await ctx.reload(chief.id)).role !== 'super_admin') chief = await ctx.reload(second.id);
  });
});

describe('admin actions', () => {
  it('changes a role with one activity row, before and after, and ends the target’s sessions', async () => {
    const target = await createUser(ctx);
    const token = await ctx.services.sessions.create(target.id, {});
    const view = await admin.changeRole(chief, target.id, 'admin');
    expect(view.role).toBe('admin');
    expect(await refusal(ctx.services.sessions.authenticate(token))).toBe('UNAUTHENTICATED');
    const [row, ...more] = await activitiesOf(target.id, 'role_changed');
    expect(more).toEqual([]);
    expect(row).toMatchObject({ actorId: chief.id, before: { role: 'user' }, after: { role: 'admin' } });
  });

  it('grants credits into the ledger under the admin’s name', async () => {
    const target = await createUser(ctx);
    const before = (await ctx.reload(target.id)).credits;
    const view = await admin.grantCredits(chief, { userId: target.id, amount: 250, reason: 'Goodwill for an outage' });
    expect((await ctx.reload(target.id)).credits).toBe(before + 250);
    expect(view.credits).toBe(before + 250);
    const lines = await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, target.id));
    expect(lines).toEqual([
      expect.objectContaining({ resource: 'credits', amount: 250, reason: 'admin', authorId: chief.id }),
    ]);
    expect(await activitiesOf(target.id, 'credits_granted')).toHaveLength(1);
  });

  it('deletes an account with everything it owned, and nothing of anyone else’s', async () => {
    const target = await createUser(ctx);
    const bystander = await createUser(ctx);
    await createVoice(ctx, target.id);
    await createVoice(ctx, bystander.id);
    await ctx.services.sessions.create(target.id, {});
    const theirsBefore = await rowsOfUser(ctx, bystander.id);
    await admin.deleteUser(chief, target.id);
    const left = await rowsOfUser(ctx, target.id);
    // Only the log of the deletion itself names them still (append-only, for the record).
    expect(Object.entries(left).filter(([table, n]) => n > 0 && table !== 'activities')).toEqual([]);
    expect(await rowsOfUser(ctx, bystander.id)).toEqual(theirsBefore);
  });
});
