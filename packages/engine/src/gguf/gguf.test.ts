import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test/fixtures.js';
import { f16ToF32, f32ToF16 } from './quant.js';
import { kvValue, readGguf, readTensor } from './reader.js';
import { GgmlType } from './types.js';
import { ggufFileBytes, kv, writeGguf, writeGgufStreamed } from './writer.js';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GGUF files', () => {
  it('round-trip metadata and F32, F16 and Q8_0 tensors, each aligned to 32 bytes', () => {
    const file = path.join(dir, 'rt.gguf');
    const values = Float32Array.from({ length: 96 }, (_, i) => Math.sin(i) * 3);
    writeGguf(
      file,
      [kv.str('general.architecture', 'llama'), kv.u32('llama.block_count', 7), kv.strings('names', ['a', 'bé', ''])],
      [
        { name: 'a', dims: [96], type: GgmlType.F32, data: values },
        { name: 'b', dims: [32, 3], type: GgmlType.F16, data: values },
        { name: 'c', dims: [96], type: GgmlType.Q8_0, data: values },
      ],
    );
    const g = readGguf(file);
    expect(kvValue(g, 'llama.block_count')).toBe(7);
    expect(kvValue(g, 'names')).toEqual(['a', 'bé', '']);
    expect(g.tensors.map((t) => [t.name, t.dims])).toEqual([
      ['a', [96]],
      ['b', [32, 3]],
      ['c', [96]],
    ]);
    expect(g.dataOffset % 32).toBe(0);
    for (const t of g.tensors) expect(t.offset % 32).toBe(0);
    expect([...readTensor(file, g, 'a')]).toEqual([...values]);
    const b = readTensor(file, g, 'b');
    for (const [i, v] of values.entries()) expect(Math.abs((b[i] as number) - v)).toBeLessThan(2e-3);
    const c = readTensor(file, g, 'c');
    for (const [i, v] of values.entries()) expect(Math.abs((c[i] as number) - v)).toBeLessThan(3 / 127);
  });

  it('converts half floats like IEEE 754, rounding to nearest even', () => {
    for (const v of [0, 1, -2.5, 65504, 6.1035e-5, 5.96e-8, 0.1]) {
      expect(Math.abs(f16ToF32(f32ToF16(v)) - v)).toBeLessThanOrEqual(Math.abs(v) * 1e-3 + 6e-8);
    }
    expect(f32ToF16(1e6)).toBe(0x7c00); // overflow to infinity
    expect(f16ToF32(0x3c00)).toBe(1);
  });

  it('rejects non-GGUF, truncated and corrupt files with a clear error', () => {
    const good = path.join(dir, 'good.gguf');
    writeGguf(
      good,
      [kv.str('general.architecture', 'llama')],
      [{ name: 'w', dims: [64], type: GgmlType.F32, data: new Float32Array(64) }],
    );
    const bytes = readFileSync(good);
    const cases: [string, Buffer, RegExp][] = [
      ['text', Buffer.from('hello, I am not a model'), /not a GGUF file/],
      ['empty', Buffer.alloc(0), /not a GGUF file/],
      ['truncated data', bytes.subarray(0, bytes.length - 100), /truncated/],
      ['truncated header', bytes.subarray(0, 40), /truncated|corrupt/],
    ];
    const huge = Buffer.from(bytes);
    huge.writeBigUInt64LE(1n << 60n, 16); // metadata count
    cases.push(['an absurd count', huge, /corrupt/]);
    for (const [name, data, message] of cases) {
      const file = path.join(dir, `${name.replaceAll(' ', '-')}.gguf`);
      writeFileSync(file, data);
      expect(() => readGguf(file), name).toThrow(message);
    }
    expect(() => readGguf(path.join(dir, 'missing.gguf'))).toThrow(/Cannot open/);
  });

  it('reports tensor types it cannot decode instead of misreading them', () => {
    const file = path.join(dir, 'q2k.gguf');
    writeGguf(file, [], [{ name: 'q', dims: [256], type: GgmlType.Q2_K, data: Buffer.alloc(84) }]);
    expect(() => readTensor(file, readGguf(file), 'q')).toThrow(/Q2_K; OwnVoice reads F32, F16, Q4_0, .*Q6_K and BF16/);
  });

  it('streams tensors a piece at a time, and leaves nothing when a tensor comes short of its size', () => {
    const file = path.join(dir, 'streamed.gguf');
    const values = Float32Array.from({ length: 64 }, (_, i) => i / 8);
    const bytes = Buffer.from(values.buffer);
    const tensor = { name: 'x', dims: [64], type: GgmlType.F32, bytes: bytes.length };
    const tensors = [{ ...tensor, chunks: () => [bytes.subarray(0, 100), bytes.subarray(100)] }];
    const metadata = [kv.str('general.architecture', 'llama')];
    writeGgufStreamed(file, metadata, tensors);
    expect(readFileSync(file).length).toBe(ggufFileBytes(metadata, tensors));
    expect([...readTensor(file, readGguf(file), 'x')]).toEqual([...values]);

    const short = path.join(dir, 'short.gguf');
    const cut = [{ ...tensor, chunks: () => [bytes.subarray(0, 100)] }];
    expect(() => writeGgufStreamed(short, metadata, cut)).toThrow(/100 bytes were made, the header says 256/);
    expect(readdirSync(dir).filter((name) => name.startsWith('short.gguf'))).toEqual([]);
  });
});
