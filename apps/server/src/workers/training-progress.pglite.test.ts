// The time left that a training Voice's answers carry: a real training on the house model
// through the queue, with the test's clock moved a quarter second at each progress report, so
// the run's pace (and the estimate) comes from the reports rather than from this machine's speed;
// and when the training ended, which a Voice records by that clock. Then the countdown between
// reports, on a Voice row alone.
// On PGlite only: the estimate comes from the trainer's reports, not from the database, and a
// whole training is too slow to run twice in CI.
import { PROGRESS_EVENT_PERCENT, trainingEventsSchema, type Voice, voiceSchema } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { voices } from '../db/schema.js';
import { newId } from '../ids.js';
import { createTestContext, type TestClient, type TestContext } from '../test/test-app.js';
import { writingSample } from '../test/writing.js';
import { TRAINED_MESSAGE } from './run-training.js';

const REPORT_MS = 250;

let ctx: TestContext;
let owner: TestClient;
let ownerId: string;

const getVoice = async (id: string): Promise<Voice> => {
  const res = await owner.get(`/api/loras/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return voiceSchema.parse(res.json());
};

beforeAll(async () => {
  ctx = await createTestContext();
  owner = ctx.client();
  ownerId = (await owner.register()).res.json().user.id;
});
afterAll(() => ctx.close());

describe('a training Voice’s time left', () => {
  const seen: Voice[] = [];
  let done: Voice;

  beforeAll(async () => {
    await ctx.startWorker({ onProgress: () => ctx.clock.advance(REPORT_MS) });
    const res = await owner.upload('/api/loras', { fields: { name: 'Estimated', text: writingSample(21_000, 0.4) } });
    expect(res.statusCode, res.body).toBe(201);
    const id: string = res.json()._id;
    const deadline = Date.now() + 400_000;
    for (;;) {
      const v = await getVoice(id);
      seen.push(v);
      if (v.status === 'ready' || v.status === 'failed') break;
      if (Date.now() > deadline) throw new Error(`timed out; last state ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    done = seen.at(-1) as Voice;
  }, 600_000);

  it('estimates once the run has a pace, and the estimate falls as the run goes on', () => {
    expect(done.status, done.statusMessage ?? '').toBe('ready');
    const training = seen.filter((v) => v.status === 'training');
    // Before the first paraphrases set a pace there is none.
    expect(training.some((v) => v.etaSeconds === null && v.estimatedDoneAt === null)).toBe(true);
    const estimates = training.filter((v) => v.etaSeconds !== null);
    expect(estimates.length).toBeGreaterThan(5);
    expect(new Set(estimates.map((v) => v.stage))).toContain('train');
    for (const v of estimates) {
      expect(v.etaSeconds).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(Date.parse(v.estimatedDoneAt ?? ''))).toBe(false);
    }
    const [first, last] = [estimates[0] as Voice, estimates.at(-1) as Voice];
    expect(last.etaSeconds).toBeLessThan(first.etaSeconds as number);
    // Once a pace is measured it is kept: no answer goes back to estimating.
    const from = training.indexOf(first);
    expect(training.slice(from).every((v) => v.etaSeconds !== null)).toBe(true);
  });

  it('drops the estimate once the Voice is ready, which its card says', () => {
    expect(done).toMatchObject({ progress: 100, etaSeconds: null, estimatedDoneAt: null, stage: null });
    expect(done.statusMessage).toBe(TRAINED_MESSAGE);
  });

  it('records when the training ended: at its last report, where the clock stopped', async () => {
    const [row] = await ctx.database.db.select().from(voices).where(eq(voices.id, done._id));
    expect(row?.trainedAt).toEqual(ctx.clock.now());
  });
  it('writes the training’s events: queued, each stage, its progress and the end, newest last', async () => {
    const res = await owner.get(`/api/loras/${done._id}/training-events`);
    expect(res.statusCode, res.body).toBe(200);
    const events = trainingEventsSchema.parse(res.json());
    expect(events[0]).toMatchObject({ stage: 'queued', level: 'info' });
    expect(events.at(-1)).toMatchObject({ stage: 'succeeded', level: 'info' });
    const stages = [...new Set(events.map((e) => e.stage))];
    expect(stages).toEqual(['queued', 'extract', 'pairs', 'train', 'export', 'evaluate', 'succeeded']);
    const steps = events.filter((e) => e.stage === 'train' && e.step !== undefined);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((e) => (e.totalSteps ?? 0) >= (e.step ?? 0))).toBe(true);
    expect(events.some((e) => e.estimatedDoneAt !== undefined)).toBe(true);
    // Every PROGRESS_EVENT_PERCENT, not every report: a handful per stage at most.
    expect(events.length).toBeLessThan(5 + 100 / PROGRESS_EVENT_PERCENT + 7);
    const times = events.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((x, y) => x - y));
  });
});

it('counts the time left down between reports, to 0 once the estimate has passed', async () => {
  const id = newId();
  const doneAt = new Date(ctx.clock.now().getTime() + 90_000);
  await ctx.database.db
    .insert(voices)
    .values({ id, userId: ownerId, name: 'Counting', status: 'training', stage: 'train', estimatedDoneAt: doneAt });
  expect(await getVoice(id)).toMatchObject({ etaSeconds: 90, estimatedDoneAt: doneAt.toISOString() });
  ctx.clock.advance(30_500);
  expect((await getVoice(id)).etaSeconds).toBe(60);
  ctx.clock.advance(120_000);
  expect((await getVoice(id)).etaSeconds).toBe(0);
  // The list answers the same.
  const listed = (await owner.get('/api/loras')).json() as Voice[];
  expect(listed.find((v) => v._id === id)).toMatchObject({ etaSeconds: 0 });
});
