// E-mail through a real SMTP server (test/mail-server.ts): queued without waiting for the server,
// delivered by the mail worker from the job queue with its text and HTML bodies, retried while
// the server refuses, and marked failed, never lost, once its attempts run out. Without SMTP_URL
// the message goes to the data folder's outbox, private to the service, and its link is logged.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_MAX_ATTEMPTS } from '../jobs/job-queue.js';
import { MAIL_MESSAGES } from '../mail/messages.js';
import { outboxTransport, smtpTransport } from '../mail/transport.js';
import { MailRepository } from '../repositories/mail.repository.js';
import { startTestMailServer, type TestMailServer } from '../test/mail-server.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { MailService } from './mail.service.js';

const FROM = 'OwnVoice <no-reply@ownvoice.test>';
const LINK = 'https://ownvoice.example/auth/reset?token=abc&x=<1>';
const message = () => MAIL_MESSAGES.password_reset({ username: 'writer', link: LINK, minutes: 60 });

let smtp: TestMailServer;
let ctx: TestContext;

beforeAll(async () => {
  smtp = await startTestMailServer();
  ctx = await createTestContext({
    mail: {
      smtpUrl: smtp.url,
      from: FROM,
      outboxDir: mkdtempSync(path.join(tmpdir(), 'ownvoice-outbox-')),
      siteUrl: 'https://ownvoice.example',
    },
  });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const rowOf = (id: string) => new MailRepository(ctx.database.db).find(id);

describe('e-mail over SMTP', () => {
  it('is queued at once, then delivered by the worker with its text and HTML bodies', async () => {
    const { mail } = ctx.app.platform.services;
    const id = await mail.queue({ email: 'writer@example.com', userId: null }, 'password_reset', message());
    // Nothing waited for the mail server: the message is stored, still to send.
    expect((await rowOf(id))?.status).toBe('queued');

    await ctx.app.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
    const received = await smtp.waitFor((m) => m.subject === 'Reset your OwnVoice password');
    expect(received.from?.value[0]).toMatchObject({ name: 'OwnVoice', address: 'no-reply@ownvoice.test' });
    expect(received.to && 'text' in received.to ? received.to.text : '').toBe('writer@example.com');
    expect(received.text).toContain(`Choose a new password: ${LINK}`);
    expect(received.html).toContain('href="https://ownvoice.example/auth/reset?token=abc&amp;x=&lt;1&gt;"');
    expect(received.messageId).toBe(`<${id}@ownvoice>`);
    await expect.poll(async () => (await rowOf(id))?.status, { timeout: 10_000 }).toBe('sent');
  });

  it('retries while the server refuses, and gives up visibly after the last attempt', async () => {
    // Delivered by hand here, with no queue behind it: the queue's backoff between attempts is
    // 10 s and more, and its worker (started above) would race these attempts.
    const mail = new MailService(
      new MailRepository(ctx.database.db),
      async () => ({ enqueueMail: async () => {} }),
      smtpTransport(smtp.url, FROM),
      ctx.clock,
      { warn: () => {}, error: () => {} },
      'https://ownvoice.example',
    );
    const id = await mail.queue({ email: 'later@example.com', userId: null }, 'password_reset', message());
    smtp.refuseNext(1);
    await expect(mail.deliver(id)).rejects.toThrow(/451/);
    expect(await rowOf(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: expect.stringMatching(/451/) });
    await mail.deliver(id);
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    // Sent is sent: another attempt (a job run twice) sends nothing more.
    const count = smtp.received.filter((m) => m.messageId === `<${id}@ownvoice>`).length;
    await mail.deliver(id);
    expect(smtp.received.filter((m) => m.messageId === `<${id}@ownvoice>`).length).toBe(count);

    const doomed = await mail.queue({ email: 'never@example.com', userId: null }, 'password_reset', message());
    smtp.refuseNext(MAIL_MAX_ATTEMPTS);
    for (let attempt = 1; attempt < MAIL_MAX_ATTEMPTS; attempt++) await expect(mail.deliver(doomed)).rejects.toThrow();
    await mail.deliver(doomed);
    expect(await rowOf(doomed)).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS });
    expect((await mail.latest()).find((m) => m.id === doomed)?.status).toBe('failed');
  });
});

describe('e-mail without a mail server', () => {
  it('is written to the outbox, readable by the service alone, with its link logged', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'ownvoice-outbox-')), 'outbox');
    const logged: string[] = [];
    const outbox = outboxTransport(dir, { info: (msg) => logged.push(msg) });
    const repo = new MailRepository(ctx.database.db);
    const service = new MailService(
      repo,
      async () => ({ enqueueMail: async () => {} }),
      outbox,
      ctx.clock,
      { warn: () => {}, error: () => {} },
      'https://ownvoice.example',
    );
    const id = await service.queue({ email: 'offline@example.com', userId: null }, 'password_reset', message());
    await service.deliver(id);
    const [file] = readdirSync(dir);
    expect(file).toBe(`${id}.json`);
    const written = JSON.parse(readFileSync(path.join(dir, file ?? ''), 'utf8'));
    expect(written).toMatchObject({ to: 'offline@example.com', subject: 'Reset your OwnVoice password' });
    expect(statSync(path.join(dir, file ?? '')).mode & 0o077).toBe(0);
    expect(statSync(dir).mode & 0o077).toBe(0);
    expect(logged.join('\n')).toContain(LINK);
    expect((await repo.find(id))?.status).toBe('sent');
  });
});

describe('the messages', () => {
  it('render the same words in text and HTML, every value escaped', () => {
    const { subject, text, html } = MAIL_MESSAGES.password_reset({
      username: '<b>writer</b>',
      link: LINK,
      minutes: 60,
    });
    expect(subject).toBe('Reset your OwnVoice password');
    expect(text).toContain('Hello <b>writer</b>,');
    expect(text).toContain('for 60 minutes');
    expect(html).toContain('Hello &lt;b&gt;writer&lt;/b&gt;,');
    expect(html).not.toContain('<b>writer');
    expect(html).toContain('<html lang="en">');
  });
});
