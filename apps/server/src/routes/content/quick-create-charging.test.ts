// Quick Create's charge under hostile clients, by the one rule (decision 37): a reader who hangs
// up once some of the rewrite reached them in the Voice is charged; one who hangs up before (with
// the plan, or the draft, and nothing in the Voice) is not. A draft none of whose rewrite came
// out in the Voice is not charged. And a refused request costs no file parsing: the Voice and the
// balance are checked before the reference file is read.
import { type CreateEvent, isFailedRewrite } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UserRow, users, type VoiceRow } from '../../db/schema.js';
import { ContentService } from '../../services/content.service.js';
import { ConversionService } from '../../services/conversion.service.js';
import { shortContentLeft } from '../../test/account-state.js';
import { copyVoice, ownerWithAwakeVoice } from '../../test/quick-voice.js';
import { openStream, rewriteChunksOf } from '../../test/streams.js';
import { createTestContext, encodeMultipart, type TestClient, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;
let voice: VoiceRow;

beforeAll(async () => {
  ctx = await createTestContext();
  let status: string;
  ({ owner, ownerId, voice, status } = await ownerWithAwakeVoice(ctx));
  expect(status).toBe('active');
}, 300_000);
afterAll(() => ctx.close());

/** Hangs up once `reached(body)` holds, before the stream completes. */
async function generateThenHangUp(reached: (body: string) => boolean) {
  const { payload, contentType } = encodeMultipart({
    fields: {
      prompt: 'A blog post about our school’s spring fair moving to the field',
      format: 'blog_post',
      selectedLora: voice.id,
    },
  });
  const stream = await openStream(ctx, owner, '/api/content/generate-stream', { body: payload, contentType });
  await expect.poll(() => reached(stream.body()), { timeout: 20_000, interval: 20 }).toBe(true);
  expect(stream.body()).not.toContain('"type":"complete"');
  stream.hangUp();
  await stream.done;
}

/**
 * The balance once the stream's own clean-up (a refund, if any) has run, which it does when the
 * server sees the hang-up: asked until it is `expected` (a busy machine took over a second), then
 * asked again a moment later, so a late change is still seen.
 */
async function settledBalance(expected: number): Promise<number> {
  await expect.poll(() => shortContentLeft(owner), { timeout: 15_000 }).toBe(expected);
  await new Promise((r) => setTimeout(r, 500));
  return shortContentLeft(owner);
}

describe('a reader who hangs up during Quick Create', () => {
  it('is charged once part of the rewrite reached them in the Voice', async () => {
    const before = await shortContentLeft(owner);
    await generateThenHangUp((body) => rewriteChunksOf(body).some((text) => !isFailedRewrite(text)));
    expect(await settledBalance(before - 1)).toBe(before - 1);
  }, 30_000);

  it('is not charged when only the draft reached them', async () => {
    const before = await shortContentLeft(owner);
    await generateThenHangUp((body) => body.split('"type":"content_chunk"').length > 5);
    expect(await settledBalance(before)).toBe(before);
  }, 30_000);

  it('is not charged when only the plan reached them', async () => {
    const before = await shortContentLeft(owner);
    await generateThenHangUp((body) => body.includes('"type":"thinking"'));
    expect(await settledBalance(before)).toBe(before);
  }, 30_000);
});

describe('checks before the reference file is read', () => {
  it('refuses a sleeping or unknown Voice before reading an unreadable reference file', async () => {
    const asleep = await copyVoice(ctx, ownerId, voice, 'Asleep');
    const broken = { field: 'referenceFile', name: 'notes.pdf', data: 'this is not a PDF at all' };
    const sleeping = await owner.upload('/api/content/generate-stream', {
      fields: { prompt: 'Hello', selectedLora: asleep.id },
      files: [broken],
    });
    expect(sleeping.statusCode).toBe(400);
    expect(sleeping.json().code).toBe('VOICE_NOT_READY');
    const unknown = await owner.upload('/api/content/generate-stream', {
      fields: { prompt: 'Hello', selectedLora: 'a'.repeat(24) },
      files: [broken],
    });
    expect(unknown.statusCode).toBe(404);
    // With the Voice awake, the same file is read, and refused for what it is.
    const awake = await owner.upload('/api/content/generate-stream', {
      fields: { prompt: 'Hello', selectedLora: voice.id },
      files: [broken],
    });
    expect(awake.statusCode).toBe(400);
    expect(awake.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('a draft whose rewrite failed in every part', () => {
  it('gives the short content back, and says which parts failed', async () => {
    const { services, inference } = ctx.app.platform;
    // Every attempt at every chunk rejected: the rewrite ends in error markers only.
    const conversion = new ConversionService(services.activation, services.usage, inference, {
      maxAttempts: 2,
      preset: undefined,
      judge: () => ({ ok: false, reason: 'rejected for the test' }),
    });
    const content = new ContentService(conversion, services.activation, services.usage, inference);
    const user = (await ctx.database.db.select().from(users).where(eq(users.id, ownerId)))[0] as UserRow;
    const before = await shortContentLeft(owner);
    const prepared = await content.prepareQuick(
      { user, apiKey: null },
      {
        voiceId: voice.id,
        prompt: 'A short note about the spring fair',
        format: 'blog_post',
        reference: undefined,
      },
    );
    const events: CreateEvent[] = [];
    for await (const event of prepared.events(new AbortController().signal)) events.push(event);
    expect(events.at(-1)?.type).toBe('complete');
    const chunks = new Map<number, string>();
    for (const event of events) {
      if (event.type === 'chunk') chunks.set(event.chunkIndex, (chunks.get(event.chunkIndex) ?? '') + event.text);
      if (event.type === 'chunk_reroll') chunks.set(event.chunkIndex, '');
    }
    expect(chunks.size).toBeGreaterThan(0);
    expect([...chunks.values()].every(isFailedRewrite)).toBe(true);
    expect(await shortContentLeft(owner)).toBe(before);
  }, 120_000);
});
