// The admin console's outbox: GET /api/admin/mail says where mail goes, how many messages failed
// and lists the newest, never with their text; GET /api/admin/mail/:id opens one message's text,
// only on a server without SMTP_URL (where it never leaves the machine), with every link's key
// masked and the view logged for the person it was sent to; POST /api/admin/mail/:id/retry sends
// a failed message again, with its attempts afresh, and is logged. Admins only; step-up is not
// asked for.
import {
  type AdminMailResponse,
  adminMailResponseSchema,
  adminMailRetryResponseSchema,
  adminMailTextResponseSchema,
  MASKED_KEY,
} from '@ownvoice/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, mailMessages, users } from '../../db/schema.js';
import { MAIL_MAX_ATTEMPTS } from '../../jobs/job-queue.js';
import { MAIL_MESSAGES } from '../../mail/messages.js';
import { adminWithCode } from '../../test/billing.js';
import { startTestMailServer, type TestMailServer } from '../../test/mail-server.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';

const SITE = 'https://ownvoice.example';
const LINK = `${SITE}/auth/reset?token=outbox-link-0123456789`;
const message = () => MAIL_MESSAGES.password_reset({ username: 'writer', link: LINK, minutes: 60 });

async function mailView(client: TestClient): Promise<AdminMailResponse['data']> {
  const res = await client.get('/api/admin/mail');
  expect(res.statusCode, res.body).toBe(200);
  return adminMailResponseSchema.parse(res.json()).data;
}

/** A message stored as given up on, as the mail worker leaves one after its last attempt. */
async function failedMessage(ctx: TestContext, to: string): Promise<string> {
  const id = await ctx.app.platform.services.mail.queue({ email: to, userId: null }, 'password_reset', message());
  await ctx.database.db
    .update(mailMessages)
    .set({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS, lastError: '451 Try again later' })
    .where(eq(mailMessages.id, id));
  return id;
}

describe('with a mail server', () => {
  let smtp: TestMailServer;
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof adminWithCode>>;

  beforeAll(async () => {
    smtp = await startTestMailServer();
    ctx = await createTestContext({
      publicUrl: SITE,
      mail: { smtpUrl: smtp.url, from: 'OwnVoice <no-reply@ownvoice.test>', outboxDir: '/nonexistent', siteUrl: SITE },
    });
    admin = await adminWithCode(ctx);
  });
  afterAll(async () => {
    await ctx.close();
    await smtp.close();
  });

  it('shows admins where mail goes, the failed count and the newest messages, without their text', async () => {
    const id = await failedMessage(ctx, 'stuck@example.com');
    const view = await mailView(admin.client);
    expect(view).toMatchObject({ destination: `SMTP ${new URL(smtp.url).host}`, outbox: false, failed: 1 });
    expect(view.messages[0]).toMatchObject({
      id,
      to: 'stuck@example.com',
      kind: 'password_reset',
      subject: 'Reset your OwnVoice password',
      status: 'failed',
      attempts: MAIL_MAX_ATTEMPTS,
      lastError: '451 Try again later',
      sentAt: null,
      readable: false,
    });
    // Links are keys to accounts: with a mail server they stay in the mail.
    expect(view.messages.every((m) => !m.readable)).toBe(true);
    expect(JSON.stringify(view)).not.toContain(LINK);
    const opened = await admin.client.get(`/api/admin/mail/${id}`);
    expect(opened.statusCode).toBe(403);
    expect(opened.json()).toMatchObject({ code: 'FORBIDDEN', msg: expect.stringContaining('mail server') });
  });

  it('refuses people who are not admins', async () => {
    const user = ctx.client();
    await user.register();
    const id = await failedMessage(ctx, 'other@example.com');
    expect((await user.get('/api/admin/mail')).json()).toMatchObject({ code: 'FORBIDDEN' });
    expect((await user.get('/api/admin/mail')).statusCode).toBe(403);
    const retry = await user.post(`/api/admin/mail/${id}/retry`);
    expect(retry.statusCode).toBe(403);
    expect((await ctx.database.db.select().from(mailMessages).where(eq(mailMessages.id, id)))[0]?.status).toBe(
      'failed',
    );
    expect((await ctx.client().get('/api/admin/mail')).statusCode).toBe(401);
  });

  it('sends a failed message again, with its attempts afresh, and logs it', async () => {
    await ctx.app.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
    const id = await failedMessage(ctx, 'again@example.com');
    const before = (await mailView(admin.client)).failed;

    const res = await admin.client.post(`/api/admin/mail/${id}/retry`);
    expect(res.statusCode, res.body).toBe(200);
    expect(adminMailRetryResponseSchema.parse(res.json()).data.message).toMatchObject({
      id,
      status: 'queued',
      attempts: 0,
      lastError: null,
      readable: false,
    });
    const received = await smtp.waitFor((m) => m.messageId === `<${id}@ownvoice>`);
    expect(received.text).toContain(LINK);
    await expect
      .poll(async () => (await mailView(admin.client)).messages.find((m) => m.id === id)?.status, { timeout: 10_000 })
      .toBe('sent');
    expect((await mailView(admin.client)).failed).toBe(before - 1);

    const logged = await ctx.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.actorId, admin.id), eq(activities.action, 'mail_retried')));
    expect(logged).toHaveLength(1);
    expect(logged[0]?.details).toContain('again@example.com');

    // Sent is sent: it cannot be sent again from the console.
    const twice = await admin.client.post(`/api/admin/mail/${id}/retry`);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('VALIDATION_ERROR');
  });

  it('answers 404 for a message it does not have, and 400 for one that is no id', async () => {
    const unknown = await admin.client.post('/api/admin/mail/6f1c2b9e-4d3a-4c5b-9a8e-1f2d3c4b5a69/retry');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');
    expect((await admin.client.post('/api/admin/mail/not-an-id/retry')).statusCode).toBe(400);
  });
});

describe('without a mail server', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof adminWithCode>>;

  beforeAll(async () => {
    ctx = await createTestContext({ publicUrl: SITE });
    admin = await adminWithCode(ctx);
  });
  afterAll(() => ctx.close());

  /** The console's answer to opening one message's text. */
  const openText = (client: TestClient, id: string) => client.get(`/api/admin/mail/${id}`);
  const viewsOf = (userId: string) =>
    ctx.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.userId, userId), eq(activities.action, 'mail_viewed')));

  it('says messages are kept in the outbox, and lists them without their text', async () => {
    expect(ctx.config.mail.smtpUrl).toBeFalsy();
    const id = await ctx.app.platform.services.mail.queue(
      { email: 'offline@example.com', userId: null },
      'password_reset',
      message(),
    );
    const view = await mailView(admin.client);
    expect(view.outbox).toBe(true);
    expect(view.destination).toMatch(/^the outbox folder /);
    expect(view.messages.find((m) => m.id === id)).toMatchObject({ id, readable: true });
    // A link in a message is a key to an account: no list carries one.
    expect(JSON.stringify(view)).not.toContain('outbox-link-0123456789');
  });

  it('shows a message with its link’s key masked, names the file that has it, and logs the view for its person', async () => {
    const person = ctx.client();
    const { res } = await person.register(undefined, { confirmed: false });
    const personId: string = res.json().user.id;
    const [confirmation] = await ctx.database.db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.userId, personId), eq(mailMessages.kind, 'verify_email')));
    const token = /token=([\w-]+)/.exec(confirmation?.text ?? '')?.[1] ?? '';
    expect(token).toHaveLength(43);
    expect(JSON.stringify(await mailView(admin.client))).not.toContain(token);

    const opened = await openText(admin.client, confirmation?.id ?? '');
    expect(opened.statusCode, opened.body).toBe(200);
    const shown = adminMailTextResponseSchema.parse(opened.json()).data;
    expect(shown.text).not.toContain(token);
    expect(shown.text).toContain(`/auth/verify?token=${MASKED_KEY}\n`);
    expect(shown).toMatchObject({
      masked: true,
      file: expect.stringMatching(new RegExp(`${confirmation?.id}\\.json$`)),
    });

    // The person's log says which admin read it, and when.
    const logged = await viewsOf(personId);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ actorId: admin.id, kind: 'admin' });
    expect(logged[0]?.details).toContain('Confirm your OwnVoice address');
    expect((await ctx.client().get(`/api/admin/mail/${confirmation?.id}`)).statusCode).toBe(401);
  });

  it('keeps a pending super admin invitation out of a regular admin’s reach', async () => {
    const chief = await adminWithCode(ctx);
    await ctx.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, chief.id));
    const invite = await chief.client.request(
      'POST',
      '/api/admin/invite',
      { email: 'next-chief@example.com', role: 'super_admin' },
      { 'x-mfa-token': chief.code() },
    );
    expect(invite.statusCode, invite.body).toBe(201);
    const token = String(invite.json().data.invitationUrl).split('/invite/')[1] ?? '';
    expect(token.length).toBeGreaterThan(30);

    const view = await mailView(admin.client);
    expect(JSON.stringify(view)).not.toContain(token);
    const mail = view.messages.find((m) => m.kind === 'admin_invitation' && m.to === 'next-chief@example.com');
    const shown = adminMailTextResponseSchema.parse((await openText(admin.client, mail?.id ?? '')).json()).data;
    expect(shown.text).not.toContain(token);
    expect(shown.text).toContain(`${SITE}/invite/${MASKED_KEY}`);
    // Nobody has the address yet: the admin's own log keeps the record.
    expect((await viewsOf(admin.id)).at(-1)?.details).toContain('next-chief@example.com');
  });

  it('shows a message without keys as it was written', async () => {
    const id = await ctx.app.platform.services.mail.queue(
      { email: 'plain@example.com', userId: null },
      'password_changed',
      MAIL_MESSAGES.password_changed({ username: 'writer', when: new Date(0), link: `${SITE}/login` }),
    );
    const shown = adminMailTextResponseSchema.parse((await openText(admin.client, id)).json()).data;
    expect(shown.masked).toBe(false);
    expect(shown.text).toContain(`${SITE}/login`);
  });
});
