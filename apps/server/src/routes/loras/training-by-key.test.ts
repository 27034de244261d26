// Training by API (issue 59): a key with the 'training' scope creates a Voice from an upload,
// follows it, cancels its training (the Voice fails, the training is given back), and takes
// packages home and back; a key without the scope is refused each of these. No worker runs here,
// so a created Voice stays queued (pending); training-cancel.test.ts stops a running one.
import { TRAINING_EVENTS_KEPT, trainingEventsSchema, voiceSchema } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voices } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';
import { writingSample } from '../../test/writing.js';

let ctx: TestContext;
let owner: TestClient;
let trainingKey: TestClient;
let readKey: TestClient;
let ownerId: string;

const trainingsLeft = async () =>
  (await owner.get('/api/auth/me'))
    .json()
    .user.usageLimits.modelsTrained.reduce((n: number, t: { amount: number }) => n + t.amount, 0);

async function keyWith(scopes: string[]): Promise<TestClient> {
  const made = await owner.createApiKey({ name: scopes.join(' '), scopes });
  expect(made.statusCode, made.body).toBe(201);
  const client = ctx.client();
  client.token = made.json().secret;
  return client;
}

const upload = (client: TestClient, name: string) =>
  client.upload('/api/loras', { fields: { name, text: writingSample(21_000, 0.2) } });

beforeAll(async () => {
  ctx = await createTestContext();
  owner = ctx.client();
  ownerId = (await owner.register()).res.json().user.id;
  trainingKey = await keyWith(['training']);
  readKey = await keyWith(['voices:read', 'convert', 'create']);
});
afterAll(() => ctx.close());

describe("a key with the 'training' scope", () => {
  it('creates a Voice from an upload, follows it and cancels its training, which gives the training back', async () => {
    const before = await trainingsLeft();
    const created = await upload(trainingKey, 'By key');
    expect(created.statusCode, created.body).toBe(201);
    const voice = voiceSchema.parse(created.json());
    expect(voice.status).toBe('pending');
    expect(await trainingsLeft()).toBe(before - 1);

    const followed = await trainingKey.get(`/api/loras/${voice._id}`);
    expect(followed.statusCode, followed.body).toBe(200);

    const cancelled = await trainingKey.post(`/api/loras/${voice._id}/cancel-training`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'failed', statusMessage: 'Training was cancelled.' });
    expect(await trainingsLeft()).toBe(before);

    // Its events, as OpenAI's fine-tuning job events, newest last.
    const events = await trainingKey.get(`/api/loras/${voice._id}/training-events`);
    expect(events.statusCode, events.body).toBe(200);
    expect(trainingEventsSchema.parse(events.json()).map((e) => [e.stage, e.level, e.message])).toEqual([
      ['queued', 'info', 'Training queued'],
      ['cancelled', 'warn', 'Training was cancelled.'],
    ]);

    // Once: a second cancel is refused and gives nothing back again.
    const again = await trainingKey.post(`/api/loras/${voice._id}/cancel-training`);
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ code: 'VOICE_NOT_TRAINING', msg: expect.stringMatching(/not training/) });
    expect(await trainingsLeft()).toBe(before);
  });

  it('cancels by session as well, and only its owner may', async () => {
    const created = await upload(owner, 'By session');
    const id: string = created.json()._id;
    const stranger = ctx.client();
    await stranger.register();
    expect((await stranger.post(`/api/loras/${id}/cancel-training`)).statusCode).toBe(404);
    const cancelled = await owner.post(`/api/loras/${id}/cancel-training`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().status).toBe('failed');
    // Another person sees neither the Voice nor its events.
    expect((await stranger.get(`/api/loras/${id}/training-events`)).statusCode).toBe(404);
    expect((await owner.get(`/api/loras/${id}/training-events`)).json()).toHaveLength(2);
  });

  it('refuses a malformed Voice id with a clear 400', async () => {
    const res = await trainingKey.post('/api/loras/not-an-id/cancel-training');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });
});

describe("a key without the 'training' scope", () => {
  it('may not create, cancel, download or import, and says which scope it lacks', async () => {
    const created = await upload(owner, 'Owned');
    const id: string = created.json()._id;
    for (const res of [
      await upload(readKey, 'Refused'),
      await readKey.post(`/api/loras/${id}/cancel-training`),
      await readKey.get(`/api/loras/${id}/package`),
      await readKey.post('/api/loras/import', {}),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'API_KEY_SCOPE', msg: expect.stringContaining('"training"') });
    }
    // Reading stays open to 'voices:read', the events too.
    expect((await readKey.get(`/api/loras/${id}`)).statusCode).toBe(200);
    expect((await readKey.get(`/api/loras/${id}/training-events`)).statusCode).toBe(200);
    expect((await owner.get(`/api/loras/${id}`)).json().status).toBe('pending');
  });
});

describe('the events a Voice keeps', () => {
  it('keeps the latest TRAINING_EVENTS_KEPT, in the order written', async () => {
    // A row of its own: this account's trainings are spent by now.
    const id = newId();
    await ctx.database.db.insert(voices).values({ id, userId: ownerId, name: 'Chatty', status: 'training' });
    for (let i = 0; i < TRAINING_EVENTS_KEPT + 5; i++) {
      await ctx.app.platform.services.trainingEvents.record(id, { stage: 'train', message: `step ${i}`, step: i });
    }
    const events = trainingEventsSchema.parse((await owner.get(`/api/loras/${id}/training-events`)).json());
    expect(events).toHaveLength(TRAINING_EVENTS_KEPT);
    expect(events.at(0)?.message).toBe('step 5');
    expect(events.at(-1)).toMatchObject({
      message: `step ${TRAINING_EVENTS_KEPT + 4}`,
      step: TRAINING_EVENTS_KEPT + 4,
    });
  });
});
