// Decoding and encoding of tensor data: F32, F16, BF16 and Q8_0.
import { GgufError } from './errors.js';
import { GgmlType, ggmlTypeName } from './types.js';

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
    case GgmlType.Q8_0:
      for (let b = 0; b < n / 32; b++) {
        const at = b * 34;
        const d = f16ToF32(raw.readUInt16LE(at));
        for (let j = 0; j < 32; j++) out[b * 32 + j] = d * raw.readInt8(at + 2 + j);
      }
      return out;
    default:
      throw new GgufError(`Cannot decode ${ggmlTypeName(type)} tensors.`);
  }
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
