// A training's end tells the Voice's owner by e-mail, through a real SMTP server
// (test/mail-server.ts), once, with a link to the Voice's page: failed with why in words a person
// can act on (the "ready" mail is checked beside the whole training in training.test.ts). A Voice
// its owner deleted while it trained tells nobody anything.
// On PGlite only: what it checks (who is mailed, once) does not depend on the database.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { type Voice, voiceSchema } from '@ownvoice/shared';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveredTo } from '../../test/mail-inbox.js';
import { startTestMailServer, type TestMailServer } from '../../test/mail-server.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from '../../test/test-app.js';
import { writingSample } from '../../test/writing.js';
import type { TrainingWorker } from '../../workers/training-worker.js';

const SITE = 'https://ownvoice.example';
let smtp: TestMailServer;
let ctx: TestContext;
let worker: TrainingWorker;
const logged: string[] = [];
const log = {
  info: (msg: string) => logged.push(msg),
  warn: (msg: string) => logged.push(msg),
  error: (_error: unknown, msg?: string) => logged.push(msg ?? ''),
};

beforeAll(async () => {
  smtp = await startTestMailServer();
  ctx = await createTestContext({
    publicUrl: SITE,
    mail: { smtpUrl: smtp.url, from: 'OwnVoice <no-reply@ownvoice.test>', outboxDir: '/nonexistent', siteUrl: SITE },
  });
  await ctx.app.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
  worker = await ctx.startWorker({ log });
}, 120_000);
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** What `email` received, once everything queued for it has been delivered. */
const inbox = (email: string): Promise<ParsedMail[]> => deliveredTo(smtp, ctx.database.db, email);

async function waitFor(client: TestClient, id: string, done: (v: Voice) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/api/loras/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const voice = voiceSchema.parse(res.json());
    if (done(voice)) return voice;
    if (Date.now() > deadline) throw new Error(`timed out; last state ${JSON.stringify(voice)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function owner() {
  const client = ctx.client();
  const account = newAccount('trainer');
  await client.register(account);
  return { client, email: account.email };
}

describe('a training’s end, by e-mail', () => {
  it('tells nobody about a Voice its owner deleted while it trained', async () => {
    const { client, email } = await owner();
    const res = await client.upload('/api/loras', { fields: { name: 'Gone', text: writingSample(21_000, 0.5) } });
    expect(res.statusCode, res.body).toBe(201);
    const id: string = res.json()._id;
    await waitFor(client, id, (v) => v.status === 'training', 60_000);
    expect((await client.delete(`/api/loras/${id}`)).statusCode).toBeLessThan(300);
    await expect.poll(() => logged.some((l) => l.includes(id) && /cancelled/.test(l)), { timeout: 60_000 }).toBe(true);
    expect((await inbox(email)).filter((m) => m.subject?.includes('"Gone"'))).toEqual([]);
  }, 120_000);

  it('tells the owner once why a training failed, in words to act on', async () => {
    const { client, email } = await owner();
    await worker.stop();
    const res = await client.upload('/api/loras', { fields: { name: 'Doomed', text: writingSample(21_000, 0.4) } });
    expect(res.statusCode, res.body).toBe(201);
    const id: string = res.json()._id;
    // The uploaded writing vanishes from under the trainer (a disk fault, not the owner's doing).
    rmSync(path.join(ctx.config.artifactDir, 'voices', id, 'uploads'), { recursive: true, force: true });
    worker = await ctx.startWorker({ log });
    const voice = await waitFor(client, id, (v) => v.status === 'failed' || v.status === 'ready', 60_000);
    expect(voice.status).toBe('failed');

    // The notice is queued just after the Voice reads failed, so a reader who saw it may be a moment
    // ahead of the mail (it failed so under load).
    const subject = 'Your Voice "Doomed" could not be trained';
    const notices = async () => (await inbox(email)).filter((m) => m.subject === subject);
    await expect.poll(async () => (await notices()).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const failed = await notices();
    expect(failed).toHaveLength(1);
    const link = `${SITE}/dashboard/loras/${id}`;
    expect(failed[0]?.text).toContain(`See what happened: ${link}`);
    expect(failed[0]?.html).toContain(`href="${link}"`);
    expect(failed[0]?.text).toContain(
      'Training your Voice "Doomed" stopped: something went wrong on our side while it trained, not with your writing.',
    );
    // The trainer's own words (a file path) stay on the Voice's page, out of the mail.
    expect(failed[0]?.text).not.toContain(ctx.config.artifactDir);
  }, 120_000);
});
