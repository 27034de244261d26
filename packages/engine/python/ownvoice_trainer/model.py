"""A llama / qwen2 decoder in PyTorch, in llama.cpp's conventions, so its logits match
llama.cpp's for the same GGUF file and tokens.

Shapes: B batch, T tokens, C embedding, H heads, K kv heads, D head dim (C = H*D for llama).
Weights keep GGUF's layout: a Linear weight is (out, in) exactly as stored. In GGUF, llama's
attn_q and attn_k rows are permuted so that RoPE rotates adjacent pairs (x0,x1),(x2,x3)...
("normal" rope); qwen2 is stored unpermuted and rotates halves (x_i, x_{i+D/2}) ("neox").
"""
import math
import os
import resource

import torch
import torch.nn as nn
import torch.utils.checkpoint
import torch.nn.functional as F

from .attention import Packing, attention
from .gguf_reader import GgufFile

ROPE_MODE = {"llama": "normal", "qwen2": "neox"}
LORA_TARGETS = ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down")


class Config:
    def __init__(self, arch, n_layer, n_embd, n_ff, n_head, n_head_kv, head_dim, n_vocab, rms_eps, rope_base, tied):
        self.arch, self.n_layer, self.n_embd, self.n_ff = arch, n_layer, n_embd, n_ff
        self.n_head, self.n_head_kv, self.head_dim, self.n_vocab = n_head, n_head_kv, head_dim, n_vocab
        self.rms_eps, self.rope_base, self.tied = rms_eps, rope_base, tied
        self.rope_mode = ROPE_MODE[arch]

    @staticmethod
    def from_gguf(g):
        a = g.kv["general.architecture"]
        n_embd = int(g.kv[f"{a}.embedding_length"])
        n_head = int(g.kv[f"{a}.attention.head_count"])
        return Config(
            arch=a,
            n_layer=int(g.kv[f"{a}.block_count"]),
            n_embd=n_embd,
            n_ff=int(g.kv[f"{a}.feed_forward_length"]),
            n_head=n_head,
            n_head_kv=int(g.kv.get(f"{a}.attention.head_count_kv", n_head)),
            head_dim=int(g.kv.get(f"{a}.attention.key_length", n_embd // n_head)),
            n_vocab=len(g.kv["tokenizer.ggml.tokens"]),
            rms_eps=float(g.kv[f"{a}.attention.layer_norm_rms_epsilon"]),
            rope_base=float(g.kv.get(f"{a}.rope.freq_base", 10000.0)),
            tied="output.weight" not in g.tensors,
        )


class LoraLinear(nn.Module):
    """y = x W^T (+ b) + (alpha / r) * (x A^T) B^T, with W frozen. A (r, in), B (out, r)."""

    def __init__(self, weight, bias=None):
        super().__init__()
        self.weight = nn.Parameter(weight, requires_grad=False)
        self.bias = None if bias is None else nn.Parameter(bias, requires_grad=False)
        self.lora_a = None
        self.lora_b = None
        self.scale = 0.0

    def add_lora(self, rank, alpha, generator=None):
        out_f, in_f = self.weight.shape
        a = torch.empty(rank, in_f)
        # PEFT's default: A ~ kaiming-uniform(a=sqrt(5)), B = 0, so training starts at the base model.
        bound = 1.0 / math.sqrt(in_f)
        a.uniform_(-bound, bound, generator=generator)
        self.lora_a = nn.Parameter(a)
        self.lora_b = nn.Parameter(torch.zeros(out_f, rank))
        self.scale = alpha / rank

    def forward(self, x):
        y = F.linear(x, self.weight, self.bias)
        if self.lora_a is not None:
            y = y + F.linear(F.linear(x, self.lora_a), self.lora_b) * self.scale
        return y


def autocast_dtype(device):
    """The type autocast runs matrix products in on this device now, or None where it is off."""
    if hasattr(torch, "get_autocast_dtype"):  # torch >= 2.4; the per-device functions are deprecated there
        return torch.get_autocast_dtype(device.type) if torch.is_autocast_enabled(device.type) else None
    if device.type == "cpu":
        return torch.get_autocast_cpu_dtype() if torch.is_autocast_cpu_enabled() else None
    return torch.get_autocast_gpu_dtype() if torch.is_autocast_enabled() else None


def for_products(h):
    """h as the matrix products take it: cast once to autocast's type, rather than again by each
    projection that reads it (q, k and v; gate and up). One 775-token pass at 135M shape in
    bfloat16 on two cores: 3.78 s against 3.91 s, gradients as far from float32's as before."""
    dtype = autocast_dtype(h.device)
    return h if dtype is None else h.to(dtype)


def rms_norm(x, w, eps):
    x32 = x.float()
    return (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + eps)) * w


def rope_tables(pos, d, base, mode):
    """pos (T,) shared by every row, or (B, T) each row its own (a left-padded batch when decoding,
    decode.py) -> (cos, sin), each (T, D) or (B, 1, T, D): the angle pos * base^(-2i/D) of the
    pair each dimension belongs to, laid out as `mode` pairs dimensions (rope), sin negated on the
    first of each pair. Worked out once per forward pass and shared by every layer."""
    inv = base ** (-torch.arange(0, d, 2, dtype=torch.float32, device=pos.device) / d)  # (D/2,)
    ang = pos.float()[..., None] * inv  # (T, D/2) or (B, T, D/2)
    if ang.dim() == 3:
        ang = ang[:, None]  # (B, 1, T, D/2): a row's heads share its positions
    cos, sin = ang.cos(), ang.sin()
    if mode == "normal":  # pairs (x0, x1), (x2, x3), ...: each angle twice in a row
        return torch.stack((cos, cos), -1).flatten(-2), torch.stack((-sin, sin), -1).flatten(-2)
    return torch.cat((cos, cos), -1), torch.cat((-sin, sin), -1)  # pairs (x_i, x_{i+D/2})


def partner(x, mode):
    """Each dimension's partner in its rotation pair: (x1, x0, x3, x2, ...) for "normal", the other
    half (x_{D/2}, ..., x_0, ...) for "neox"."""
    if mode == "normal":
        return x.reshape(*x.shape[:-1], -1, 2).flip(-1).flatten(-2)
    return x.roll(x.shape[-1] // 2, -1)


def rope(x, tables, mode):
    """x (B, H, T, D) rotated pair by pair by rope_tables' angles: a pair (a, b) becomes
    (a cos - b sin, b cos + a sin), as x cos + partner(x) (-sin, sin). The same products and sums
    as writing each out (a + (-c) is a - c exactly), so the same numbers to the bit, in four
    operations where the pairs taken apart by strided slices and stacked back took seven, and
    their backward pass copied each slice's gradient into zeros. Real arithmetic, not a complex
    product: one complex multiplication rounds differently on the CPU, and the house model's
    harness sits close enough to its style target to feel it."""
    cos, sin = tables
    return x * cos + partner(x, mode) * sin


class Block(nn.Module):
    def __init__(self, cfg, w, i):
        super().__init__()
        p = f"blk.{i}."
        b = (lambda n: w.get(p + n + ".bias")) if cfg.arch == "qwen2" else (lambda n: None)
        self.attn_norm = nn.Parameter(w[p + "attn_norm.weight"], requires_grad=False)
        self.ffn_norm = nn.Parameter(w[p + "ffn_norm.weight"], requires_grad=False)
        self.proj = nn.ModuleDict(
            {t: LoraLinear(w[p + t + ".weight"], b(t) if t in ("attn_q", "attn_k", "attn_v") else None) for t in LORA_TARGETS}
        )
        self.cfg = cfg

    def qkv(self, x, rot):
        """x (B, T, C), rot the positions' rope_tables -> q (B, H, T, D), k and v (B, K, T, D),
        RoPE applied. Shared with decoding (decode.py), which caches k and v per kv head."""
        c = self.cfg
        B, T, _ = x.shape
        h = for_products(rms_norm(x, self.attn_norm, c.rms_eps))
        q = self.proj["attn_q"](h).view(B, T, c.n_head, c.head_dim).transpose(1, 2)
        k = self.proj["attn_k"](h).view(B, T, c.n_head_kv, c.head_dim).transpose(1, 2)
        v = self.proj["attn_v"](h).view(B, T, c.n_head_kv, c.head_dim).transpose(1, 2)
        return rope(q, rot, c.rope_mode), rope(k, rot, c.rope_mode), v

    def finish(self, x, y):
        """x (B, T, C) the block's input, y (B, H, T, D) attention's output -> the block's output."""
        B, T, _ = x.shape
        x = x + self.proj["attn_output"](y.transpose(1, 2).reshape(B, T, -1))
        h = for_products(rms_norm(x, self.ffn_norm, self.cfg.rms_eps))
        return x + self.proj["ffn_down"](F.silu(self.proj["ffn_gate"](h)) * self.proj["ffn_up"](h))

    def forward(self, x, rot, packing=None):
        """x (B, T, C), rot the positions' rope_tables; packing: where the packed sequences sit
        (attention.Packing), each attending only within itself, or None for one sequence per row."""
        c = self.cfg
        q, k, v = self.qkv(x, rot)
        if c.n_head_kv != c.n_head:  # grouped-query attention: each kv head serves H/K query heads
            k = k.repeat_interleave(c.n_head // c.n_head_kv, dim=1)
            v = v.repeat_interleave(c.n_head // c.n_head_kv, dim=1)
        y = attention(q, k, v, packing)  # causal, and inside each packed sequence (attention.py)
        return self.finish(x, y)


class Model(nn.Module):
    def __init__(self, cfg, w):
        super().__init__()
        self.cfg = cfg
        self.tok_embd = nn.Parameter(w["token_embd.weight"], requires_grad=False)  # (V, C)
        self.blocks = nn.ModuleList([Block(cfg, w, i) for i in range(cfg.n_layer)])
        self.out_norm = nn.Parameter(w["output_norm.weight"], requires_grad=False)
        self.output = None if cfg.tied else nn.Parameter(w["output.weight"], requires_grad=False)  # (V, C)
        self.checkpointing = False

    def forward(self, idx):
        """idx (B, T) token ids -> logits (B, T, V)."""
        return self.logits(self.hidden(idx))

    def hidden(self, idx, segments=None):
        """idx (B, T) token ids -> final normed hidden states (B, T, C). With segments ((start, end)
        spans of packed sequences), each span is a sequence of its own: positions restart at 0
        and attention stays inside it."""
        packing = None if segments is None else Packing(segments, idx.device)
        pos = torch.arange(idx.shape[1], device=idx.device) if packing is None else packing.pos  # (T,)
        rot = rope_tables(pos, self.cfg.head_dim, self.cfg.rope_base, self.cfg.rope_mode)
        x = F.embedding(idx, self.tok_embd)
        for blk in self.blocks:
            if self.checkpointing and self.training:
                x = torch.utils.checkpoint.checkpoint(blk, x, rot, packing, use_reentrant=False)
            else:
                x = blk(x, rot, packing)
        return rms_norm(x, self.out_norm, self.cfg.rms_eps)

    def logits(self, h):
        """h (..., C) -> logits (..., V)."""
        return F.linear(h, self.tok_embd if self.output is None else self.output)

    def cast_frozen(self, dtype):
        """The frozen matrices in `dtype`, for a model that only decodes: autocast casts a frozen
        weight again on every call (it caches only leaves that take a gradient), and a decoding
        step is small enough for that to be most of its time. The embedding stays as it is for
        the residual stream; the output projection gets a copy in `dtype` where it is tied."""
        for blk in self.blocks:
            for m in blk.proj.values():
                m.weight.data = m.weight.data.to(dtype)
        out = self.tok_embd if self.output is None else self.output
        self.output = nn.Parameter(out.detach().to(dtype), requires_grad=False)

    def lora_modules(self):
        for i, blk in enumerate(self.blocks):
            for t, m in blk.proj.items():
                if m.lora_a is not None:
                    yield f"blk.{i}.{t}.weight", m


def gguf_weight_names(cfg):
    names = ["token_embd.weight", "output_norm.weight"] + ([] if cfg.tied else ["output.weight"])
    for i in range(cfg.n_layer):
        names += [f"blk.{i}.attn_norm.weight", f"blk.{i}.ffn_norm.weight"]
        names += [f"blk.{i}.{t}.weight" for t in LORA_TARGETS]
        if cfg.arch == "qwen2":
            names += [f"blk.{i}.{t}.bias" for t in ("attn_q", "attn_k", "attn_v")]
    return names


def pick_device(requested=None):
    """The device to train on: as requested, else CUDA when present, else the CPU."""
    if requested:
        return torch.device(requested)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def peak_mib(device):
    """Peak memory so far, in MiB: allocated on CUDA, the process's resident set on the CPU."""
    if device.type == "cuda":
        return torch.cuda.max_memory_allocated(device) / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# A serving trainer (`serve`, __main__.py) keeps the weights it read last, on their device, for the
# next command on the same file: a Voice's paraphrases and its training then read the model once.
_kept = {"on": False, "key": None, "cfg": None, "weights": None, "reads": 0}


def keep_loaded():
    """From now on load_model keeps the last model's weights between calls."""
    _kept["on"] = True


def model_reads():
    """How many times this process has read a model's weights from its file through load_model."""
    return _kept["reads"]


def load_model(path, device=None, shared=True):
    """The GGUF model at `path` on `device` (the CPU by default). In a serving trainer, a new Model
    over the weights kept from the last call on the same file and device: modules that cast them
    (Model.cast_frozen) or add LoRA to them leave the kept tensors as they were. `shared=False` for
    a run that changes the weights themselves (full training): read afresh, and not kept."""
    device = device or torch.device("cpu")
    st = os.stat(path)
    key = (os.path.realpath(path), st.st_mtime_ns, st.st_size, str(device))
    if _kept["key"] != key or not shared:
        _kept.update(key=None, cfg=None, weights=None)  # one model at a time: the old one goes first
        g = GgufFile(path)
        cfg = Config.from_gguf(g)
        weights = {n: torch.from_numpy(g.tensor(n)).to(device) for n in gguf_weight_names(cfg)}
        _kept["reads"] += 1
        if not (_kept["on"] and shared):
            return Model(cfg, weights)
        _kept.update(key=key, cfg=cfg, weights=weights)
    return Model(_kept["cfg"], _kept["weights"])
