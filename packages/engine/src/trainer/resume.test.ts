// Proof: a training killed half way (SIGKILL, no chance to clean up) resumes from its last
// checkpoint and finishes, and a cancelled one (SIGTERM) saves where it was.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomModelWithSampleTokens, tempDir } from '../test/fixtures.js';
import type { TrainerEvent } from './python.js';
import { TRAINING_PRESETS, type TrainingExample, train } from './train.js';

let dir: string;
let basePath: string;
let examples: TrainingExample[];

beforeAll(async () => {
  dir = tempDir();
  let all: number[];
  ({ basePath, tokens: all } = await randomModelWithSampleTokens(dir));
  examples = [];
  for (let i = 0; i + 24 <= all.length; i += 4)
    examples.push({ input: all.slice(i, i + 4), target: all.slice(i + 4, i + 24) });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (workDir: string) => ({
  mode: 'lora' as const,
  modelPath: basePath,
  workDir,
  train: examples,
  preset: { ...TRAINING_PRESETS.tiny, batchSize: 2 },
  padId: 0,
  maxSteps: 16,
  checkpointEvery: 4,
  threads: 2,
});

describe('training resumes', () => {
  it('after the trainer is killed half way', async () => {
    const workDir = path.join(dir, 'killed');
    let pid = 0;
    let killedAt = 0;
    const first = train({
      ...request(workDir),
      onEvent: (e: TrainerEvent) => {
        if (e.event === 'start') pid = Number(e.pid);
        if (e.event === 'checkpoint' && Number(e.step) >= 8 && !killedAt) {
          killedAt = Number(e.step);
          process.kill(pid, 'SIGKILL');
        }
      },
    });
    await expect(first).rejects.toThrow(/SIGKILL/);
    expect(killedAt).toBe(8);

    const starts: TrainerEvent[] = [];
    const result = await train({ ...request(workDir), onEvent: (e) => e.event === 'start' && starts.push(e) });
    expect(starts[0]?.resumed_from).toBe(8);
    expect(result.steps).toBe(16);
    expect(result.adapterPath).toBeTruthy();
  });

  it('after a cancellation, which saves a checkpoint first', async () => {
    const workDir = path.join(dir, 'cancelled');
    const controller = new AbortController();
    const first = train({
      ...request(workDir),
      signal: controller.signal,
      onProgress: (p) => p.step === 6 && controller.abort(),
    });
    await expect(first).rejects.toThrow(/cancelled/);
    const starts: TrainerEvent[] = [];
    const result = await train({ ...request(workDir), onEvent: (e) => e.event === 'start' && starts.push(e) });
    expect(Number(starts[0]?.resumed_from)).toBeGreaterThanOrEqual(6);
    expect(result.steps).toBe(16);
  });

  it('but starts afresh when the settings changed', async () => {
    const workDir = path.join(dir, 'changed');
    await train({ ...request(workDir), maxSteps: 4 });
    const starts: TrainerEvent[] = [];
    await train({ ...request(workDir), maxSteps: 6, onEvent: (e) => e.event === 'start' && starts.push(e) });
    expect(starts[0]?.resumed_from).toBe(0);
  });
});
