"""A plain LoRA training loop on a llama GGUF model, written against torch.nn alone: the yardstick
the trainer's speed is measured against. It shares no model or LoRA code with the trainer
(model.py, lora.py); only the GGUF file reader. Numerically the same model as the trainer's, so
the two do the same arithmetic and a difference in speed is the trainer's own cost.

Shapes: B batch, T tokens, C embedding, H query heads, K kv heads, D head dim, V vocabulary,
F feed-forward width, r LoRA rank.

GGUF stores llama's attn_q / attn_k rows reordered (by the converter from Hugging Face) so that
each head's rotary pairs are adjacent: (x0, x1), (x2, x3), ... Like llama.cpp's "normal" RoPE,
this model rotates those adjacent pairs, here as complex numbers x0 + i*x1.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from . import safetensors_io

class Hparams:
    def __init__(self, g):
        if g.kv["general.architecture"] != "llama":
            raise ValueError(f"the plain loop covers llama models, not {g.kv['general.architecture']}")

        def kv(key, default=None):
            return g.kv.get(f"llama.{key}", default)

        self.n_layer = int(kv("block_count"))
        self.C = int(kv("embedding_length"))
        self.F = int(kv("feed_forward_length"))
        self.H = int(kv("attention.head_count"))
        self.K = int(kv("attention.head_count_kv", self.H))
        self.D = int(kv("attention.key_length", self.C // self.H))
        self.V = len(g.kv["tokenizer.ggml.tokens"])
        self.eps = float(kv("attention.layer_norm_rms_epsilon"))
        self.rope_base = float(kv("rope.freq_base", 10000.0))
        self.tied = "output.weight" not in g.tensors


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):  # (..., C)
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class LoRA(nn.Module):
    """A frozen nn.Linear plus a trainable low-rank update: base(x) + (alpha / r) * up(down(x))."""

    def __init__(self, base, rank, alpha):
        super().__init__()
        self.base = base
        self.down = nn.Linear(base.in_features, rank, bias=False)  # (r, in), nn.Linear's default init
        self.up = nn.Linear(rank, base.out_features, bias=False)  # (out, r)
        nn.init.zeros_(self.up.weight)  # starts as the base model
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + self.up(self.down(x)) * self.scale


def rotary(T, D, base, device):
    """(T, D/2) complex: e^(i * t * base^(-2j/D)) for position t and pair j."""
    freqs = base ** (-torch.arange(0, D, 2, device=device).float() / D)  # (D/2,)
    angles = torch.outer(torch.arange(T, device=device).float(), freqs)  # (T, D/2)
    return torch.polar(torch.ones_like(angles), angles)


def apply_rotary(x, rot):
    """x (B, T, n, D): rotates each adjacent pair (x[2j], x[2j+1]) by rot (T, D/2)."""
    pairs = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))  # (B, T, n, D/2)
    return torch.view_as_real(pairs * rot[None, :, None, :]).flatten(-2).type_as(x)


def causal_attention(q, k, v):
    """q (B, H, T, D), k and v (B, H, T, D) -> (B, H, T, D)."""
    sdpa = getattr(F, "scaled_dot_product_attention", None)  # PyTorch 2.0 and later
    if sdpa is not None:
        return sdpa(q, k, v, is_causal=True)
    T = q.shape[2]
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5  # (B, H, T, T)
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=q.device), diagonal=1)
    return scores.masked_fill(future, float("-inf")).softmax(-1) @ v


class Attention(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.hp = hp
        self.q = nn.Linear(hp.C, hp.H * hp.D, bias=False)
        self.k = nn.Linear(hp.C, hp.K * hp.D, bias=False)
        self.v = nn.Linear(hp.C, hp.K * hp.D, bias=False)
        self.o = nn.Linear(hp.H * hp.D, hp.C, bias=False)

    def forward(self, x, rot):  # x (B, T, C)
        hp = self.hp
        B, T, _ = x.shape
        q = apply_rotary(self.q(x).view(B, T, hp.H, hp.D), rot)
        k = apply_rotary(self.k(x).view(B, T, hp.K, hp.D), rot)
        v = self.v(x).view(B, T, hp.K, hp.D)
        # Grouped-query attention: query heads h*H/K ... (h+1)*H/K - 1 share kv head h.
        k, v = (t.repeat_interleave(hp.H // hp.K, dim=2) for t in (k, v))  # (B, T, H, D)
        y = causal_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))  # (B, H, T, D)
        return self.o(y.transpose(1, 2).reshape(B, T, hp.H * hp.D))


class MLP(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.gate = nn.Linear(hp.C, hp.F, bias=False)
        self.up = nn.Linear(hp.C, hp.F, bias=False)
        self.down = nn.Linear(hp.F, hp.C, bias=False)

    def forward(self, x):  # (B, T, C) -> (B, T, F) -> (B, T, C)
        return self.down(F.silu(self.gate(x)) * self.up(x))


class Block(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.attn_norm = RMSNorm(hp.C, hp.eps)
        self.attn = Attention(hp)
        self.mlp_norm = RMSNorm(hp.C, hp.eps)
        self.mlp = MLP(hp)

    def forward(self, x, rot):
        x = x + self.attn(self.attn_norm(x), rot)
        return x + self.mlp(self.mlp_norm(x))


class Llama(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.hp = hp
        self.embed = nn.Embedding(hp.V, hp.C)
        self.blocks = nn.ModuleList(Block(hp) for _ in range(hp.n_layer))
        self.norm = RMSNorm(hp.C, hp.eps)
        self.head = nn.Linear(hp.C, hp.V, bias=False)
        if hp.tied:
            self.head.weight = self.embed.weight

    def forward(self, idx):  # idx (B, T) -> logits (B, T, V)
        rot = rotary(idx.shape[1], self.hp.D, self.hp.rope_base, idx.device)
        x = self.embed(idx)  # (B, T, C)
        for block in self.blocks:
            x = block(x, rot)
        return self.head(self.norm(x))

    def linears(self, i):
        """Block i's projections by their GGUF names, as (parent module, attribute)."""
        b = self.blocks[i]
        return {"attn_q": (b.attn, "q"), "attn_k": (b.attn, "k"), "attn_v": (b.attn, "v"), "attn_output": (b.attn, "o"),
                "ffn_gate": (b.mlp, "gate"), "ffn_up": (b.mlp, "up"), "ffn_down": (b.mlp, "down")}


def load_llama(g, device="cpu"):
    """The model with the GGUF file's weights (a GGUF matrix is (out, in), as nn.Linear keeps it)."""
    hp = Hparams(g)
    model = Llama(hp)

    def w(name):
        return torch.from_numpy(g.tensor(name))

    with torch.no_grad():
        model.embed.weight.copy_(w("token_embd.weight"))  # (V, C)
        model.norm.weight.copy_(w("output_norm.weight"))
        if not hp.tied:
            model.head.weight.copy_(w("output.weight"))  # (V, C)
        for i, b in enumerate(model.blocks):
            b.attn_norm.weight.copy_(w(f"blk.{i}.attn_norm.weight"))
            b.mlp_norm.weight.copy_(w(f"blk.{i}.ffn_norm.weight"))
            for name, (parent, attr) in model.linears(i).items():
                getattr(parent, attr).weight.copy_(w(f"blk.{i}.{name}.weight"))
    model.requires_grad_(False)
    return model.to(device)


def add_lora(model, rank, alpha):
    """Wraps every projection of every block in LoRA; returns the trainable parameters."""
    for i in range(model.hp.n_layer):
        for parent, attr in model.linears(i).values():
            base = getattr(parent, attr)
            setattr(parent, attr, LoRA(base, rank, alpha).to(base.weight.device))
    return [p for p in model.parameters() if p.requires_grad]


def load_adapter(model, path):
    """Puts a trainer adapter (safetensors: lora_a (r, in), lora_b (out, r) per projection) into LoRA."""
    tensors, meta = safetensors_io.load(path)
    add_lora(model, int(meta["rank"]), float(meta["alpha"]))
    with torch.no_grad():
        for i in range(model.hp.n_layer):
            for name, (parent, attr) in model.linears(i).items():
                lora = getattr(parent, attr)
                a = tensors.get(f"blk.{i}.{name}.weight.lora_a")
                if a is None:
                    lora.down.weight.zero_()
                    continue
                lora.down.weight.copy_(a)
                lora.up.weight.copy_(tensors[f"blk.{i}.{name}.weight.lora_b"])


def train(model, batches, params, lr=1e-4, on_step=None):
    """The textbook loop over batches of token ids (B, T): forward, cross-entropy, backward, AdamW."""
    opt = torch.optim.AdamW(params, lr=lr)
    model.train()
    for step, idx in enumerate(batches):
        logits = model(idx)  # (B, T, V); position t predicts token t+1
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), idx[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if on_step:
            on_step(step, loss.item())


def run_plain_logits(request, emit):
    """plain-logits: as `forward`, from this model: float32 logits (sequence, position, vocab)."""
    import numpy as np

    from .gguf_reader import GgufFile

    model = load_llama(GgufFile(request["model"]))
    if request.get("adapter"):
        load_adapter(model, request["adapter"])
    model.eval()
    with torch.no_grad():
        out = [model(torch.tensor([t], dtype=torch.long))[0].numpy() for t in request["tokens"]]
    np.concatenate([o.reshape(-1) for o in out]).astype(np.float32).tofile(request["out"])
    emit("done", sequences=len(out), vocab=model.hp.V)
