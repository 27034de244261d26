// Decoding of tensor data (F32, F16, BF16 and ggml's Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K and Q6_K
// blocks) and encoding (F32, F16, Q8_0). The block layouts are ggml's structs in
// ggml/src/ggml-common.h (block_q4_0 ... block_q6_K) and each block decoder follows ggml's
// scalar dequantize_row_* in ggml/src/ggml-quants.c, so the values are ggml's to the bit: every
// product of a scale and a quant there is exact in float32 (at most 24 significant bits), so
// only a final `+ m` or `- m` rounds, and that is done here in double, then rounded to float32 on
// the store, which for one addition of two float32 values is the float32 sum exactly (double
// has more than 2 * 24 + 2 bits, so the double rounding is innocuous).
import { GgufError } from './errors.js';
import { DECODABLE_TYPE_NAMES, DECODABLE_TYPES, GgmlType, ggmlTypeName } from './types.js';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE half -> float. */
export function f16ToF32(h: number): number {
  const s = (h & 0x8000) >> 15;
  const e = (h & 0x7c00) >> 10;
  const f = h & 0x03ff;
  let v: number;
  if (e === 0) v = f * 2 ** -24;
  else if (e === 31) v = f ? Number.NaN : Number.POSITIVE_INFINITY;
  else v = (1 + f / 1024) * 2 ** (e - 15);
  return s ? -v : v;
}

/** float -> IEEE half, rounding to nearest even. */
export function f32ToF16(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  // A carry out of the mantissa correctly bumps the exponent (up to infinity).
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  return sign | half;
}

export function bf16ToF32(h: number): number {
  u32[0] = h << 16;
  return f32[0] ?? 0;
}

/** The f16 at `at`, as ggml's GGML_FP16_TO_FP32 reads it (exactly). */
const f16At = (raw: Buffer, at: number): number => f16ToF32(raw.readUInt16LE(at));

/** Decodes the block that starts at raw[at] into out[o ...] (its blockSize values). */
type BlockDecoder = (raw: Buffer, at: number, out: Float32Array, o: number) => void;

/** block_q8_0 {f16 d; i8 qs[32]}: y = q * d. */
function decodeQ8_0(raw: Buffer, at: number, out: Float32Array, o: number): void {
  const d = f16At(raw, at);
  for (let j = 0; j < 32; j++) out[o + j] = raw.readInt8(at + 2 + j) * d;
}

// In a 32-value block of 4-bit quants, byte j holds value j in its low nibble and value j + 16 in
// its high one: halves, not neighbours.

/** block_q4_0 {f16 d; u8 qs[16]}: y = (q - 8) * d. */
function decodeQ4_0(raw: Buffer, at: number, out: Float32Array, o: number): void {
  const d = f16At(raw, at);
  for (let j = 0; j < 16; j++) {
    const byte = raw[at + 2 + j] as number;
    out[o + j] = ((byte & 0x0f) - 8) * d;
    out[o + j + 16] = ((byte >> 4) - 8) * d;
  }
}

/** block_q4_1 {f16 d; f16 m; u8 qs[16]}: y = q * d + m. */
function decodeQ4_1(raw: Buffer, at: number, out: Float32Array, o: number): void {
  const d = f16At(raw, at);
  const m = f16At(raw, at + 2);
  for (let j = 0; j < 16; j++) {
    const byte = raw[at + 4 + j] as number;
    out[o + j] = (byte & 0x0f) * d + m;
    out[o + j + 16] = (byte >> 4) * d + m;
  }
}

/**
 * Values j and j + 16 of a Q5 block as 5-bit quants: the nibbles of qs[j] as in Q4, and bit j of
 * the little-endian u32 qh is value j's fifth bit (so bit j + 16 is value j + 16's).
 */
function q5Pair(byte: number, qh: number, j: number): [number, number] {
  const high0 = ((qh >>> j) << 4) & 0x10;
  const high1 = (qh >>> (j + 12)) & 0x10;
  return [(byte & 0x0f) | high0, (byte >> 4) | high1];
}

/** block_q5_0 {f16 d; u8 qh[4]; u8 qs[16]}: y = (q - 16) * d. */
function decodeQ5_0(raw: Buffer, at: number, out: Float32Array, o: number): void {
  const d = f16At(raw, at);
  const qh = raw.readUInt32LE(at + 2);
  for (let j = 0; j < 16; j++) {
    const [q0, q1] = q5Pair(raw[at + 6 + j] as number, qh, j);
    out[o + j] = (q0 - 16) * d;
    out[o + j + 16] = (q1 - 16) * d;
  }
}

/** block_q5_1 {f16 d; f16 m; u8 qh[4]; u8 qs[16]}: y = q * d + m. */
function decodeQ5_1(raw: Buffer, at: number, out: Float32Array, o: number): void {
  const d = f16At(raw, at);
  const m = f16At(raw, at + 2);
  const qh = raw.readUInt32LE(at + 4);
  for (let j = 0; j < 16; j++) {
    const [q0, q1] = q5Pair(raw[at + 8 + j] as number, qh, j);
    out[o + j] = q0 * d + m;
    out[o + j + 16] = q1 * d + m;
  }
}

/**
 * Sub-block j's 6-bit scale and min from block_q4_K's 12 scale bytes s (ggml's get_scale_min_k4):
 * for j < 4 the low 6 bits of s[j] and s[j + 4]; for j >= 4 the nibbles of s[j + 4], topped
 * with the high 2 bits of s[j - 4] and s[j].
 */
function scaleMinK4(raw: Buffer, s: number, j: number): { sc: number; m: number } {
  const b = (i: number) => raw[s + i] as number;
  if (j < 4) return { sc: b(j) & 63, m: b(j + 4) & 63 };
  return { sc: (b(j + 4) & 0x0f) | ((b(j - 4) >> 6) << 4), m: (b(j + 4) >> 4) | ((b(j) >> 6) << 4) };
}

/**
 * block_q4_K {f16 d; f16 dmin; u8 scales[12]; u8 qs[128]}: 8 sub-blocks of 32,
 * y = (d * sc) * q - dmin * m. Each 32 bytes of qs hold two sub-blocks: the low nibbles the
 * first, the high nibbles the next.
 */
function decodeQ4_K(raw: Buffer, at: number, out: Float32Array, o: number): void {
  const d = f16At(raw, at);
  const dmin = f16At(raw, at + 2);
  for (let pair = 0; pair < 4; pair++) {
    const lo = scaleMinK4(raw, at + 4, 2 * pair);
    const hi = scaleMinK4(raw, at + 4, 2 * pair + 1);
    const qs = at + 16 + 32 * pair;
    const y = o + 64 * pair;
    for (let l = 0; l < 32; l++) {
      const byte = raw[qs + l] as number;
      out[y + l] = d * lo.sc * (byte & 0x0f) - dmin * lo.m;
      out[y + 32 + l] = d * hi.sc * (byte >> 4) - dmin * hi.m;
    }
  }
}

/** A Q6_K quant: its low 4 bits, and bits 2k and 2k + 1 of the qh byte above them, less 32. */
const q6 = (nibble: number, qh: number, k: number): number => (nibble | (((qh >> (2 * k)) & 3) << 4)) - 32;

/**
 * block_q6_K {u8 ql[128]; u8 qh[64]; i8 scales[16]; f16 d}: two halves of 128 values, each
 * from 64 bytes of ql, 32 of qh and 8 scales. In a half, value 32k + l (quarter k, l < 32) takes
 * its low bits from ql (k = 0: ql[l] low nibble, 1: ql[l + 32] low, 2: ql[l] high, 3: ql[l + 32]
 * high) and its high bits from qh[l], and is scaled by d * scales[2k + l / 16].
 */
function decodeQ6_K(raw: Buffer, at: number, out: Float32Array, o: number): void {
  const d = f16At(raw, at + 208);
  for (let half = 0; half < 2; half++) {
    const ql = at + 64 * half;
    const sc = at + 192 + 8 * half;
    const y = o + 128 * half;
    for (let l = 0; l < 32; l++) {
      const a = raw[ql + l] as number;
      const b = raw[ql + l + 32] as number;
      const h = raw[at + 128 + 32 * half + l] as number;
      const is = sc + (l >> 4); // scales[is + 2k] for quarter k
      out[y + l] = d * raw.readInt8(is) * q6(a & 0x0f, h, 0);
      out[y + 32 + l] = d * raw.readInt8(is + 2) * q6(b & 0x0f, h, 1);
      out[y + 64 + l] = d * raw.readInt8(is + 4) * q6(a >> 4, h, 2);
      out[y + 96 + l] = d * raw.readInt8(is + 6) * q6(b >> 4, h, 3);
    }
  }
}

const BLOCK_DECODERS: Partial<Record<GgmlType, BlockDecoder>> = {
  [GgmlType.Q8_0]: decodeQ8_0,
  [GgmlType.Q4_0]: decodeQ4_0,
  [GgmlType.Q4_1]: decodeQ4_1,
  [GgmlType.Q5_0]: decodeQ5_0,
  [GgmlType.Q5_1]: decodeQ5_1,
  [GgmlType.Q4_K]: decodeQ4_K,
  [GgmlType.Q6_K]: decodeQ6_K,
};

/** `n` values of `type` from `raw` (their bytes, in ggml order) as float32. */
export function decodeTensor(raw: Buffer, type: GgmlType, n: number): Float32Array {
  const out = new Float32Array(n);
  switch (type) {
    case GgmlType.F32:
      for (let i = 0; i < n; i++) out[i] = raw.readFloatLE(i * 4);
      return out;
    case GgmlType.F16:
      for (let i = 0; i < n; i++) out[i] = f16ToF32(raw.readUInt16LE(i * 2));
      return out;
    case GgmlType.BF16:
      for (let i = 0; i < n; i++) out[i] = bf16ToF32(raw.readUInt16LE(i * 2));
      return out;
  }
  const decode = BLOCK_DECODERS[type];
  const layout = DECODABLE_TYPES[type];
  if (!decode || !layout) {
    throw new GgufError(`Cannot decode ${ggmlTypeName(type)} tensors; OwnVoice decodes ${DECODABLE_TYPE_NAMES}.`);
  }
  const { blockSize, blockBytes } = layout;
  if (n % blockSize !== 0) {
    throw new GgufError(`${ggmlTypeName(type)} holds blocks of ${blockSize} values; ${n} is not whole blocks.`);
  }
  const blocks = n / blockSize;
  if (raw.length < blocks * blockBytes) {
    throw new GgufError(`${n} ${ggmlTypeName(type)} values need ${blocks * blockBytes} bytes, got ${raw.length}.`);
  }
  for (let b = 0; b < blocks; b++) decode(raw, b * blockBytes, out, b * blockSize);
  return out;
}

export function encodeTensor(values: Float32Array, type: GgmlType): Buffer {
  const n = values.length;
  switch (type) {
    case GgmlType.F32:
      return Buffer.from(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
    case GgmlType.F16: {
      const out = Buffer.alloc(n * 2);
      for (let i = 0; i < n; i++) out.writeUInt16LE(f32ToF16(values[i] ?? 0), i * 2);
      return out;
    }
    case GgmlType.Q8_0: {
      if (n % 32 !== 0) throw new GgufError(`Q8_0 needs a multiple of 32 values, got ${n}.`);
      const out = Buffer.alloc((n / 32) * 34);
      for (let b = 0; b < n / 32; b++) {
        let amax = 0;
        for (let j = 0; j < 32; j++) amax = Math.max(amax, Math.abs(values[b * 32 + j] ?? 0));
        const d = amax / 127;
        const id = d ? 1 / d : 0;
        out.writeUInt16LE(f32ToF16(d), b * 34);
        for (let j = 0; j < 32; j++) out.writeInt8(Math.round((values[b * 32 + j] ?? 0) * id), b * 34 + 2 + j);
      }
      return out;
    }
    default:
      throw new GgufError(`Cannot encode ${ggmlTypeName(type)} tensors.`);
  }
}
