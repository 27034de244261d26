// A worker killed mid-training (SIGKILL: no chance to clean up) loses its lease; another worker
// sends the job back to the queue and resumes the training from its checkpoint, without
// paraphrasing the writing again. The killed worker is a separate `worker.ts` process sharing
// the database (PostgreSQL, or PGlite through its socket server) and the artifact folder.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VoiceProgress } from '@ownvoice/engine';
import { voiceSchema } from '@ownvoice/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../clock.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { writingSample } from '../test/writing.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
let ctx: TestContext;
let child: ChildProcess | undefined;
let childLog = '';

beforeAll(async () => {
  ctx = await createTestContext(
    // 40 passages, not the tests' 16: 36 steps an epoch, so that the trainer's first checkpoint
    // (at step 25) comes while it still trains, and the kill finds it training.
    { training: { preset: 'tiny', inProcessWorker: false, leaseSeconds: 5, presetChanges: { maxPassages: 40 } } },
    { clock: systemClock },
  );
});
afterAll(async () => {
  // Our own child's process group, if a failed test left it running.
  if (child?.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
  await ctx.close();
});

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${childLog.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

it('resumes a training whose worker was killed, from its checkpoint', async () => {
  const client = ctx.client();
  await client.register();
  const created = await client.upload('/api/loras', { fields: { name: 'Resumed', text: writingSample(21_000, 0.2) } });
  expect(created.statusCode, created.body).toBe(201);
  const id: string = created.json()._id;
  const checkpoint = path.join(ctx.config.artifactDir, 'voices', id, 'work', 'lora', 'checkpoint.pt');

  // A worker process of its own, in its own process group so its trainer dies with it.
  child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: SERVER_DIR,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: await ctx.database.connectionString(),
      OWNVOICE_DATA_DIR: ctx.config.dataDir,
      OWNVOICE_ARTIFACT_DIR: ctx.config.artifactDir,
      OWNVOICE_BASE_MODEL: 'tiny',
      OWNVOICE_TRAIN_PRESET: 'tiny',
      OWNVOICE_TRAINING_LEASE_SECONDS: '5',
      // The test context's settings: the worker that resumes trains with them too.
      OWNVOICE_TRAINING_EPOCHS: String(ctx.config.training.presetChanges.epochs),
      OWNVOICE_TRAINING_PASSAGES: String(ctx.config.training.presetChanges.maxPassages),
      OWNVOICE_EVALUATION_PARAGRAPHS: String(ctx.config.training.presetChanges.evaluationParagraphs),
    },
  });
  child.stdout?.on('data', (d: Buffer) => {
    childLog += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    childLog += d.toString();
  });

  await until('the first checkpoint', async () => (existsSync(checkpoint) ? true : undefined), 300_000);
  const before = voiceSchema.parse((await client.get(`/api/loras/${id}`)).json());
  expect(before).toMatchObject({ status: 'training', stage: 'train' });
  process.kill(-(child.pid as number), 'SIGKILL');
  await new Promise((r) => child?.once('exit', r));

  // Another worker takes over once the dead one's lease lapses.
  const reports: VoiceProgress[] = [];
  await ctx.startWorker({ leaseSeconds: 5, onProgress: (_, p) => reports.push(p) });
  const done = await until(
    'the resumed training to finish',
    async () => {
      const v = voiceSchema.parse((await client.get(`/api/loras/${id}`)).json());
      return v.status === 'ready' || v.status === 'failed' ? v : undefined;
    },
    300_000,
  );
  expect(done.status, done.statusMessage ?? '').toBe('ready');
  expect(done.evaluation?.heldOut.voicePerplexity).toBeLessThan(done.evaluation?.heldOut.basePerplexity ?? 0);
  // It resumed: the paraphrases were not written again, and training picked up past step 1.
  expect(reports.some((r) => r.message.startsWith('Writing plain versions'))).toBe(false);
  const firstStep = Number(reports.find((r) => r.stage === 'train')?.message.match(/step (\d+)/)?.[1]);
  expect(firstStep).toBeGreaterThan(1);
}, 700_000);
