// An API key that may wake Voices wakes a sleeping Voice it is asked to write with, checked and
// charged as a wake on the dashboard (decision 45); a key that may not, and a Voice still training,
// are refused with what to do; a wake slower than the request waits answers 503 with Retry-After.
import { createdApiKeySchema } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageTranches, users, type VoiceRow, voices } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { errorAnswer } from '../../plugins/error-handler.js';
import { awakeVoice } from '../../services/voice-access.js';
import { createVoice } from '../../test/factories/voices.js';
import { quickVoice } from '../../test/quick-voice.js';
import { createTestContext, newAccount, type TestClient, type TestContext } from '../../test/test-app.js';

const PASSWORD = newAccount().password;
const TEXT = 'The committee met on Tuesday evening and agreed to move the spring fair to the school field.';

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;
let voice: VoiceRow;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = ctx.client();
  ownerId = (await owner.register()).res.json().user.id;
  voice = await quickVoice(ctx, ownerId);
}, 300_000);
afterAll(() => ctx.close());

async function keyThat(wakesVoices: boolean | undefined) {
  const res = await owner.post('/api/auth/api-keys', {
    currentPassword: PASSWORD,
    name: `Wakes ${wakesVoices}`,
    scopes: ['convert', 'create'],
    ...(wakesVoices === undefined ? {} : { wakesVoices }),
  });
  expect(res.statusCode, res.body).toBe(201);
  return createdApiKeySchema.parse(res.json());
}

const convertWith = (secret: string, id: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/loras/${id}/convert`,
    headers: { authorization: `Bearer ${secret}` },
    payload: { text: TEXT },
  });

const statusOf = async (id: string) =>
  (await ctx.database.db.select().from(voices).where(eq(voices.id, id)))[0]?.status;

const minutesLeft = async () =>
  (await owner.get('/api/auth/me'))
    .json()
    .user.usageLimits.activationHours.reduce((n: number, t: { amount: number }) => n + t.amount, 0) * 60;

describe('a key asked to write with a sleeping Voice', () => {
  it('is refused when it may not wake Voices, and says how to let it', async () => {
    const { key, secret } = await keyThat(false);
    expect(key.wakesVoices).toBe(false);
    const res = await convertWith(secret, voice.id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VOICE_NOT_READY' });
    expect(res.json().msg).toMatch(/may not wake Voices.*make a key that may wake Voices/);
    expect(await statusOf(voice.id)).toBe('ready');
  });

  it('wakes it when it may (the default), writes, and its awake time is charged as a wake on the dashboard', async () => {
    const { key, secret } = await keyThat(undefined);
    expect(key.wakesVoices).toBe(true);
    const before = await minutesLeft();
    const res = await convertWith(secret, voice.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().text.length).toBeGreaterThan(0);
    expect(await statusOf(voice.id)).toBe('active');
    ctx.clock.advance(5 * 60_000);
    await ctx.app.platform.services.activation.tick();
    expect(await minutesLeft()).toBe(before - 5);
    // The key list says which keys wake Voices.
    const listed = (await owner.get('/api/auth/api-keys')).json().keys;
    expect(listed.find((k: { id: string }) => k.id === key.id)).toMatchObject({ wakesVoices: true });
    await owner.post(`/api/loras/${voice.id}/deactivate`);
    expect(await statusOf(voice.id)).toBe('ready');
  });

  it('is refused without waking hours, and the Voice stays asleep', async () => {
    const { secret } = await keyThat(true);
    const tranches = await ctx.database.db.select().from(usageTranches).where(eq(usageTranches.userId, ownerId));
    await ctx.database.db.update(usageTranches).set({ amount: 0 }).where(eq(usageTranches.userId, ownerId));
    try {
      const res = await convertWith(secret, voice.id);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ reason: 'insufficient_limit', limitType: 'activationHours' });
      expect(await statusOf(voice.id)).toBe('ready');
    } finally {
      for (const t of tranches) {
        await ctx.database.db.update(usageTranches).set({ amount: t.amount }).where(eq(usageTranches.id, t.id));
      }
    }
  });

  it('calls a Voice in training training, not asleep, and does not try to wake it', async () => {
    const { secret } = await keyThat(true);
    const training = await createVoice(ctx, ownerId, { name: 'Still learning', status: 'training' });
    const res = await convertWith(secret, training.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('This Voice is still training. It can write once its training has finished.');
  });
});

describe('awakeVoice for a key', () => {
  it('answers 503 with Retry-After when the wake takes longer than the request waits, and the wake goes on', async () => {
    const { repositories } = ctx.app.platform.services;
    let finished = false;
    const slowWake = {
      activate: () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            finished = true;
            resolve();
          }, 200),
        ),
    };
    const deps = {
      voices: repositories.voices,
      inference: ctx.app.platform.inference,
      activation: slowWake,
      wakeWaitMs: 20,
    };
    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, ownerId));
    if (!user) throw new Error('no owner');
    const refused = await awakeVoice(deps, { user, apiKey: { id: 'k', wakesVoices: true } }, voice.id).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 503, code: 'VOICE_WAKING', details: { retryAfterSeconds: 5 } });
    // Answered with Retry-After, as vLLM and Ollama answer while a model loads.
    const answer = errorAnswer(refused as AppError, { server: ctx.app } as unknown as FastifyRequest);
    expect(answer).toMatchObject({ status: 503, retryAfterSeconds: 5, body: { code: 'VOICE_WAKING' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(finished).toBe(true);
  });
});
