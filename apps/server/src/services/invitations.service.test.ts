// Admin invitations on a real database, without HTTP: only a super admin invites a super admin;
// a link signs up its new admin once, past the beta cap; two sign-ups on one link at once make
// one account; a revoked, expired or inviter-demoted invitation's link stops working. The token
// is read from the link the service answers, as the invited person gets it by mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../db/schema.js';
import { createUser } from '../test/factories/users.js';
import { openServiceTestContext, refusal, type ServiceTestContext } from '../test/service-context.js';
import type { InvitationsService } from './invitations.service.js';

let ctx: ServiceTestContext;
let invitations: InvitationsService;
let chief: UserRow;
let serial = 0;
const ORIGIN = 'https://ownvoice.example';
const meta = { ip: '203.0.113.9', device: 'invited-browser' };

beforeAll(async () => {
  // A beta already full: an invitation's seat is one past it.
  ctx = await openServiceTestContext({ betaCap: 0 });
  invitations = ctx.services.invitations;
  chief = await createUser(ctx, { role: 'super_admin', mfaEnabled: true });
});
afterAll(() => ctx.close());

const newAddress = () => {
  serial += 1;
  return `invited${serial}${Math.random().toString(36).slice(2, 6)}@example.com`;
};

/** Invites a new address; answers it and the link's token. */
async function invite(by: UserRow, role: 'admin' | 'super_admin' = 'admin') {
  const email = newAddress();
  const { invitationUrl } = await invitations.invite(by, { email, role }, ORIGIN);
  return { email, token: invitationUrl.split('/invite/')[1] as string };
}
const signUp = (token: string, username: string) =>
  invitations.accept(token, { username, password: 'correct horse battery staple' }, null, meta);

describe('admin invitations', () => {
  it('sign their admin up once, past the beta cap, and the link is spent', async () => {
    const { email, token } = await invite(chief);
    expect(await invitations.info(token)).toMatchObject({ email, role: 'admin', accountExists: false });
    const joined = await signUp(token, `newadmin${serial}`);
    expect(joined.user).toMatchObject({ email, role: 'admin', emailVerified: true });
    expect(await refusal(signUp(token, `again${serial}`))).toBe('INVITATION_INVALID');
  });

  it('make one account of two sign-ups on the same link at once', async () => {
    const { token } = await invite(chief);
    const results = await Promise.allSettled([signUp(token, `twin${serial}a`), signUp(token, `twin${serial}b`)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('are a super admin’s alone to send for a super admin', async () => {
    const moderator = await createUser(ctx, { role: 'admin', mfaEnabled: true });
    expect(await refusal(invite(moderator, 'super_admin'))).toBe('FORBIDDEN');
    expect((await invite(moderator, 'admin')).token).toBeTruthy();
  });

  it('stop working when revoked, after 24 hours, or when their inviter is demoted', async () => {
    const revoked = await invite(chief);
    const [pending] = (await invitations.listPending()).filter((i) => i.email === revoked.email);
    await invitations.revoke(chief, (pending as { id: string }).id);
    expect(await refusal(invitations.info(revoked.token))).toBe('INVITATION_INVALID');

    const late = await invite(chief);
    ctx.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect(await refusal(invitations.info(late.token))).toBe('INVITATION_INVALID');

    const moderator = await createUser(ctx, { role: 'admin', mfaEnabled: true });
    const theirs = await invite(moderator);
    await ctx.services.adminActions.changeRole(chief, moderator.id, 'user');
    expect(await refusal(invitations.info(theirs.token))).toBe('INVITATION_INVALID');
  });
});
