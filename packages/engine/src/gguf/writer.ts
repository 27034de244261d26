// Writes GGUF v3 files: models and LoRA adapters, laid out exactly as llama.cpp expects
// (every tensor's data aligned to general.alignment, offsets relative to the data section).
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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

/** A tensor as the header lists it: its data's length is known before the data is made. */
export interface TensorLayout {
  name: string;
  /** ggml ne order: innermost first. */
  dims: number[];
  type: GgmlType;
  /** Bytes of its encoded data (before the padding to the alignment). */
  bytes: number;
}

/** A tensor whose data is made a piece at a time as it is written: a model larger than memory. */
export interface StreamedTensor extends TensorLayout {
  chunks: () => Iterable<Buffer>;
}

/** The alignment `kv` asks for (general.alignment), or GGUF's default. */
const alignmentOf = (kv: GgufKv[]): number => {
  const entry = kv.find((e) => e.key === 'general.alignment');
  return entry ? Number(entry.value) : GGUF_DEFAULT_ALIGNMENT;
};

const padded = (bytes: number, alignment: number): number => Math.ceil(bytes / alignment) * alignment;

/** Serialises the header of a file holding `tensors`; answers it with each tensor's data offset. */
export function encodeGgufHeader(
  kv: GgufKv[],
  tensors: readonly TensorLayout[],
): { header: Buffer; offsets: number[]; alignment: number } {
  const alignment = alignmentOf(kv);
  const offsets: number[] = [];
  let at = 0;
  for (const t of tensors) {
    offsets.push(at);
    at += padded(t.bytes, alignment);
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
  return { header: w.toBuffer(), offsets, alignment };
}

/** The size of the file `writeGgufStreamed` writes: header, then each tensor padded to the alignment. */
export const ggufFileBytes = (kv: GgufKv[], tensors: readonly TensorLayout[]): number => {
  const { header, alignment } = encodeGgufHeader(kv, tensors);
  return tensors.reduce((sum, t) => sum + padded(t.bytes, alignment), header.length);
};

/**
 * Writes a GGUF file atomically (to a temporary name, then renamed into place), each tensor's
 * data from its chunks as they are made. A tensor whose chunks come to other than its `bytes`
 * would misplace every tensor after it: that is refused and nothing is left behind.
 */
export function writeGgufStreamed(path: string, kv: GgufKv[], tensors: readonly StreamedTensor[]): void {
  const { header, alignment } = encodeGgufHeader(kv, tensors);
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  let done = false;
  try {
    writeSync(fd, header);
    for (const t of tensors) {
      let written = 0;
      for (const chunk of t.chunks()) {
        writeSync(fd, chunk);
        written += chunk.length;
      }
      if (written !== t.bytes)
        throw new GgufError(`${t.name}: ${written} bytes were made, the header says ${t.bytes}.`);
      const pad = padded(written, alignment) - written;
      if (pad) writeSync(fd, Buffer.alloc(pad));
    }
    done = true;
  } finally {
    closeSync(fd);
    if (!done) rmSync(tmp, { force: true });
  }
  renameSync(tmp, path);
}

/** Writes a GGUF file atomically: to a temporary name, then renamed into place. */
export function writeGguf(path: string, kv: GgufKv[], tensors: TensorToWrite[]): void {
  writeGgufStreamed(
    path,
    kv,
    tensors.map((t) => {
      const data = t.data instanceof Float32Array ? encodeTensor(t.data, t.type) : t.data;
      return { name: t.name, dims: t.dims, type: t.type, bytes: data.length, chunks: () => [data] };
    }),
  );
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
