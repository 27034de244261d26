// The address and the password after sign-up, end to end through a real SMTP server
// (test/mail-server.ts): the sign-up's link confirms the address, resends are capped, a change of
// address is confirmed from the new one and told to the old one, a change of password ends the
// other sessions, notices can be switched off (not the required ones), and what needs a confirmed
// address refuses an unconfirmed one (an invitation to an existing account; the invitee's mail).
import { EMAIL_LINK_HOURS, EMAIL_LINKS_PER_HOUR, EMAIL_MESSAGES } from '@ownvoice/shared';
import { and, eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, mailMessages, users } from '../../db/schema.js';
import { recipientOf, startTestMailServer, type TestMailServer } from '../../test/mail-server.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from '../../test/test-app.js';
import { enableTwoFactor, withTwoFactor } from '../../test/two-factor.js';

const PUBLIC_URL = 'https://ownvoice.example';
const SUBJECTS = {
  verify: 'Confirm your OwnVoice address',
  changeConfirm: 'Confirm your new OwnVoice address',
  changeRequested: 'Your OwnVoice address is about to change',
  changed: 'Your OwnVoice address was changed',
  passwordChanged: 'Your OwnVoice password was changed',
  reset: 'Reset your OwnVoice password',
  newSignIn: 'New sign-in to your OwnVoice account',
};
const HOUR_MS = 60 * 60 * 1000;

let smtp: TestMailServer;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startTestMailServer();
  ctx = await createTestContext({
    publicUrl: PUBLIC_URL,
    mail: {
      smtpUrl: smtp.url,
      from: 'OwnVoice <no-reply@ownvoice.test>',
      outboxDir: '/nonexistent',
      siteUrl: PUBLIC_URL,
    },
  });
  await ctx.app.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
}, 120_000);
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const received = (email: string, subject: string) =>
  smtp.received.filter((m) => recipientOf(m) === email && m.subject === subject);

/** The nth mail (from 1) with `subject` to `email`, once it arrived. */
async function mailOf(email: string, subject: string, nth = 1): Promise<ParsedMail> {
  await expect.poll(() => received(email, subject).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(nth);
  return received(email, subject)[nth - 1] as ParsedMail;
}

/** The token of the /auth/verify link a mail carries, in its text and its HTML alike. */
function verifyToken(mail: ParsedMail): string {
  const link = /https:\/\/ownvoice\.example\/auth\/verify\?token=([\w-]+)/.exec(mail.text ?? '');
  expect(link, mail.text).not.toBeNull();
  const token = link?.[1] ?? '';
  expect(mail.html).toContain(`${PUBLIC_URL}/auth/verify?token=${token}`);
  return token;
}

const verify = (token: string, client: TestClient = ctx.client()) => client.post('/api/auth/email/verify', { token });
const me = async (client: TestClient) => (await client.get('/api/auth/me')).json().user;
const login = (email: string, password: string, client: TestClient = ctx.client()) =>
  client.post('/api/auth/login', { email, password });
const actionsOf = async (userId: string) =>
  (await ctx.database.db.select().from(activities).where(eq(activities.userId, userId))).map((a) => a.action);
/** The messages of `kind` stored for the user (sent or not: a muted notice is never stored). */
const storedMails = (userId: string, kind: string) =>
  ctx.database.db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.userId, userId), eq(mailMessages.kind, kind)));

/** A signed-in client whose address is not confirmed yet. */
async function unconfirmed(prefix: string) {
  const client = ctx.client();
  const { account, res } = await client.register(newAccount(prefix), { confirmed: false });
  return { client, account, id: res.json().user.id as string };
}

/** A signed-in client whose address is confirmed. */
async function confirmed(prefix: string) {
  const client = ctx.client();
  const { account, res } = await client.register(newAccount(prefix));
  return { client, account, id: res.json().user.id as string };
}

describe('confirming the address', () => {
  it('mails a sign-up a link that confirms the address, once', async () => {
    const { client, account, id } = await unconfirmed('signup');
    expect((await me(client)).emailVerified).toBe(false);
    const mail = await mailOf(account.email, SUBJECTS.verify);
    expect(mail.text).toContain(`${EMAIL_LINK_HOURS} hours`);
    const token = verifyToken(mail);

    // Opened in another browser, signed out: the link is the credential.
    const opened = await verify(token);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ email: account.email, changed: false });
    expect((await me(client)).emailVerified).toBe(true);
    expect(await actionsOf(id)).toContain('email_verified');

    const again = await verify(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'EMAIL_LINK_INVALID', msg: EMAIL_MESSAGES.linkInvalid });
  });

  it('refuses a made-up link, one replaced by a newer one, and one past its hours', async () => {
    expect((await verify('x'.repeat(43))).json().code).toBe('EMAIL_LINK_INVALID');
    const { client, account, id } = await unconfirmed('resent');
    const first = verifyToken(await mailOf(account.email, SUBJECTS.verify));
    const resent = await client.post('/api/auth/email/resend');
    expect(resent.statusCode, resent.body).toBe(202);
    expect(resent.json()).toEqual({ msg: EMAIL_MESSAGES.verifySent(account.email) });
    const second = verifyToken(await mailOf(account.email, SUBJECTS.verify, 2));
    expect((await verify(first)).json().code).toBe('EMAIL_LINK_INVALID');

    ctx.clock.advance(EMAIL_LINK_HOURS * HOUR_MS + 60_000);
    const late = await verify(second);
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('EMAIL_LINK_INVALID');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, id));
    expect(row?.emailVerifiedAt).toBeNull();
  });

  it(`sends at most ${EMAIL_LINKS_PER_HOUR} links an hour, the sign-up's included, then says how long to wait`, async () => {
    const { client } = await unconfirmed('flood');
    for (let i = 1; i < EMAIL_LINKS_PER_HOUR; i++) {
      expect((await client.post('/api/auth/email/resend')).statusCode).toBe(202);
    }
    ctx.clock.advance(10 * 60_000);
    const refused = await client.post('/api/auth/email/resend');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBe(50 * 60);
    ctx.clock.advance(50 * 60_000 + 1000);
    expect((await client.post('/api/auth/email/resend')).statusCode).toBe(202);
  });

  it(`sends one address at most ${EMAIL_LINKS_PER_HOUR} links an hour, whichever account asks: sign-up and delete cycles included`, async () => {
    const target = newAccount('thirdparty');
    for (let i = 1; i <= EMAIL_LINKS_PER_HOUR; i++) {
      const cycle = ctx.client();
      await cycle.register({ ...target, username: `${target.username.slice(0, 24)}c${i}` }, { confirmed: false });
      await mailOf(target.email, SUBJECTS.verify, i);
      expect((await cycle.delete('/api/auth/account', { password: target.password })).statusCode).toBe(200);
    }
    const again = await ctx
      .client()
      .post('/api/auth/register', { ...target, username: `${target.username.slice(0, 24)}c9` });
    expect([again.statusCode, again.json().code], again.body).toEqual([429, 'RATE_LIMITED']);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    // Another account cannot send a link there either, by asking to move to it.
    const { client, account } = await confirmed('mover2');
    const move = await client.post('/api/auth/email/change', {
      email: target.email,
      currentPassword: account.password,
    });
    expect([move.statusCode, move.json().code]).toEqual([429, 'RATE_LIMITED']);
    await new Promise((r) => setTimeout(r, 1500));
    expect(received(target.email, SUBJECTS.verify)).toHaveLength(EMAIL_LINKS_PER_HOUR);
    expect(received(target.email, SUBJECTS.changeConfirm)).toHaveLength(0);

    ctx.clock.advance(HOUR_MS + 1000);
    const later = await ctx.client().post('/api/auth/register', target);
    expect(later.statusCode, later.body).toBe(201);
  });

  it('has nothing to resend for a confirmed address', async () => {
    const { client } = await confirmed('done');
    const res = await client.post('/api/auth/email/resend');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('changing the address', () => {
  it('mails the new address a link, tells the old one, and on opening moves the account and ends the other sessions', async () => {
    const { client, account, id } = await confirmed('mover');
    const elsewhere = ctx.client();
    expect((await login(account.email, account.password, elsewhere)).statusCode).toBe(200);
    const newEmail = `${newAccount('moved').username}@example.com`;

    const asked = await client.post('/api/auth/email/change', { email: newEmail, currentPassword: account.password });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toEqual({ msg: EMAIL_MESSAGES.changeSent(newEmail) });
    expect(await me(client)).toMatchObject({ email: account.email, pendingEmail: newEmail, emailVerified: true });

    const told = await mailOf(account.email, SUBJECTS.changeRequested);
    expect(told.text).toContain(newEmail);
    expect(told.text).toContain(`${PUBLIC_URL}/dashboard/account`);
    const token = verifyToken(await mailOf(newEmail, SUBJECTS.changeConfirm));

    const opened = await verify(token, client);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toEqual({ email: newEmail, changed: true });
    // The session that opened it stays; every other one of the account ends.
    expect(await me(client)).toMatchObject({ email: newEmail, pendingEmail: null, emailVerified: true });
    expect((await elsewhere.get('/api/auth/me')).statusCode).toBe(401);
    const changed = await mailOf(account.email, SUBJECTS.changed);
    expect(changed.text).toContain(newEmail);
    expect(await actionsOf(id)).toEqual(expect.arrayContaining(['email_change_requested', 'email_changed']));

    expect((await login(account.email, account.password)).statusCode).toBe(401);
    expect((await login(newEmail, account.password)).statusCode).toBe(200);
    expect((await verify(token, client)).json().code).toBe('EMAIL_LINK_INVALID');
  });

  it('ends every session of the account when the link is opened signed out, and a newer ask replaces the link', async () => {
    const { client, account } = await confirmed('relinked');
    const [first, second] = [
      `${newAccount('first').username}@example.com`,
      `${newAccount('second').username}@example.com`,
    ];
    const body = (email: string) => ({ email, currentPassword: account.password });
    expect((await client.post('/api/auth/email/change', body(first))).statusCode).toBe(202);
    const firstToken = verifyToken(await mailOf(first, SUBJECTS.changeConfirm));
    expect((await client.post('/api/auth/email/change', body(second))).statusCode).toBe(202);
    const secondToken = verifyToken(await mailOf(second, SUBJECTS.changeConfirm));
    expect((await verify(firstToken)).json().code).toBe('EMAIL_LINK_INVALID');

    expect((await verify(secondToken)).statusCode).toBe(200);
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    expect((await login(second, account.password)).statusCode).toBe(200);
  });

  it('refuses the same address, one another account uses, and a wrong password, changing nothing', async () => {
    const { client, account } = await confirmed('stayer');
    const { account: neighbour } = await confirmed('neighbour');
    const ask = (email: string, currentPassword = account.password) =>
      client.post('/api/auth/email/change', { email, currentPassword });

    const same = await ask(account.email);
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ code: 'VALIDATION_ERROR', msg: EMAIL_MESSAGES.sameEmail });
    const taken = await ask(neighbour.email);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('EMAIL_TAKEN');
    const wrong = await ask(`${newAccount('free').username}@example.com`, 'Wrong-Passw0rd');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', msg: EMAIL_MESSAGES.wrongPassword });
    expect(await me(client)).toMatchObject({ email: account.email, pendingEmail: null });
  });

  it('refuses to move to an address another account took after the ask', async () => {
    const { client, account } = await confirmed('late');
    const wanted = `${newAccount('wanted').username}@example.com`;
    expect(
      (await client.post('/api/auth/email/change', { email: wanted, currentPassword: account.password })).statusCode,
    ).toBe(202);
    const token = verifyToken(await mailOf(wanted, SUBJECTS.changeConfirm));
    await ctx.client().register({ ...newAccount('quick'), email: wanted });

    const opened = await verify(token, client);
    expect(opened.statusCode).toBe(409);
    expect(opened.json().code).toBe('EMAIL_TAKEN');
    expect(await me(client)).toMatchObject({ email: account.email, pendingEmail: null });
  });

  it('asks for the code with two-factor on, before counting anything', async () => {
    const { client, account, code } = await withTwoFactor(ctx, 'mfamove');
    const email = `${newAccount('mfanew').username}@example.com`;
    const noCode = await client.post('/api/auth/email/change', { email, currentPassword: account.password });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toMatchObject({ code: 'MFA_REQUIRED', msg: EMAIL_MESSAGES.codeNeeded });
    const wrongCode = await client.post('/api/auth/email/change', {
      email,
      currentPassword: account.password,
      mfaToken: '000000',
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().code).toBe('INVALID_MFA_TOKEN');
    const right = await client.post('/api/auth/email/change', {
      email,
      currentPassword: account.password,
      mfaToken: code(),
    });
    expect(right.statusCode, right.body).toBe(202);
  });
});

describe('changing the password', () => {
  it('refuses a wrong current password and changes nothing', async () => {
    const { client, account } = await confirmed('keeper');
    const res = await client.post('/api/auth/password/change', {
      currentPassword: 'Wrong-Passw0rd',
      password: 'N3w-Passw0rd-ok',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', msg: EMAIL_MESSAGES.wrongPassword });
    expect((await login(account.email, account.password)).statusCode).toBe(200);
  });

  it('keeps this session, ends the others, uses up reset links and mails the owner', async () => {
    const { client, account, id } = await confirmed('changer');
    const elsewhere = ctx.client();
    expect((await login(account.email, account.password, elsewhere)).statusCode).toBe(200);
    expect((await ctx.client().post('/api/auth/password/forgot', { email: account.email })).statusCode).toBe(202);
    const resetMail = await mailOf(account.email, SUBJECTS.reset);
    const resetToken = /\/auth\/reset\?token=([\w-]+)/.exec(resetMail.text ?? '')?.[1] ?? '';

    const res = await client.post('/api/auth/password/change', {
      currentPassword: account.password,
      password: 'N3w-Passw0rd-ok',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
    expect((await elsewhere.get('/api/auth/me')).statusCode).toBe(401);
    const reset = await ctx
      .client()
      .post('/api/auth/password/reset', { token: resetToken, password: 'An0ther-Passw0rd' });
    expect(reset.json().code).toBe('RESET_LINK_INVALID');

    const mail = await mailOf(account.email, SUBJECTS.passwordChanged);
    expect(mail.text).toContain(`${PUBLIC_URL}/login`);
    expect(await actionsOf(id)).toContain('password_changed');
    expect((await login(account.email, account.password)).statusCode).toBe(401);
    expect((await login(account.email, 'N3w-Passw0rd-ok')).statusCode).toBe(200);
  });

  it('asks for the code with two-factor on', async () => {
    const { client, account, code } = await withTwoFactor(ctx, 'mfapass');
    const body = { currentPassword: account.password, password: 'N3w-Passw0rd-ok' };
    expect((await client.post('/api/auth/password/change', body)).json().code).toBe('MFA_REQUIRED');
    expect((await client.post('/api/auth/password/change', { ...body, mfaToken: '000000' })).json().code).toBe(
      'INVALID_MFA_TOKEN',
    );
    const right = await client.post('/api/auth/password/change', { ...body, mfaToken: code() });
    expect(right.statusCode, right.body).toBe(200);
  });
});

describe('e-mail notices', () => {
  it('tells of a sign-in from a new browser until that notice is switched off', async () => {
    const { client, account, id } = await confirmed('notice');
    // The browser it signed up in is known: no notice.
    expect((await login(account.email, account.password, client)).statusCode).toBe(200);
    expect(await storedMails(id, 'new_sign_in')).toHaveLength(0);

    expect((await login(account.email, account.password)).statusCode).toBe(200);
    const notice = await mailOf(account.email, SUBJECTS.newSignIn);
    expect(notice.text).toContain('127.0.0.1');

    const muted = await client.put('/api/auth/notices', { muted: ['new_sign_in', 'payments'] });
    expect(muted.statusCode, muted.body).toBe(200);
    expect(muted.json().user.mutedNotices).toEqual(['payments', 'new_sign_in']);
    expect(await actionsOf(id)).toContain('notices_changed');
    expect((await login(account.email, account.password)).statusCode).toBe(200);
    expect(await storedMails(id, 'new_sign_in')).toHaveLength(1);

    const unmuted = await client.put('/api/auth/notices', { muted: [] });
    expect(unmuted.json().user.mutedNotices).toEqual([]);
    expect((await login(account.email, account.password)).statusCode).toBe(200);
    expect(await storedMails(id, 'new_sign_in')).toHaveLength(2);
  });

  it('refuses to switch off a required notice, or one that does not exist', async () => {
    const { client } = await confirmed('required');
    for (const muted of [['security'], ['card_declined'], ['made_up']]) {
      const res = await client.put('/api/auth/notices', { muted });
      expect(res.statusCode, JSON.stringify(muted)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await me(client)).mutedNotices).toEqual([]);
  });
});

describe('what needs a confirmed address', () => {
  /** A super admin with two-factor on, and how to send an action with a fresh code. */
  async function superAdmin() {
    const client = ctx.client();
    const { res } = await client.register(newAccount('host'));
    await ctx.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, res.json().user.id));
    const mfa = await enableTwoFactor(ctx, client);
    const username: string = res.json().user.username;
    return {
      username,
      invite: async (email: string) => {
        ctx.clock.advance(30_000);
        const sent = await client.request(
          'POST',
          '/api/admin/invite',
          { email, role: 'admin' },
          { 'x-mfa-token': mfa.code() },
        );
        expect(sent.statusCode, sent.body).toBe(201);
        const url: string = sent.json().data.invitationUrl;
        return { url, token: url.slice(url.lastIndexOf('/') + 1) };
      },
    };
  }

  it('mails the invitation to the invitee, with the link the admin got', async () => {
    const host = await superAdmin();
    const email = `${newAccount('invitee').username}@example.com`;
    const { url } = await host.invite(email);
    const mail = await mailOf(email, 'You are invited to OwnVoice as Admin');
    expect(mail.text).toContain(url);
    expect(mail.text).toContain(host.username);
  });

  it('lets an existing account accept an invitation only once its address is confirmed', async () => {
    const host = await superAdmin();
    const { client, account } = await unconfirmed('invited');
    const { token } = await host.invite(account.email);
    const refused = await client.post(`/api/invitations/${token}/accept`, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'EMAIL_NOT_VERIFIED',
      msg: EMAIL_MESSAGES.notVerified(account.email),
    });
    expect((await me(client)).role).toBe('user');

    expect((await verify(verifyToken(await mailOf(account.email, SUBJECTS.verify)))).statusCode).toBe(200);
    const accepted = await client.post(`/api/invitations/${token}/accept`, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().user.role).toBe('admin');
  });

  it('counts a sign-up through an invitation as confirmed, and mails it no link', async () => {
    const host = await superAdmin();
    const email = `${newAccount('joiner').username}@example.com`;
    const { token } = await host.invite(email);
    const joined = await ctx
      .client()
      .post(`/api/invitations/${token}/accept`, { username: newAccount('joiner').username, password: 'Passw0rdOk' });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json().user.emailVerified).toBe(true);
    expect(await storedMails(joined.json().user.id, 'verify_email')).toHaveLength(0);
  });
});
