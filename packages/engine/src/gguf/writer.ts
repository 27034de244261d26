// Writes GGUF v3 files: models and LoRA adapters, laid out exactly as llama.cpp expects
// (every tensor's data aligned to general.alignment, offsets relative to the data section).
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { GgufError } from './errors.js';
import { encodeTensor } from './quant.js';
import {
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_VERSION,
  type GgmlType,
  type GgufKv,
  GgufValueType,
} from './types.js';

export interface TensorToWrite {
  name: string;
  /** ggml ne order: innermost first. */
  dims: number[];
  type: GgmlType;
  /** Float values to encode as `type`, or bytes already encoded. */
  data: Float32Array | Buffer;
}

class ByteWriter {
  private chunks: Buffer[] = [];
  length = 0;
  private push(b: Buffer) {
    this.chunks.push(b);
    this.length += b.length;
  }
  u8(v: number) {
    const b = Buffer.alloc(1);
    b.writeUInt8(v);
    this.push(b);
  }
  i8(v: number) {
    const b = Buffer.alloc(1);
    b.writeInt8(v);
    this.push(b);
  }
  u16(v: number) {
    const b = Buffer.alloc(2);
    b.writeUInt16LE(v);
    this.push(b);
  }
  i16(v: number) {
    const b = Buffer.alloc(2);
    b.writeInt16LE(v);
    this.push(b);
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  f32(v: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  f64(v: number) {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v);
    this.push(b);
  }
  u64(v: number | bigint) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  i64(v: number | bigint) {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(BigInt(v));
    this.push(b);
  }
  string(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  pad(alignment: number) {
    const n = (alignment - (this.length % alignment)) % alignment;
    if (n) this.push(Buffer.alloc(n));
  }
  toBuffer() {
    return Buffer.concat(this.chunks);
  }
}

function writeScalar(w: ByteWriter, type: GgufValueType, v: unknown, key: string) {
  const num = () => {
    if (typeof v !== 'number' && typeof v !== 'bigint') throw new GgufError(`${key}: expected a number`);
    return Number(v);
  };
  switch (type) {
    case GgufValueType.UINT8:
      return w.u8(num());
    case GgufValueType.INT8:
      return w.i8(num());
    case GgufValueType.UINT16:
      return w.u16(num());
    case GgufValueType.INT16:
      return w.i16(num());
    case GgufValueType.UINT32:
      return w.u32(num());
    case GgufValueType.INT32:
      return w.i32(num());
    case GgufValueType.FLOAT32:
      return w.f32(num());
    case GgufValueType.FLOAT64:
      return w.f64(num());
    case GgufValueType.UINT64:
      return w.u64(v as number | bigint);
    case GgufValueType.INT64:
      return w.i64(v as number | bigint);
    case GgufValueType.BOOL:
      return w.u8(v ? 1 : 0);
    case GgufValueType.STRING:
      if (typeof v !== 'string') throw new GgufError(`${key}: expected a string`);
      return w.string(v);
    default:
      throw new GgufError(`${key}: cannot write value type ${type}`);
  }
}

/** Serialises the header; returns it and each tensor's encoded data with its offset. */
export function encodeGguf(
  kv: GgufKv[],
  tensors: TensorToWrite[],
): { header: Buffer; data: Buffer[]; offsets: number[]; alignment: number } {
  const alignmentKv = kv.find((e) => e.key === 'general.alignment');
  const alignment = alignmentKv ? Number(alignmentKv.value) : GGUF_DEFAULT_ALIGNMENT;
  const data = tensors.map((t) => (t.data instanceof Float32Array ? encodeTensor(t.data, t.type) : t.data));
  const offsets: number[] = [];
  let at = 0;
  for (const d of data) {
    offsets.push(at);
    at += Math.ceil(d.length / alignment) * alignment;
  }
  const w = new ByteWriter();
  w.u32(GGUF_MAGIC);
  w.u32(GGUF_VERSION);
  w.u64(tensors.length);
  w.u64(kv.length);
  for (const e of kv) {
    w.string(e.key);
    w.u32(e.type);
    if (e.type === GgufValueType.ARRAY) {
      if (!Array.isArray(e.value) || e.arrayType === undefined)
        throw new GgufError(`${e.key}: an array needs arrayType`);
      w.u32(e.arrayType);
      w.u64(e.value.length);
      for (const v of e.value) writeScalar(w, e.arrayType, v, e.key);
    } else {
      writeScalar(w, e.type, e.value, e.key);
    }
  }
  tensors.forEach((t, i) => {
    w.string(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type);
    w.u64(offsets[i] ?? 0);
  });
  w.pad(alignment);
  return { header: w.toBuffer(), data, offsets, alignment };
}

/** Writes a GGUF file atomically: to a temporary name, then renamed into place. */
export function writeGguf(path: string, kv: GgufKv[], tensors: TensorToWrite[]): void {
  const { header, data, alignment } = encodeGguf(kv, tensors);
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, header);
    for (const d of data) {
      writeSync(fd, d);
      const pad = (alignment - (d.length % alignment)) % alignment;
      if (pad) writeSync(fd, Buffer.alloc(pad));
    }
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Helpers to build metadata entries with the right types. */
export const kv = {
  str: (key: string, value: string): GgufKv => ({ key, type: GgufValueType.STRING, value }),
  u32: (key: string, value: number): GgufKv => ({ key, type: GgufValueType.UINT32, value }),
  i32: (key: string, value: number): GgufKv => ({ key, type: GgufValueType.INT32, value }),
  f32: (key: string, value: number): GgufKv => ({ key, type: GgufValueType.FLOAT32, value }),
  bool: (key: string, value: boolean): GgufKv => ({ key, type: GgufValueType.BOOL, value }),
  strings: (key: string, value: string[]): GgufKv => ({
    key,
    type: GgufValueType.ARRAY,
    arrayType: GgufValueType.STRING,
    value,
  }),
  i32s: (key: string, value: number[]): GgufKv => ({
    key,
    type: GgufValueType.ARRAY,
    arrayType: GgufValueType.INT32,
    value,
  }),
  f32s: (key: string, value: number[]): GgufKv => ({
    key,
    type: GgufValueType.ARRAY,
    arrayType: GgufValueType.FLOAT32,
    value,
  }),
};
