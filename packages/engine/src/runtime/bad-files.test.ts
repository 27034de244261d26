// Proof: corrupt, truncated and wrong-architecture models and adapters are rejected with clear
// errors before llama.cpp sees them (llama.cpp aborts the whole process on some of them), and
// the process survives to serve the next request.
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrainedAdapter, writeGgufAdapter } from '../adapters/export.js';
import { writeSafetensors } from '../adapters/safetensors.js';
import { readGguf } from '../gguf/reader.js';
import { GgmlType } from '../gguf/types.js';
import { writeGguf } from '../gguf/writer.js';
import { SAMPLE_TEXT, smallHparams, tempDir, writeRandomModel } from '../test/fixtures.js';
import { LlamaRuntime } from './llama-runtime.js';

let dir: string;
let basePath: string;
let runtime: LlamaRuntime;

type Kv = ReturnType<typeof readGguf>['kv'];
type Tensor = ReturnType<typeof readGguf>['tensors'][number];

/** Rewrites a GGUF file (float32 tensors) with its metadata and each tensor's header edited, its bytes as they were. */
function rewritten(from: string, name: string, edit: { kv?: (kv: Kv) => Kv; tensor?: (t: Tensor) => Tensor }) {
  const g = readGguf(from);
  const raw = readFileSync(from);
  const file = path.join(dir, `${name}.gguf`);
  writeGguf(
    file,
    (edit.kv ?? ((kv) => kv))(g.kv),
    g.tensors.map((t) => {
      const start = g.dataOffset + t.offset;
      const n = t.dims.reduce((a, b) => a * b, 1) * 4;
      return { ...(edit.tensor ?? ((x) => x))(t), data: raw.subarray(start, start + n) };
    }),
  );
  return file;
}

/** Rewrites the base model with some metadata entries dropped or changed. */
const variant = (name: string, kv: (kv: Kv) => Kv) => rewritten(basePath, name, { kv });

beforeAll(async () => {
  dir = tempDir();
  basePath = writeRandomModel(dir, smallHparams());
  runtime = await LlamaRuntime.load({ modelPath: basePath });
});
afterAll(async () => {
  await runtime.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('bad model files', () => {
  it('are rejected with a message naming the problem', async () => {
    const truncated = path.join(dir, 'truncated.gguf');
    writeFileSync(truncated, readFileSync(basePath).subarray(0, 20_000));
    const cases: [string, RegExp][] = [
      [truncated, /truncated/],
      [path.join(dir, 'nope.gguf'), /Cannot open/],
      [
        variant('no-heads', (kv) => kv.filter((e) => e.key !== 'llama.attention.head_count')),
        /llama\.attention\.head_count/,
      ],
      [
        variant('no-ffn', (kv) => kv.filter((e) => e.key !== 'llama.feed_forward_length')),
        /llama\.feed_forward_length/,
      ],
      [
        variant('gpt2', (kv) => kv.map((e) => (e.key === 'general.architecture' ? { ...e, value: 'gpt2' } : e))),
        /gpt2 model; OwnVoice supports llama and qwen2/,
      ],
      [variant('no-vocab', (kv) => kv.filter((e) => e.key !== 'tokenizer.ggml.tokens')), /no tokenizer/],
    ];
    for (const [file, message] of cases) {
      await expect(LlamaRuntime.load({ modelPath: file }), path.basename(file)).rejects.toThrow(message);
    }
  });
});

describe('bad adapters', () => {
  it('are rejected, and the runtime keeps serving', async () => {
    // An adapter trained for a model of another shape.
    const otherBase = smallHparams({ nEmbd: 32, headDim: 8 });
    const rank = 2;
    const tensors = new Map([
      [
        'blk.0.attn_q.weight.lora_a',
        { shape: [rank, otherBase.nEmbd], data: new Float32Array(rank * otherBase.nEmbd) },
      ],
      [
        'blk.0.attn_q.weight.lora_b',
        { shape: [otherBase.nEmbd, rank], data: new Float32Array(rank * otherBase.nEmbd) },
      ],
    ]);
    const st = path.join(dir, 'other.safetensors');
    writeSafetensors(st, tensors, { arch: 'llama', rank: String(rank), alpha: '4' });
    const mismatched = path.join(dir, 'mismatched.gguf');
    writeGgufAdapter(mismatched, readTrainedAdapter(st));

    const truncated = path.join(dir, 'truncated-adapter.gguf');
    writeFileSync(truncated, readFileSync(mismatched).subarray(0, 300));
    const notAdapter = path.join(dir, 'base-as-adapter.gguf');
    copyFileSync(basePath, notAdapter);

    // One that fits the base, then retyped (a hostile package: llama.cpp crashed on I32 tensors)
    // and with its alpha zeroed.
    const base = smallHparams();
    const fitting = path.join(dir, 'fitting.safetensors');
    writeSafetensors(
      fitting,
      new Map([
        ['blk.0.attn_q.weight.lora_a', { shape: [rank, base.nEmbd], data: new Float32Array(rank * base.nEmbd) }],
        ['blk.0.attn_q.weight.lora_b', { shape: [base.nEmbd, rank], data: new Float32Array(rank * base.nEmbd) }],
      ]),
      { arch: 'llama', rank: String(rank), alpha: '4' },
    );
    const good = path.join(dir, 'fitting.gguf');
    writeGgufAdapter(good, readTrainedAdapter(fitting));
    const retyped = rewritten(good, 'i32', { tensor: (t) => ({ ...t, type: GgmlType.I32 }) });
    const halved = rewritten(good, 'f16', { tensor: (t) => ({ ...t, type: GgmlType.F16 }) });
    const noAlpha = rewritten(good, 'alpha', {
      kv: (kv) => kv.map((e) => (e.key === 'adapter.lora.alpha' ? { ...e, value: 0 } : e)),
    });

    const cases: [string, RegExp][] = [
      [retyped, /lora_a is I32; a Voice's adapter holds F32 tensors/],
      [halved, /is F16; a Voice's adapter holds F32 tensors/],
      [noAlpha, /adapter\.lora\.alpha is 0; it must be above 0/],
      [mismatched, /does not fit/],
      [truncated, /truncated/],
      // A base model's header is far larger than an adapter's: refused before it is read through.
      [notAdapter, /tokenizer\.ggml\.tokens\) with a length of \d+, above the 256 a file of its kind may hold/],
      [path.join(dir, 'missing-adapter.gguf'), /Cannot open/],
    ];
    for (const [file, message] of cases) {
      await expect(runtime.logits([1, 2, 3], file), path.basename(file)).rejects.toThrow(message);
    }
    const logits = await runtime.logits(runtime.tokenize(SAMPLE_TEXT.slice(0, 40)));
    expect(logits.length).toBeGreaterThan(3);
  });
});
