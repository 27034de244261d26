// Inference runs in a process of its own (the embedded endpoint the API server supervises). Proof
// that losing it costs a restart, not the service:
// - killed with SIGKILL in the middle of a Convert: the stream ends with an error event saying what
//   happened, the API keeps answering, the process is started again, the Voice is loaded on it
//   again and converts, and waking hours are charged exactly (the time it was down is free);
// - dying as llama.cpp dies when it aborts on a model file (SIGABRT): the same, without the API
//   noticing beyond the restart;
// - a Voice unloaded from the process behind the API's back: found at the next metering round, a
//   Convert or a wake, loaded again, and never charged for the time it was gone;
// - crashing (SIGSEGV) while a Voice writes: that Voice is put to sleep and not woken again by
//   the restart, so a hostile adapter cannot crash the process over and over for everyone.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type VoiceRow, voices } from '../../db/schema.js';
import { ADAPTER_MISSING, EMBEDDED_ENDPOINT, STOPPED_MIDWAY } from '../../inference/inference-host.js';
import { CRASH_QUARANTINE_MS, SLEEP_MESSAGES } from '../../services/activation.service.js';
import { shortContentLeft } from '../../test/account-state.js';
import { embeddedEndpoint, isLoaded } from '../../test/inference.js';
import { ownerWithAwakeVoice } from '../../test/quick-voice.js';
import { jsonBody, openStream, streamEvents } from '../../test/streams.js';
import type { TestClient, TestContext } from '../../test/test-app.js';
import { createTestContext, encodeMultipart } from '../../test/test-app.js';
import { writingSample } from '../../test/writing.js';

const MINUTE = 60_000;
/** A conversion that runs far longer than the test waits before killing the process. */
const LONG_TEXT = writingSample(30_000, 0.2);

let ctx: TestContext;
let owner: TestClient;
let voice: VoiceRow;

beforeAll(async () => {
  ctx = await createTestContext();
  const awake = await ownerWithAwakeVoice(ctx);
  expect(awake.status).toBe('active');
  owner = awake.owner;
  voice = awake.voice;
}, 300_000);
afterAll(() => ctx.close());

const inference = () => ctx.app.platform.inference;
const rowOf = async () => (await ctx.database.db.select().from(voices).where(eq(voices.id, voice.id)))[0] as VoiceRow;
const hoursLeft = async () =>
  (await owner.get('/api/auth/me'))
    .json()
    .user.usageLimits.activationHours.reduce((n: number, t: { amount: number }) => n + t.amount, 0) as number;

/** Kills the embedded process and waits until it is found down, then back with the Voice loaded again. */
async function killAndRecover(signal: NodeJS.Signals, whileDown: () => Promise<void> = async () => {}) {
  const pid = inference().embeddedPid as number;
  expect(pid).toBeGreaterThan(0);
  process.kill(pid, signal);
  await expect.poll(() => inference().isUp(EMBEDDED_ENDPOINT), { timeout: 10_000 }).toBe(false);
  // The API answers while inference is down.
  expect((await ctx.client().get('/api/health')).statusCode).toBe(200);
  await whileDown();
  await expect.poll(() => inference().isUp(EMBEDDED_ENDPOINT), { timeout: 60_000, interval: 200 }).toBe(true);
  expect(inference().embeddedPid).not.toBe(pid);
  await expect.poll(() => isLoaded(ctx, voice.id), { timeout: 30_000, interval: 200 }).toBe(true);
  const row = await rowOf();
  expect(row.status).toBe('active');
  expect(row.inferenceEndpoint).toBe(EMBEDDED_ENDPOINT);
}

async function convertsAgain() {
  const res = await owner.post(`/api/loras/${voice.id}/convert-stream`, { text: writingSample(400, 0.2) });
  expect(res.statusCode, res.body).toBe(200);
  expect(streamEvents(res.body).at(-1)).toEqual({ type: 'complete' });
}

describe('the inference process killed in the middle of a Convert', () => {
  it('ends the stream with a clear error, keeps the API up, restarts inference and wakes the Voice again', async () => {
    const stream = await openStream(ctx, owner, `/api/loras/${voice.id}/convert-stream`, jsonBody({ text: LONG_TEXT }));
    await stream.seen();
    await killAndRecover('SIGKILL');
    const events = streamEvents(await stream.done);
    expect(events.at(-1)).toEqual({ type: 'error', code: 'ENGINE_UNAVAILABLE', error: STOPPED_MIDWAY });
    await convertsAgain();
  }, 180_000);

  it('ends a Create whose draft was reaching the person, gives its short content back, and says so', async () => {
    const before = await shortContentLeft(owner);
    const { payload, contentType } = encodeMultipart({
      fields: { prompt: 'A long essay on the history of our town’s river', format: 'article', selectedLora: voice.id },
    });
    const stream = await openStream(ctx, owner, '/api/content/generate-stream', { body: payload, contentType });
    await stream.seen('"type":"content_chunk"');
    await killAndRecover('SIGKILL');
    const events = streamEvents(await stream.done);
    expect(events.some((e) => e.type === 'content_chunk')).toBe(true);
    // Nothing came out in the Voice: the last event says it was given back (decision 37).
    expect(events.at(-1)).toEqual({ type: 'error', code: 'ENGINE_UNAVAILABLE', error: STOPPED_MIDWAY, charged: 0 });
    expect(await shortContentLeft(owner)).toBe(before);
  }, 180_000);

  it('charges waking hours for the time the Voice could be used, never for the time it was down', async () => {
    // Metering from a clean start: asleep, then woken at a known time.
    await owner.post(`/api/loras/${voice.id}/deactivate`);
    expect((await owner.post(`/api/loras/${voice.id}/activate`)).json().status).toBe('active');
    const before = await hoursLeft();
    const activation = ctx.app.platform.services.activation;

    // 3 min 30 s awake: the tick charges the 3 whole minutes.
    ctx.clock.advance(3 * MINUTE + 30_000);
    await activation.tick();
    expect(await hoursLeft()).toBeCloseTo(before - 3 / 60, 6);

    // Down for 10 minutes (the clock moves while no Voice can write): nothing is charged for it,
    // not even by a tick that runs meanwhile.
    await killAndRecover('SIGKILL', async () => {
      ctx.clock.advance(10 * MINUTE);
      await activation.tick();
    });
    expect(await hoursLeft()).toBeCloseTo(before - 3 / 60, 6);

    // The 30 s left over before the loss carry on: one more minute later, 1 min 30 s uncharged
    // make one whole minute. 4 in all, for 4 min 30 s of use.
    ctx.clock.advance(MINUTE);
    await activation.tick();
    expect(await hoursLeft()).toBeCloseTo(before - 4 / 60, 6);
    await convertsAgain();
  }, 180_000);
});

describe('the inference process aborting (as llama.cpp does on some malformed files)', () => {
  it('takes down only the inference process: the API answers, and the Voice is back after the restart', async () => {
    const me = await owner.get('/api/auth/me');
    await killAndRecover('SIGABRT');
    // The same session still works: nothing of the API was lost.
    expect((await owner.get('/api/auth/me')).json().user.id).toBe(me.json().user.id);
    await convertsAgain();
  }, 180_000);
});

describe('a Voice unloaded from the inference process behind the API server', () => {
  const unloadBehindTheBack = async () => {
    await (await embeddedEndpoint(ctx)).unloadAdapter(voice.id);
    expect(await isLoaded(ctx, voice.id)).toBe(false);
    expect((await rowOf()).status).toBe('active');
  };

  it('is found at the next metering round, loaded again, and not charged for the time it was gone', async () => {
    await owner.post(`/api/loras/${voice.id}/deactivate`);
    expect((await owner.post(`/api/loras/${voice.id}/activate`)).json().status).toBe('active');
    const before = await hoursLeft();
    const activation = ctx.app.platform.services.activation;
    ctx.clock.advance(2 * MINUTE);
    await activation.tick();
    expect(await hoursLeft()).toBeCloseTo(before - 2 / 60, 6);

    await unloadBehindTheBack();
    ctx.clock.advance(5 * MINUTE);
    await activation.tick();
    // Not charged for the 5 minutes it could not write, and back in the process.
    expect(await hoursLeft()).toBeCloseTo(before - 2 / 60, 6);
    expect(await isLoaded(ctx, voice.id)).toBe(true);
    expect((await rowOf()).status).toBe('active');

    ctx.clock.advance(MINUTE);
    await activation.tick();
    expect(await hoursLeft()).toBeCloseTo(before - 3 / 60, 6);
    await convertsAgain();
  }, 180_000);

  it('tells a Convert on it what happened, and is loaded again for the next one', async () => {
    await unloadBehindTheBack();
    const res = await owner.post(`/api/loras/${voice.id}/convert-stream`, { text: writingSample(400, 0.2) });
    const last = res.statusCode === 200 ? streamEvents(res.body).at(-1) : res.json();
    expect(JSON.stringify(last)).toContain(ADAPTER_MISSING);
    await expect.poll(() => isLoaded(ctx, voice.id), { timeout: 30_000, interval: 200 }).toBe(true);
    await convertsAgain();
  }, 180_000);

  it('is loaded again when its owner wakes it', async () => {
    await unloadBehindTheBack();
    expect((await owner.post(`/api/loras/${voice.id}/activate`)).json().status).toBe('active');
    expect(await isLoaded(ctx, voice.id)).toBe(true);
    await convertsAgain();
  }, 180_000);
});

describe('a Voice running when the inference process crashes (SIGSEGV, as llama.cpp did on a hostile adapter)', () => {
  it('is put to sleep and kept asleep: not loaded again after the restart, its page says why, a wake waits an hour', async () => {
    expect((await rowOf()).status).toBe('active');
    const stream = await openStream(ctx, owner, `/api/loras/${voice.id}/convert-stream`, jsonBody({ text: LONG_TEXT }));
    await stream.seen();
    process.kill(inference().embeddedPid as number, 'SIGSEGV');
    expect(streamEvents(await stream.done).at(-1)).toEqual({
      type: 'error',
      code: 'ENGINE_UNAVAILABLE',
      error: STOPPED_MIDWAY,
    });
    await expect.poll(async () => (await rowOf()).status, { timeout: 30_000 }).toBe('ready');
    expect((await rowOf()).statusMessage).toBe(SLEEP_MESSAGES.crashed);
    await expect.poll(() => inference().isUp(EMBEDDED_ENDPOINT), { timeout: 60_000, interval: 200 }).toBe(true);
    expect(await isLoaded(ctx, voice.id)).toBe(false);
    expect((await rowOf()).status).toBe('ready');

    const refused = await owner.post(`/api/loras/${voice.id}/activate`);
    expect([refused.statusCode, refused.json().code]).toEqual([400, 'VOICE_NOT_READY']);
    expect(refused.json().msg).toContain('crashed the writing service');
    ctx.clock.advance(CRASH_QUARANTINE_MS);
    expect((await owner.post(`/api/loras/${voice.id}/activate`)).json().status).toBe('active');
    await convertsAgain();
  }, 180_000);
});
