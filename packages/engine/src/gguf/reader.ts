// Reads a GGUF file's header (metadata and tensor table) and, on request, a tensor's values
// as float32. Every count and length is checked against the file size first, so a corrupt or
// truncated file is a GgufError, never a huge allocation or a crash.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { GgufError } from './errors.js';
import { decodeTensor } from './quant.js';
import {
  DECODABLE_TYPE_NAMES,
  DECODABLE_TYPES,
  elementCount,
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  type GgufFile,
  type GgufKv,
  type GgufScalar,
  type GgufTensorInfo,
  GgufValueType,
  ggmlTypeName,
} from './types.js';

const MAX_DIMS = 4;
const CHUNK = 1 << 20;

/**
 * How much header a GGUF file may hold. Counts that fit in the file can still cost seconds to
 * read (one 150-million-element array did), so the reader stops at these, well above any real
 * file of its kind.
 */
export interface GgufHeaderLimits {
  /** Metadata entries. */
  kv: number;
  /** Elements in one metadata array, and in all of them together. */
  arrayElements: number;
  totalArrayElements: number;
  /** Bytes of one string (a key, a value, an array element, a tensor's name). */
  stringBytes: number;
  tensors: number;
}

/** A base model: the largest vocabularies are about 260,000 tokens, with about as many merges. */
export const MODEL_HEADER_LIMITS: GgufHeaderLimits = {
  kv: 4096,
  arrayElements: 4_000_000,
  totalArrayElements: 8_000_000,
  stringBytes: 4 * 1024 * 1024,
  tensors: 65_536,
};

/** A LoRA adapter: five metadata entries and two tensors per targeted projection (adapters/export.ts). */
export const ADAPTER_HEADER_LIMITS: GgufHeaderLimits = {
  kv: 64,
  arrayElements: 256,
  totalArrayElements: 1024,
  stringBytes: 4096,
  tensors: 2 * 7 * 512,
};

/** Sequential little-endian reads over a file descriptor, buffered in 1 MiB chunks. */
class FileCursor {
  private buf = Buffer.alloc(0);
  private bufStart = 0;
  pos = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
    private readonly path: string,
    private readonly limits: GgufHeaderLimits,
  ) {}

  private ensure(n: number): void {
    if (this.pos + n > this.size) {
      throw new GgufError(`${this.path} is truncated: it ends at byte ${this.size} inside the header.`);
    }
    const have = this.bufStart + this.buf.length - this.pos;
    if (have >= n) return;
    const len = Math.max(n, CHUNK);
    const next = Buffer.alloc(Math.min(len, this.size - this.pos));
    readSync(this.fd, next, 0, next.length, this.pos);
    this.buf = next;
    this.bufStart = this.pos;
  }

  private take(n: number): Buffer {
    this.ensure(n);
    const at = this.pos - this.bufStart;
    this.pos += n;
    return this.buf.subarray(at, at + n);
  }

  u8 = () => this.take(1).readUInt8(0);
  i8 = () => this.take(1).readInt8(0);
  u16 = () => this.take(2).readUInt16LE(0);
  i16 = () => this.take(2).readInt16LE(0);
  u32 = () => this.take(4).readUInt32LE(0);
  i32 = () => this.take(4).readInt32LE(0);
  f32 = () => this.take(4).readFloatLE(0);
  f64 = () => this.take(8).readDoubleLE(0);
  u64 = () => this.take(8).readBigUInt64LE(0);
  i64 = () => this.take(8).readBigInt64LE(0);

  /** A u64 that must fit in the rest of the file (a count or a length). */
  count(what: string, bytesEach = 1): number {
    const n = this.u64();
    if (n > BigInt(Math.floor((this.size - this.pos) / Math.max(bytesEach, 1)))) {
      throw new GgufError(`${this.path} is corrupt: ${what} (${n}) does not fit in the file.`);
    }
    return Number(n);
  }

  /** A count that must also stay within `limit`, what it counts being named in `what`. */
  bounded(what: string, limit: number, bytesEach = 1): number {
    const n = this.count(what, bytesEach);
    if (n > limit)
      throw new GgufError(`${this.path} holds ${what} of ${n}, above the ${limit} a file of its kind may hold.`);
    return n;
  }

  string(): string {
    const n = this.bounded('a string length', this.limits.stringBytes);
    return this.take(n).toString('utf8');
  }
}

const SCALAR_SIZE: Partial<Record<GgufValueType, number>> = {
  [GgufValueType.UINT8]: 1,
  [GgufValueType.INT8]: 1,
  [GgufValueType.BOOL]: 1,
  [GgufValueType.UINT16]: 2,
  [GgufValueType.INT16]: 2,
  [GgufValueType.UINT32]: 4,
  [GgufValueType.INT32]: 4,
  [GgufValueType.FLOAT32]: 4,
  [GgufValueType.UINT64]: 8,
  [GgufValueType.INT64]: 8,
  [GgufValueType.FLOAT64]: 8,
  [GgufValueType.STRING]: 8,
};

function readScalar(c: FileCursor, type: GgufValueType, path: string): GgufScalar {
  switch (type) {
    case GgufValueType.UINT8:
      return c.u8();
    case GgufValueType.INT8:
      return c.i8();
    case GgufValueType.UINT16:
      return c.u16();
    case GgufValueType.INT16:
      return c.i16();
    case GgufValueType.UINT32:
      return c.u32();
    case GgufValueType.INT32:
      return c.i32();
    case GgufValueType.FLOAT32:
      return c.f32();
    case GgufValueType.BOOL:
      return c.u8() !== 0;
    case GgufValueType.STRING:
      return c.string();
    case GgufValueType.UINT64:
      return c.u64();
    case GgufValueType.INT64:
      return c.i64();
    case GgufValueType.FLOAT64:
      return c.f64();
    default:
      throw new GgufError(`${path} is corrupt: unknown metadata value type ${type}.`);
  }
}

function readKv(c: FileCursor, path: string, budget: { arrayElements: number }, limits: GgufHeaderLimits): GgufKv {
  const key = c.string();
  const type = c.u32() as GgufValueType;
  if (type !== GgufValueType.ARRAY) return { key, type, value: readScalar(c, type, path) };
  const arrayType = c.u32() as GgufValueType;
  if (arrayType === GgufValueType.ARRAY) throw new GgufError(`${path}: nested arrays are not supported (${key}).`);
  const n = c.bounded(`an array (${key}) with a length`, limits.arrayElements, SCALAR_SIZE[arrayType] ?? 1);
  budget.arrayElements -= n;
  if (budget.arrayElements < 0) {
    throw new GgufError(`${path} holds more than ${limits.totalArrayElements} metadata array elements in all.`);
  }
  const value: GgufScalar[] = new Array(n);
  for (let i = 0; i < n; i++) value[i] = readScalar(c, arrayType, path);
  return { key, type, arrayType, value };
}

/**
 * Reads the header of a GGUF file within `limits` (a base model's unless told). Throws GgufError
 * for anything that is not a usable GGUF.
 */
export function readGguf(path: string, limits: GgufHeaderLimits = MODEL_HEADER_LIMITS): GgufFile {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new GgufError(`Cannot open ${path}: ${(error as Error).message}`);
  }
  try {
    const size = fstatSync(fd).size;
    const c = new FileCursor(fd, size, path, limits);
    if (size < 24 || c.u32() !== GGUF_MAGIC) {
      throw new GgufError(`${path} is not a GGUF file (it does not start with "GGUF").`);
    }
    const version = c.u32();
    if (version < 2 || version > 3) {
      throw new GgufError(`${path} is GGUF version ${version}; only versions 2 and 3 are supported.`);
    }
    const tensorCount = c.bounded('a tensor count', limits.tensors, 24);
    const kvCount = c.bounded('a metadata count', limits.kv, 12);
    const kv: GgufKv[] = [];
    const budget = { arrayElements: limits.totalArrayElements };
    for (let i = 0; i < kvCount; i++) kv.push(readKv(c, path, budget, limits));
    const alignmentKv = kv.find((e) => e.key === 'general.alignment');
    const alignment = alignmentKv ? Number(alignmentKv.value) : GGUF_DEFAULT_ALIGNMENT;
    if (!Number.isInteger(alignment) || alignment <= 0 || alignment % 8 !== 0) {
      throw new GgufError(`${path} is corrupt: general.alignment is ${alignment}.`);
    }
    const tensors: GgufTensorInfo[] = [];
    for (let i = 0; i < tensorCount; i++) {
      const name = c.string();
      const nDims = c.u32();
      if (nDims < 1 || nDims > MAX_DIMS) throw new GgufError(`${path} is corrupt: tensor ${name} has ${nDims} dims.`);
      const dims: number[] = [];
      for (let d = 0; d < nDims; d++) dims.push(Number(c.u64()));
      const type = c.u32();
      const offset = Number(c.u64());
      tensors.push({ name, dims, type, offset });
    }
    const dataOffset = Math.ceil(c.pos / alignment) * alignment;
    const file: GgufFile = { version, kv, tensors, alignment, dataOffset, size };
    for (const t of tensors) {
      const block = DECODABLE_TYPES[t.type]?.blockSize ?? 1;
      if ((t.dims[0] ?? 0) % block !== 0) {
        throw new GgufError(
          `${path} is corrupt: tensor ${t.name}'s rows of ${t.dims[0]} are not whole ${ggmlTypeName(t.type)} blocks.`,
        );
      }
      const bytes = tensorByteSize(t);
      if (bytes !== undefined && dataOffset + t.offset + bytes > size) {
        throw new GgufError(
          `${path} is truncated: tensor ${t.name} needs bytes up to ${dataOffset + t.offset + bytes}, the file has ${size}.`,
        );
      }
      if (t.offset % alignment !== 0) throw new GgufError(`${path} is corrupt: tensor ${t.name} is misaligned.`);
    }
    return file;
  } finally {
    closeSync(fd);
  }
}

/** Byte size of a tensor's data, for the types we can decode (undefined for others). */
export function tensorByteSize(t: Pick<GgufTensorInfo, 'dims' | 'type'>): number | undefined {
  const info = DECODABLE_TYPES[t.type];
  if (!info) return undefined;
  const n = elementCount(t.dims);
  return (n / info.blockSize) * info.blockBytes;
}

/** Metadata value by key, or undefined. */
export function kvValue(file: GgufFile, key: string): GgufKv['value'] | undefined {
  return file.kv.find((e) => e.key === key)?.value;
}

function tensorNamed(path: string, file: GgufFile, name: string): GgufTensorInfo {
  const t = file.tensors.find((x) => x.name === name);
  if (!t) throw new GgufError(`${path} has no tensor ${name}.`);
  return t;
}

/** One tensor's data as the file holds it, in its own type. */
export function readTensorBytes(path: string, file: GgufFile, name: string): Buffer {
  const t = tensorNamed(path, file, name);
  const bytes = tensorByteSize(t);
  if (bytes === undefined) {
    throw new GgufError(
      `${path}: tensor ${name} is ${ggmlTypeName(t.type)}; OwnVoice reads ${DECODABLE_TYPE_NAMES} weights. Use a model file in one of those types (Q8_0 is a good choice).`,
    );
  }
  const fd = openSync(path, 'r');
  try {
    const raw = Buffer.alloc(bytes);
    readSync(fd, raw, 0, bytes, file.dataOffset + t.offset);
    return raw;
  } finally {
    closeSync(fd);
  }
}

/** Reads one tensor's values as float32, in ggml order (ne[0] fastest). */
export function readTensor(path: string, file: GgufFile, name: string): Float32Array {
  const t = tensorNamed(path, file, name);
  return decodeTensor(readTensorBytes(path, file, name), t.type, elementCount(t.dims));
}
