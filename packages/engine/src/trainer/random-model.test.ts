// The trainer's own GGUF writer (python/ownvoice_trainer/gguf_writer.py), which the GPU bench uses
// to make models of real shapes where no weights can be downloaded: the files it writes read back
// through the engine's independent TypeScript reader with the layout, metadata and values meant,
// and the trainer runs a forward pass on them.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kvValue, readGguf, readTensor } from '../gguf/reader.js';
import { GgmlType } from '../gguf/types.js';
import { tempDir } from '../test/fixtures.js';
import { trainerLogits } from '../test/logits.js';
import { runTrainer } from './python.js';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('random-model', () => {
  it('writes a llama GGUF of the shape asked for, read back by the engine’s reader', async () => {
    const modelPath = path.join(dir, 'tiny.gguf');
    const done = await runTrainer('random-model', { path: modelPath, shape: 'tiny', seed: 3 });
    expect(done).toMatchObject({ event: 'done', shape: 'tiny', n_layer: 2, n_embd: 64, n_vocab: 512 });

    const file = readGguf(modelPath);
    expect(kvValue(file, 'general.architecture')).toBe('llama');
    expect(Number(kvValue(file, 'llama.block_count'))).toBe(2);
    expect(Number(kvValue(file, 'llama.attention.head_count_kv'))).toBe(2);
    expect((kvValue(file, 'tokenizer.ggml.tokens') as string[]).length).toBe(512);
    // 2 + 9 per layer; tied output, so no output.weight.
    expect(file.tensors).toHaveLength(20);
    const k = file.tensors.find((t) => t.name === 'blk.0.attn_k.weight');
    // numpy (out, in) = (2 kv heads x 16, 64) is ne = [64, 32], stored as F16.
    expect(k).toMatchObject({ dims: [64, 32], type: GgmlType.F16 });
    expect(file.tensors.find((t) => t.name === 'blk.1.ffn_norm.weight')?.type).toBe(GgmlType.F32);

    const values = readTensor(modelPath, file, 'blk.1.ffn_down.weight');
    expect(values).toHaveLength(64 * 128);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const std = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
    expect(Math.abs(mean)).toBeLessThan(0.002);
    expect(std).toBeGreaterThan(0.018);
    expect(std).toBeLessThan(0.022);
    expect([...readTensor(modelPath, file, 'output_norm.weight')].every((v) => v === 1)).toBe(true);

    const [logits] = await trainerLogits(dir, 'forward', { model: modelPath }, [1, 2, 3, 4], 512);
    expect(logits?.every(Number.isFinite)).toBe(true);
  });

  it('refuses a shape it does not know, saying which it does', async () => {
    await expect(runTrainer('random-model', { path: path.join(dir, 'x.gguf'), shape: '7b' })).rejects.toThrow(
      /135m, 360m, tiny/,
    );
  });
});
