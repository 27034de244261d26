// A Voice package's PEFT export where people load one: transformers reads the real base model
// (SmolLM2-135M-Instruct, Q4_1) from its GGUF file (`gguf_file=`, dequantized to float32), peft puts
// the package's adapter on it, and the logits are llama.cpp's with the package's GGUF adapter, within
// the rounding llama.cpp does to activations (real-model-harness.test.ts: 5e-2 x the largest logit). The
// adapter is random but moves the logits well past that bound, so an export mistake shows: q_proj's
// rows left in llama.cpp's order moved them 3.5, against 0.95 exported right, with a bound of 1.6
// (2026-12-06). Runs where a Python can import torch, transformers, peft and gguf
// (OWNVOICE_PEFT_PYTHON names one: `npm test` makes it once per machine with
// scripts/reference-python.sh, pinned versions from PyPI beside Debian's torch 1.13, so in CI it
// runs; OwnVoice itself never needs these packages), and says it is skipped elsewhere. float32 is
// asked for as `torch_dtype`, the name transformers 4.x takes and 5.x still accepts: `dtype` came
// in 4.56, which needs torch 2.1, and the pinned 4.47.1 is the newest that runs on torch 1.13.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { VoicePackageManifest } from '@ownvoice/shared';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMOLLM2_135M } from '../base-model/packaged-model.js';
import { LlamaRuntime } from '../runtime/llama-runtime.js';
import { tempDir, writeRandomAdapterFolder } from '../test/fixtures.js';
import { compareLogits } from '../test/logits.js';
import { REAL_MODEL, REAL_MODEL_THREADS } from '../test/real-model.js';
import { rewritePrompt } from '../voice/prompts.js';
import { buildVoicePackage } from '../voice/voice-package.js';

const PEFT_PYTHON = [process.env.OWNVOICE_PEFT_PYTHON, 'python3', '/usr/bin/python3'].find(
  (python) =>
    python && spawnSync(python, ['-c', 'import torch, transformers, peft, gguf'], { stdio: 'ignore' }).status === 0,
);
const SKIPPED = !PEFT_PYTHON
  ? ' (skipped: no Python here imports torch, transformers, peft and gguf; OWNVOICE_PEFT_PYTHON names one)'
  : !REAL_MODEL
    ? ' (skipped: the real model is not on this machine)'
    : '';

/** Bound on |transformers - llama.cpp| as a share of the largest logit (see the top of the file). */
const ACTIVATION_ROUNDING_BOUND = 5e-2;

/** transformers with peft, offline: float32 logits of the tokens, written to `out`. */
const TRANSFORMERS_PEFT = `
import json, sys
import numpy as np, torch
from peft import PeftModel
from transformers import AutoModelForCausalLM
job = json.load(sys.stdin)
base = AutoModelForCausalLM.from_pretrained(job["dir"], gguf_file=job["file"], torch_dtype=torch.float32)
model = PeftModel.from_pretrained(base, job["peft"]).eval()
with torch.no_grad():
    logits = model(torch.tensor([job["tokens"]])).logits[0, :, : job["vocab"]]
logits.numpy().astype(np.float32).tofile(job["out"])
`;

let dir: string;
let runtime: LlamaRuntime;

describe.skipIf(SKIPPED !== '')(`a Voice package’s PEFT export in transformers with peft${SKIPPED}`, () => {
  beforeAll(async () => {
    dir = tempDir();
    runtime = await LlamaRuntime.load({ modelPath: REAL_MODEL as string, threads: REAL_MODEL_THREADS });
  });
  afterAll(async () => {
    await runtime?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gives llama.cpp’s logits with the GGUF adapter, on the base model read from its GGUF file', async () => {
    const { nVocab } = runtime.hparams;
    const adapter = writeRandomAdapterFolder(dir, runtime.hparams, { rank: 2, alpha: 512 });
    const manifest: VoicePackageManifest = {
      format: 'ownvoice-voice',
      version: 1,
      voice: { name: 'Test', characters: null, trainedAt: new Date(0).toISOString() },
      baseModel: {
        name: SMOLLM2_135M.name,
        file: SMOLLM2_135M.file,
        sha256: SMOLLM2_135M.sha256,
        bytes: SMOLLM2_135M.bytes,
        huggingFace: null,
      },
      training: { preset: 'tiny', rank: 2, alpha: 512, targetModules: ['q_proj', 'v_proj'] },
      evaluation: null,
      prompt: rewritePrompt('{text}'),
      exportedBy: { app: 'OwnVoice', version: 'test' },
    };
    // Unzipped as a person unzips the download.
    const unzipped = path.join(dir, 'package');
    const zip = await JSZip.loadAsync(await buildVoicePackage(manifest, adapter));
    for (const [name, entry] of Object.entries(zip.files)) {
      if (entry.dir) continue;
      mkdirSync(path.dirname(path.join(unzipped, name)), { recursive: true });
      writeFileSync(path.join(unzipped, name), await entry.async('nodebuffer'));
    }
    const config = JSON.parse(readFileSync(path.join(unzipped, 'peft/adapter_config.json'), 'utf8'));
    expect(config.base_model_name_or_path).toBe(SMOLLM2_135M.huggingFace);

    const tokens = runtime.tokenize(rewritePrompt('The committee met on Tuesday evening in the library.'));
    const llamaBase = await runtime.logits(tokens);
    const llamaVoice = await runtime.logits(tokens, path.join(unzipped, 'voice.gguf'));
    const out = path.join(dir, 'transformers.f32');
    execFileSync(PEFT_PYTHON as string, ['-c', TRANSFORMERS_PEFT], {
      input: JSON.stringify({
        dir: path.dirname(REAL_MODEL as string),
        file: path.basename(REAL_MODEL as string),
        peft: path.join(unzipped, 'peft'),
        tokens,
        vocab: nVocab,
        out,
      }),
      env: { ...process.env, HF_HUB_OFFLINE: '1' },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const raw = readFileSync(out);
    const all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
    const transformers = tokens.map((_, p) => all.slice(p * nVocab, (p + 1) * nVocab));

    const bound = ACTIVATION_ROUNDING_BOUND * compareLogits(llamaVoice, llamaBase).maxAbs;
    expect(compareLogits(llamaVoice, llamaBase).maxDiff).toBeGreaterThan(2 * bound); // the adapter matters
    expect(compareLogits(transformers, llamaVoice).maxDiff).toBeLessThan(bound);
  });
});
