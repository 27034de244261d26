// A Voice's life under hostile timing: put to sleep, deleted, or its owner's account deleted
// while a conversion streams from it (the stream ends with an error event, the server lives
// on); wakes and sleeps racing each other (the database, the metering and the inference
// endpoint agree after every round); and a wake that fails says what to do without showing a
// server path.
import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type VoiceRow, voices } from '../../db/schema.js';
import { isLoaded } from '../../test/inference.js';
import { copyVoice, quickVoice } from '../../test/quick-voice.js';
import { jsonBody, openStream, streamEvents } from '../../test/streams.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';
import { writingSample } from '../../test/writing.js';

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;
let source: VoiceRow;
/** About 30,000 characters: a conversion that runs far longer than any round below. */
const LONG_TEXT = writingSample(30_000, 0.2);

beforeAll(async () => {
  ctx = await createTestContext();
  owner = ctx.client();
  ownerId = (await owner.register()).res.json().user.id;
  source = await quickVoice(ctx, ownerId, 'Source');
}, 300_000);
afterAll(() => ctx.close());

const rowOf = async (id: string) => (await ctx.database.db.select().from(voices).where(eq(voices.id, id)))[0];

/** Wakes a Voice, starts a long conversion on it and waits until the Voice is writing. */
async function convertingOn(client: TestClient, voice: VoiceRow) {
  const woke = await client.post(`/api/loras/${voice.id}/activate`);
  expect(woke.json().status, woke.body).toBe('active');
  const stream = await openStream(ctx, client, `/api/loras/${voice.id}/convert-stream`, jsonBody({ text: LONG_TEXT }));
  await stream.seen();
  return stream;
}

/** The stream ended with an error event saying why, and the service still answers. */
async function expectStoppedWith(stream: Awaited<ReturnType<typeof convertingOn>>, message: RegExp) {
  const events = streamEvents(await stream.done);
  expect(events.at(-1)).toEqual({ type: 'error', code: 'VOICE_NOT_READY', error: expect.stringMatching(message) });
  expect((await ctx.client().get('/api/health')).statusCode).toBe(200);
}

describe('a Voice put to sleep or deleted while it converts', () => {
  it('ends the stream with an error event, frees the Voice and keeps the server up, round after round', async () => {
    for (let round = 0; round < 12; round++) {
      const kind = (['sleep', 'delete', 'account'] as const)[round % 3];
      if (kind === 'sleep') {
        const voice = (await rowOf(source.id)) as VoiceRow;
        const stream = await convertingOn(owner, voice);
        const slept = await owner.post(`/api/loras/${voice.id}/deactivate`);
        expect(slept.json().status, slept.body).toBe('ready');
        await expectStoppedWith(stream, /put to sleep/);
        expect(await isLoaded(ctx, voice.id)).toBe(false);
      } else if (kind === 'delete') {
        const voice = await copyVoice(ctx, ownerId, source);
        const stream = await convertingOn(owner, voice);
        const deleted = await owner.delete(`/api/loras/${voice.id}`);
        expect(deleted.statusCode, deleted.body).toBeLessThan(300);
        await expectStoppedWith(stream, /deleted/);
        expect(await isLoaded(ctx, voice.id)).toBe(false);
      } else {
        const client = ctx.client();
        const { account, res } = await client.register();
        const voice = await copyVoice(ctx, res.json().user.id, source);
        const stream = await convertingOn(client, voice);
        const gone = await client.delete('/api/auth/account', { password: account.password });
        expect(gone.statusCode, gone.body).toBeLessThan(300);
        await expectStoppedWith(stream, /deleted/);
        expect(await isLoaded(ctx, voice.id)).toBe(false);
      }
    }
  }, 120_000);
});

describe('wakes and sleeps racing each other', () => {
  it('leave the database, the metering and the inference endpoint in agreement', async () => {
    const voice = await copyVoice(ctx, ownerId, source, 'Racer');
    const hours = async () =>
      (await owner.get('/api/auth/me'))
        .json()
        .user.usageLimits.activationHours.reduce((n: number, t: { amount: number }) => n + t.amount, 0);
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 120; round++) {
      const calls = Array.from({ length: 2 + Math.floor(random() * 3) }, () =>
        random() < 0.5 ? 'activate' : 'deactivate',
      );
      await Promise.all(
        calls.map(async (call, i) => {
          // Staggered by a few event-loop turns so that every interleaving gets its turn.
          for (let n = 0; n < i * Math.floor(random() * 4); n++) await new Promise((r) => setImmediate(r));
          const res = await owner.post(`/api/loras/${voice.id}/${call}`);
          expect(res.statusCode, res.body).toBe(200);
        }),
      );
      const row = (await rowOf(voice.id)) as VoiceRow;
      expect(['active', 'ready'], `round ${round}`).toContain(row.status);
      expect(await isLoaded(ctx, voice.id), `round ${round}: ${row.status}`).toBe(row.status === 'active');
      expect(row.meteredUntil !== null, `round ${round}: metered while ${row.status}`).toBe(row.status === 'active');
      expect(row.inferenceEndpoint !== null, `round ${round}: placed while ${row.status}`).toBe(
        row.status === 'active',
      );
    }
    // Asleep, it is not charged however long the clock runs.
    await owner.post(`/api/loras/${voice.id}/deactivate`);
    const before = await hours();
    ctx.clock.advance(5 * 60_000);
    await ctx.app.platform.services.activation.tick();
    expect(await hours()).toBe(before);
  }, 120_000);
});

describe('a wake that fails', () => {
  it('says what to do and shows no server path', async () => {
    const voice = await copyVoice(ctx, ownerId, source, 'Broken');
    rmSync(ctx.app.platform.storage.localPath(voice.adapterKey as string));
    const res = await owner.post(`/api/loras/${voice.id}/activate`);
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('ENGINE_UNAVAILABLE');
    expect(res.json().msg).toMatch(/could not be woken/);
    expect(res.body).not.toContain(ctx.config.dataDir);
    expect(res.body).not.toMatch(/\/[\w.-]+\/[\w.-]+/);
    expect((await rowOf(voice.id))?.status).toBe('ready');
  });
});
