"""Reads GGUF model files (metadata and F32/F16/BF16/Q8_0 tensors) into numpy arrays.

Layout (GGUF v3): header, key/value metadata, tensor table, padding to general.alignment,
then tensor data. ggml dims are innermost-first, so a tensor with ne = [in, out] is the
row-major numpy array of shape (out, in): the bytes are the same.
"""
import struct

import numpy as np

GGUF_MAGIC = 0x46554747

# ggml types we decode: type id -> (name, elements per block, bytes per block)
GGML_TYPES = {0: ("F32", 1, 4), 1: ("F16", 1, 2), 8: ("Q8_0", 32, 34), 30: ("BF16", 1, 2)}

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
            raise GgufError(
                f"{self.path}: tensor {name} has ggml type {t}; the trainer reads F32, F16, BF16 and Q8_0 weights"
            )
        _, block, block_bytes = GGML_TYPES[t]
        n = int(np.prod(dims))
        start = self.data_offset + offset
        nbytes = n // block * block_bytes
        if start + nbytes > len(self.raw):
            raise GgufError(f"{self.path} is truncated at tensor {name}")
        buf = self.raw[start : start + nbytes]
        if t == 0:
            a = np.frombuffer(buf, dtype="<f4").copy()
        elif t == 1:
            a = np.frombuffer(buf, dtype="<f2").astype(np.float32)
        elif t == 30:
            a = (np.frombuffer(buf, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
        else:  # Q8_0: per block of 32, an f16 scale then 32 int8 values
            blocks = np.frombuffer(buf, dtype=np.uint8).reshape(-1, 34)
            d = blocks[:, :2].copy().view("<f2").astype(np.float32)
            q = blocks[:, 2:].copy().view(np.int8).astype(np.float32)
            a = (q * d).reshape(-1)
        return a.reshape(list(reversed(dims)))
