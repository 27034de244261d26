// A trained Voice in seconds, for tests that use one rather than test training: a LoRA trained
// for a few steps on the house model (real trainer, real adapter file), stored as a ready Voice.
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  readTrainedAdapter,
  rewritePrompt,
  TRAINING_PRESETS,
  train,
  writeGgufAdapter,
  writePeftAdapter,
} from '@ownvoice/engine';
import { and, eq } from 'drizzle-orm';
import { users, type VoiceRow, voices } from '../db/schema.js';
import { newId } from '../ids.js';
import { carriedBase, recordedBase, type VoiceBaseColumns } from '../services/voice-base-model.js';
import { adapterFolderKey, PEFT_FOLDER } from '../storage/voice-files.js';
import type { ServiceTestContext } from './service-context.js';
import type { TestContext } from './test-app.js';
import { writingSample } from './writing.js';

/** What a quick Voice is made in: a service test's context, or a route test's (its app's platform). */
type VoiceWorld = Pick<ServiceTestContext, 'platform' | 'config' | 'clock' | 'database'>;
const worldOf = (ctx: TestContext | VoiceWorld): VoiceWorld =>
  'app' in ctx ? { ...ctx, platform: ctx.app.platform } : ctx;

/** An owner of a Voice has passed training_started, as creating or forking one moves them. */
async function reachTrainingStarted(ctx: VoiceWorld, userId: string): Promise<void> {
  await ctx.database.db
    .update(users)
    .set({ onboardingStep: 'training_started' })
    .where(and(eq(users.id, userId), eq(users.onboardingStep, 'registered')));
}

export async function quickVoice(context: TestContext | VoiceWorld, userId: string, name = 'Quick'): Promise<VoiceRow> {
  const ctx = worldOf(context);
  const { platform } = ctx;
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
  const adapter = readTrainedAdapter(trained.adapterPath);
  writeGgufAdapter(path.join(outDir, 'voice-quick.gguf'), adapter);
  // Beside it, the PEFT export, as a trained Voice has.
  writePeftAdapter(path.join(outDir, PEFT_FOLDER), adapter, runtime.hparams, platform.engine.model().name);
  // Trained now on this server's base model, and recorded so, as a training records it.
  const base = recordedBase(await platform.baseModel.identity());
  return insertReadyVoice(ctx, userId, id, name, { ...base, trainedAt: ctx.clock.now() });
}

/** A registered owner with a quick Voice, woken; `status` is what the wake call answered. */
export async function ownerWithAwakeVoice(ctx: TestContext) {
  const owner = ctx.client();
  const ownerId: string = (await owner.register()).res.json().user.id;
  const voice = await quickVoice(ctx, ownerId);
  const status: string = (await owner.post(`/api/loras/${voice.id}/activate`)).json().status;
  return { owner, ownerId, voice, status };
}

/** A new ready Voice of `userId` with its own copy of `source`'s adapter file (no training). */
export async function copyVoice(
  context: TestContext | VoiceWorld,
  userId: string,
  source: VoiceRow,
  name = 'Copy',
): Promise<VoiceRow> {
  const ctx = worldOf(context);
  const { storage } = ctx.platform;
  if (!source.adapterKey) throw new Error('the source Voice has no adapter');
  const id = newId();
  const outDir = storage.localPath(adapterFolderKey(id));
  mkdirSync(outDir, { recursive: true });
  copyFileSync(storage.localPath(source.adapterKey), path.join(outDir, 'voice-quick.gguf'));
  return insertReadyVoice(ctx, userId, id, name, { ...carriedBase(source), trainedAt: source.trainedAt });
}

/** The row of a ready Voice whose adapter is already in its folder; the owner reaches training_started, as creating one would. */
async function insertReadyVoice(
  ctx: VoiceWorld,
  userId: string,
  id: string,
  name: string,
  trained: VoiceBaseColumns & Pick<VoiceRow, 'trainedAt'>,
): Promise<VoiceRow> {
  const [row] = await ctx.database.db
    .insert(voices)
    .values({
      id,
      userId,
      name,
      status: 'ready',
      progress: 100,
      adapterKey: `${adapterFolderKey(id)}/voice-quick.gguf`,
      ...trained,
    })
    .returning();
  await reachTrainingStarted(ctx, userId);
  return row as VoiceRow;
}
