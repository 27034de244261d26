// A trained Voice in seconds, for tests that use one rather than test training: a LoRA trained
// for a few steps on the house model (real trainer, real adapter file), stored as a ready Voice.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { readTrainedAdapter, rewritePrompt, TRAINING_PRESETS, train, writeGgufAdapter } from '@ownvoice/engine';
import { type VoiceRow, voices } from '../db/schema.js';
import { newId } from '../ids.js';
import { adapterFolderKey } from '../workers/training-worker.js';
import type { TestContext } from './test-app.js';
import { writingSample } from './writing.js';

export async function quickVoice(ctx: TestContext, userId: string, name = 'Quick'): Promise<VoiceRow> {
  const { platform } = ctx.app;
  if (platform.baseModel.status.state !== 'ready') {
    await platform.baseModel.start({ spec: 'tiny', dataDir: ctx.config.dataDir, log: () => {} });
  }
  const engine = await platform.engine.get();
  const runtime = engine.runtime;
  const passages = writingSample(3000, 0.45)
    .split(/\n{2,}/)
    .filter((p) => p.length > 80);
  const examples = passages.map((p) => ({
    input: runtime.tokenize(rewritePrompt(p)),
    target: [...runtime.tokenize(p), runtime.eosToken],
  }));
  const id = newId();
  const outDir = platform.storage.localPath(adapterFolderKey(id));
  mkdirSync(outDir, { recursive: true });
  const trained = await train({
    mode: 'lora',
    modelPath: platform.engine.model().path,
    workDir: path.join(ctx.config.dataDir, 'quick-voice', id),
    train: examples,
    preset: TRAINING_PRESETS.tiny,
    padId: runtime.eosToken,
    maxSteps: 6,
  });
  if (!trained.adapterPath) throw new Error('the trainer returned no adapter');
  writeGgufAdapter(path.join(outDir, 'voice-quick.gguf'), readTrainedAdapter(trained.adapterPath));
  const [row] = await ctx.database.db
    .insert(voices)
    .values({
      id,
      userId,
      name,
      status: 'ready',
      progress: 100,
      adapterKey: `${adapterFolderKey(id)}/voice-quick.gguf`,
    })
    .returning();
  return row as VoiceRow;
}

/** A registered owner with a quick Voice, woken; `status` is what the wake call answered. */
export async function ownerWithAwakeVoice(ctx: TestContext) {
  const owner = ctx.client();
  const ownerId: string = (await owner.register()).res.json().user.id;
  const voice = await quickVoice(ctx, ownerId);
  const status: string = (await owner.post(`/api/loras/${voice.id}/activate`)).json().status;
  return { owner, ownerId, voice, status };
}
