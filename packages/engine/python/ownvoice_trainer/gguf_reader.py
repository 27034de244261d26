"""Reads GGUF model files (metadata and F32/F16/BF16/Q8_0/Q4_0/Q4_1/Q5_0/Q5_1/Q4_K/Q6_K tensors)
into float32 numpy arrays.

Layout (GGUF v3): header, key/value metadata, tensor table, padding to general.alignment,
then tensor data. ggml dims are innermost-first, so a tensor with ne = [in, out] is the
row-major numpy array of shape (out, in): the bytes are the same.

The quantized block layouts are ggml's (ggml/src/ggml-common.h: block_q4_0 ... block_q6_K) and
each decoder is the vectorised form of ggml's scalar one (ggml/src/ggml-quants.c:
dequantize_row_q4_0 ... dequantize_row_q6_K), with the same float32 operations in the same
order, so the values are ggml's to the bit. (Each product of a scale and a quant is exact in
float32, so at most the final addition rounds, and it rounds as ggml's does.)
"""
import struct

import numpy as np

GGUF_MAGIC = 0x46554747

# ggml types we decode: type id -> (name, elements per block, bytes per block)
GGML_TYPES = {
    0: ("F32", 1, 4),
    1: ("F16", 1, 2),
    2: ("Q4_0", 32, 18),
    3: ("Q4_1", 32, 20),
    6: ("Q5_0", 32, 22),
    7: ("Q5_1", 32, 24),
    8: ("Q8_0", 32, 34),
    12: ("Q4_K", 256, 144),
    14: ("Q6_K", 256, 210),
    30: ("BF16", 1, 2),
}
_NAMES = [name for name, _, _ in GGML_TYPES.values()]
SUPPORTED = ", ".join(_NAMES[:-1]) + " and " + _NAMES[-1]  # for error messages

_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}


class GgufError(Exception):
    pass


class GgufFile:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.raw = f.read()
        self.pos = 0
        if len(self.raw) < 24 or self._unpack("<I") != GGUF_MAGIC:
            raise GgufError(f"{path} is not a GGUF file")
        version = self._unpack("<I")
        if version not in (2, 3):
            raise GgufError(f"{path} is GGUF version {version}; only 2 and 3 are supported")
        n_tensors = self._unpack("<Q")
        n_kv = self._unpack("<Q")
        self.kv = {}
        for _ in range(n_kv):
            key = self._string()
            self.kv[key] = self._value(self._unpack("<I"))
        alignment = int(self.kv.get("general.alignment", 32))
        self.tensors = {}
        for _ in range(n_tensors):
            name = self._string()
            n_dims = self._unpack("<I")
            dims = [self._unpack("<Q") for _ in range(n_dims)]
            ggml_type = self._unpack("<I")
            offset = self._unpack("<Q")
            self.tensors[name] = (dims, ggml_type, offset)
        self.data_offset = (self.pos + alignment - 1) // alignment * alignment

    def _unpack(self, fmt):
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.raw):
            raise GgufError(f"{self.path} is truncated")
        (v,) = struct.unpack_from(fmt, self.raw, self.pos)
        self.pos += size
        return v

    def _string(self):
        n = self._unpack("<Q")
        if self.pos + n > len(self.raw):
            raise GgufError(f"{self.path} is truncated")
        s = self.raw[self.pos : self.pos + n].decode("utf-8", errors="replace")
        self.pos += n
        return s

    def _value(self, t):
        if t == 8:
            return self._string()
        if t == 9:
            elem = self._unpack("<I")
            n = self._unpack("<Q")
            return [self._value(elem) for _ in range(n)]
        if t not in _SCALARS:
            raise GgufError(f"{self.path}: unknown metadata type {t}")
        return self._unpack(_SCALARS[t])

    def tensor(self, name):
        """The tensor as a float32 numpy array of shape reversed(ne)."""
        if name not in self.tensors:
            raise GgufError(f"{self.path} has no tensor {name}")
        dims, t, offset = self.tensors[name]
        if t not in GGML_TYPES:
            raise GgufError(f"{self.path}: tensor {name} has ggml type {t}; the trainer reads {SUPPORTED} weights")
        type_name, block, block_bytes = GGML_TYPES[t]
        if dims[0] % block:
            # ggml blocks run along ne[0]; a row that is not whole blocks is a corrupt table.
            raise GgufError(
                f"{self.path}: tensor {name} has rows of {dims[0]}, not a multiple of {type_name}'s block of {block}"
            )
        n = int(np.prod(dims))
        start = self.data_offset + offset
        nbytes = n // block * block_bytes
        if start + nbytes > len(self.raw):
            raise GgufError(f"{self.path} is truncated at tensor {name}")
        buf = np.frombuffer(self.raw, dtype=np.uint8, count=nbytes, offset=start)
        if block == 1:
            a = _decode_plain(buf, t)
        else:
            a = _DECODERS[t](buf.reshape(-1, block_bytes)).reshape(-1)
        return a.reshape(list(reversed(dims)))


def _decode_plain(buf, t):
    """F32, F16 or BF16 bytes (n * size,) -> (n,) float32."""
    if t == 0:
        return buf.view("<f4").copy()
    if t == 1:
        return buf.view("<f2").astype(np.float32)
    return (buf.view("<u2").astype(np.uint32) << 16).view(np.float32)  # BF16: the top half of a float32


def _f16(cols):
    """(nb, 2) bytes of a little-endian half -> (nb, 1) float32, exactly (GGML_FP16_TO_FP32)."""
    return np.ascontiguousarray(cols).view("<f2").astype(np.float32)


def _nibbles(qs):
    """(nb, 16) bytes -> (nb, 32) uint8: the low nibbles are elements 0..15, the high ones 16..31
    (ggml's order in a Q4_0/Q4_1/Q5 block: y[j] and y[j + 16] share byte j)."""
    return np.concatenate([qs & 0x0F, qs >> 4], axis=1)


def _fifth_bits(qh):
    """(nb, 4) bytes of a little-endian u32 -> (nb, 32) uint8: bit j, moved to 0x10, for element j."""
    bits = np.unpackbits(qh, axis=1, bitorder="little")  # (nb, 32), bit j of the u32 at column j
    return bits << 4


def _q8_0(b):
    """block_q8_0 {f16 d; i8 qs[32]} (nb, 34) -> (nb, 32): d * q."""
    return b[:, 2:].view(np.int8).astype(np.float32) * _f16(b[:, :2])


def _q4_0(b):
    """block_q4_0 {f16 d; u8 qs[16]} (nb, 18) -> (nb, 32): (q - 8) * d."""
    q = _nibbles(b[:, 2:]).astype(np.float32) - 8  # (nb, 32) in -8..7
    return q * _f16(b[:, :2])


def _q4_1(b):
    """block_q4_1 {f16 d; f16 m; u8 qs[16]} (nb, 20) -> (nb, 32): q * d + m."""
    q = _nibbles(b[:, 4:]).astype(np.float32)  # (nb, 32) in 0..15
    return q * _f16(b[:, :2]) + _f16(b[:, 2:4])


def _q5_0(b):
    """block_q5_0 {f16 d; u8 qh[4]; u8 qs[16]} (nb, 22) -> (nb, 32): (q - 16) * d."""
    q = (_nibbles(b[:, 6:]) | _fifth_bits(b[:, 2:6])).astype(np.float32) - 16  # (nb, 32) in -16..15
    return q * _f16(b[:, :2])


def _q5_1(b):
    """block_q5_1 {f16 d; f16 m; u8 qh[4]; u8 qs[16]} (nb, 24) -> (nb, 32): q * d + m."""
    q = (_nibbles(b[:, 8:]) | _fifth_bits(b[:, 4:8])).astype(np.float32)  # (nb, 32) in 0..31
    return q * _f16(b[:, :2]) + _f16(b[:, 2:4])


def _q4_k_scales(s):
    """The 12 scale bytes of block_q4_K (nb, 12) -> 6-bit (scales, mins), each (nb, 8), as
    get_scale_min_k4 unpacks them: sub-blocks 0..3 in the low 6 bits of bytes 0..3 (scale) and
    4..7 (min); sub-blocks 4..7 from the nibbles of bytes 8..11, their top 2 bits from the top
    2 bits of bytes 0..3 (scale) and 4..7 (min)."""
    lo_sc, lo_m, packed = s[:, 0:4], s[:, 4:8], s[:, 8:12]  # each (nb, 4)
    sc = np.concatenate([lo_sc & 63, (packed & 0x0F) | ((lo_sc >> 6) << 4)], axis=1)
    m = np.concatenate([lo_m & 63, (packed >> 4) | ((lo_m >> 6) << 4)], axis=1)
    return sc, m


def _q4_k(b):
    """block_q4_K {f16 d; f16 dmin; u8 scales[12]; u8 qs[128]} (nb, 144) -> (nb, 256): eight
    sub-blocks of 32, each (d * sc) * q - (dmin * m). Each 32 bytes of qs hold two sub-blocks:
    the low nibbles the first, the high nibbles the next."""
    nb = b.shape[0]
    sc, m = _q4_k_scales(b[:, 4:16])  # (nb, 8) each
    d1 = _f16(b[:, 0:2]) * sc.astype(np.float32)  # (nb, 8)
    m1 = _f16(b[:, 2:4]) * m.astype(np.float32)  # (nb, 8)
    qs = b[:, 16:].reshape(nb, 4, 1, 32)
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=2).reshape(nb, 8, 32).astype(np.float32)
    return d1[:, :, None] * q - m1[:, :, None]  # (nb, 8, 32)


def _q6_k(b):
    """block_q6_K {u8 ql[128]; u8 qh[64]; i8 scales[16]; f16 d} (nb, 210) -> (nb, 256): two
    halves of 128; in half h, element 32 * k + l (quarter k, l < 32) is q - 32 from a low nibble
    of ql (k = 0: ql[l] low, 1: ql[l + 32] low, 2: ql[l] high, 3: ql[l + 32] high) and 2 high bits
    (qh[l] >> 2k), times d * scales[8h + 2k + l // 16]."""
    nb = b.shape[0]
    ql = b[:, 0:128].reshape(nb, 2, 1, 64)  # (nb, half, -, 64)
    low = np.concatenate([ql & 0x0F, ql >> 4], axis=2).reshape(nb, 2, 4, 32)  # (nb, half, quarter, l)
    qh = b[:, 128:192].reshape(nb, 2, 1, 32)
    high = (qh >> np.array([0, 2, 4, 6], dtype=np.uint8).reshape(1, 1, 4, 1)) & 3  # (nb, half, quarter, l)
    q = ((low | (high << 4)).astype(np.int8) - 32).astype(np.float32).reshape(nb, 2, 4, 2, 16)
    sc = b[:, 192:208].view(np.int8).astype(np.float32).reshape(nb, 2, 4, 2, 1)  # [h, k, l // 16]
    d = _f16(b[:, 208:210]).reshape(nb, 1, 1, 1, 1)
    return (d * sc) * q  # (nb, 2, 4, 2, 16)


_DECODERS = {2: _q4_0, 3: _q4_1, 6: _q5_0, 7: _q5_1, 8: _q8_0, 12: _q4_k, 14: _q6_k}
