// Proofs for trained adapters, on a small random llama model with grouped-query attention:
//  1. llama.cpp with the exported GGUF adapter gives the trainer's logits with the adapter;
//  2. llama.cpp on the merged weights W + (alpha/r)·B·A gives the same logits again, on an F32
//     base and on a quantized one (its projections merged into F16, the rest copied as they are);
//  3. the PEFT export, applied to the base model in Hugging Face layout (un-permuted q/k rows,
//     rotate-half RoPE), gives the trainer's logits, so vLLM and transformers serve the same Voice;
//  4. both, taken out of a Voice package (voice-package.ts) as a person downloads it, still do.
// Tolerance as in forward-agreement: max |difference| <= 2e-3 x the largest logit.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { VoicePackageManifest } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelHparams } from '../gguf/model-spec.js';
import { readGguf, readTensorBytes } from '../gguf/reader.js';
import { GgmlType } from '../gguf/types.js';
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
    mergeAdapter({ basePath, adapterPath: adapterGguf(), outPath: mergedPath, name: 'Test Voice' });
    expect(readGguf(mergedPath).kv.find((e) => e.key === 'general.name')?.value).toBe('Test Voice');
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

  it('merges into a quantized base as F16 projections, copying every other tensor byte for byte', async () => {
    // The same weights as the F32 base, their matrices in Q8_0: the adapter fits it as it is.
    const quantizedPath = writeRandomModel(dir, smallHparams({ nHeadKv: 2 }), {
      matrixType: GgmlType.Q8_0,
      name: 'quantized',
    });
    const mergedPath = path.join(dir, 'merged-q8.gguf');
    const { bytes } = mergeAdapter({ basePath: quantizedPath, adapterPath: adapterGguf(), outPath: mergedPath });
    const [base, merged, adapter] = [readGguf(quantizedPath), readGguf(mergedPath), readGguf(adapterGguf())];
    expect(merged.size).toBe(bytes);
    const targeted = new Set(adapter.tensors.map((t) => t.name.replace(/\.lora_[ab]$/, '')));
    expect(targeted.size).toBeGreaterThan(0);
    for (const t of base.tensors) {
      const out = merged.tensors.find((m) => m.name === t.name);
      expect(out?.dims).toEqual(t.dims);
      if (targeted.has(t.name)) {
        expect(out?.type).toBe(GgmlType.F16);
      } else {
        expect(out?.type).toBe(t.type);
        const copied = readTensorBytes(mergedPath, merged, t.name);
        expect(copied.equals(readTensorBytes(quantizedPath, base, t.name))).toBe(true);
      }
    }
    // The reference is the trainer's float32 forward pass on the dequantized base with the adapter.
    // llama.cpp rounds activations to 8 bits against a Q8_0 matrix and to 16 against F16, so each
    // file agrees within forward-agreement's allowance for its type; the merged F16 model comes
    // closer than the Q8_0 base with the adapter beside it, which is what it replaces.
    const V = runtime.hparams.nVocab;
    const reference = await trainerLogits(
      dir,
      'forward',
      { model: quantizedPath, adapter: adapterSafetensors },
      tokens,
      V,
    );
    const [quantized, fromMerged] = await Promise.all([
      LlamaRuntime.load({ modelPath: quantizedPath }),
      LlamaRuntime.load({ modelPath: mergedPath }),
    ]);
    try {
      const merged = compareLogits(reference, await fromMerged.logits(tokens));
      const adapted = compareLogits(reference, await quantized.logits(tokens, adapterGguf()));
      expect(merged.maxDiff).toBeLessThan(2e-2 * merged.maxAbs);
      expect(merged.maxDiff).toBeLessThan(adapted.maxDiff);
      // ...and the merge is what moved them: the quantized base alone is far off.
      expect(compareLogits(reference, await quantized.logits(tokens)).maxDiff).toBeGreaterThan(0.5);
    } finally {
      await Promise.all([quantized.dispose(), fromMerged.dispose()]);
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
