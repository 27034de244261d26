// A whole Voice life on the tiny house model: upload, training through the job queue by the
// in-process worker, progress, evaluation, the base model it was trained on, the "ready" mail
// through a real SMTP server; waking, metered awake time, sleeping (asked, idle, out of hours);
// publishing and forking; deleting an awake Voice. Then a training that fails.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type Voice, voiceSchema } from '@ownvoice/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages, usageTranches, type VoiceRow, voices } from '../../db/schema.js';
import { SLEEP_MESSAGES } from '../../services/activation.service.js';
import { makeDocx } from '../../test/documents.js';
import { isLoaded } from '../../test/inference.js';
import { deliveredTo } from '../../test/mail-inbox.js';
import { startTestMailServer, type TestMailServer } from '../../test/mail-server.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from '../../test/test-app.js';
import { writingSample } from '../../test/writing.js';
import type { TrainingWorker } from '../../workers/training-worker.js';

const SITE = 'https://ownvoice.example';
let smtp: TestMailServer;
let ctx: TestContext;
let owner: TestClient;
let ownerId: string;
let ownerEmail: string;
let voice: Voice;
let worker: TrainingWorker;
const seen: { status: string; stage?: string | null | undefined; progress: number }[] = [];

const getVoice = async (client: TestClient, id: string): Promise<Voice> => {
  const res = await client.get(`/api/loras/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return voiceSchema.parse(res.json());
};

/** Polls the Voice as the training page does, until `done` holds. */
async function waitFor(client: TestClient, id: string, done: (v: Voice) => boolean, timeoutMs = 400_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await getVoice(client, id);
    seen.push({ status: v.status, stage: v.stage, progress: v.progress });
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last state ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const minutesLeft = async (client: TestClient): Promise<number> => {
  const me = (await client.get('/api/auth/me')).json().user;
  return me.usageLimits.activationHours.reduce((n: number, t: { amount: number }) => n + t.amount, 0) * 60;
};

beforeAll(async () => {
  smtp = await startTestMailServer();
  ctx = await createTestContext({
    voiceIdleMinutes: 30,
    publicUrl: SITE,
    mail: { smtpUrl: smtp.url, from: 'OwnVoice <no-reply@ownvoice.test>', outboxDir: '/nonexistent', siteUrl: SITE },
  });
  await ctx.app.platform.startMailDelivery({ pollingIntervalSeconds: 0.5 });
  owner = ctx.client();
  const account = newAccount('trainer');
  ownerEmail = account.email;
  ownerId = (await owner.register(account)).res.json().user.id;
  // Six of the neutral paragraphs, not the test default's four (createTestContext): each is a sample.
  worker = await ctx.startWorker({ presetChanges: { evaluationParagraphs: 6 } });
  const res = await owner.upload('/api/loras', {
    fields: { name: 'Jargon', text: writingSample(12_000, 0.3) },
    files: [{ name: 'more.docx', data: await makeDocx(writingSample(9_000, 0.6)) }],
  });
  expect(res.statusCode, res.body).toBe(201);
  voice = await waitFor(owner, res.json()._id, (v) => v.status === 'ready' || v.status === 'failed');
}, 600_000);
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

describe('training through the queue', () => {
  it('moves through the stages with growing progress and ends ready with an evaluation', () => {
    expect(voice.status, voice.statusMessage ?? '').toBe('ready');
    expect(voice.progress).toBe(100);
    const stages = [...new Set(seen.map((s) => s.stage).filter(Boolean))];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages).toEqual(['extract', 'pairs', 'train', 'export', 'evaluate'].filter((s) => stages.includes(s)));
    const progress = seen.filter((s) => s.status === 'training').map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const { heldOut, style, samples } = voice.evaluation ?? ({} as never);
    expect(heldOut.voicePerplexity).toBeLessThan(heldOut.basePerplexity);
    expect(style.samples).toBe(6);
    expect(samples.length).toBeGreaterThan(0);
  });

  it('records the base model it was trained on (decision 31), by the SHA-256 of its file', async () => {
    const base = await ctx.app.platform.baseModel.identity();
    expect(voice.baseModel).toEqual({
      state: 'recorded',
      name: 'tiny',
      file: 'ownvoice-tiny.gguf',
      sha256: base.sha256,
      bytes: base.bytes,
      onThisServer: 'same',
      serverModel: 'tiny',
    });
  });

  it('tells the owner once by e-mail that their Voice is ready, with its page', async () => {
    // The notice is queued just after the Voice reads ready (and after its webhooks are told), so
    // a reader who saw ready may be a moment ahead of it.
    const subject = 'Your Voice "Jargon" is ready';
    const queued = () =>
      ctx.database.db
        .select()
        .from(mailMessages)
        .where(and(eq(mailMessages.to, ownerEmail), eq(mailMessages.subject, subject)));
    await expect.poll(async () => (await queued()).length, { timeout: 30_000 }).toBe(1);
    const ready = (await deliveredTo(smtp, ctx.database.db, ownerEmail)).filter((m) => m.subject === subject);
    expect(ready).toHaveLength(1);
    const link = `${SITE}/dashboard/loras/${voice._id}`;
    expect(ready[0]?.text).toContain(`Open the Voice: ${link}`);
    expect(ready[0]?.html).toContain(`href="${link}"`);
    expect(ready[0]?.text).toContain('"Voice ready or failed" is on');
  });

  it('keeps the adapter (GGUF and PEFT) and drops the upload and checkpoints', async () => {
    const folder = path.join(ctx.config.artifactDir, 'voices', voice._id);
    // The worker tidies up just after it marks the Voice ready (a crash in between must leave a
    // usable Voice, not a training with its writing gone), so the folder settles a moment later.
    await expect.poll(() => readdirSync(folder), { timeout: 10_000 }).toEqual(['adapter']);
    const adapter = readdirSync(path.join(folder, 'adapter'));
    expect(adapter).toContain('peft');
    expect(adapter.some((f) => /^voice-.*\.gguf$/.test(f))).toBe(true);
  });
});

describe('waking and sleeping', () => {
  it('wakes a ready Voice, charges awake time by the minute, and sleeps it on request', async () => {
    const before = await minutesLeft(owner);
    const woke = await owner.post(`/api/loras/${voice._id}/activate`);
    expect(woke.statusCode, woke.body).toBe(200);
    expect(woke.json().status).toBe('active');
    expect(await isLoaded(ctx, voice._id)).toBe(true);

    ctx.clock.advance(25 * 60_000 + 10_000);
    await ctx.app.platform.services.activation.tick();
    expect(await minutesLeft(owner)).toBe(before - 25);

    ctx.clock.advance(20_000);
    const slept = await owner.post(`/api/loras/${voice._id}/deactivate`);
    expect(slept.json().status).toBe('ready');
    expect(await isLoaded(ctx, voice._id)).toBe(false);
    // 25 min 30 s awake: the started 26th minute is charged when it sleeps.
    expect(await minutesLeft(owner)).toBe(before - 26);
  });

  it('puts an unused Voice to sleep after the idle period', async () => {
    await owner.post(`/api/loras/${voice._id}/activate`);
    ctx.clock.advance(29 * 60_000);
    await ctx.app.platform.services.activation.touch(voice._id);
    ctx.clock.advance(29 * 60_000);
    await ctx.app.platform.services.activation.tick();
    expect((await getVoice(owner, voice._id)).status).toBe('active');
    ctx.clock.advance(2 * 60_000);
    await ctx.app.platform.services.activation.tick();
    const v = await getVoice(owner, voice._id);
    expect(v.status).toBe('ready');
    expect(v.statusMessage).toBe(SLEEP_MESSAGES.idle(30));
    expect(v.statusMessage).toBe('This Voice went to sleep after 30 minutes without use.');
    expect(SLEEP_MESSAGES.idle(1)).toBe('This Voice went to sleep after a minute without use.');
  });

  it('keeps a Voice awake while it writes, however long the writing takes', async () => {
    await owner.post(`/api/loras/${voice._id}/activate`);
    const [row] = await ctx.database.db.select().from(voices).where(eq(voices.id, voice._id));
    const { activation, conversion } = ctx.app.platform.services;
    // 36 minutes of one rewrite, read two minutes an event: longer than the idle period.
    let minutes = 0;
    for await (const _event of conversion.rewrite(
      row as VoiceRow,
      writingSample(3_000, 0.4),
      AbortSignal.timeout(60_000),
    )) {
      ctx.clock.advance(2 * 60_000);
      minutes += 2;
      if (minutes >= 36) break;
    }
    expect(minutes).toBeGreaterThanOrEqual(36);
    await activation.tick();
    expect((await getVoice(owner, voice._id)).status).toBe('active');
    await owner.post(`/api/loras/${voice._id}/deactivate`);
  });

  it('puts a Voice to sleep when its owner’s hours run out, and will not wake it without hours', async () => {
    await owner.post(`/api/loras/${voice._id}/activate`);
    await ctx.database.db.update(usageTranches).set({ amount: 3 }).where(eq(usageTranches.userId, ownerId)).execute();
    ctx.clock.advance(5 * 60_000);
    await ctx.app.platform.services.activation.tick();
    const v = await getVoice(owner, voice._id);
    expect(v.status).toBe('ready');
    // This test server sells no usage: the card says who can give more hours.
    expect(v.statusMessage).toBe(SLEEP_MESSAGES.hoursRanOut(false));
    expect(v.statusMessage).toContain('ask its administrator');
    expect(await minutesLeft(owner)).toBe(0);

    const refused = await owner.post(`/api/loras/${voice._id}/activate`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ reason: 'insufficient_limit', limitType: 'activationHours' });
    await ctx.database.db.update(usageTranches).set({ amount: 600 }).where(eq(usageTranches.userId, ownerId));
  });

  it('lets only the owner wake or sleep a Voice, and only a trained one', async () => {
    const stranger = ctx.client();
    await stranger.register();
    expect((await stranger.post(`/api/loras/${voice._id}/activate`)).statusCode).toBe(404);
    await owner.patch(`/api/loras/${voice._id}`, { isPublic: true });
    expect((await stranger.post(`/api/loras/${voice._id}/activate`)).statusCode).toBe(403);
    expect((await stranger.post(`/api/loras/${voice._id}/deactivate`)).statusCode).toBe(403);
    await owner.patch(`/api/loras/${voice._id}`, { isPublic: false });
  });
});

describe('sharing and deleting', () => {
  it('forks a public Voice into a private copy the forker can wake', async () => {
    await owner.patch(`/api/loras/${voice._id}`, { isPublic: true });
    const forker = ctx.client();
    await forker.register();
    const listed = (await forker.get('/api/loras/public')).json();
    expect(listed.find((v: Voice) => v._id === voice._id)).toMatchObject({ isOwner: false });
    const fork = await forker.post(`/api/loras/${voice._id}/fork`);
    expect(fork.statusCode, fork.body).toBe(201);
    expect(fork.json()).toMatchObject({ status: 'ready', isPublic: false, isOwner: true });
    // The measures come along; the samples, which quote the owner's writing, do not.
    expect(fork.json().evaluation).toEqual({ ...voice.evaluation, samples: [] });
    // Having a Voice moves onboarding past "training started", as training one does.
    expect((await forker.get('/api/auth/me')).json().user.onboarding.step).toBe('training_started');
    const woke = await forker.post(`/api/loras/${fork.json()._id}/activate`);
    expect(woke.json().status).toBe('active');
    await forker.post(`/api/loras/${fork.json()._id}/deactivate`);
  });

  it('puts an awake Voice to sleep and removes its files when it is deleted', async () => {
    await owner.post(`/api/loras/${voice._id}/activate`);
    expect(await isLoaded(ctx, voice._id)).toBe(true);
    const res = await owner.request('DELETE', `/api/loras/${voice._id}`);
    expect(res.statusCode).toBe(200);
    expect(await isLoaded(ctx, voice._id)).toBe(false);
    expect(existsSync(path.join(ctx.config.artifactDir, 'voices', voice._id))).toBe(false);
  });
});

describe('a training that fails', () => {
  it('ends failed with its message, never stuck in training, and gives the training back', async () => {
    const client = ctx.client();
    await client.register();
    await worker.stop();
    const res = await client.upload('/api/loras', { fields: { name: 'Doomed', text: writingSample(21_000, 0.4) } });
    expect(res.statusCode).toBe(201);
    const trainingsLeft = async () =>
      (await client.get('/api/auth/me'))
        .json()
        .user.usageLimits.modelsTrained.reduce((n: number, t: { amount: number }) => n + t.amount, 0);
    expect(await trainingsLeft()).toBe(2);
    // The uploaded writing vanishes from under the trainer (a disk fault, not the user's doing).
    rmSync(path.join(ctx.config.artifactDir, 'voices', res.json()._id, 'uploads'), { recursive: true, force: true });
    worker = await ctx.startWorker();
    const failed = await waitFor(client, res.json()._id, (v) => v.status === 'failed' || v.status === 'ready', 60_000);
    expect(failed.status).toBe('failed');
    expect(failed.statusMessage).toMatch(/^Training failed: /);
    expect(await trainingsLeft()).toBe(3);
  });
});
