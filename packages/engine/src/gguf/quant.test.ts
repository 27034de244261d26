// Proof: both GGUF readers, this one (quant.ts) and the trainer's (python/ownvoice_trainer/
// gguf_reader.py), decode ggml's quantized blocks to exactly the float32 values ggml does. The
// known blocks in quant-blocks.json were hand-built and their values checked bit for bit against
// ggml-quants.c's dequantize_row_* when the fixture was made; here nothing but the two readers
// runs. On the real model (SmolLM2-135M-Instruct in Q4_1, test/real-model.ts) both readers also
// decode its tensors to the same bytes.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test/fixtures.js';
import { REAL_MODEL, SKIP_REAL_MODEL } from '../test/real-model.js';
import { findPython, TRAINER_DIR } from '../trainer/python.js';
import { decodeTensor } from './quant.js';
import { readGguf, readTensor } from './reader.js';
import { DECODABLE_TYPES, GgmlType } from './types.js';
import { writeGguf } from './writer.js';

interface KnownBlocks {
  type: keyof typeof GgmlType;
  /** Two consecutive blocks, as they sit in a file. */
  hex: string;
  /** ggml's float32 values for them. */
  values: number[];
}

const KNOWN: KnownBlocks[] = JSON.parse(readFileSync(new URL('./quant-blocks.json', import.meta.url), 'utf8')).blocks;

/** The bit patterns: equal values can still differ in sign (0 and -0), and ggml's do not. */
const bits = (a: Float32Array) => [...new Uint32Array(a.buffer, a.byteOffset, a.length)];

function expectGgmlValues(actual: Float32Array, expected: number[]) {
  expect([...actual]).toEqual(expected);
  expect(bits(actual)).toEqual(bits(Float32Array.from(expected)));
}

/** What the trainer's reader makes of `names` in `file`: float32 values, or its error message. */
async function pythonTensors(file: string, names: string[]): Promise<Map<string, Float32Array | string>> {
  const out = tempDir('ownvoice-quant-');
  const script = `
import json, sys
from ownvoice_trainer.gguf_reader import GgufError, GgufFile
g = GgufFile(sys.argv[1])
for name in sys.argv[3:]:
    try:
        a = g.tensor(name)
    except GgufError as e:
        print(json.dumps({"name": name, "error": str(e)}))
        continue
    a.astype("<f4").tofile(f"{sys.argv[2]}/{name}.f32")
    print(json.dumps({"name": name, "shape": list(a.shape), "dims": g.tensors[name][0]}))`;
  try {
    const run = spawnSync((await findPython()).python, ['-c', script, file, out, ...names], {
      env: { ...process.env, PYTHONPATH: TRAINER_DIR },
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (run.status !== 0) throw new Error(run.stderr);
    const result = new Map<string, Float32Array | string>();
    for (const line of run.stdout.trim().split('\n')) {
      const r = JSON.parse(line) as { name: string; error?: string; shape?: number[]; dims?: number[] };
      if (r.error !== undefined) {
        result.set(r.name, r.error);
        continue;
      }
      // numpy's shape is ggml's ne reversed: the same bytes, row-major.
      expect(r.shape).toEqual([...(r.dims ?? [])].reverse());
      const raw = readFileSync(path.join(out, `${r.name}.f32`));
      result.set(r.name, new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)));
    }
    return result;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ggml quantized blocks', () => {
  it('has known blocks of every quantized type the readers decode', () => {
    const quantized = Object.entries(DECODABLE_TYPES)
      .filter(([, layout]) => layout.blockSize > 1)
      .map(([type]) => GgmlType[Number(type)]);
    expect(KNOWN.map((k) => k.type).sort()).toEqual(quantized.sort());
  });

  for (const known of KNOWN) {
    it(`decodes ${known.type} as ggml does, bit for bit`, () => {
      const raw = Buffer.from(known.hex, 'hex');
      const type = GgmlType[known.type];
      const layout = DECODABLE_TYPES[type];
      expect(raw.length).toBe(2 * (layout?.blockBytes ?? 0));
      expect(known.values.length).toBe(2 * (layout?.blockSize ?? 0));
      expectGgmlValues(decodeTensor(raw, type, known.values.length), known.values);
    });
  }

  it('refuses values that are not whole blocks, and too few bytes', () => {
    const q4k = KNOWN.find((k) => k.type === 'Q4_K') as KnownBlocks;
    const raw = Buffer.from(q4k.hex, 'hex');
    expect(() => decodeTensor(raw, GgmlType.Q4_K, 300)).toThrow(/blocks of 256 values; 300 is not whole blocks/);
    expect(() => decodeTensor(raw.subarray(0, 200), GgmlType.Q4_K, 512)).toThrow(/need 288 bytes, got 200/);
  });

  it('names the types it decodes when it meets one it does not', () => {
    expect(() => decodeTensor(Buffer.alloc(84), GgmlType.Q2_K, 256)).toThrow(
      'Cannot decode Q2_K tensors; OwnVoice decodes F32, F16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q4_K, Q6_K and BF16.',
    );
  });
});

describe('a GGUF file of quantized tensors', () => {
  let file: string;
  beforeAll(() => {
    file = path.join(dir, 'quants.gguf');
    // Each pair of blocks as a 2-row matrix (ne = [block, 2]); a Q2_K one neither reader decodes.
    const tensors = KNOWN.map((k) => ({
      name: k.type,
      dims: [k.values.length / 2, 2],
      type: GgmlType[k.type],
      data: Buffer.from(k.hex, 'hex'),
    }));
    tensors.push({ name: 'Q2_K', dims: [256], type: GgmlType.Q2_K, data: Buffer.alloc(84) });
    writeGguf(file, [], tensors);
  });

  it('reads to the same values here and in the trainer', async () => {
    const g = readGguf(file);
    const fromPython = await pythonTensors(file, KNOWN.map((k) => k.type).concat('Q2_K'));
    for (const known of KNOWN) {
      expectGgmlValues(readTensor(file, g, known.type), known.values);
      expectGgmlValues(fromPython.get(known.type) as Float32Array, known.values);
    }
    // The trainer's reader, too, says which types it reads.
    expect(fromPython.get('Q2_K')).toMatch(
      /ggml type 10; the trainer reads F32, F16, Q4_0, .*, Q6_K and BF16 weights$/,
    );
  });

  it('is refused by both readers when it ends inside a quantized tensor', async () => {
    const whole = readFileSync(file);
    const g = readGguf(file);
    const q6k = g.tensors.find((t) => t.name === 'Q6_K');
    if (!q6k) throw new Error('no Q6_K tensor');
    const cut = path.join(dir, 'cut.gguf');
    // Ends in the second Q6_K block: only a right block size (210 bytes) makes that a truncation.
    writeFileSync(cut, whole.subarray(0, g.dataOffset + q6k.offset + 300));
    expect(() => readGguf(cut)).toThrow(/truncated: tensor Q6_K needs bytes up to/);
    expect((await pythonTensors(cut, ['Q6_K'])).get('Q6_K')).toMatch(/is truncated at tensor Q6_K/);
  });
});

describe.skipIf(SKIP_REAL_MODEL)('the real quantized model', () => {
  it('decodes to the same float32 values here and in the trainer', async () => {
    const file = REAL_MODEL as string;
    const g = readGguf(file);
    // The first block's quantized matrices, its norm, and the embedding (Q8_0 in a Q4_1 file).
    const names = g.tensors.map((t) => t.name).filter((n) => n.startsWith('blk.0.') || n === 'token_embd.weight');
    expect(names).toContain('blk.0.attn_q.weight');
    const fromPython = await pythonTensors(file, names);
    for (const name of names) {
      const here = readTensor(file, g, name);
      const there = fromPython.get(name);
      expect(there, name).toBeInstanceOf(Float32Array);
      const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
      expect(bytes(here).equals(bytes(there as Float32Array)), name).toBe(true);
    }
  });
});
