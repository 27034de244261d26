// A trained Voice in seconds, for tests that use one rather than test training: a LoRA trained
// for a few steps on the house model (real trainer, real adapter file, once per test process),
// stored as a ready Voice with its own copy of the adapter.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** A quick Voice's adapter file, for llama.cpp; its PEFT export is beside it (PEFT_FOLDER). */
const QUICK_ADAPTER = 'voice-quick.gguf';

/**
 * Each base model's quick adapter, trained once per test process (a worker keeps its modules from
 * one file to the next) in a folder of its own: every quick Voice gets a copy. Trained anew for
 * each Voice, the 22 quick Voices of the server's tests took 46 s of CPU (the trainer's start,
 * torch's import, six steps); none of them asks for an adapter of its own.
 */
const quickAdapters = new Map<string, Promise<string>>();
/** This process's folder of them. */
let quickAdaptersDir: string | undefined;

/**
 * Where a test run keeps what its processes share: the run's folder in vitest, which the run removes
 * (run-folder.setup.ts); outside it (the benches) a folder of this process's, removed at its exit.
 */
async function runFolder(): Promise<string> {
  if (process.env.VITEST) return (await import('vitest')).inject('runFolder');
  const folder = mkdtempSync(path.join(tmpdir(), 'ownvoice-bench-run-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

async function trainQuickAdapter(platform: VoiceWorld['platform']): Promise<string> {
  quickAdaptersDir ??= mkdtempSync(path.join(await runFolder(), 'quick-adapters-'));
  const parent = quickAdaptersDir;
  const runtime = (await platform.engine.get()).runtime;
  const passages = writingSample(3000, 0.45)
    .split(/\n{2,}/)
    .filter((p) => p.length > 80);
  const examples = passages.map((p) => ({
    input: runtime.tokenize(rewritePrompt(p)),
    target: [...runtime.tokenize(p), runtime.eosToken],
  }));
  const outDir = mkdtempSync(path.join(parent, 'adapter-'));
  const trained = await train({
    mode: 'lora',
    modelPath: platform.engine.model().path,
    workDir: path.join(outDir, 'work'),
    train: examples,
    preset: TRAINING_PRESETS.tiny,
    padId: runtime.eosToken,
    maxSteps: 6,
  });
  if (!trained.adapterPath) throw new Error('the trainer returned no adapter');
  const adapter = readTrainedAdapter(trained.adapterPath);
  writeGgufAdapter(path.join(outDir, QUICK_ADAPTER), adapter);
  // Beside it, the PEFT export, as a trained Voice has.
  writePeftAdapter(path.join(outDir, PEFT_FOLDER), adapter, runtime.hparams, platform.engine.model().name);
  rmSync(path.join(outDir, 'work'), { recursive: true, force: true });
  return outDir;
}

/** This process's quick adapter for the platform's base model, trained on first use. */
function quickAdapter(platform: VoiceWorld['platform']): Promise<string> {
  const { path: modelPath, name } = platform.engine.model();
  const key = `${modelPath}\n${name}`;
  let adapter = quickAdapters.get(key);
  if (!adapter) {
    adapter = trainQuickAdapter(platform);
    // A failed training is tried again by the next quick Voice.
    adapter.catch(() => quickAdapters.delete(key));
    quickAdapters.set(key, adapter);
  }
  return adapter;
}

export async function quickVoice(context: TestContext | VoiceWorld, userId: string, name = 'Quick'): Promise<VoiceRow> {
  const ctx = worldOf(context);
  const { platform } = ctx;
  if (platform.baseModel.status.state !== 'ready') {
    await platform.baseModel.start({ spec: 'tiny', dataDir: ctx.config.dataDir, log: () => {} });
  }
  const source = await quickAdapter(platform);
  const id = newId();
  const outDir = platform.storage.localPath(adapterFolderKey(id));
  mkdirSync(outDir, { recursive: true });
  copyFileSync(path.join(source, QUICK_ADAPTER), path.join(outDir, QUICK_ADAPTER));
  cpSync(path.join(source, PEFT_FOLDER), path.join(outDir, PEFT_FOLDER), { recursive: true });
  // Trained on this server's base model, and recorded so, as a training records it.
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
  copyFileSync(storage.localPath(source.adapterKey), path.join(outDir, QUICK_ADAPTER));
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
      adapterKey: `${adapterFolderKey(id)}/${QUICK_ADAPTER}`,
      ...trained,
    })
    .returning();
  await reachTrainingStarted(ctx, userId);
  return row as VoiceRow;
}
