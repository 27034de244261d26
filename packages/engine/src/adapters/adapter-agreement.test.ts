// Proofs for trained adapters, on a small random llama model with grouped-query attention:
//  1. llama.cpp with the exported GGUF adapter gives the trainer's logits with the adapter;
//  2. llama.cpp on the merged weights W + (alpha/r)·B·A gives the same logits again;
//  3. the PEFT export, applied to the base model in Hugging Face layout (un-permuted q/k rows,
//     rotate-half RoPE), gives the trainer's logits, so vLLM and transformers serve the same Voice;
//  4. both, taken out of a Voice package (voice-package.ts) as a person downloads it, still do.
// Tolerance as in forward-agreement: max |difference| <= 2e-3 x the largest logit.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { VoicePackageManifest } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelHparams } from '../gguf/model-spec.js';
import { readGguf } from '../gguf/reader.js';
import { LlamaRuntime } from '../runtime/llama-runtime.js';
import { SAMPLE_TEXT, smallHparams, tempDir, trainQuickAdapter, writeRandomModel } from '../test/fixtures.js';
import { compareLogits, trainerLogits } from '../test/logits.js';
import { buildVoicePackage } from '../voice/voice-package.js';
import { importVoicePackage } from '../voice/voice-package-import.js';
import { readTrainedAdapter, writeGgufAdapter, writePeftAdapter } from './export.js';
import { mergeAdapter } from './merge.js';

let dir: string;
let basePath: string;
let runtime: LlamaRuntime;
let tokens: number[];
let adapterSafetensors: string;
const adapterGguf = () => path.join(dir, 'voice-v1.gguf');

beforeAll(async () => {
  dir = tempDir();
  basePath = writeRandomModel(dir, smallHparams({ nHeadKv: 2 }));
  runtime = await LlamaRuntime.load({ modelPath: basePath });
  const all = runtime.tokenize(SAMPLE_TEXT);
  tokens = all.slice(0, 48);
  // A short, hot run: enough to move B well away from zero so the adapter matters.
  adapterSafetensors = await trainQuickAdapter(dir, basePath, all);
  writeGgufAdapter(adapterGguf(), readTrainedAdapter(adapterSafetensors));
});

afterAll(async () => {
  await runtime?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('a trained LoRA adapter', () => {
  it('changes the logits, and llama.cpp with the GGUF adapter matches the trainer', async () => {
    const V = runtime.hparams.nVocab;
    const torchBase = await trainerLogits(dir, 'forward', { model: basePath }, tokens, V);
    const torchVoice = await trainerLogits(dir, 'forward', { model: basePath, adapter: adapterSafetensors }, tokens, V);
    const llamaVoice = await runtime.logits(tokens, adapterGguf());
    const effect = compareLogits(torchVoice, torchBase);
    expect(effect.maxDiff).toBeGreaterThan(0.5); // the adapter really changes the model
    const { maxDiff, maxAbs } = compareLogits(torchVoice, llamaVoice);
    expect(maxDiff).toBeLessThan(2e-3 * maxAbs);
  });

  it('gives the same logits in llama.cpp as the base with merged weights W + (alpha/r)·B·A', async () => {
    const mergedPath = path.join(dir, 'merged.gguf');
    mergeAdapter(basePath, readTrainedAdapter(adapterSafetensors), mergedPath);
    const merged = await LlamaRuntime.load({ modelPath: mergedPath });
    try {
      const fromMerged = await merged.logits(tokens);
      const fromAdapter = await runtime.logits(tokens, adapterGguf());
      const { maxDiff, maxAbs } = compareLogits(fromAdapter, fromMerged);
      expect(maxDiff).toBeLessThan(2e-3 * maxAbs);
    } finally {
      await merged.dispose();
    }
  });

  it('exports to PEFT so that the Hugging Face layout gives the trainer’s logits', async () => {
    const peftDir = path.join(dir, 'peft');
    const base = modelHparams(readGguf(basePath), basePath);
    writePeftAdapter(peftDir, readTrainedAdapter(adapterSafetensors), base, 'ownvoice/test-base');
    const V = runtime.hparams.nVocab;
    const torchVoice = await trainerLogits(dir, 'forward', { model: basePath, adapter: adapterSafetensors }, tokens, V);
    const hfVoice = await trainerLogits(dir, 'peft-forward', { model: basePath, peft_dir: peftDir }, tokens, V);
    const { maxDiff, maxAbs } = compareLogits(torchVoice, hfVoice);
    expect(maxDiff).toBeLessThan(1e-4 * maxAbs);
  });

  it('loads both from a Voice package as downloaded: the GGUF in llama.cpp, the PEFT export in HF layout', async () => {
    const peftDir = path.join(dir, 'peft-for-package');
    const base = modelHparams(readGguf(basePath), basePath);
    writePeftAdapter(peftDir, readTrainedAdapter(adapterSafetensors), base, 'ownvoice/test-base');
    const manifest: VoicePackageManifest = {
      format: 'ownvoice-voice',
      version: 1,
      voice: { name: 'Test', characters: null, trainedAt: new Date(0).toISOString() },
      baseModel: { file: path.basename(basePath), sha256: '0'.repeat(64), bytes: 1, huggingFace: null },
      training: { preset: 'tiny', rank: 4, alpha: 8, targetModules: [] },
      evaluation: null,
      prompt: '{text}',
      exportedBy: { app: 'OwnVoice', version: 'test' },
    };
    // Unpacked as an import does: checked in its child process, its PEFT config rewritten.
    const packagePath = path.join(dir, 'voice.zip');
    writeFileSync(packagePath, await buildVoicePackage(manifest, { ggufPath: adapterGguf(), peftDir }));
    const out = path.join(dir, 'unpacked');
    const job = { packagePath, folder: out, ggufName: 'voice.gguf', base, baseSha256: '0'.repeat(64) };
    await importVoicePackage({ ...job, baseModelName: 'ownvoice/test-base' }, { owner: 'test', bytes: 1 });

    const V = runtime.hparams.nVocab;
    const torchVoice = await trainerLogits(dir, 'forward', { model: basePath, adapter: adapterSafetensors }, tokens, V);
    const llamaVoice = await runtime.logits(tokens, path.join(out, 'voice.gguf'));
    const llama = compareLogits(torchVoice, llamaVoice);
    expect(llama.maxDiff).toBeLessThan(2e-3 * llama.maxAbs);
    const hfVoice = await trainerLogits(
      dir,
      'peft-forward',
      { model: basePath, peft_dir: path.join(out, 'peft') },
      tokens,
      V,
    );
    const hf = compareLogits(torchVoice, hfVoice);
    expect(hf.maxDiff).toBeLessThan(1e-4 * hf.maxAbs);
  });
});
